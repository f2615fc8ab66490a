# attach.t: `pmkit stat -p` and `pmkit record -p` follow every thread of a
# process and what it creates after the attach, as perf does. The program
# (tests/count/prog/late.c) starts 2 threads and a child once the tool has
# attached (a signal sent when the tool holds its perf descriptors, so a
# loaded machine changes nothing), each burning 50 ms of CPU time; perf,
# where installed, is the oracle for the figure.
. tests/support/t.sh
CC=${CC:-cc}
require cc
"$CC" -O1 -pthread -o "$T_TMP/late" "$PMK_SRC/tests/count/prog/late.c" ||
	{ nok "build late" "cc failed"; exit 0; }

# late_start BURN_MS [early]: late waiting for SIGUSR1 (tests/count/prog/
# late.c), once it runs with the signal blocked and, with early, its two
# threads exist; sets $p. late_go TOOLPID N: send the signal once TOOLPID
# holds N perf event descriptors (it has attached), so that however loaded
# the machine, the work starts after the attach and not before.
late_start() {
	"$T_TMP/late" 0 "$@" & p=$!
	want=1; [ "$2" = early ] && want=3
	i=0
	while [ $i -lt 1000 ]; do
		blk=$(awk '/^SigBlk:/ {print $2}' /proc/$p/status 2>/dev/null)
		if [ "$(cat /proc/$p/comm 2>/dev/null)" = late ] && [ -n "$blk" ] &&
		   [ $((0x$blk & 0x200)) != 0 ] &&
		   [ "$(ls /proc/$p/task 2>/dev/null | wc -l)" -ge $want ]; then
			return 0
		fi
		sleep 0.01; i=$((i + 1))
	done
}
late_go() {
	i=0
	while [ $i -lt 2000 ] && kill -0 "$1" 2>/dev/null; do
		[ "$(ls -l /proc/$1/fd 2>/dev/null | grep -c 'perf_event')" -ge "$2" ] && break
		sleep 0.01; i=$((i + 1))
	done
	kill -USR1 $p
}
# task-clock in ms of `TOOL stat -e task-clock -x, -p PID` on late ARGS
pmkit_ms() {
	late_start "$@"
	"$PMKIT" stat -e task-clock -x, -o "$T_TMP/p.csv" -p $p 2>"$T_TMP/perr" & tp=$!
	late_go $tp $want
	wait $tp; echo $? > "$T_TMP/prc"
	wait $p
	awk -F, '$3=="task-clock" {print $1}' "$T_TMP/p.csv"
}
perf_ms() {
	late_start "$@"
	perf stat -e task-clock -x, -o "$T_TMP/f.csv" -p $p 2>/dev/null & tp=$!
	late_go $tp $want
	wait $tp
	wait $p
	awk -F, '$3=="task-clock" {print $1}' "$T_TMP/f.csv"
}
within() { # A B PCT: |A-B| <= PCT % of B
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {d=a-b; if (d<0) d=-d; exit !(b>0 && d<=b*p/100)}'
}

for mode in late early; do
	args="50"; [ $mode = early ] && args="50 early"
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
late_start 50
"$PMKIT" stat -e task-clock -x, -t $p >"$T_TMP/out" 2>"$T_TMP/err" & tp=$!
late_go $tp 1
wait $tp
wait $p
a=$(awk -F, '$3=="task-clock" {print $1}' "$T_TMP/err")
check "stat -t TID inherits to the threads it creates ($a ms)" within "${a:-0}" 150 15

# record -p: samples from every existing thread (early) at the default
# 4000 Hz of CPU time: 3 x 150 ms -> about 1800 samples; the main thread
# alone (with its child) would give a third of that
late_start 150 early
"$PMKIT" record -p $p -o "$T_TMP/l.rec" >"$T_TMP/out" 2>"$T_TMP/err" & tp=$!
late_go $tp 3
wait $tp
wait $p
n=$(sed -n 's/^pmkit record: \([0-9]*\) samples.*/\1/p' "$T_TMP/err")
check "record -p samples every existing thread ($n samples, about 1800 expected)" \
	test "${n:-0}" -ge 1400
# ... and a third of them from each of the three (two threads, one child)
"$PMKIT" report -i "$T_TMP/l.rec" --sort tid >"$T_TMP/tids" 2>&1
check "record -p: each of the 3 burning threads has 20-45 % of the samples ($(awk '$1 ~ /%$/ {printf "%s ", $1}' "$T_TMP/tids"))" \
	awk '$1 ~ /%$/ { v = $1 + 0; if (v >= 20 && v <= 45) n++ } END { exit n != 3 }' "$T_TMP/tids"
