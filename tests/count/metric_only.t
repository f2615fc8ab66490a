# metric_only.t: `stat --metric-only` (pmkit's, and perf's through a link
# named perf): perf 6.1's metric-only layout. Against perf on software
# events: the headings, the aggregation and time columns of text, -x, and
# -j (perf 6.1 shows no metric of a software event in this layout, so the
# lines carry no values there either). pmkit's -M metrics of software
# events give real columns; on a captured machine (PMK_SYSROOT) the columns
# of metrics whose events cannot be counted are blank where the normal
# layout says <not supported>, and the workload's exit status is kept.
. tests/support/t.sh
mkdir -p "$T_TMP/bin"
ln -s "$PMKIT" "$T_TMP/bin/perf"
PERF=$T_TMP/bin/perf
EV=task-clock,context-switches,page-faults
NCPU=$(getconf _NPROCESSORS_ONLN)

# (stat prints on stderr, as perf)
# the run's lines without the numbers that differ between runs: interval
# time stamps become T, seconds lines are dropped, blanks at the end of a
# line and separators at the end of a CSV line are left out, repeated
# lines kept once
norm() {
	sed -E 's/^ *[0-9]+\.[0-9]{9}/T/; /seconds (time elapsed|user|sys)$/d;
		s/[ ,]+$//' "$1" | awk '!seen[$0]++'
}

# layouts whose every line perf 6.1 and pmkit print alike (CSV up to
# perf's missing separators at the end of a heading)
if have perf; then
	i=0
	for L in "" "-x," "-I 50" "-x, -I 50" "-a -A" "-a --per-core" \
		"-a --per-socket" "-a --per-die" "-a --per-node" "-x, -a -A" \
		"-x, -a --per-core" "-x, -a --per-socket" "-x, -a --per-die" \
		"-a -A -I 50" "-a --per-core -I 50" "-a --per-socket -I 50" \
		"-a --per-die -I 50" "-a --per-node -I 50" "-x, -a -A -I 50" \
		"-x, -a --per-core -I 50"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		perf stat --metric-only $L -e $EV -- sleep 0.12 2>"$T_TMP/f$i"
		frc=$?
		# shellcheck disable=SC2086
		"$PERF" stat --metric-only $L -e $EV -- sleep 0.12 2>"$T_TMP/p$i"
		prc=$?
		norm "$T_TMP/f$i" >"$T_TMP/fn$i"
		norm "$T_TMP/p$i" >"$T_TMP/pn$i"
		check "perf stat --metric-only $L: perf 6.1's lines (exit $prc, perf $frc)" \
			sh -c 'test "$1" = "$2" && test "$1" = 0 && cmp -s "$3" "$4" ||
				{ diff "$3" "$4" >&2; exit 1; }' _ "$prc" "$frc" \
			"$T_TMP/fn$i" "$T_TMP/pn$i"
	done
	# -j: perf 6.1's lines are not all JSON ('{"cpu" : "0", ', and an
	# empty line for a row with no key); pmkit's open the same and close
	# ('{"cpu" : "0"}', '{}')
	for L in "-j" "-j -a -A" "-j -a --per-core" "-j -a --per-socket"; do
		# shellcheck disable=SC2086
		perf stat --metric-only $L -e $EV -- sleep 0.05 2>"$T_TMP/fj"
		# shellcheck disable=SC2086
		"$PERF" stat --metric-only $L -e $EV -- sleep 0.05 2>"$T_TMP/pj"
		check "perf stat --metric-only $L: perf's rows, as JSON" \
			sh -c 'sed -n "2,\$p" "$1" | grep -v "^\$" | sed "s/, \$//" > "$1.r"
				sed -n "2,\$p" "$2" | grep -vx "{}" | sed "s/}\$//" > "$2.r"
				cmp -s "$1.r" "$2.r" || { diff "$1.r" "$2.r" >&2; exit 1; }
				python3 -c "import json,sys
for l in open(sys.argv[1]): json.loads(l)" "$2"' _ "$T_TMP/fj" "$T_TMP/pj"
	done
else
	skip "against perf 6.1" "$T_WHY"
fi

