# tpglob.t: tracepoint globs in stat's event list, as perf expands them:
# "syscalls:sys_enter_*" and "sched:sched_*" give one row per matching
# tracepoint; a workload doing a known number of write() calls counts that
# many sys_enter_write, as perf does. Skips where tracefs or tracepoint
# events cannot be opened here.
. tests/support/t.sh
require tracefs
TR=$TRACEFS
if ! "$PMKIT" stat -x, -e syscalls:sys_enter_write -- true >/dev/null 2>&1; then
	skip "tracepoint globs" "tracepoint events cannot be opened here"; exit 0
fi
N=300
W="i=0; while [ \$i -lt $N ]; do echo x; i=\$((i+1)); done >/dev/null"

# every sys_enter_* tracepoint, one row each
nt=$(ls "$TR/events/syscalls" | grep -c '^sys_enter_')
"$PMKIT" stat -x, -o "$T_TMP/all.csv" -e 'syscalls:sys_enter_*' -- sh -c "$W"; rc=$?
check "syscalls:sys_enter_* exits 0 ($rc)" test "$rc" = 0
nr=$(grep -c ',syscalls:sys_enter_' "$T_TMP/all.csv")
check "one row per sys_enter_ tracepoint ($nr rows, $nt in tracefs)" test "$nr" = "$nt"
check "no row twice" sh -c 'test -s "$1" && test "$(cut -d, -f3 "$1" | sort | uniq -d)" = ""' _ "$T_TMP/all.csv"
a=$(awk -F, '$3=="syscalls:sys_enter_write" {print $1}' "$T_TMP/all.csv")
check "the glob counts $N write() calls ($a)" test "$a" = "$N"

# the same count as perf on the one tracepoint
if perf stat -x, -e syscalls:sys_enter_write -o "$T_TMP/f.csv" -- sh -c "$W" 2>/dev/null; then
	b=$(awk -F, '$3=="syscalls:sys_enter_write" {print $1}' "$T_TMP/f.csv")
	check "sys_enter_write as perf ($a, perf $b)" test "$a" = "$b"
else
	skip "perf oracle" "perf cannot count syscalls:sys_enter_write here"
fi

# a glob with modifiers and other events beside it: sched:sched_*:u
ns=$(ls "$TR/events/sched" 2>/dev/null | grep -c '^sched_')
if [ "$ns" -gt 1 ]; then
	"$PMKIT" stat -x, -o "$T_TMP/s.csv" -e 'task-clock,sched:sched_*:u' -- true; rc=$?
	nr=$(grep -c ',sched:sched_.*:u,' "$T_TMP/s.csv")
	check "sched:sched_*:u: $nr rows with the modifier, $ns tracepoints (exit $rc)" \
		sh -c 'test "$1" = 0 && test "$2" = "$3" && grep -q ",task-clock," "$4"' _ "$rc" "$nr" "$ns" "$T_TMP/s.csv"
	nl=$("$PMKIT" list 'sched:*' 2>/dev/null | grep -c 'sched:sched_')
	check "pmkit list 'sched:*' lists them ($nl, $ns in tracefs)" test "$nl" -ge "$ns"
else
	skip "sched glob" "no sched tracepoints here"
fi

# a glob matching nothing is still an event-string error (exit 2)
run_pmkit stat -e 'syscalls:no_such_*' -- true
check "a glob matching nothing exits 2 ($rc)" test "$rc" = 2
# inside a group the expansion stays in the group
"$PMKIT" stat -x, -o "$T_TMP/g.csv" -e '{syscalls:sys_enter_write*}' -- sh -c "$W"; rc=$?
a=$(awk -F, '$3=="syscalls:sys_enter_write" {print $1}' "$T_TMP/g.csv")
check "{glob} as one group counts $N writes ($a, exit $rc)" sh -c 'test "$1" = 0 && test "$2" = "$3"' _ "$rc" "$a" "$N"
check "the expansion is in name order" sh -c '
	grep ",syscalls:" "$1" | cut -d, -f3 > "$1.n"; sort "$1.n" | cmp -s - "$1.n"' _ "$T_TMP/all.csv"
# more events than stat takes: a clear usage error, nothing run
run_pmkit stat -e 'syscalls:*,syscalls:*,syscalls:*' -- true
check "a glob beyond 1024 events exits 2 naming the limit ($rc)" sh -c '
	test "$1" = 2 && echo "$2" | grep -q "more than 1024 events"' _ "$rc" "$err"
