# sweep.t: the start sweep on the kernel path (docs/counting.md). `pmkit
# stat` puts its groups on counters batch by batch through the first
# 12 ms of a workload it runs, so that every event sees a share of the
# start, and adds the time a group was held off to its enabled time. This
# VM has no hardware PMU, so the kernel path is run with software events
# swept as if they were counter-limited (PMK_SWEEP_SOFTWARE=1, two
# "counters": six task-clocks in three batches): each is then counted for
# part of the run, and its scaled value must still be the workload's CPU
# time, which the kernel reports apart (getrusage of the child: user + sys,
# from its fork). task-clock counts from the exec: what the child spends
# before (a fraction of a ms here, 6 ms under ASan on a guest with slow
# page faults) is measured in a run without the sweep, every task-clock
# counted all the time, and taken off.
. tests/support/t.sh
spin="$T_TMP/spin.sh"
echo 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' >"$spin"
ev=task-clock,task-clock,task-clock,task-clock,task-clock,task-clock
export PMK_SWEEP_SOFTWARE=1 PMK_COUNTERS=2
PMKIT_SWEEP=0 run_pmkit stat --json -e "$ev" -- sh "$spin"
check "PMKIT_SWEEP=0: no sweep, every task-clock counted all the time" python3 -c '
import json,sys
d=json.loads(sys.argv[1])
assert all(not e["multiplexed"] and e["counted_fraction"] == 1 for e in d["events"]), d' "$err"
# the child's CPU time before its exec, in ms (rusage less task-clock)
pre=$(printf '%s' "$err" | python3 -c '
import json,sys
d=json.load(sys.stdin); v=[e["value"] for e in d["events"]]
print("%.3f" % ((d["user_s"] + d["sys_s"]) * 1e3 - sum(v) / len(v)))' 2>/dev/null)
run_pmkit stat --json -e "$ev" -- sh "$spin"
check "swept task-clocks: each counted part of the run, scaled to the child's CPU time after its exec" python3 -c '
import json,sys
d=json.loads(sys.argv[1]); ev=d["events"]
pre=float(sys.argv[2])
cpu=(d["user_s"]+d["sys_s"])*1e3 - pre
assert len(ev) == 6, ev
v=[e["value"] for e in ev]
for e in ev:
    assert e["multiplexed"] and 0.5 < e["counted_fraction"] < 1, e
    assert e["raw"] < e["enabled_ns"], e
    # not the raw count: the held time is in the scaling
    assert abs(e["value"] - cpu) <= 0.01 * cpu + 1, (e["value"], cpu)
assert max(v) - min(v) <= 0.005 * max(v), v
print("# cpu %.2f ms after %.2f ms before the exec, values %s, counted %s" % (cpu, pre, v, [e["counted_fraction"] for e in ev]))' "$err" "${pre:-x}"
if have taskset; then
	run_pmkit_one() { out=$(taskset -c 0 "$PMKIT" "$@" 2>"$T_TMP/err"); rc=$?; err=$(cat "$T_TMP/err"); }
	run_pmkit_one stat --json -e "$ev" -- sh "$spin"
	check "on one CPU: no sweep (it would preempt the workload at each step)" python3 -c '
import json,sys
d=json.loads(sys.argv[1])
assert all(not e["multiplexed"] for e in d["events"]), d' "$err"
else
	skip "on one CPU: no sweep" "taskset is not installed (Debian package util-linux)"
fi
unset PMK_SWEEP_SOFTWARE PMK_COUNTERS
run_pmkit stat --json -e "$ev" -- sh "$spin"
check "software events are not swept" python3 -c '
import json,sys
d=json.loads(sys.argv[1])
assert all(not e["multiplexed"] for e in d["events"]), d' "$err"
