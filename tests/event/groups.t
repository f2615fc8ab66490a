# groups.t: a group's modifiers apply to each member, as in perf:
# '{a,b}:u' counts a:u and b:u in one group (it said "unknown event
# 'page-faults}'", issue 16).
. tests/support/t.sh
run_pmkit stat -e '{task-clock,page-faults}:u,context-switches' -- true
if printf '%s' "$err" | grep -q 'cannot\|not allowed'; then
	skip "group modifiers" "cannot count software events here"; exit 0
fi
check "{task-clock,page-faults}:u: exit 0, both counted as :u, the next event untouched" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "task-clock:u" && printf "%s" "$2" | grep -q "page-faults:u" && printf "%s" "$2" | grep -q "context-switches " ' _ "$rc" "$err"
run_pmkit stat -e '{task-clock}:k' -- true
check "{task-clock}:k: a group of one takes its modifier" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "task-clock:k"' _ "$rc" "$err"
run_pmkit stat -e '{task-clock,page-faults' -- true
check "an unclosed group is still a usage error (exit 2)" [ "$rc" = 2 ]
