# list.t: pmkit list tells what counts here, by opening each event.
. tests/support/t.sh
run_pmkit list
check "list exits 0" test "$rc" = 0
check "task-clock countable" sh -c 'echo "$1" | grep -Eq "^  task-clock +countable "' _ "$out"
if ! have pmu; then
	check "instructions not countable, with the reason" \
		sh -c 'echo "$1" | grep -Eq "^  instructions +not countable +.*virtual machine"' _ "$out"
else
	skip "instructions not countable" "this machine has a hardware PMU"
fi
run_pmkit list --json clock
check "json lists clocks" python3 -c '
import json,sys
d=json.loads(sys.argv[1]); names={e["name"]:e for e in d["events"]}
assert names["task-clock"]["countable"] is True
assert names["cpu-clock"]["kind"]=="software"
# a pattern matches names and descriptions (PAPI_REF_CYC: "reference
# clock cycles"), whatever the host model lists
assert all("clock" in e["name"].lower() or "clock" in e["description"].lower()
           for e in d["events"])' "$out"
run_pmkit list 'L1-*-misses'
check "glob pattern" sh -c 'echo "$1" | grep -q "L1-dcache-load-misses" && ! echo "$1" | grep -q "LLC-loads"' _ "$out"
run_pmkit list nosuchpattern
check "no match exits 1" test "$rc" = 1
run_pmkit list --sim
check "list --sim documents the simulated PMU" sh -c 'echo "$1" | grep -Eq "^  inst_retired " && echo "$1" | grep -Eq "^  dispatch_stall "' _ "$out"
run_pmkit list --sim --json l1d
check "list --sim --json" python3 -c '
import json,sys
d=json.loads(sys.argv[1]); assert d["events"] and all("l1d" in e["name"] for e in d["events"])' "$out"
