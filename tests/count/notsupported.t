# notsupported.t: `pmkit stat` with events this machine may not count
# (issue 29): as perf, the workload runs, each such event is a
# `<not supported>` row in every layout (text, -x, -j, --json), and the
# exit status is the workload's; an unknown event name stays a usage error.
# Where the hardware counts, the same rows hold numbers (decided from
# `have pmu`). Where perf is installed, the rows are compared with perf's
# on the same workload.
. tests/support/t.sh
hw=0; have pmu && hw=1
EV=cycles,instructions,task-clock
W="echo ran >> $T_TMP/ran; exit 3"

# the value column of a -x, file's row for event $2 ("<not supported>",
# a number, or empty when the row is missing)
val() { grep -v '^#' "$1" | awk -F, -v e="$2" '$3==e {print $1; exit}'; }
# what a value is: "ns" for <not supported>, "n" for a number
kind() { case $1 in "<not supported>") echo ns ;; [0-9]*) echo n ;; *) echo "?$1" ;; esac; }
if [ $hw = 1 ]; then want=n; else want=ns; fi

# text
run_pmkit stat -e $EV -- sh -c "$W"
check "the workload ran" test "$(cat "$T_TMP/ran" 2>/dev/null)" = ran
check "exit status is the workload's (3, got $rc)" test "$rc" = 3
if [ $hw = 0 ]; then
	check "text: <not supported> rows for cycles and instructions" sh -c '
		echo "$1" | grep -Eq "^ +<not supported> +cycles( |$)" &&
		echo "$1" | grep -Eq "^ +<not supported> +instructions( |$)"' _ "$err"
else
	check "text: cycles and instructions counted" sh -c '
		echo "$1" | grep -Eq "^ +[0-9]+ +cycles( |$)" &&
		echo "$1" | grep -Eq "^ +[0-9]+ +instructions( |$)"' _ "$err"
fi
check "text: task-clock still counted" sh -c 'echo "$1" | grep -Eq "^ +[0-9.]+ msec task-clock"' _ "$err"

# -x,
"$PMKIT" stat -e $EV -x, -o "$T_TMP/p.csv" -- sh -c "$W"; rc=$?
check "-x,: exit status 3 ($rc)" test "$rc" = 3
check "-x,: cycles is '$want' in the value column ($(val "$T_TMP/p.csv" cycles))" \
	test "$(kind "$(val "$T_TMP/p.csv" cycles)")" = $want
check "-x,: instructions is '$want' ($(val "$T_TMP/p.csv" instructions))" \
	test "$(kind "$(val "$T_TMP/p.csv" instructions)")" = $want
check "-x,: task-clock a number" test "$(kind "$(val "$T_TMP/p.csv" task-clock)")" = n
check "-x,: perf's 7 fields on every row (after perf's # started on line)" sh -c 'awk -F, "/^#/ || /^$/ {next} NF!=7 {bad=1} END {exit bad}" "$1"' _ "$T_TMP/p.csv"

# -j (perf's JSON lines) and --json (pmkit's schema)
run_pmkit stat -e $EV -j -- sh -c "$W"
check "-j: exit 3, cycles '$want'" python3 -c '
import json,sys
rows={r["event"]:r for r in map(json.loads, [l for l in sys.argv[1].splitlines() if l.startswith("{")])}
v=rows["cycles"]["counter-value"]
assert (v=="<not supported>") == (sys.argv[2]=="ns"), v
assert float(rows["task-clock"]["counter-value"])>0
assert int(sys.argv[3])==3' "$err" $want "$rc"
run_pmkit stat -e $EV --json -- sh -c "$W"
check "--json: exit_status 3, status of each event" python3 -c '
import json,sys
d=json.loads(sys.argv[1]); ev={e["event"]:e for e in d["events"]}
assert d["exit_status"]==3 and int(sys.argv[3])==3
st="not supported" if sys.argv[2]=="ns" else "counted"
assert ev["cycles"]["status"]==st and ev["instructions"]["status"]==st, ev["cycles"]
if st=="not supported": assert ev["cycles"]["value"] is None and ev["cycles"]["reason"]
assert ev["task-clock"]["status"]=="counted"' "$err" $want "$rc"

# no event of the list counts: the workload still runs
rm -f "$T_TMP/ran"
run_pmkit stat -e cycles,instructions,branch-misses -x, -- sh -c "$W"
check "only hardware events: the workload runs, exit 3 ($rc)" sh -c '
	test "$2" = 3 && test "$(cat "$1")" = ran' _ "$T_TMP/ran" "$rc"

