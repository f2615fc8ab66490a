# attach.t: `pmkit stat -p` and `pmkit record -p` follow every thread of a
# process and what it creates after the attach, as perf does. The program
# (tests/count/prog/late.c) starts 2 threads and a child after the tools
# have attached, each burning 50 ms of CPU time; perf, where installed, is
# the oracle for the figure.
. tests/support/t.sh
CC=${CC:-cc}
require cc
"$CC" -O1 -pthread -o "$T_TMP/late" "$PMK_SRC/tests/count/prog/late.c" ||
	{ nok "build late" "cc failed"; exit 0; }

# task-clock in ms of `TOOL stat -e task-clock -x, -p PID` on late ARGS
pmkit_ms() {
	"$T_TMP/late" "$@" & p=$!
	"$PMKIT" stat -e task-clock -x, -o "$T_TMP/p.csv" -p $p 2>"$T_TMP/perr"
	echo $? > "$T_TMP/prc"
	wait $p
	awk -F, '$3=="task-clock" {print $1}' "$T_TMP/p.csv"
}
perf_ms() {
	"$T_TMP/late" "$@" & p=$!
	perf stat -e task-clock -x, -o "$T_TMP/f.csv" -p $p 2>/dev/null
	wait $p
	awk -F, '$3=="task-clock" {print $1}' "$T_TMP/f.csv"
}
within() { # A B PCT: |A-B| <= PCT % of B
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {d=a-b; if (d<0) d=-d; exit !(b>0 && d<=b*p/100)}'
}

for mode in late early; do
	args="200 50"; [ $mode = early ] && args="200 50 early"
	a=$(pmkit_ms $args)
	check "stat -p ($mode threads) exits 0" test "$(cat "$T_TMP/prc")" = 0
	# 3 x 50 ms burnt after the attach: a tool that sees only the main
	# thread counts well under 1 ms
	check "stat -p ($mode threads) counts the threads and child made later: $a ms of 150" \
		within "${a:-0}" 150 15
	if have perf; then
		b=$(perf_ms $args)
		check "stat -p ($mode threads) within 10 % of perf stat -p ($a ms, perf $b ms)" \
			within "${a:-0}" "${b:-0}" 10
	else
		skip "stat -p against perf ($mode threads)" "$T_WHY"
	fi
done

# -t: one thread and what it creates (the main thread creates everything)
"$T_TMP/late" 200 50 & p=$!
run_pmkit stat -e task-clock -x, -t $p
wait $p
a=$(echo "$err" | awk -F, '$3=="task-clock" {print $1}')
check "stat -t TID inherits to the threads it creates ($a ms)" within "${a:-0}" 150 15

# record -p: samples from every existing thread (early) at the default
# 4000 Hz of CPU time: 3 x 150 ms -> about 1800 samples; the main thread
# alone (with its child) would give a third of that
"$T_TMP/late" 300 150 early & p=$!
run_pmkit record -p $p -o "$T_TMP/l.rec"
wait $p
n=$(echo "$err" | sed -n 's/^pmkit record: \([0-9]*\) samples.*/\1/p')
check "record -p samples every existing thread ($n samples, about 1800 expected)" \
	test "${n:-0}" -ge 1400
