# preset_spr.t: Sapphire Rapids' presets (issue 30, Deliver 1: pmkit's own
# table where PAPI 7.0's file has nothing). lib/event/tbl_spr.c follows
# PAPI's Ice Lake-SP section event for event with SPR's event names; this
# checks that claim against PAPI's file itself: every preset PAPI defines
# for icx resolves on the spr fixture from pmkit's table, to the same
# events by name (with the renames tbl_spr.c documents) in the same
# formula (preset_spr_cmp.py). Needs PAPI's
# papi_events.csv (Debian's libpapi-dev), python3 and, for Alder Lake, perf's
# pmu-events (its natives there are perf's event names).
. tests/support/t.sh
require python3
CSV=/usr/share/papi/7.0/papi_events.csv
if [ ! -r "$CSV" ]; then
	skip "$T_NAME" "PAPI's papi_events.csv is not installed (Debian package libpapi-dev)"
	exit 0
fi
FX=$PMK_SRC/tests/fixtures
res=$(python3 "$PMK_SRC/tests/event/preset_spr_cmp.py" "$CSV" "$PMKIT" "$FX")
n=$(awk -F, '/^CPU,/ {cpu = $2} cpu == "icx" && $1 == "PRESET" {print $2}' "$CSV" | sort -u | grep -c .)
PMK_SYSROOT=$FX/intel-spr "$PMKIT" list --details >"$T_TMP/list" 2>&1
from=$(grep -c "source: pmkit, pmkit's table of spr" "$T_TMP/list")
[ "$n" -ge 30 ] && printf '%s' "$res" | grep -q "^same $n of $n\$" &&
	ok "spr: all $n of PAPI's Ice Lake-SP presets resolve from pmkit's table to the same events and formula ($res)" ||
	nok "spr presets against PAPI's icx" "n=$n $res"
[ "$from" -ge "$n" ] && ok "spr: list --details names pmkit's table as the source ($from presets)" ||
	nok "spr: list --details source" "$from of $n"
# Alder Lake's P-core (Golden Cove, SPR's core): tbl_adl.c over perf's
# event names, against tbl_spr.c: the same codes and formula but for the
# 512-bit FP the client part lacks
if ! PMK_SYSROOT=$FX/intel-adl "$PMKIT" list 2>&1 | grep -q "^cpu_core: model adl_glc, native events from perf's pmu-events"; then
	skip "adl presets" "perf's pmu-events are not installed (Debian's linux-source-6.1; scripts/deps.d/pmu_events.sh): no natives for Alder Lake"
	exit 0
fi
res=$(python3 "$PMK_SRC/tests/event/preset_spr_cmp.py" "$CSV" "$PMKIT" "$FX" adl)
case $res in
*"adl same "*) na=${res##*adl same }; na=${na%% of*}
	[ "$na" -ge 30 ] && printf '%s' "$res" | grep -q "^adl same $na of $na\$" &&
		ok "adl (cpu_core): all $na of pmkit's presets resolve from perf's event names to tbl_spr.c's events" ||
		nok "adl presets against spr's" "$res" ;;
*) nok "adl presets against spr's" "$res" ;;
esac
