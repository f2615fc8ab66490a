# perf_metrics.t: `pmkit stat -M` with perf's metrics (issue 30, Deliver 2):
# on the Zen 3 fixture `-M branch_misprediction_ratio -- CMD` runs the
# command and reports the metric <not supported> with the reason, as perf
# does where the counters are missing; an uncore metric encodes on the
# PMU of perf's unit; Ice Lake-SP's tma_ metrics (max, if-else, up to 20
# natives) come from perf's definitions, TopdownL2 whole; a metric perf
# defines in a form -M cannot evaluate comes from pmkit's library, with a
# warning; a model perf has no directory for is named as such; and with
# perf's definitions turned off, pmkit's library alone serves -M.
# Needs perf's pmu-events (Debian's linux-source-6.1,
# scripts/deps.d/pmu_events.sh).
. tests/support/t.sh
Z3=$PMK_SRC/tests/fixtures/amd-zen3
ICX=$PMK_SRC/tests/fixtures/intel-icx
PMK_SYSROOT=$Z3 "$PMKIT" stat -M list >"$T_TMP/list" 2>&1
if ! grep -q "^perf's metrics for amd64_fam19h_zen3 (x86/amdzen3" "$T_TMP/list"; then
	skip "$T_NAME" "perf's pmu-events are not installed ($(grep "perf's metrics" "$T_TMP/list"))"
	exit 0
fi
grep -q "^branch_misprediction_ratio  *branch_prediction d_ratio(ex_ret_brn_misp, ex_ret_brn)" "$T_TMP/list" &&
	ok "-M list shows perf's Zen 3 metric with its group and perf's expression" ||
	nok "-M list shows perf's Zen 3 metric" "$(cat "$T_TMP/list")"

export PMK_SYSROOT=$Z3
run_pmkit stat -M branch_misprediction_ratio -- touch "$T_TMP/ran"
case "$out$err" in
*"<not supported>"*"branch_misprediction_ratio"*"ex_ret_brn"*"(cpu/event=0xc"*")': the core PMU 'cpu' does not have this event"*)
	[ "$rc" = 0 ] && [ -e "$T_TMP/ran" ] && ok "Zen 3: -M branch_misprediction_ratio runs the command and reports <not supported> with the counter" ||
		nok "Zen 3 branch_misprediction_ratio" "rc=$rc ran=$(ls "$T_TMP")" ;;
*) nok "Zen 3: -M branch_misprediction_ratio" "rc=$rc $out $err" ;;
esac
run_pmkit stat -M l2_cache -x, -- true
n=$(printf '%s\n' "$out$err" | grep -c "<not supported>,,")
[ "$rc" = 0 ] && [ "$n" = 7 ] && ok "Zen 3: -M l2_cache (a perf metric group) counts its 7 metrics" ||
	nok "Zen 3: -M l2_cache" "rc=$rc n=$n $out $err"
# an uncore metric: perf's DFPMC unit is the amd_df PMU (its boxes summed)
run_pmkit stat -M nps1_die_to_dram -- true
case "$out$err" in
*"<not supported>"*"nps1_die_to_dram"*"amd_df/event=0x"*) [ "$rc" = 0 ] &&
	ok "Zen 3: -M nps1_die_to_dram (perf's DFPMC unit) encodes on amd_df" || nok "nps1_die_to_dram" "rc=$rc" ;;
*) nok "Zen 3: -M nps1_die_to_dram encodes on amd_df" "rc=$rc $out $err" ;;
esac

# perf's "QPI LL" unit is the kernel's uncore_qpi_N boxes (as perf's
# jevents maps it), not a PMU called qpi_ll: Broadwell-EP's fixture with
# one such box added (a copy; the fixture itself has none)
cp -r "$PMK_SRC/tests/fixtures/intel-bdx" "$T_TMP/bdx"
q=$T_TMP/bdx/sys/bus/event_source/devices/uncore_qpi_0
mkdir -p "$q/format" && echo 40 >"$q/type" && echo 0 >"$q/cpumask" &&
	echo 'config:0-7,21' >"$q/format/event" && echo 'config:8-15' >"$q/format/umask"
PMK_SYSROOT=$T_TMP/bdx run_pmkit encode -M qpi_data_transmit_bw
case "$out" in *"uncore_qpi_0/event=0x0,umask=0x2/: pmu=uncore_qpi_0 type=40"*)
	[ "$rc" = 0 ] && ok "bdx: perf's QPI LL unit encodes on uncore_qpi_N" || nok "QPI LL" "rc=$rc" ;;
*) nok "bdx: perf's QPI LL unit on uncore_qpi_N" "rc=$rc $out $err" ;;
esac

export PMK_SYSROOT=$ICX
# (a tree written for the test: every metric of perf's own icelakex tree
# is evaluable on the fixture, pmu_metrics_all.t)
mkdir -p "$T_TMP/arch0/x86/icelakex"
printf '[{"MetricName": "C9_Pkg_Residency", "MetricExpr": "cstate_pkg@c9\\\\-residency@ / TSC", "MetricGroup": "Power"}]\n' >"$T_TMP/arch0/x86/icelakex/m.json"
PMKIT_PMU_EVENTS="$T_TMP/arch0" run_pmkit stat -M C9_Pkg_Residency -- touch "$T_TMP/ran2"
case "$err" in
*"error: perf's metric 'C9_Pkg_Residency' (x86/icelakex) cannot be evaluated here: "*"PMU 'cstate_pkg' has no term or event 'c9-residency'"*)
	[ "$rc" = 2 ] && [ ! -e "$T_TMP/ran2" ] && ok "a perf metric -M cannot evaluate is refused with the reason, nothing run" ||
		nok "refused perf metric" "rc=$rc" ;;
