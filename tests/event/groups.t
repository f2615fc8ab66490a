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
# perf's weak group, {a,b}:W (perf's stat.sh uses it): taken, since pmkit's
# groups are weak already (a group the kernel refuses is split); W beside
# other modifiers at either end, and a W in the middle is refused at its
# column
run_pmkit stat -e '{task-clock,page-faults}:W' -- true
check "{task-clock,page-faults}:W: exit 0, both counted, no modifier shown" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "task-clock " && printf "%s" "$2" | grep -q "page-faults "' _ "$rc" "$err"
run_pmkit stat -e '{task-clock,page-faults}:Wu' -- true
check "{task-clock,page-faults}:Wu: W taken, u applied to both" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "task-clock:u" && printf "%s" "$2" | grep -q "page-faults:u"' _ "$rc" "$err"
run_pmkit stat -e '{task-clock,page-faults}:uWk' -- true
check "{...}:uWk: a W between other modifiers is refused (exit 2, marker under it)" \
	sh -c '[ "$1" = 2 ] && printf "%s\n" "$2" | grep -q "^ *\^" && printf "%s\n" "$2" | grep -q "unknown modifier .W."' _ "$rc" "$err"
