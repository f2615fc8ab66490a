# papi.t (guest): PAPI 7.0's own ctests that need a PMU, from Debian's
# papi-examples sources, unmodified, linked static with pmkit's libpapi
# (mk/papi.mk guest-papi, docs/papi.md), run on the emulated PMUv3. PAPI's
# verdict is the oracle: the last PASSED, SKIPPED or FAILED a program
# prints. These programs skip on the host (no PMU); here each must pass,
# with PAPI's own checks of the counts (zero: PAPI_TOT_INS within its
# tolerance of the loop's instructions; overflow: the handler's count
# against the counter; profile: the histogram's buckets).
. "$PMK_GUEST/t.sh"
P=$PMK_GUEST/papi
if [ ! -x "$P/zero" ]; then
	skip "$T_NAME" "PAPI's ctests not in the image (host packages libpapi-dev and papi-examples)"
	exit 0
fi
for t in zero first second low-level reset zero_named multiplex1 multiplex2 overflow profile; do
	if [ ! -x "$P/$t" ]; then
		nok "papi_$t" "not in the image"
		continue
	fi
	timeout 60 "$P/$t" TESTS_QUIET >"$T_TMP/$t.out" 2>&1
	rc=$?
	v=$(grep -oE 'PASSED|SKIPPED|FAILED' "$T_TMP/$t.out" | tail -n 1)
	case $v in
	PASSED) ok "papi_$t: PASSED" ;;
	*) nok "papi_$t" "${v:-no verdict} (status $rc): $(grep -v '^$' "$T_TMP/$t.out" | tail -n 4 | tr '\n' ' ')" ;;
	esac
done
