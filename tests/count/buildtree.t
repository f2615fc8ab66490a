# buildtree.t: the build tree is usable in place. A region-API program built
# with `pkg-config --cflags --libs pmkit` against the build directory (its
# pmkit-uninstalled.pc) links the shared library by its SONAME
# (libpmkit.so.0, a link beside libpmkit.so) and runs without installing,
# with no LD_LIBRARY_PATH: it counts task-clock in a region and writes it.
. tests/support/t.sh
require cc pkg-config
check "libpmkit.so.0 is beside libpmkit.so" test -e "$PMK_BUILD/libpmkit.so.0"
flags=$(PKG_CONFIG_PATH="$PMK_BUILD" pkg-config --cflags --libs pmkit 2>"$T_TMP/pc.err")
check "pkg-config finds the uninstalled build tree ($flags)" \
	sh -c 'case "$1" in *"-I$2/include"*"-L$3"*) exit 0;; esac; exit 1' _ "$flags" "$PMK_SRC" "$PMK_BUILD"
cat > "$T_TMP/app.c" <<'C'
#include <pmkit.h>
#include <stdio.h>
#include <string.h>
static int show(const pmk_region_stats *s, void *arg)
{
	for (int i = 0; i < s->nevents; i++)
		if (strcmp(s->event_names[i], "task-clock") == 0)
			printf("%s %llu %.0f\n", s->name, (unsigned long long)s->calls, s->values[i]);
	return 0;
}
int main(void)
{
	pmk_diag d;
	volatile double x = 0;
	if (pmk_region_set_events("task-clock", &d) != 0)
		return 3;
	for (int r = 0; r < 3; r++) {
		pmk_region_begin("loop");
		for (int i = 0; i < 2000000; i++)
			x += i * 0.5;
		pmk_region_end("loop");
	}
	return pmk_region_foreach(show, NULL) != 0;
}
C
# a sanitized library needs its runtime linked first into the program
case "$PMK_BUILD" in *san*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
# shellcheck disable=SC2086
if ${CC:-cc} $san -o "$T_TMP/app" "$T_TMP/app.c" $flags 2>"$T_TMP/cc.err"; then
	ok "a region-API program builds against the tree"
	check "it needs libpmkit.so.0" sh -c 'readelf -d "$1" | grep -q "NEEDED.*libpmkit.so.0"' _ "$T_TMP/app"
	out=$(cd "$T_TMP" && env -u LD_LIBRARY_PATH PMK_REGION_OUTPUT="$T_TMP/r.json" ./app 2>&1); rc=$?
	check "it runs in place and counts task-clock in its region ($out)" \
		sh -c '[ "$1" = 0 ] && echo "$2" | awk '"'"'$1 == "loop" && $2 == 3 && $3 > 0 { f = 1 } END { exit !f }'"'" _ "$rc" "$out"
else
	nok "a region-API program builds against the tree" "$(head -3 "$T_TMP/cc.err")"
fi
