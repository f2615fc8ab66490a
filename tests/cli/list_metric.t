# list_metric.t: `perf list metric`, `perf list metricgroup` and their
# --raw-dump (what perf's stat_all_metrics.sh and stat_all_metricgroups.sh
# loop over) from pmkit, byte for byte as perf 6.1 prints them, on the
# machine fixtures perf has metrics for (issue 30, Deliver 2). perf is the
# oracle: PERF_CPUID makes it use a fixture's model, as pmkit's
# PMK_SYSROOT does. Needs perf and perf's pmu-events (Debian's
# linux-source-6.1) for pmkit.
. tests/support/t.sh
require perf
FX=$PMK_SRC/tests/fixtures
if ! PERF_CPUID=AuthenticAMD-25-1-1 perf list --raw-dump metrics 2>/dev/null | grep -q branch_misprediction_ratio; then
	skip "$T_NAME" "this perf does not take PERF_CPUID or has no Zen 3 metrics built in"
	exit 0
fi
if ! PMK_SYSROOT=$FX/amd-zen3 "$PMKIT" list --raw-dump metrics 2>/dev/null | grep -q branch_misprediction_ratio; then
	skip "$T_NAME" "perf's pmu-events are not installed for pmkit (Debian's linux-source-6.1; scripts/deps.d/pmu_events.sh)"
	exit 0
fi
# fixture, and the CPUID perf matches against its mapfile for that model
for fc in amd-zen1:AuthenticAMD-23-1-2 amd-zen2:AuthenticAMD-23-31-0 \
	amd-zen3:AuthenticAMD-25-1-1 intel-bdx:GenuineIntel-6-4F-1 \
	intel-skx:GenuineIntel-6-55-4 intel-clx:GenuineIntel-6-55-7 \
	intel-icx:GenuineIntel-6-6A-6 intel-spr:GenuineIntel-6-8F-8 \
	intel-adl:GenuineIntel-6-97-2; do
	fx=${fc%%:*} cpuid=${fc#*:}
	bad= n=0
	for w in metric metricgroup "--raw-dump metrics" "--raw-dump metricgroups"; do
		# shellcheck disable=SC2086
		PERF_CPUID=$cpuid perf list $w >"$T_TMP/perf" 2>/dev/null
		# shellcheck disable=SC2086
		PMK_SYSROOT=$FX/$fx "$PMKIT" perf list $w >"$T_TMP/pmkit" 2>&1
		if cmp -s "$T_TMP/perf" "$T_TMP/pmkit"; then
			n=$((n + $(wc -c <"$T_TMP/perf")))
		else
			bad="$bad [$w: $(diff "$T_TMP/perf" "$T_TMP/pmkit" | head -3 | tr '\n' '|' | cut -c1-200)]"
		fi
	done
	[ -z "$bad" ] && [ "$n" -gt 100 ] &&
		ok "$fx: list metric, metricgroup and their --raw-dump as perf prints them ($n bytes)" ||
		nok "$fx: perf list metric/metricgroup" "$bad"
done
# pmkit's personality: a metric without a description has no "(null)"
PMK_SYSROOT=$FX/intel-icx "$PMKIT" list metric >"$T_TMP/own" 2>&1
grep -q '^  Execute$' "$T_TMP/own" && ! grep -q '(null)' "$T_TMP/own" &&
	ok "pmkit list metric: no perf '(null)' for a metric without a description" ||
	nok "pmkit list metric without descriptions" "$(grep -A1 '^  Execute$' "$T_TMP/own")"
# this machine: what perf's own stat_all_metrics.sh loops over is what
# perf prints here (perf's and pmkit's discovery of the same CPU)
perf list --raw-dump metrics >"$T_TMP/perf" 2>/dev/null
"$PMKIT" perf list --raw-dump metrics >"$T_TMP/pmkit" 2>&1
cmp -s "$T_TMP/perf" "$T_TMP/pmkit" &&
	ok "this machine: --raw-dump metrics as perf's ($(wc -w <"$T_TMP/perf") metrics)" ||
	nok "this machine: --raw-dump metrics" "$(diff "$T_TMP/perf" "$T_TMP/pmkit" | head -3)"
# perf's stat_all_metricgroups.sh (`perf stat -M GROUP -a true` for each
# group `--raw-dump metricgroups` names, under set -e) on a Sapphire
# Rapids VM without a PMU (the vm-intel fixture): under the perf
# personality every group runs and exits 0, as perf 6.1 does there (it
# reports what it cannot set up and counts the rest); pmkit's own
# personality refuses a group none of whose metrics it can set up (exit 2)
n=0 bad=
for g in $(PMK_SYSROOT=$FX/vm-intel "$PMKIT" perf list --raw-dump metricgroups); do
	n=$((n + 1))
	PMK_SYSROOT=$FX/vm-intel "$PMKIT" perf stat -M "$g" -a true >"$T_TMP/o" 2>&1 ||
		bad="$bad $g:$(grep -m1 error "$T_TMP/o" | cut -c1-120)"
done
[ "$n" -gt 50 ] && [ -z "$bad" ] &&
	ok "vm-intel: perf stat -M GROUP -a true exits 0 for all $n groups perf lists" ||
	nok "vm-intel: perf's stat_all_metricgroups" "n=$n$bad"
PMK_SYSROOT=$FX/vm-intel run_pmkit stat -M SoC -a true
case "$err" in *"error: -M SoC: none of perf's metrics of this group"*)
	[ "$rc" = 2 ] && ok "pmkit's personality: -M of a group it cannot set up refuses the run (exit 2)" ||
		nok "pmkit -M SoC" "rc=$rc" ;;
*) nok "pmkit -M SoC refused with the reason" "rc=$rc $err" ;;
esac
# a metric that is a constant on the machine (no SMT: its events are in
# the branch #smt_on rules out) prints the constant, as perf does
PMK_SYSROOT=$FX/vm-intel run_pmkit stat -x, -M SMT_2T_Utilization -- true
case "$out$err" in *"0,,SMT_2T_Utilization"*) [ "$rc" = 0 ] &&
	ok "vm-intel: SMT_2T_Utilization without SMT is its constant 0" || nok "constant metric" "rc=$rc" ;;
*) nok "vm-intel: SMT_2T_Utilization" "rc=$rc $out $err" ;;
esac