# an unknown name is still a usage error that runs nothing
rm -f "$T_TMP/ran"
run_pmkit stat -e cycles,nosuchevent -- sh -c "$W"
check "unknown event: exit 2 ($rc), nothing run" sh -c 'test "$2" = 2 && test ! -e "$1"' _ "$T_TMP/ran" "$rc"
check "unknown event: the name under a marker" sh -c 'echo "$1" | grep -q "cycles,nosuchevent" && echo "$1" | grep -q "\^~"' _ "$err"

# the default list and -d: perf's rows
run_pmkit stat -x, -- true
check "default: cycles, instructions, branches, branch-misses rows" sh -c '
	for e in cycles instructions branches branch-misses; do
		echo "$1" | grep -q "^[^,]*,,$e," || exit 1
	done' _ "$err"
run_pmkit stat -d -x, -- true
check "-d: the L1-dcache and LLC rows" sh -c '
	for e in L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses; do
		echo "$1" | grep -q "^[^,]*,,$e," || exit 1
	done' _ "$err"

# against perf on the same workload
if ! have perf; then
	skip "against perf" "$T_WHY"
	exit 0
fi
# perf 6.1 itself returns 0 instead of the workload's 3 in about 1 run of
# 30 on this 2-vCPU VM (2 of 60 measured): a race in perf, not a layout
# fact. Its status is therefore taken as the one it gives in most of up to
# three runs; its rows come from the last of them.
frc= f3=0 f0=0
for i in 1 2 3; do
	perf stat -e $EV -x, -o "$T_TMP/f.csv" -- sh -c "$W"; r=$?
	case $r in 3) f3=$((f3 + 1)) ;; *) f0=$((f0 + 1)); fo=$r ;; esac
	[ $f3 = 2 ] && { frc=3; break; }
	[ $f0 = 2 ] && { frc=$fo; break; }
done
a= b=
for e in cycles instructions task-clock; do
	a="$a $e:$(kind "$(val "$T_TMP/p.csv" $e)")"
	b="$b $e:$(kind "$(val "$T_TMP/f.csv" $e)")"
done
check "-x,: the same kind of value per event as perf ($a; perf$b)" test "$a" = "$b"
check "-x,: the same unit, name and field count as perf" sh -c '
	a=$(grep -v "^#" "$1" | grep . | awk -F, "{print \$2, \$3, NF}")
	b=$(grep -v "^#" "$2" | grep . | awk -F, "{print \$2, \$3, NF}")
	test "$a" = "$b"' _ "$T_TMP/p.csv" "$T_TMP/f.csv"
for d in "" -d; do
	"$PMKIT" stat $d -x, -o "$T_TMP/pd.csv" -- true
	perf stat $d -x, -o "$T_TMP/fd.csv" -- true
	check "default${d:+ $d}: the same events, in perf's order, with the same kind of value" sh -c '
		row() { grep -v "^#" "$1" | grep . | while IFS=, read -r v u e rest; do
			case $v in "<not supported>") k=ns ;; "<not counted>") k=nc ;; *) k=n ;; esac
			echo "$e $k"; done; }
		a=$(row "$1"); b=$(row "$2")
		test "$a" = "$b" || { printf "pmkit:\n%s\nperf:\n%s\n" "$a" "$b" >&2; exit 1; }' _ "$T_TMP/pd.csv" "$T_TMP/fd.csv"
	"$PMKIT" stat $d -- true 2>"$T_TMP/pd.txt"
	perf stat $d -- true 2>"$T_TMP/fd.txt"
	check "default${d:+ $d} text: the <not supported> rows are perf's lines" sh -c '
		test "$(grep "<not supported>" "$1")" = "$(grep "<not supported>" "$2")"' _ "$T_TMP/pd.txt" "$T_TMP/fd.txt"
done
perf stat -e $EV -- sh -c "$W" 2>"$T_TMP/f.txt"
"$PMKIT" stat -e $EV -- sh -c "$W" 2>"$T_TMP/p.txt"
check "-e text: the value and name columns of each row as perf's" sh -c '
	a=$(grep -E "cycles|instructions|task-clock" "$1" | cut -c1-24 | sed "s/[0-9][0-9.]*/N/")
	b=$(grep -E "cycles|instructions|task-clock" "$2" | cut -c1-24 | sed "s/[0-9][0-9.]*/N/")
	test "$a" = "$b"' _ "$T_TMP/p.txt" "$T_TMP/f.txt"
check "exit status as perf's ($frc)" test "$frc" = 3
