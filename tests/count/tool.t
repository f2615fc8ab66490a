# tool.t: perf's tool events duration_time, user_time and system_time count
# in `pmkit stat`, measured by the event set (clock and getrusage), next to
# the kernel's task-clock on the same workload. No PMU needed.
. tests/support/t.sh
run_pmkit stat -x, -e duration_time,user_time,system_time,task-clock -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sleep 0.2'
check "stat with tool events exits 0" test "$rc" = 0
check "tool events and task-clock agree" python3 -c '
import sys
v={}
for line in sys.argv[1].splitlines():
    f=line.split(",")
    if len(f)>3 and f[2] in ("duration_time","user_time","system_time","task-clock"):
        v[f[2]]=float(f[0])  # msec
assert set(v)=={"duration_time","user_time","system_time","task-clock"}, v
# the wall clock covers the 200 ms sleep and the CPU time
assert v["duration_time"] >= 200 and v["duration_time"] >= v["task-clock"], v
# the workload'"'"'s CPU time by getrusage against the kernel'"'"'s task clock
cpu=v["user_time"]+v["system_time"]
assert abs(cpu-v["task-clock"]) <= 0.25*v["task-clock"]+20, v
print("# duration %.1f ms, user+system %.1f ms, task-clock %.1f ms" % (v["duration_time"], cpu, v["task-clock"]))' "$err"
run_pmkit encode duration_time
check "duration_time is a tool event" sh -c 'echo "$1" | grep -q "^duration_time: pmu=tool "' _ "$out"
run_pmkit list --json time
check "list shows the tool events as countable" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); n={e["name"]:e for e in d["events"]}
assert all(n[k]["kind"]=="tool" and n[k]["countable"] is True for k in ("duration_time","user_time","system_time")), n' "$T_TMP/out"
# with -a every CPU has its own event set, and each measures the same time:
# duration_time is the wall clock once, not once per CPU
if "$PMKIT" stat -a -x, -e task-clock,duration_time -o "$T_TMP/a.csv" -- sleep 0.2 2>/dev/null; then
	check "-a: duration_time is the wall time, not a sum over the CPUs ($(nproc) here)" python3 -c '
import sys
d=[l.split(",") for l in open(sys.argv[1]) if ",duration_time," in l]
ms=float(d[0][0])
assert 200 <= ms < 390, ms
print("# duration_time %.1f ms for a 200 ms sleep" % ms)' "$T_TMP/a.csv"
else
	skip "-a duration_time" "pmkit stat -a cannot count every CPU here (not root?)"
fi