# pmkit's -M metrics of software events: real columns
M=page_faults_per_ms,context_switches_per_s
run_pmkit stat --metric-only -M $M -- sleep 0.05
printf '%s\n' "$err" > "$T_TMP/t"
check "text: the heading is the metrics' names, each right-aligned in 20" \
	grep -qx '  page_faults_per_ms context_switches_per_s ' "$T_TMP/t"
check "text: one line of values under the names (rc $rc)" sh -c '
	test "$2" = 0 && awk "/page_faults_per_ms/ {getline; print; exit}" "$1" |
	grep -Eq "^ +[0-9.e+]+ +[0-9.e+]+ \$"' _ "$T_TMP/t" "$rc"
check "text: no counts, no event names" sh -c '! grep -Eq "msec|task-clock|#" "$1"' _ "$T_TMP/t"
run_pmkit stat --metric-only -x';' -M $M -- sleep 0.05
check "-x';': headings then values, each ending in the separator" sh -c '
	test "$(printf "%s\n" "$1" | head -1)" = "page_faults_per_ms;context_switches_per_s;" &&
	printf "%s\n" "$1" | sed -n 2p | grep -Eq "^[0-9.e+]+;[0-9.e+]+;\$" &&
	test "$(printf "%s\n" "$1" | wc -l)" = 2' _ "$err"
run_pmkit stat --metric-only -j -M $M -- sleep 0.05
check "-j: perf's heading line and a row keyed by the metrics" sh -c '
	test "$(printf "%s\n" "$1" | head -1)" = "{\"unit\" : \"page_faults_per_ms\", \"unit\" : \"context_switches_per_s\"}" &&
	printf "%s\n" "$1" | sed -n 2p | python3 -c "import json,sys
