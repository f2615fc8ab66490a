# stat.t: pmkit stat as a new user tries it on any Linux machine.
. tests/support/t.sh
hw=0; "$PMKIT" list --json instructions 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin)
sys.exit(0 if any(e["name"]=="instructions" and e["countable"] for e in d["events"]) else 1)' && hw=1

run_pmkit stat -- sleep 0.1
check "sleep 0.1 exits 0" test "$rc" = 0
check "software counts printed" sh -c 'echo "$1" | grep -Eq "[0-9.]+ msec  task-clock"' _ "$err"
check "page faults counted" sh -c 'echo "$1" | grep -Eq "^ +[1-9][0-9]* +page-faults"' _ "$err"
if [ $hw = 0 ]; then
	check "one line says hardware counters are unavailable" \
		sh -c 'test "$(echo "$1" | grep -c "hardware counters are unavailable")" = 1' _ "$err"
	check "no wall of <not supported> in the default list" \
		sh -c '! echo "$1" | grep -q "not supported"' _ "$err"
else
	check "hardware defaults counted" sh -c 'echo "$1" | grep -q instructions' _ "$err"
fi

run_pmkit stat -e task-clock,page-faults -x, -- true
check "csv exits 0" test "$rc" = 0
check "csv has both events" sh -c '
	echo "$1" | awk -F, "\$3==\"task-clock\" && \$1+0>0 {a=1} \$3==\"page-faults\" && \$1+0>0 {b=1} END {exit !(a&&b)}"' _ "$err"
check "csv has 8 fields" sh -c 'echo "$1" | awk -F, "NF!=8 {bad=1} END {exit bad}"' _ "$err"

run_pmkit stat -e task-clock,page-faults --json -- true
check "json parses with both events" python3 -c '
import json,sys
d=json.loads(sys.argv[1]); ev={e["event"]:e for e in d["events"]}
assert d["schema"]=="pmkit-stat/1" and d["exit_status"]==0
assert ev["task-clock"]["value"]>0 and ev["task-clock"]["unit"]=="msec"
assert ev["page-faults"]["value"]>0 and ev["page-faults"]["status"]=="counted"' "$err"

run_pmkit stat -e nosuch -- sh -c "echo RAN > $T_TMP/ran"
check "bad event exits 2" test "$rc" = 2
check "bad event runs nothing" test ! -e "$T_TMP/ran"
check "marker under the column" sh -c 'echo "$1" | grep -q "^    \^~~~~~$"' _ "$err"
run_pmkit stat -e task-clock,cycles:q -- true
check "marker under the modifier column in the list" sh -c 'echo "$1" | grep -q "^    task-clock,cycles:q$" && echo "$1" | grep -q "^                      \^$"' _ "$err"

run_pmkit stat -- sh -c 'exit 3'
check "workload status is pmkit's status" test "$rc" = 3
run_pmkit stat -- sh -c 'kill -TERM $$'
check "killed workload gives 128+signal" test "$rc" = 143
run_pmkit stat -- /nonexistent/cmd
check "missing command exits 127" test "$rc" = 127

run_pmkit stat -e task-clock
check "built-in workload runs" sh -c 'test "$2" = 0 && echo "$1" | grep -q "built-in workload"' _ "$err" "$rc"

run_pmkit stat -r 3 -x, -e page-faults -- true
check "repeats give a stddev field" sh -c 'echo "$1" | awk -F, "\$3==\"page-faults\" && \$7!=\"\" {ok=1} END {exit !ok}"' _ "$err"

run_pmkit stat -I 50 -x, -e task-clock -- sleep 0.2
check "intervals print timestamped lines" sh -c 'test "$(echo "$1" | grep -c "^0\.[0-9]*,")" -ge 2' _ "$err"

run_pmkit stat -e instructions,task-clock -x, -- true
if [ $hw = 0 ]; then
	check "unsupported event row with reason" sh -c 'echo "$1" | grep -q "^<not supported>,,instructions,.*virtual machine"' _ "$err"
	check "and the rest still counted" sh -c 'echo "$1" | grep -q ",msec,task-clock,"' _ "$err"
else
	skip "unsupported event row" "this machine counts instructions"
fi

run_pmkit stat -o "$T_TMP/out.json" --json -e task-clock -- true
check "-o writes the file" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T_TMP/out.json"

sleep 2 & bg=$!
run_pmkit stat -p $bg -e task-clock,context-switches -x, -- sleep 0.1
check "-p attaches to a process" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",context-switches,"' _ "$err" "$rc"
kill $bg 2>/dev/null
run_pmkit stat -x , --json -- true
check "-x with --json is a usage error" test "$rc" = 2

run_pmkit stat -e '{task-clock,page-faults},cs' -x, -- true
check "{a,b} groups count" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",page-faults," && echo "$1" | grep -q ",cs,"' _ "$err" "$rc"
run_pmkit stat -e '{task-clock,page-faults' -- true
check "unclosed group is a usage error" test "$rc" = 2
