# sched.t: `pmkit bench sched messaging|pipe`, perf bench sched's two
# benchmarks: perf's header lines and "Total time" line, the task counts
# the header names (processes and threads really made and ended), perf's
# options, and usage errors. Small runs only (1-2 groups, few loops): the
# machine is shared. No time is asserted.
. tests/support/t.sh

run_pmkit bench sched messaging -g 2 -l 5
check "messaging: exit 0, nothing on stderr" sh -c '[ "$1" = 0 ] && [ -z "$2" ]' _ "$rc" "$err"
check "messaging: perf's header and total lines" sh -c '
	printf "%s\n" "$1" | sed -n 1,5p > "$2/h"
	printf "%s\n" "# Running '\''sched/messaging'\'' benchmark:" \
		"# 20 sender and receiver processes per group" \
		"# 2 groups == 80 processes run" "" > "$2/want"
	head -4 "$2/h" | cmp -s - "$2/want" &&
	sed -n 5p "$2/h" | grep -qE "^     Total time: [0-9]+\.[0-9]{3} \[sec\]$"' _ "$out" "$T_TMP"

run_pmkit bench sched messaging --thread --group 1 --nr_loops 3
check "messaging -t: threads in the header, exit 0" sh -c '[ "$1" = 0 ] &&
	printf "%s\n" "$2" | grep -qx "# 1 groups == 40 threads run"' _ "$rc" "$out"
run_pmkit bench sched messaging -p -g 1 -l 3
check "messaging -p (pipes): exit 0 and a total" sh -c '[ "$1" = 0 ] &&
	printf "%s\n" "$2" | grep -q "Total time:"' _ "$rc" "$out"

# the processes are really made: strace sees 2 x 20 forks for one group
if have strace; then
	strace -f -e trace=clone,clone3,fork,vfork -o "$T_TMP/st" "$PMKIT" bench sched messaging -g 1 -l 2 >/dev/null 2>&1
	forks=$(grep -cE "clone|fork" "$T_TMP/st")
	check "messaging -g 1: 40 processes forked (strace saw $forks)" [ "$forks" -ge 40 ]
else
	skip "messaging: processes forked" "$T_WHY"
fi

run_pmkit bench sched pipe -l 2000
check "pipe: exit 0, perf's lines" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | awk "
	NR == 1 && \$0 != \"# Running '\''sched/pipe'\'' benchmark:\" { bad = 1 }
	NR == 2 && \$0 != \"# Executed 2000 pipe operations between two processes\" { bad = 1 }
	/^     Total time: [0-9]+\.[0-9][0-9][0-9] \[sec\]$/ { t = 1 }
	/^ +[0-9]+\.[0-9]+ usecs\/op$/ { u = 1 }
	/^ +[0-9]+ ops\/sec$/ { o = 1 }
	END { exit bad || !t || !u || !o }"' _ "$rc" "$out"
run_pmkit bench sched pipe -T -l 2000
check "pipe -T: between two threads" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "between two threads"' _ "$rc" "$out"

run_pmkit bench sched messaging -x
check "messaging -x: exit 2, error names the option" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "'\''-x'\''"' _ "$rc" "$err"
run_pmkit bench sched messaging -g 0
check "messaging -g 0: exit 2, error names -g" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "^error: -g"' _ "$rc" "$err"
run_pmkit bench sched messaging -l abc
check "messaging -l abc: exit 2" [ "$rc" = 2 ]
run_pmkit bench sched
check "bench sched alone: exit 2, names messaging and pipe" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "messaging or pipe"' _ "$rc" "$err"
run_pmkit bench sched nosuch
check "bench sched nosuch: exit 2" [ "$rc" = 2 ]
