# install.t: `make install-papi` (mk/papi.mk, part of `make install`) lays
# out a PAPI prefix that a tool builds against with pkg-config alone: the
# library and its link, papi.pc, include/papi.h (a link to the system's
# header); a PAPI program built from it runs on pmkit's library without
# LD_LIBRARY_PATH (papi.pc's rpath). The library is not rebuilt here (-o).
. tests/support/t.sh
SO=$PMK_BUILD/papi/libpapi.so.7.0
if [ ! -f "$SO" ]; then
	skip "$T_NAME" "pmkit's libpapi not built (Debian package libpapi-dev: papi.h)"
	exit 0
fi
require cc
P=$T_TMP/prefix
if ! make -s -C "$PMK_SRC" O="$PMK_BUILD" -o "$SO" install-papi PAPI_PREFIX="$P" >"$T_TMP/make.out" 2>&1; then
	nok "make install-papi" "$(tail -n 5 "$T_TMP/make.out")"
	exit 0
fi
ok "make install-papi PAPI_PREFIX=..."
for f in lib/libpapi.so.7.0 lib/libpapi.so lib/pkgconfig/papi.pc include/papi.h; do
	check "prefix has $f" test -e "$P/$f"
done
check "lib/libpapi.so links to libpapi.so.7.0" test "$(readlink "$P/lib/libpapi.so")" = libpapi.so.7.0
check "SONAME libpapi.so.7.0" sh -c "readelf -d '$P/lib/libpapi.so.7.0' | grep -q 'SONAME.*libpapi.so.7.0'"
if command -v pkg-config >/dev/null 2>&1; then
	flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs papi)
	check "papi.pc version 7.0.0.0" test "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --modversion papi)" = 7.0.0.0
	cat >"$T_TMP/t.c" <<'C'
#include <papi.h>
#include <stdio.h>
int main(void)
{
	int es = PAPI_NULL;
	long long v = 0;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_create_eventset(&es) != PAPI_OK ||
	    PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK)
		return 2;
	PAPI_start(es);
	for (volatile int i = 0; i < 10000000; i++)
		;
	PAPI_stop(es, &v);
	printf("%s %lld\n", PAPI_get_component_info(0)->name, v);
	return v > 0 ? 0 : 1;
}
C
	# a sanitized library (check-san) needs its runtime linked first
	case "$PMK_BUILD" in *san*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
	# shellcheck disable=SC2086
	if cc $san -o "$T_TMP/t" "$T_TMP/t.c" $flags 2>"$T_TMP/cc.err"; then
		out=$(env -u LD_LIBRARY_PATH "$T_TMP/t" 2>&1); rc=$?
		check "a program built with pkg-config papi counts perf::TASK-CLOCK ($out)" test $rc -eq 0
		check "it loads the prefix's library" sh -c "ldd '$T_TMP/t' | grep -q '$P/lib/libpapi.so.7.0'"
	else
		nok "cc with pkg-config papi" "$(head -n 3 "$T_TMP/cc.err")"
	fi
else
	skip "build with pkg-config papi" "pkg-config not installed"
fi