d = json.loads(sys.stdin.read())
assert sorted(d) == [\"context_switches_per_s\", \"page_faults_per_ms\"], d
float(d[\"page_faults_per_ms\"])"' _ "$err"
run_pmkit stat --metric-only -I 50 -M $M -- sleep 0.17
printf '%s\n' "$err" > "$T_TMP/i"
check "-I: a time column and one heading line" sh -c '
	test "$(grep -c "^#" "$1")" = 1 &&
	grep -qx "#           time   page_faults_per_ms context_switches_per_s " "$1"' _ "$T_TMP/i"
check "-I: a line per interval: time, then a value or blank per metric" sh -c '
	n=$(grep -vc "^#" "$1"); test "$n" -ge 3 &&
	test "$(grep -v "^#" "$1" | grep -Ec "^ +[0-9]+\.[0-9]{9} .{20} .{22} \$")" = "$n"' _ "$T_TMP/i"
run_pmkit stat --metric-only -x, -a -A -M $M -- sleep 0.05
check "-x, -a -A: cpu heading, a line per CPU ($NCPU)" sh -c '
	test "$(printf "%s\n" "$1" | head -1)" = "cpu,page_faults_per_ms,context_switches_per_s," &&
	test "$(printf "%s\n" "$1" | grep -Ec "^CPU[0-9]+,[-0-9.e+]*,[-0-9.e+]*,\$")" = "$2"' _ "$err" "$NCPU"
run_pmkit stat --metric-only -a --per-socket -M $M -- sleep 0.05
check "-a --per-socket: perf's S0 prefix and the CPUs it has" sh -c '
	printf "%s\n" "$1" | grep -Eq "^S[0-9]+ +[0-9]+ +[-0-9.e+]+ +[-0-9.e+]+ \$"' _ "$err"

# a captured machine: perf's metrics (JSON) and perf's shadow metrics of
# hardware events; a column is blank where the normal layout's row says
# <not supported>
FX=tests/fixtures/intel-icx
E=task-clock,cycles,instructions,branches,branch-misses
PMK_SYSROOT=$FX "$PMKIT" stat --metric-only -x, -M IPC,CPI -e $E -- sh -c 'exit 3' \
	2>"$T_TMP/mo"; rc=$?
PMK_SYSROOT=$FX "$PMKIT" stat -x, -M IPC,CPI -e $E -- sh -c 'exit 3' \
	2>"$T_TMP/n"
check "fixture: the workload's exit status kept ($rc)" test "$rc" = 3
check "fixture: columns GHz, insn per cycle, branch-misses of all branches, IPC, CPI" \
	test "$(head -1 "$T_TMP/mo")" = "GHz,insn per cycle,branch-misses of all branches,IPC,CPI,"
check "fixture: a -M column is blank exactly where the normal row is <not supported>" sh -c '
	for m in IPC CPI; do
		col=$(awk -F, -v m="$m" "NR==1 {for (i=1;i<=NF;i++) if (\$i==m) print i}" "$1")
		v=$(sed -n 2p "$1" | cut -d, -f"$col")
		n=$(awk -F, -v m="$m" "\$3==m {print \$1}" "$2")
		case $n in "<not supported>"|"<not counted>") test -z "$v" || exit 1 ;;
		*) test -n "$v" || exit 1 ;; esac
	done' _ "$T_TMP/mo" "$T_TMP/n"
check "fixture: a shadow column is blank where cycles is <not supported>" sh -c '
	if grep -q "^<not supported>,,cycles," "$2"; then
		test "$(sed -n 2p "$1" | cut -d, -f1,2)" = ","
	fi' _ "$T_TMP/mo" "$T_TMP/n"
# perf's TopdownL1 of Ice Lake-SP, where perf's pmu-events are installed
# (scripts/deps.d/pmu_events.sh)
if PMK_SYSROOT=$FX "$PMKIT" stat -M list 2>&1 | grep -q "^perf's metrics for icx (x86/icelakex"; then
	PMK_SYSROOT=$FX run_pmkit stat --metric-only -M TopdownL1 -- sh -c 'exit 5'
	check "fixture -M TopdownL1: text columns named as the metrics (rc $rc)" sh -c '
		test "$2" = 5 && printf "%s\n" "$1" | grep -Eq "^ +tma_frontend_bound +tma_bad_speculation +tma_backend_bound +tma_retiring \$"' _ "$err" "$rc"
else
	skip "fixture -M TopdownL1" "perf's pmu-events are not installed"
fi

# what --metric-only does not go with
for bad in "-r 2" "--per-thread -a" "--json" "--extended" "-G x -a"; do
	# shellcheck disable=SC2086
	run_pmkit stat --metric-only $bad -e task-clock -- true
	o=${bad%% *}
	check "--metric-only $bad: usage error naming both" sh -c '
		test "$1" = 2 && printf "%s\n" "$2" | head -1 | grep -q -- "--metric-only" &&
		printf "%s\n" "$2" | head -1 | grep -q -- "$3"' _ "$rc" "$err" "$o"
done
run_pmkit stat --metric-only -n -- true
check "--metric-only -n: usage error" sh -c 'test "$1" = 2 && printf "%s\n" "$2" | grep -q -- "--metric-only"' _ "$rc" "$err"

# the simulated core counts hardware events here: perf's metrics of raw
# events get columns (GHz needs a clock event, not listed) with the values
# of the normal layout's metric column
SE=cycles,instructions,branches,branch-misses
run_pmkit stat --sim --workload stream -x, -e $SE
printf '%s\n' "$err" > "$T_TMP/sn"
run_pmkit stat --sim --workload stream --metric-only -x, -e $SE
printf '%s\n' "$err" > "$T_TMP/sm"
check "--sim -x,: insn per cycle and of all branches, the normal layout's values" sh -c '
	ipc=$(awk -F, "\$3==\"instructions\" {print \$6}" "$1")
	br=$(awk -F, "\$3==\"branch-misses\" {print \$6}" "$1")
	test -n "$ipc" && test -n "$br" &&
	test "$(sed -n 1p "$2")" = "insn per cycle,branch-misses of all branches," &&
	test "$(sed -n 2p "$2")" = "$ipc,$br,"' _ "$T_TMP/sn" "$T_TMP/sm"
run_pmkit stat --sim --workload stream --metric-only -e $SE
check "--sim text: the headings right-aligned in 20 (or the heading's width)" \
	sh -c 'printf "%s\n" "$1" | grep -qx "      insn per cycle branch-misses of all branches "' _ "$err"
