# stat.t: pmkit stat as a new user tries it on any Linux machine.
. tests/support/t.sh
hw=0; have pmu && hw=1

run_pmkit stat -- sleep 0.1
check "sleep 0.1 exits 0" test "$rc" = 0
check "software counts printed" sh -c 'echo "$1" | grep -Eq "[0-9.]+ msec task-clock"' _ "$err"
check "page faults counted" sh -c 'echo "$1" | grep -Eq "^ +[1-9][0-9]* +page-faults"' _ "$err"
if [ $hw = 0 ]; then
	check "one line says hardware counters are unavailable" \
		sh -c 'test "$(echo "$1" | grep -c "hardware counters are unavailable")" = 1' _ "$err"
	# perf's default list: the hardware rows are bare <not supported>
	# rows (the one note says why), as perf stat prints them here
	check "default hardware events are bare <not supported> rows, as perf" \
		sh -c 'test "$(echo "$1" | grep -Ec "^ +<not supported> +(cycles|instructions|branches|branch-misses) *$")" = 4' _ "$err"
else
	check "hardware defaults counted" sh -c 'echo "$1" | grep -q instructions' _ "$err"
fi

run_pmkit stat -e task-clock,page-faults -x, -- true
check "csv exits 0" test "$rc" = 0
check "csv has both events" sh -c '
	echo "$1" | awk -F, "\$3==\"task-clock\" && \$1+0>0 {a=1} \$3==\"page-faults\" && \$1+0>0 {b=1} END {exit !(a&&b)}"' _ "$err"
check "csv has perf's 7 fields" sh -c 'echo "$1" | awk -F, "NF!=7 {bad=1} END {exit bad}"' _ "$err"

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
check "repeats give perf's +- field (4th, in %)" sh -c 'echo "$1" | awk -F, "\$3==\"page-faults\" && \$4 ~ /%\$/ && NF==8 {ok=1} END {exit !ok}"' _ "$err"

run_pmkit stat -I 50 -x, -e task-clock -- sleep 0.2
check "intervals print timestamped lines" sh -c 'test "$(echo "$1" | grep -c "^ *0\.[0-9]*,")" -ge 2' _ "$err"

run_pmkit stat -e instructions,task-clock -x, --extended -- true
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

