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

# perf's categories: kinds of events, not substrings of names
run_pmkit list sw
check "list sw: software and tool events only" sh -c '
	test "$2" = 0 && echo "$1" | grep -Eq "^  task-clock +countable" &&
	echo "$1" | grep -Eq "^  duration_time " &&
	! echo "$1" | grep -Eq "^  (cycles|L1-dcache-loads|PAPI_)" &&
	! echo "$1" | grep -q "^hardware"' _ "$out" "$rc"
run_pmkit list hw
check "list hw: the generic hardware events only" sh -c '
	test "$2" = 0 && echo "$1" | grep -Eq "^  instructions " &&
	! echo "$1" | grep -Eq "^  (task-clock|L1-dcache-loads) "' _ "$out" "$rc"
run_pmkit list cache
check "list cache: the hardware-cache events only" sh -c '
	test "$2" = 0 && echo "$1" | grep -Eq "^  L1-dcache-loads " &&
	! echo "$1" | grep -Eq "^  (instructions|task-clock) "' _ "$out" "$rc"
run_pmkit list sw cache
check "list sw cache: both categories" sh -c '
	echo "$1" | grep -Eq "^  task-clock " && echo "$1" | grep -Eq "^  L1-dcache-loads "' _ "$out"
if have tracefs; then
	run_pmkit list tracepoint
	check "list tracepoint: every SUB:NAME, without opening each" sh -c '
		test "$2" = 0 && echo "$1" | grep -Eq "^  syscalls:sys_enter_write " &&
		! echo "$1" | grep -Eq "^  task-clock "' _ "$out" "$rc"
else
	skip "list tracepoint" "$T_WHY"
fi
run_pmkit list pmu
check "list pmu: PMU events (pmu/name/) and natives, no software events" sh -c '
	test "$2" = 0 && ! echo "$1" | grep -Eq "^  (task-clock|instructions) "' _ "$out" "$rc"

# --raw-dump: perf's format, the names that count, a space after each, no newline
run_pmkit list --raw-dump sw
check "--raw-dump sw: one line of names, each followed by a space" sh -c '
	test "$2" = 0 && printf "%s" "$1" | grep -q " task-clock " &&
	test "$(printf "%s" "$1" | tail -c 1)" = " " &&
	test "$(wc -l < "$3")" = 0' _ "$out" "$rc" "$T_TMP/out"
check "--raw-dump sw: the tool events last, in perf's order" sh -c '
	printf "%s" "$1" | grep -q "duration_time user_time system_time $"' _ "$out"
run_pmkit list --raw-dump hw
if have pmu; then
	check "--raw-dump hw: perf's names (cpu-cycles, instructions)" sh -c '
		printf "%s" "$1" | grep -q "cpu-cycles " && printf "%s" "$1" | grep -q "instructions "' _ "$out"
else
	check "--raw-dump hw: nothing counts here, nothing printed" test -z "$out"
fi
run_pmkit list --raw-dump --json
check "--raw-dump with --json: exit 2" test "$rc" = 2

# -o FILE
run_pmkit list -o "$T_TMP/list.txt" sw
check "-o FILE: the list in FILE, nothing on stdout" sh -c '
	test "$2" = 0 && test -z "$1" && grep -Eq "^  task-clock " "$3"' _ "$out" "$rc" "$T_TMP/list.txt"
run_pmkit list --raw-dump -o "$T_TMP/raw.txt" sw
check "-o FILE with --raw-dump" sh -c 'grep -q "task-clock " "$1"' _ "$T_TMP/raw.txt"

# against perf's raw dump on this host
if have perf; then
	for cat in sw hw cache; do
		a=$("$PMKIT" list --raw-dump $cat); b=$(perf list --raw-dump $cat 2>/dev/null)
		check "--raw-dump $cat: perf's names in perf's order" sh -c '
			test "$1" = "$2" || { printf "pmkit: %s\nperf:  %s\n" "$1" "$2" >&2; exit 1; }' _ "$a" "$b"
	done
	if have tracefs; then
		a=$("$PMKIT" list --raw-dump tracepoint); b=$(perf list --raw-dump tracepoint 2>/dev/null)
		check "--raw-dump tracepoint: perf's names ($(echo $a | wc -w) of them)" sh -c 'test -n "$1" && test "$1" = "$2"' _ "$a" "$b"
	else
		skip "--raw-dump tracepoint against perf" "$T_WHY"
	fi
else
	skip "--raw-dump against perf" "$T_WHY"
fi
# perf's metric categories: pmkit's metrics are stat -M list's, not events
run_pmkit list --raw-dump metricgroups
check "--raw-dump metricgroups: no event names (pmkit's metrics: stat -M list)" sh -c 'test "$2" = 0 && test -z "$1"' _ "$out" "$rc"
# a pattern filters the raw dump, tracepoints included
run_pmkit list --raw-dump faults
check "--raw-dump PATTERN: only the matching names" sh -c '
	printf "%s" "$1" | grep -q "page-faults " && ! printf "%s" "$1" | grep -q "task-clock\|:"' _ "$out"
if have perf; then
	check "--raw-dump faults: perf's names" sh -c 'test "$1" = "$(perf list --raw-dump faults 2>/dev/null)"' _ "$out"
fi
