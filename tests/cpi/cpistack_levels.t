# cpistack_levels.t: `pmkit cpistack -- COMMAND` at the top-down levels
# perf's metrics define (issue 30, Deliver 3): --td-level N takes perf's
# TopdownL<N> for the CPU model, and level 1 on a model metrics/topdown.def
# does not describe (Broadwell-EP) is perf's TopdownL1; a captured machine,
# a model without the level, and a level out of range are each named as
# such. Counting itself needs a PMU (none here): the fixtures are
# described, not counted. Needs perf's pmu-events (Debian's
# linux-source-6.1).
. tests/support/t.sh
FX=$PMK_SRC/tests/fixtures
if ! PMK_SYSROOT=$FX/intel-icx "$PMKIT" stat -M list 2>&1 | grep -q "^perf's metrics for icx"; then
	skip "$T_NAME" "perf's pmu-events are not installed (scripts/deps.d/pmu_events.sh)"
	exit 0
fi
PMK_SYSROOT=$FX/intel-icx run_pmkit cpistack --td-level 3 -- true
case "$err" in *"top-down level 3 for CPU model 'icx' is defined (perf's TopdownL3, 24 metrics), but PMK_SYSROOT names a captured machine"*)
	[ "$rc" = 1 ] && ok "icx: --td-level 3 is perf's TopdownL3 (24 metrics), described on a fixture" || nok "icx L3" "rc=$rc" ;;
*) nok "icx: --td-level 3" "rc=$rc $err" ;;
esac
PMK_SYSROOT=$FX/intel-bdx run_pmkit cpistack -- true
case "$err" in *"top-down level 1 for CPU model 'bdw_ep' is defined (perf's TopdownL1, 4 metrics)"*)
	[ "$rc" = 1 ] && ok "bdx: level 1 from perf's TopdownL1 (topdown.def has no Broadwell-EP)" || nok "bdx L1" "rc=$rc" ;;
*) nok "bdx: cpistack level 1 from perf's" "rc=$rc $err" ;;
esac
PMK_SYSROOT=$FX/intel-icx run_pmkit cpistack -- true
case "$err" in *"top-down level 1 for CPU model 'icx' is defined, but PMK_SYSROOT"*)
	[ "$rc" = 1 ] && ok "icx: level 1 without --td-level stays metrics/topdown.def's" || nok "icx L1" "rc=$rc" ;;
*) nok "icx: cpistack level 1" "rc=$rc $err" ;;
esac
PMK_SYSROOT=$FX/amd-zen3 run_pmkit cpistack --td-level 2 -- true
case "$err" in *"top-down level 2: perf's metrics define no TopdownL2 for CPU model 'amd64_fam19h_zen3'"*)
	[ "$rc" = 1 ] && ok "zen3: a model without the level is named as such" || nok "zen3 L2" "rc=$rc" ;;
*) nok "zen3: --td-level 2" "rc=$rc $err" ;;
esac
run_pmkit cpistack --td-level 7 -- true
[ "$rc" = 2 ] && ok "--td-level 7: out of range (perf's levels are 1 to 6), exit 2" || nok "--td-level 7" "rc=$rc"