# perf's -j: one JSON object per line and event
run_pmkit stat -j -e task-clock,page-faults -- true
check "-j writes perf's JSON lines" python3 -c '
import json,sys
rows=[json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
ev={r["event"]:r for r in rows}
assert float(ev["task-clock"]["counter-value"])>0 and ev["task-clock"]["unit"]=="msec"
assert ev["task-clock"]["metric-unit"]=="CPUs utilized"
assert ev["page-faults"]["metric-unit"].endswith("/sec")' "$err"

# the option parser: perf's spellings
run_pmkit stat --event=task-clock -x, -- true
check "--event=X" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",task-clock,"' _ "$err" "$rc"
run_pmkit stat -etask-clock -x';' -- true
check "-eX and -x';' attached" sh -c 'test "$2" = 0 && echo "$1" | grep -q ";task-clock;"' _ "$err" "$rc"
run_pmkit stat -ae task-clock -x, -- sleep 0.05
check "combined flags -ae X" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",task-clock,"' _ "$err" "$rc"
run_pmkit stat --per-cor -a -x, -e task-clock -- true
check "unique prefix of a long option" sh -c 'test "$2" = 0 && echo "$1" | grep -q "^S[0-9]*-D[0-9]*-C[0-9]*,1,"' _ "$err" "$rc"
run_pmkit stat --null-run -- true
check "typo: exit 2 with the nearest option" sh -c 'test "$2" = 2 && echo "$1" | grep -q "unknown option .--null-run." && echo "$1" | grep -q "did you mean .--null."' _ "$err" "$rc"
run_pmkit stat -e
check "missing value: exit 2 naming the option" sh -c 'test "$2" = 2 && echo "$1" | grep -q "option .-e. needs a value"' _ "$err" "$rc"
run_pmkit stat -e task-clock -x, -- sh -c 'echo "$1" > "$2"' x -x "$T_TMP/arg"
check "options after the command are the command's" sh -c 'test "$(cat "$1")" = -x' _ "$T_TMP/arg"

# usage errors name the cause and exit 2
run_pmkit stat -r 0 -- true
check "-r 0: message, exit 2" sh -c 'test "$2" = 2 && echo "$1" | grep -q "needs a count of 1 or more"' _ "$err" "$rc"
run_pmkit stat -p 0
check "-p 0: message, exit 2" sh -c 'test "$2" = 2 && echo "$1" | grep -q "process id above 0"' _ "$err" "$rc"
ncpu=$(getconf _NPROCESSORS_CONF)
run_pmkit stat -a -C "$ncpu" -- true
check "-C beyond the last CPU names it out of range" sh -c 'test "$2" = 2 && echo "$1" | grep -q "CPU $3 is out of range"' _ "$err" "$rc" "$ncpu"
run_pmkit stat -A -- true
check "-A without -a is a usage error" test "$rc" = 2

# aggregation
run_pmkit stat -a -A -x, -e task-clock -- sleep 0.05
check "-A: one row per CPU" sh -c 'test "$(echo "$1" | grep -c "^CPU[0-9]*,.*,task-clock,")" = "$2"' _ "$err" "$(getconf _NPROCESSORS_ONLN)"
run_pmkit stat -a --per-socket -x, -e task-clock -- sleep 0.05
check "--per-socket: S<n>,<cpus>,value" sh -c 'echo "$1" | grep -q "^S0,[0-9]*,[0-9.]*,msec,task-clock,"' _ "$err"

# other perf options
run_pmkit stat -n -- sleep 0.05
check "-n: the time only" sh -c 'test "$2" = 0 && echo "$1" | grep -q "seconds time elapsed" && ! echo "$1" | grep -q task-clock' _ "$err" "$rc"
run_pmkit stat -n -e task-clock -- sleep 0.05
check "-n -e task-clock: the event counted, as perf (-n leaves out only the defaults)" sh -c 'test "$2" = 0 && echo "$1" | grep -q "msec task-clock" && echo "$1" | grep -q "seconds time elapsed"' _ "$err" "$rc"
run_pmkit stat -q -e task-clock -- sh -c 'exit 3'
check "-q: nothing printed, the workload's status (3, got $rc)" sh -c 'test "$1" = 3 && test -z "$2" && test -z "$3"' _ "$rc" "$out" "$err"
# --append: the file gains a block, the old one is FILE.old; never through
# a link; only with -o
rm -f "$T_TMP/app.txt" "$T_TMP/app.txt.old"
run_pmkit stat -o "$T_TMP/app.txt" --append -x, -e task-clock -- true
run_pmkit stat -o "$T_TMP/app.txt" --append -x, -e task-clock -- true
check "--append twice: two '# started on' lines and two task-clock rows; FILE.old the first run's" sh -c '
	[ "$(grep -c "^# started on" "$1")" = 2 ] && [ "$(grep -c ",task-clock," "$1")" = 2 ] &&
	[ "$(grep -c ",task-clock," "$1.old")" = 1 ]' _ "$T_TMP/app.txt"
printf 'keep\n' > "$T_TMP/app_target"; ln -sf "$T_TMP/app_target" "$T_TMP/app_link"
run_pmkit stat -o "$T_TMP/app_link" --append -e task-clock -- true
check "--append to a link: exit 1, the link and its target untouched" sh -c '[ "$1" = 1 ] && [ -L "$2" ] && [ "$(cat "$3")" = keep ]' _ "$rc" "$T_TMP/app_link" "$T_TMP/app_target"
run_pmkit stat --append -e task-clock -- true
check "--append without -o: exit 2" [ "$rc" = 2 ]
run_pmkit stat -S -c -x, -e task-clock -- true
check "-S (sync first) and -c (perf's --scale): accepted, task-clock counted" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q ",task-clock,"' _ "$rc" "$err"
# --metric-no-merge: a derived event's natives are not shared with the
# events beside it (4 descriptors, not 2: the workload counts its parent's);
# --metric-no-group: accepted, the value still there
printf 'faults_per_ms = page-faults / (task-clock / 1000000)\n' > "$T_TMP/fpm.def"
nfd='ls -l /proc/$PPID/fd | grep -c perf_event'
run_pmkit stat --defs "$T_TMP/fpm.def" -x, -e faults_per_ms,page-faults,task-clock -- sh -c "$nfd"
a=$out
run_pmkit stat --metric-no-merge --defs "$T_TMP/fpm.def" -x, -e faults_per_ms,page-faults,task-clock -- sh -c "$nfd"
check "--metric-no-merge: 4 descriptors where shared natives take 2 (got $out, $a)" [ "$out" = 4 -a "$a" = 2 ]
run_pmkit stat --metric-no-group --defs "$T_TMP/fpm.def" -x, -e faults_per_ms -- true
check "--metric-no-group: the derived value counted" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "^[0-9.]*,,faults_per_ms,"' _ "$rc" "$err"
run_pmkit stat -r 2 --pre "echo pre >> $T_TMP/hooks" --post "echo post >> $T_TMP/hooks" -e task-clock -- true
check "--pre/--post run around each run" sh -c 'test "$(cat "$1" | tr "\n" " ")" = "pre post pre post "' _ "$T_TMP/hooks"
run_pmkit stat --log-fd 1 -x, -e task-clock -- true
check "--log-fd 1 writes to stdout" sh -c 'echo "$1" | grep -q ",task-clock,"' _ "$out"
# a busy start, then a sleep: -D 300 skips the busy part
busy='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; sleep 0.5'
run_pmkit stat -x, -e task-clock -- sh -c "$busy"
all=$(echo "$err" | awk -F, '$3=="task-clock" {print $1}')
run_pmkit stat -D 300 -x, -e task-clock -- sh -c "$busy"
late=$(echo "$err" | awk -F, '$3=="task-clock" {print $1}')
check "-D 300: counting starts after the delay ($late ms of $all)" sh -c 'test "$3" = 0 && awk -v a="$1" -v b="$2" "BEGIN {exit !(b > 0 && a < b / 2)}"' _ "${late:-0}" "${all:-0}" "$rc"
run_pmkit stat --all-user -x, -e task-clock -- true
check "--all-user counts" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",task-clock,"' _ "$err" "$rc"
run_pmkit stat -I 30 --interval-count 2 -x, -e task-clock -- sleep 1
check "--interval-count 2 stops after two prints" sh -c 'test "$(echo "$1" | grep -c task-clock)" = 2' _ "$err"
run_pmkit stat -v -x, -e task-clock -- true
check "-v prints raw, enabled and running" sh -c 'echo "$1" | grep -Eq "^task-clock: [0-9]+ [0-9]+ [0-9]+$"' _ "$err"
run_pmkit stat -M list
check "-M list lists the metric library" sh -c 'test "$2" = 0 && echo "$1" | grep -q "^IPC  *basic"' _ "$out" "$rc"
run_pmkit stat -M page_faults_per_ms -x, -- true
check "-M NAME counts a metric of the library" sh -c 'test "$2" = 0 && echo "$1" | grep -q ",page_faults_per_ms,"' _ "$err" "$rc"
run_pmkit stat -M nosuch -- true
check "-M unknown: exit 2 with a hint" sh -c 'test "$2" = 2 && echo "$1" | grep -q "M list"' _ "$err" "$rc"
if [ $hw = 0 ]; then
	run_pmkit stat --topdown -- true
	check "--topdown without a PMU says what it needs" sh -c 'test "$2" = 1 && echo "$1" | grep -q "needs hardware counters"' _ "$err" "$rc"
else
	skip "--topdown needs message" "this machine counts hardware events"
fi
run_pmkit stat -x, --extended -e task-clock -- true
check "--extended adds pmkit's columns after perf's" sh -c 'echo "$1" | awk -F, "\$3==\"task-clock\" && NF==12 {ok=1} END {exit !ok}"' _ "$err"
# --summary: the totals after the intervals; in CSV a "summary" column
# first (perf 6.1's layout), not with --no-csv-summary
run_pmkit stat -I 100 -x, --summary -e task-clock -- sleep 0.25
check "--summary -x,: intervals, then one 'summary' row" sh -c '
	test "$2" = 0 && test "$(echo "$1" | grep -c "^ *summary,[0-9.]*,msec,task-clock,")" = 1 &&
	test "$(echo "$1" | grep -c "^ *0\.[0-9]*,")" -ge 2' _ "$err" "$rc"
run_pmkit stat -I 100 -x, --summary --no-csv-summary -e task-clock -- sleep 0.15
check "--no-csv-summary: the totals row without the column" sh -c '
	echo "$1" | grep -q "^[0-9.]*,msec,task-clock," && ! echo "$1" | grep -q summary' _ "$err"
run_pmkit stat -I 100 --summary -e task-clock -- sleep 0.15
check "--summary text: the usual block after the intervals" sh -c '
	echo "$1" | grep -q "Performance counter stats for .sleep 0.15.:"' _ "$err"
if have perf; then
	"$PMKIT" stat -I 100 -x, --summary -e task-clock,page-faults -o "$T_TMP/ps.csv" -- sleep 0.15
	perf stat -I 100 -x, --summary -e task-clock,page-faults -o "$T_TMP/fs.csv" -- sleep 0.15
	check "--summary -x,: the summary rows' columns as perf's" sh -c '
		a=$(grep summary "$1" | awk -F, "{print \$1, \$3, \$4, NF}")
		b=$(grep summary "$2" | awk -F, "{print \$1, \$3, \$4, NF}")
		test -n "$a" && test "$a" = "$b"' _ "$T_TMP/ps.csv" "$T_TMP/fs.csv"
else
	skip "--summary against perf" "$T_WHY"
fi
# perf's metrics follow modified events: page-faults:u per second of task-clock:u
run_pmkit stat -x, -e task-clock:u,page-faults:u -- true
check ":u events keep the metric column (CPUs utilized, /sec)" sh -c '
	echo "$1" | grep -q ",task-clock:u,.*,CPUs utilized$" &&
	echo "$1" | grep -Eq ",page-faults:u,.*,[KMG]?/sec$"' _ "$err"
# system-wide, perf's default list counts cpu-clock, not task-clock
run_pmkit stat -a -x, -- sleep 0.05
check "-a: the default clock row is cpu-clock, as perf" sh -c '
	test "$2" = 0 && echo "$1" | grep -q ",msec,cpu-clock," && ! echo "$1" | grep -q ",task-clock,"' _ "$err" "$rc"
# --timeout: the workload stopped after N ms, its counts printed, status 0 (perf's)
t0=$(date +%s%N)
run_pmkit stat --timeout 200 -x, -e task-clock -- sleep 5
t1=$(date +%s%N)
check "--timeout 200: sleep 5 stopped within 2 s, counts printed, exit 0 ($rc)" sh -c '
	test "$2" = 0 && echo "$1" | grep -q ",msec,task-clock," && test $(( ($4 - $3) / 1000000 )) -lt 2000' _ "$err" "$rc" "$t0" "$t1"
run_pmkit stat --timeout 5 -- true
check "--timeout under 10 ms: exit 2, as perf" test "$rc" = 2
run_pmkit stat --timeout 100 -I 50 -- true
check "--timeout with -I: exit 2, as perf" test "$rc" = 2
# perf's other aggregations: --per-die (S0-D0), --per-node (N0), each with
# its number of CPUs; --per-thread -a: every thread that counted, highest
# first (checked on the task-clock in ns of column 5: 0.00 msec may be > 0)
run_pmkit stat -a --per-die -x, -e task-clock -- sleep 0.05
check "--per-die: S<n>-D<n>,<cpus>,value" sh -c 'test "$2" = 0 && echo "$1" | grep -q "^S[0-9]*-D[0-9]*,[0-9]*,[0-9.]*,msec,task-clock,"' _ "$err" "$rc"
run_pmkit stat -a --per-node -x, -e task-clock -- sleep 0.05
check "--per-node: N<n>,<cpus>,value" sh -c 'test "$2" = 0 && echo "$1" | grep -q "^N[0-9]*,[0-9]*,[0-9.]*,msec,task-clock,"' _ "$err" "$rc"
run_pmkit stat -a --per-thread -x, -e task-clock -- sleep 0.05
check "--per-thread -a: comm-tid rows, sorted by count, none zero" sh -c '
	test "$2" = 0 && test "$(echo "$1" | grep -c "^[^,]*-[0-9]*,[0-9.]*,msec,task-clock,")" -ge 2 &&
	echo "$1" | awk -F, "\$4==\"task-clock\" {if (\$5+0 <= 0 || (n++ && \$5+0 > last)) bad=1; last=\$5+0} END {exit bad}"' _ "$err" "$rc"
run_pmkit stat -a --no-merge -A -x, -e task-clock -- true
check "--no-merge is accepted (nothing is merged)" test "$rc" = 0
if have perf; then
	for agg in --per-die --per-node --per-thread; do
		"$PMKIT" stat -a $agg -x, -e task-clock -o "$T_TMP/pa.csv" -- sleep 0.05
		perf stat -a $agg -x, -e task-clock -o "$T_TMP/fa.csv" -- sleep 0.05
		# --per-thread: the threads of the whole machine, which come and
		# go between the two runs; one whose name has a comma (not
		# perf's CSV's business) is left out
		check "$agg -a: the same field counts and units as perf" sh -c '
			f() { grep -v "^#" "$1" | grep . | if [ "$2" = --per-thread ]; then grep -E "^[^,]*-[0-9]+,"; else cat; fi | awk -F, "{print NF, \$(NF-5)}" | sort -u; }
			test -n "$(f "$1" "$3")" && test "$(f "$1" "$3")" = "$(f "$2" "$3")" || {
				f "$1" "$3" | sed "s/^/# pmkit: /"; f "$2" "$3" | sed "s/^/# perf: /"; false; }' _ "$T_TMP/pa.csv" "$T_TMP/fa.csv" "$agg"
	done
else
	skip "aggregations against perf" "$T_WHY"
fi
