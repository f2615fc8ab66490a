# lock.t: `pmkit lock record` and `pmkit lock contention` on a workload that
# contends for kernel locks (pmkit's bench sched messaging: 160 processes
# over Unix sockets), read as perf lock contention prints it: the header,
# one row per call path with its columns consistent (max <= total, avg =
# total / contended, a known type, a function+offset caller), the rows by
# total wait, -E N rows, -q no header, all on stderr. perf 6.1 is the
# oracle where installed: on one perf.data perf recorded, and on one pmkit
# recorded as perf, pmkit's rows are perf's rows. Needs root and the lock:contention_* tracepoints.
. tests/support/t.sh
require root tracefs
[ -d "$TRACEFS/events/lock/contention_begin" ] || {
	skip "$T_NAME" "no lock:contention_begin tracepoint here (kernel 5.19 or later)"; exit 0; }
cd "$T_TMP" || exit 1

run_pmkit lock record -o r.rec -- "$PMKIT" bench sched messaging -g 4 -l 30
if [ "$rc" != 0 ]; then
	skip "$T_NAME" "lock record fails here: $(printf '%s' "$err" | grep -v '^#' | head -1)"; exit 0
fi
check "lock record: the workload's output passes through" sh -c 'printf "%s\n" "$1" | grep -q "Total time:"' _ "$out"
run_pmkit evlist -i r.rec -v
check "lock record: both tracepoints recorded" sh -c 'printf "%s\n" "$1" | grep -q "^lock:contention_begin: " && printf "%s\n" "$1" | grep -q "^lock:contention_end: "' _ "$out"
begins=$(printf '%s\n' "$out" | sed -n 's/^lock:contention_begin: \([0-9]*\) samples.*/\1/p')

run_pmkit lock contention -i r.rec
check "lock contention: exit 0, nothing on stdout" sh -c '[ "$1" = 0 ] && [ -z "$2" ]' _ "$rc" "$out"
check "lock contention: perf's header, then a blank line" sh -c '
	[ "$(printf "%s\n" "$1" | sed -n 1p)" = " contended   total wait     max wait     avg wait         type   caller" ] &&
	[ -z "$(printf "%s\n" "$1" | sed -n 2p)" ]' _ "$err"
printf '%s\n' "$err" | sed 1,2d > rows
nrows=$(wc -l < rows)
if [ "${begins:-0}" -gt 0 ] && [ "$nrows" -gt 0 ]; then
	# every row: count, three times with units, type, caller; in ns:
	# max <= total, avg <= max, avg = total / count within rounding
	check "lock contention: $nrows rows, each consistent" awk '
	function ns(v, u) { return v * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : u == "m" ? 6e10 : 1) }
	{
		if (NF != 9 || $1 !~ /^[0-9]+$/ || $1 < 1) { print "bad row: " $0; bad = 1; next }
		t = ns($2, $3); m = ns($4, $5); a = ns($6, $7)
		if (m > t * 1.005 + 10 || a > m * 1.005 + 10) { print "max/avg: " $0; bad = 1 }
		if ((a * $1 - t) ^ 2 > (t * 0.01 + $1 * 10) ^ 2) { print "avg: " $0; bad = 1 }
		if ($8 !~ /^(spinlock|rwlock:[RW]|rwlock-rt:[RW]|rwsem:[RW]|mutex|rtmutex|semaphore|pcpu-sem:[RW]|unknown)$/) { print "type: " $0; bad = 1 }
		if ($9 !~ /^[A-Za-z_.][A-Za-z0-9_.]*\+0x[0-9a-f]+$/ && $9 != "Unknown") { print "caller: " $0; bad = 1 }
		if (NR > 1 && t > prev * 1.005 + 10) { print "order: " $0; bad = 1 }
		prev = t
	}
	END { exit bad }' rows
	run_pmkit lock contention -i r.rec -v
	tot=$(printf '%s\n' "$err" | sed -n 's/^\([0-9]*\) contention begins, \([0-9]*\) ends.*/\1/p')
	check "lock contention -v: $begins begins, as evlist counts them" [ "$tot" = "$begins" ]
	run_pmkit lock con -i r.rec -E 1 -q
	check "lock con -E 1 -q: exactly one line, the first row" sh -c '[ "$1" = 0 ] && [ "$(printf "%s\n" "$2" | wc -l)" = 1 ] && [ "$2" = "$(head -1 rows)" ]' _ "$rc" "$err"
	run_pmkit lock con -i r.rec -E 2 -k contended -q
	check "lock con -k contended -E 2: at most 2 rows, most contended first" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | awk "NR > 2 { exit 1 } NR == 2 && \$1 > p { exit 1 } { p = \$1 }"' _ "$rc" "$err"
else
	skip "lock contention rows" "no lock contention happened during the workload ($begins begins)"
fi

# perf as the oracle: its recording, read by both
if have perf && perf lock record -o p.data -- perf bench sched messaging -g 2 -l 20 >/dev/null 2>&1; then
	perf lock contention -i p.data 2> perf.txt
	run_pmkit lock contention -i p.data
	printf '%s\n' "$err" > pmkit.txt
	if [ "$(wc -l < perf.txt)" -gt 2 ]; then
		check "perf's recording: pmkit's rows are perf's ($(($(wc -l < perf.txt) - 2)) rows)" sh -c 'sort perf.txt > a; sort pmkit.txt > b; cmp -s a b || { diff a b | head -5; exit 1; }'
	else
		skip "perf's recording: rows compared" "no contention in perf's recording"
	fi
else
	skip "perf's recording: rows compared" "${T_WHY:-perf lock record fails here}"
fi

mkdir bin && ln -s "$PMKIT" bin/perf
# and the other way: perf reads pmkit's recording (perf.data as perf)
if have perf && bin/perf lock record -o k.data -- "$PMKIT" bench sched messaging -g 4 -l 30 >/dev/null 2>&1; then
	perf lock contention -i k.data 2> perf2.txt
	run_pmkit lock contention -i k.data
	printf '%s\n' "$err" > pmkit2.txt
	if [ "$(wc -l < pmkit2.txt)" -gt 2 ]; then
		check "pmkit's recording as perf.data: perf's rows are pmkit's ($(($(wc -l < pmkit2.txt) - 2)) rows)" sh -c 'sort perf2.txt > a; sort pmkit2.txt > b; cmp -s a b || { diff a b | head -5; exit 1; }'
	else
		skip "pmkit's recording as perf.data: rows compared" "no contention in the recording"
	fi
else
	skip "pmkit's recording as perf.data: rows compared" "${T_WHY:-lock record as perf fails here}"
fi

# as perf: perf list shows the tracepoints, -b is refused (perf's tests
# then skip the BPF part)
check "as perf: perf list shows lock:contention_begin" sh -c 'bin/perf list | grep -q "lock:contention_begin"'
run_pmkit lock con -b true
check "lock con -b: exit 1, BPF named" sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q BPF' _ "$rc" "$err"
run_pmkit lock con -i r.rec -k nosuch
check "lock con -k nosuch: exit 2, the keys named" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "wait_total"' _ "$rc" "$err"
run_pmkit lock con -i nosuch.rec
check "lock con -i missing file: exit 1, the file named" sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "nosuch.rec"' _ "$rc" "$err"
run_pmkit record -q -e task-clock -o t.rec -- true
if [ "$rc" = 0 ]; then
	run_pmkit lock con -i t.rec
	check "lock con on a recording without lock events: exit 2, said" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "no lock:contention_begin"' _ "$rc" "$err"
fi
run_pmkit lock
check "lock alone: exit 2" [ "$rc" = 2 ]