*) nok "a perf metric -M cannot evaluate is refused with the reason" "$err" ;;
esac

export PMK_SYSROOT=$ICX
# TopdownL1's members one by one
for m in tma_frontend_bound tma_backend_bound tma_retiring; do
	run_pmkit stat -M $m -x, -- true
	case "$out$err" in *"<not supported>,,$m,"*) ok "icx: perf's $m is accepted";; *) nok "icx: perf's $m" "$out $err";; esac
done
# perf's tma_bad_speculation is max(...) over nine events: taken from
# perf's definitions, with no warning
run_pmkit stat -M tma_bad_speculation -x, -- true
case "$out$err" in *warning*) nok "icx: perf's tma_bad_speculation" "$err" ;;
*"<not supported>,,tma_bad_speculation,"*) ok "icx: perf's tma_bad_speculation (max of a difference) is evaluated from perf's definition" ;;
*) nok "icx: perf's tma_bad_speculation" "$out $err" ;; esac
# TopdownL2..L4 whole, none left out (a metric needs up to 20 natives):
# as many rows as perf's JSON has metrics in the group
"$PMKIT" stat -M list >"$T_TMP/icxlist" 2>&1
for l in 1 2 3 4; do
	want=$(awk -v g="TopdownL$l" '{ n = split($2, a, ";"); for (i = 1; i <= n; i++) if (a[i] == g) c++ } END { print c + 0 }' "$T_TMP/icxlist")
	run_pmkit stat -M TopdownL$l -x, -- true
	n=$(printf '%s\n' "$out$err" | grep -c "^<not supported>,,tma_")
	[ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ "$n" = "$want" ] && ! printf '%s' "$err" | grep -q "left out" &&
		ok "icx: -M TopdownL$l takes all $n of perf's metrics (-M list shows $want)" || nok "icx: -M TopdownL$l" "rc=$rc n=$n want=$want $err"
done
# --topdown and --td-level N take perf's TopdownL1 and TopdownL<N> where
# perf defines them for the model, as -M does (perf: --td-level N prints
# the metrics of level N)
for a in "--topdown:1" "--td-level 3:3"; do
	want=$(awk -v g="TopdownL${a##*:}" '{ n = split($2, b, ";"); for (i = 1; i <= n; i++) if (b[i] == g) c++ } END { print c + 0 }' "$T_TMP/icxlist")
	run_pmkit stat ${a%%:*} -x, -- true
	n=$(printf '%s\n' "$out$err" | grep -c "^<not supported>,,tma_")
	[ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ "$n" = "$want" ] &&
		ok "icx: stat ${a%%:*} gives perf's TopdownL${a##*:} ($n metrics)" || nok "icx: stat ${a%%:*}" "rc=$rc n=$n want=$want $err"
done
run_pmkit stat --td-level 7 -- true
[ "$rc" = 2 ] && ok "--td-level 7: out of range (perf's levels are 1 to 6), exit 2" || nok "--td-level 7" "rc=$rc"
# a perf metric -M cannot evaluate, which pmkit's library defines: the
# library's, with a warning (perf's tree here is one written for the test)
mkdir -p "$T_TMP/arch/x86/icelakex"
printf '[{"MetricName": "tma_bad_speculation", "MetricExpr": "NO_SUCH.EVENT / 2", "MetricGroup": "TopdownL1"}]\n' >"$T_TMP/arch/x86/icelakex/m.json"
export PMKIT_PMU_EVENTS="$T_TMP/arch"
run_pmkit stat -M tma_bad_speculation -- true
unset PMKIT_PMU_EVENTS
case "$err" in
*"warning: perf's metric 'tma_bad_speculation' (x86/icelakex) cannot be evaluated here: "*"NO_SUCH.EVENT"*"pmkit's own definition (metrics/) is used"*)
	case "$out$err" in *"<not supported>"*"tma_bad_speculation"*"r8100"*) ok "icx: a perf metric -M cannot evaluate comes from metrics/topdown.def, with a warning";;
	*) nok "icx: tma_bad_speculation from topdown.def" "$out $err";; esac ;;
*) nok "icx: tma_bad_speculation falls back with a warning" "$err" ;;
esac

unset PMK_SYSROOT
if [ "$(PMK_SYSROOT= "$PMKIT" stat -M list 2>/dev/null | grep -c "^perf's metrics for")" = 0 ]; then
	run_pmkit stat -M branch_misprediction_ratio -- true
	case "$err" in *"warning: perf's metrics are not available for CPU model"*"error: no metric or metric group"*)
		ok "this machine: a model perf's tree has no directory for is named as such";;
	*) nok "this machine: no perf directory named" "$err";; esac
else
	skip "no perf directory named" "perf defines metrics for this machine's model"
fi

PMKIT_PMU_EVENTS=none PMK_SYSROOT=$ICX "$PMKIT" stat -M list >"$T_TMP/l2" 2>&1
grep -q "^perf's metrics: none for CPU model 'icx'" "$T_TMP/l2" && grep -q "^tma_bad_speculation  *topdown" "$T_TMP/l2" &&
	ok "PMKIT_PMU_EVENTS=none: pmkit's library alone" || nok "PMKIT_PMU_EVENTS=none" "$(cat "$T_TMP/l2")"
