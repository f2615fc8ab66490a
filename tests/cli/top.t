# top.t: `pmkit top` (perf top --stdio's display): on a process (-p) that
# spends its time in one function, that function leads every display,
# under perf top's heading; system-wide where that may be sampled; -K
# hides the kernel's symbols; SIGTERM ends it with status 0 after a last
# display; bad options are usage errors. perf top itself needs a terminal
# (without one it loops on its key menu), so the heading is checked
# against its format rather than against a run of perf.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
${CC:-cc} -O0 -g -fno-omit-frame-pointer -o cg "$prog/cg_tree.c" ||
	{ nok "build cg_tree" "cc failed"; exit 0; }
# TOP ARGS...: run top for about 1.5 s, then SIGTERM; $rc its status
top_for() {
	"$PMKIT" top "$@" > top.txt 2> top.err & t=$!
	sleep 1.5
	kill -TERM $t
	wait $t; rc=$?
}
./cg 6 & w=$!
top_for -p $w -d 0.3 -E 5
if grep -q 'cannot\|not permitted\|refused' top.err; then
	kill $w; skip "top" "cannot sample here: $(head -1 top.err)"; exit 0
fi
check "top -p: SIGTERM ends it with status 0 ($rc; $(head -1 top.err))" [ "$rc" = 0 ]
check "top -p: a display each 0.3 s, and a last one ($(grep -c PerfTop top.txt))" sh -c '[ $(grep -c "^   PerfTop:" "$1") -ge 3 ]' _ top.txt
check "top -p: perf top's heading" sh -c '
	grep "PerfTop:" "$1" | grep -Evq "^   PerfTop: +[0-9]+ irqs/sec  kernel: *[0-9.]+%  exact:  0\.0% lost: [0-9]+/[0-9]+ drop: 0/0 \[[0-9]+Hz [a-z-]+\],  \(target_pid: $2\)$" && exit 1
	grep -q "^-\{79\}$" "$1"' _ top.txt "$w"
check "top -p: the workload's hottest function leads the last display ($(tail -5 top.txt | grep -m1 '%'))" sh -c '
	awk "/PerfTop:/ { first = 1; next } first && /%/ { top = \$0; first = 0 } END { print top }" "$1" |
	grep -Eq "^ +[0-9.]+%  cg +\[\.\] leaf$"' _ top.txt
top_for -p $w -d 0.3 -E 20 -K
check "top -K: no kernel symbols" sh -c '[ "$1" = 0 ] && grep -q "\[\.\]" "$2" && ! grep -q "\[k\]" "$2"' _ "$rc" top.txt
kill $w 2>/dev/null
# system-wide, as perf top by default
top_for -d 0.3 -E 5
if [ "$rc" = 0 ]; then
	check "top: system-wide, perf's '(all, N CPUs)' ($(grep -m1 -o '(all.*' top.txt))" \
		grep -q "(all, $(getconf _NPROCESSORS_ONLN) CPUs\?)$" top.txt
else
	skip "top system-wide" "$(head -1 top.err)"
fi
run_pmkit top -d x
check "top -d x: usage error ($rc)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q -- "-d"' _ "$rc" "$err"
run_pmkit top -- true
check "top COMMAND: usage error, top watches a system or a process ($rc)" [ "$rc" = 2 ]
