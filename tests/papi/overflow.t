# overflow.t: PAPI_overflow and PAPI_profil of pmkit's libpapi on a software
# event (prog_overflow.c says what it proves). PAPI's own overflow and
# profile ctests name hardware presets and skip on a machine without a PMU,
# so this program is built here, against Debian's papi.h and pmkit's
# library, and run with pmkit's library first on LD_LIBRARY_PATH.
. tests/support/t.sh
PMK_PAPI=$PMK_BUILD/papi
if [ ! -f "$PMK_PAPI/libpapi.so.7.0" ]; then
	skip "$T_NAME" "pmkit's libpapi not built (Debian package libpapi-dev: papi.h)"
	exit 0
fi
require cc
# a sanitized library (check-san) needs its runtime linked first
case "$PMK_BUILD" in *san*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
# shellcheck disable=SC2086
if ! cc $san -O1 -g -rdynamic -o "$T_TMP/prog_overflow" "$PMK_SRC/tests/papi/prog_overflow.c" \
	-L"$PMK_PAPI" -lpapi -ldl -lpthread 2>"$T_TMP/cc.err"; then
	nok "prog_overflow builds" "$(head -n 5 "$T_TMP/cc.err")"
	exit 0
fi
LD_LIBRARY_PATH=$PMK_PAPI "$T_TMP/prog_overflow"
rc=$?
[ $rc -eq 0 ] || nok "prog_overflow exits 0" "exit status $rc"
