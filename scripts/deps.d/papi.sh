# PAPI for libpapi.so.7.0 on libpmkit (mk/papi.mk, docs/papi.md), sourced
# by scripts/configure. PAPI's own header (Debian's libpapi-dev) is the
# interface the library is compiled against; Debian's papi-examples (the
# ctests, ftests and validation tests, as sources) and papi-tools (the
# utilities) are what tests/papi runs against both libraries. Installed when
# missing and allowed, like the libraries of the *.list files; without the
# header the library is left out, without the others their checks skip.
papi_ex=/usr/share/doc/papi-examples/examples
have_header papi.h || try_install libpapi-dev
[ -d "$papi_ex/ctests" ] || try_install papi-examples
command -v papi_avail >/dev/null 2>&1 || try_install papi-tools
if [ -z "$CROSS" ] && have_header papi.h &&
	printf '#include <papi.h>\n#if PAPI_VER_CURRENT != 0x07000000\n#error not PAPI 7.0\n#endif\nint main(void){return 0;}\n' |
	$CC -x c - -o /dev/null >/dev/null 2>&1; then
	echo "HAVE_PAPI := 1"
	# where the header lives (the preset table is generated from it)
	papi_inc=$(printf '#include <papi.h>\n' | $CC -E -x c - 2>/dev/null |
		sed -n 's|^# [0-9]* "\(.*\)/papi\.h".*|\1|p' | head -n 1)
	echo "PAPI_INCDIR := ${papi_inc:-/usr/include}"
	if [ -d "$papi_ex/ctests" ]; then echo "PAPI_EXAMPLES := $papi_ex"
	else echo "configure: note: no PAPI test sources (Debian package papi-examples): tests/papi will skip" >&2; fi
	command -v papi_avail >/dev/null 2>&1 ||
		echo "configure: note: no papi_avail (Debian package papi-tools): the utility checks of tests/papi will skip" >&2
else
	echo "configure: note: no papi.h of PAPI 7.0 (Debian package libpapi-dev): building without libpapi.so.7.0 (papi/)" >&2
	echo "HAVE_PAPI :="
fi
