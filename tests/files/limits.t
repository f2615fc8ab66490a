# limits.t: many events need many descriptors; like perf, pmkit raises the
# soft limit of open files to the hard limit when the kernel says EMFILE
# (issue 16: under 'ulimit -Sn 20', 46 of 60 events were <not supported>).
. tests/support/t.sh
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 200 ]; then
	skip "open-file limit" "the hard limit is $hard"; exit 0
fi
L=$(for i in 1 2 3 4 5 6 7 8 9 10; do printf 'task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,'; done)
L=${L%,}
(ulimit -Sn 20 && "$PMKIT" stat -e "$L" -- true) >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?
n=$(grep -c 'not supported\|not counted' "$T_TMP/err")
c=$(grep -c 'task-clock' "$T_TMP/err")
check "60 events under ulimit -Sn 20: exit 0, all 60 counted ($n not counted)" \
	sh -c '[ "$1" = 0 ] && [ "$2" = 0 ] && [ "$3" = 10 ]' _ "$rc" "$n" "$c"
