# perf_oracle.t: pmkit stat against perf stat on the same software-event
# workloads: event names, units, column positions, values within a
# tolerance, the metric column and exit codes. Skips where perf is absent.
. tests/support/t.sh
require perf
EV=task-clock,context-switches,cpu-migrations,page-faults
# a workload whose page faults are stable (about 600 here)
W='head -c 20000000 /dev/zero | cat > /dev/null; exec dd if=/dev/zero of=/dev/null bs=1M count=200 2>/dev/null'

"$PMKIT" stat -e $EV -x, -o "$T_TMP/p.csv" -- sh -c "$W"; prc=$?
perf stat -e $EV -x, -o "$T_TMP/f.csv" -- sh -c "$W"; frc=$?
grep -v '^#' "$T_TMP/f.csv" | grep -v '^$' > "$T_TMP/f2.csv"
check "-o FILE opens with perf's '# started on DATE' line and a blank line" sh -c '
	for f in "$1" "$2"; do
		head -1 "$f" | grep -Eq "^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$" &&
		test -z "$(sed -n 2p "$f")" || exit 1
	done' _ "$T_TMP/p.csv" "$T_TMP/f.csv"
grep -v '^#' "$T_TMP/p.csv" | grep -v '^$' > "$T_TMP/p2.csv" && mv "$T_TMP/p2.csv" "$T_TMP/p.csv"
check "exit codes agree ($prc, perf $frc)" test "$prc" = "$frc"
check "same number of fields per line (-x,)" sh -c '
	a=$(awk -F, "{print NF}" "$1" | sort -u); b=$(awk -F, "{print NF}" "$2" | sort -u)
	test "$a" = "$b"' _ "$T_TMP/p.csv" "$T_TMP/f2.csv"
check "event names and units in the same columns" sh -c '
	test "$(cut -d, -f2,3 "$1")" = "$(cut -d, -f2,3 "$2")"' _ "$T_TMP/p.csv" "$T_TMP/f2.csv"
check "metric units in the same column" sh -c '
	a=$(cut -d, -f3,7 "$1" | sed "s/[KMG]\/sec/\/sec/"); b=$(cut -d, -f3,7 "$2" | sed "s/[KMG]\/sec/\/sec/")
	test "$a" = "$b"' _ "$T_TMP/p.csv" "$T_TMP/f2.csv"
# values: page-faults within 10 %, task-clock within 50 % (two runs of a
# program on a shared machine), percent running both 100
v() { awk -F, -v e="$2" '$3==e {print $'"$3"'}' "$1"; }
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {d=a-b; if (d<0) d=-d; exit !(b>0 && d<=b*p/100)}'; }
a=$(v "$T_TMP/p.csv" page-faults 1); b=$(v "$T_TMP/f2.csv" page-faults 1)
check "page-faults within 10 % of perf ($a, perf $b)" within "$a" "$b" 10
# run time (column 4) is the task-clock in ns, in both tools' own rows (the
# two tools' task-clock values are compared on the means of -r 5 below: one
# run each on a loaded machine can differ by more than half)
a=$(v "$T_TMP/p.csv" task-clock 1); b=$(v "$T_TMP/p.csv" task-clock 4)
check "run time (column 4) is task-clock in ns ($a ms, $b ns)" within "$b" "$(awk -v a="$a" 'BEGIN {print a * 1e6}')" 1
a=$(v "$T_TMP/f2.csv" task-clock 1); b=$(v "$T_TMP/f2.csv" task-clock 4)
check "perf's run time (column 4) is task-clock in ns too ($a ms, $b ns)" within "$b" "$(awk -v a="$a" 'BEGIN {print a * 1e6}')" 1
check "percent running (column 5) 100.00 as perf" sh -c '
	test "$(cut -d, -f5 "$1" | sort -u)" = "100.00" && test "$(cut -d, -f5 "$2" | sort -u)" = "100.00"' _ "$T_TMP/p.csv" "$T_TMP/f2.csv"

# -r: the +- column (4th) is perf's standard error of the mean in %
"$PMKIT" stat -r 5 -e $EV -x, -o "$T_TMP/pr.csv" -- sh -c "$W"
perf stat -r 5 -e $EV -x, -o "$T_TMP/fr.csv" -- sh -c "$W"
grep -v '^#' "$T_TMP/fr.csv" | grep -v '^$' > "$T_TMP/fr2.csv"
grep -v '^#' "$T_TMP/pr.csv" | grep -v '^$' > "$T_TMP/pr2.csv" && mv "$T_TMP/pr2.csv" "$T_TMP/pr.csv"
# task-clock against perf's: medians of 7 interleaved runs each, so that a
# burst of load hits both tools alike; the workload's children must be
# counted (sh alone is under 2 ms), so a factor of 2 tells a real fault
for i in 1 2 3 4 5 6 7; do
	"$PMKIT" stat -e task-clock -x, -o "$T_TMP/i.csv" -- sh -c "$W"
	v "$T_TMP/i.csv" task-clock 1 >> "$T_TMP/pi.txt"
	perf stat -e task-clock -x, -o "$T_TMP/i.csv" -- sh -c "$W"
	grep -v '^#' "$T_TMP/i.csv" | grep . > "$T_TMP/i2.csv"
	v "$T_TMP/i2.csv" task-clock 1 >> "$T_TMP/fi.txt"
done
a=$(sort -g "$T_TMP/pi.txt" | sed -n 4p); b=$(sort -g "$T_TMP/fi.txt" | sed -n 4p)
check "task-clock median of 7 runs within a factor 2 of perf's ($a ms, perf $b ms)" \
	awk -v a="$a" -v b="$b" 'BEGIN {exit !(a > 0 && b > 0 && a < 2 * b && b < 2 * a)}'
check "-r: same columns as perf" sh -c '
	test "$(cut -d, -f2,3 "$1")" = "$(cut -d, -f2,3 "$2")" &&
	test "$(awk -F, "{print NF}" "$1" | sort -u)" = "$(awk -F, "{print NF}" "$2" | sort -u)"' _ "$T_TMP/pr.csv" "$T_TMP/fr2.csv"
a=$(v "$T_TMP/pr.csv" page-faults 4 | tr -d %); b=$(v "$T_TMP/fr2.csv" page-faults 4 | tr -d %)
check "-r: page-faults +- is a standard error of the mean like perf's ($a %, perf $b %: both under 2 %)" \
	awk -v a="$a" -v b="$b" 'BEGIN {exit !(a != "" && a < 2 && b < 2)}'

# -j: perf's JSON lines with the same keys in the same order
"$PMKIT" stat -j -e $EV -o "$T_TMP/p.json" -- sh -c "$W"
perf stat -j -e $EV -o "$T_TMP/f.json" -- sh -c "$W"
check "-j: same keys in the same order, same events and units" python3 -c '
import json,sys
def rows(p): return [json.loads(l) for l in open(p) if l.startswith("{")]
a,b=rows(sys.argv[1]),rows(sys.argv[2])
assert [list(r) for r in a]==[list(r) for r in b], ([list(r) for r in a][:1],[list(r) for r in b][:1])
assert [(r["event"],r["unit"]) for r in a]==[(r["event"],r["unit"]) for r in b]
pa={r["event"]:float(r["counter-value"]) for r in a}; pb={r["event"]:float(r["counter-value"]) for r in b}
assert abs(pa["page-faults"]-pb["page-faults"])<=0.1*pb["page-faults"], (pa,pb)' "$T_TMP/p.json" "$T_TMP/f.json"

# text: the header and the rows' layout
"$PMKIT" stat -e task-clock,page-faults -- sh -c "$W" 2>"$T_TMP/p.txt"
perf stat -e task-clock,page-faults -- sh -c "$W" 2>"$T_TMP/f.txt"
check "text: the same header line" sh -c 'test "$(grep "Performance counter stats" "$1")" = "$(grep "Performance counter stats" "$2")"' _ "$T_TMP/p.txt" "$T_TMP/f.txt"
check "text: event names start in the same column" sh -c '
	b=$(awk "/task-clock/ {print index(\$0, \"task-clock\")}" "$2")
	test "$(awk "/task-clock/ {print index(\$0, \"task-clock\")}" "$1")" = "$b"' _ "$T_TMP/p.txt" "$T_TMP/f.txt"

# exit status of a failing workload and of a bad event
"$PMKIT" stat -e task-clock -x, -o /dev/null -- sh -c 'exit 3'; a=$?
perf stat -e task-clock -x, -o /dev/null -- sh -c 'exit 3'; b=$?
# pmkit's contract (README) is the workload's status; perf's own status
# differs between perf builds (6.1 here returns 3, CI has seen 0), so it is
# shown, not required
check "a workload's status is the status ($a; perf says $b)" test "$a" = 3

# -p: the header names the process, as perf's
sleep 1 & bg=$!
"$PMKIT" stat -e task-clock -p $bg -- sleep 0.05 2>"$T_TMP/pp.txt"
perf stat -e task-clock -p $bg -- sleep 0.05 2>"$T_TMP/fp.txt"
kill $bg 2>/dev/null
check "-p: the same header as perf ('process id')" sh -c 'test "$(grep "Performance counter stats" "$1")" = "$(grep "Performance counter stats" "$2")"' _ "$T_TMP/pp.txt" "$T_TMP/fp.txt"

# -G: a cgroup (the root of the cgroup v2 hierarchy) on every CPU; the
# cgroup is a column after the event, as perf's
if perf stat -a -x, -e task-clock -G / -o "$T_TMP/fg.csv" sleep 0.05 2>/dev/null; then
	"$PMKIT" stat -a -x, -e task-clock -G / -o "$T_TMP/pg.csv" sleep 0.05; rc=$?
	check "-G: exit 0 and the same columns as perf" sh -c '
		test "$3" = 0 &&
		test "$(grep -v "^#" "$1" | grep . | cut -d, -f2-4)" = "$(grep -v "^#" "$2" | grep . | cut -d, -f2-4)"' _ "$T_TMP/pg.csv" "$T_TMP/fg.csv" "$rc"
else
	skip "-G against perf" "perf cannot count a cgroup here"
fi

# --for-each-cgroup: every event for each cgroup in turn, the cgroup a column
# after the event; a cgroup that ran nothing (made here, empty) is
# <not counted>, as perf says
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=pmkit-test-$$
if [ -n "$mnt" ] && mkdir "$mnt/$cg" 2>/dev/null &&
	perf stat -a -x, -e task-clock,context-switches --for-each-cgroup "/,$cg" -o "$T_TMP/fe.csv" sleep 0.05 2>/dev/null; then
	"$PMKIT" stat -a -x, -e task-clock,context-switches --for-each-cgroup "/,$cg" -o "$T_TMP/pe.csv" sleep 0.05; rc=$?
	check "--for-each-cgroup: exit 0, perf's rows in perf's order (unit, event, cgroup), the empty cgroup <not counted>" sh -c '
		test "$3" = 0 &&
		test "$(grep -v "^#" "$1" | grep . | cut -d, -f2-4)" = "$(grep -v "^#" "$2" | grep . | cut -d, -f2-4)" &&
		test "$(grep -c "^<not counted>,.*,$4," "$1")" = 2 &&
		test "$(grep -c "^[0-9.]*,.*,/," "$1")" = 2' _ "$T_TMP/pe.csv" "$T_TMP/fe.csv" "$rc" "$cg"
	grep -v "^#" "$T_TMP/pe.csv" | grep . | sed 's/^/# /'
	"$PMKIT" stat -a -e task-clock --for-each-cgroup "/,$cg" -o "$T_TMP/pe.txt" sleep 0.05
	perf stat -a -e task-clock --for-each-cgroup "/,$cg" -o "$T_TMP/fe.txt" sleep 0.05 2>/dev/null
	check "--for-each-cgroup, text: the <not counted> row's layout is perf's" sh -c '
		test "$(grep "not counted" "$1" | sed "s/ *\$//")" = "$(grep "not counted" "$2" | sed "s/ *\$//")"' _ "$T_TMP/pe.txt" "$T_TMP/fe.txt"
else
	skip "--for-each-cgroup against perf" "no cgroup can be made under the cgroup v2 mount here, or perf cannot count one"
fi
[ -n "$mnt" ] && rmdir "$mnt/$cg" 2>/dev/null
run_pmkit stat -e task-clock --for-each-cgroup / true
check "--for-each-cgroup without -a: a usage error (2) that says so" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q -- "--for-each-cgroup.*-a"' _ "$rc" "$err"
run_pmkit stat -a -G / --for-each-cgroup / true
check "--for-each-cgroup with -G: a usage error (2)" test "$rc" = 2

# aggregation and intervals: the same prefix columns and field counts
for agg in -A --per-core --per-socket; do
	if perf stat -a $agg -x, -e task-clock -o "$T_TMP/fa.csv" sleep 0.05 2>/dev/null; then
		"$PMKIT" stat -a $agg -x, -e task-clock -o "$T_TMP/pa.csv" sleep 0.05
		check "$agg: the same units, columns and field counts as perf" sh -c '
			f() { grep -v "^#" "$1" | grep . | awk -F, "{print NF}" | sort | uniq -c; }
			p() { grep -v "^#" "$1" | grep . | cut -d, -f1 | sort; }
			test "$(f "$1")" = "$(f "$2")" && test "$(p "$1")" = "$(p "$2")"' _ "$T_TMP/pa.csv" "$T_TMP/fa.csv"
		# the rows' order: -A event by event, the others unit by unit
		"$PMKIT" stat -a $agg -x, -e task-clock,context-switches,page-faults -o "$T_TMP/pa.csv" sleep 0.05
		perf stat -a $agg -x, -e task-clock,context-switches,page-faults -o "$T_TMP/fa.csv" sleep 0.05 2>/dev/null
		check "$agg: rows in perf's order (units and events)" sh -c '
			o() { grep -v "^#" "$1" | grep . | awk -F, "{ for (i = 2; i <= NF; i++) if (\$i ~ /^(task-clock|context-switches|page-faults)\$/) { print \$1, \$i; break } }"; }
			test -n "$(o "$1")" && test "$(o "$1")" = "$(o "$2")"' _ "$T_TMP/pa.csv" "$T_TMP/fa.csv"
	else
		skip "$agg against perf" "perf cannot count every CPU here"
	fi
done
"$PMKIT" stat -I 100 -x, -e task-clock -o "$T_TMP/pi.csv" -- sleep 0.35
perf stat -I 100 -x, -e task-clock -o "$T_TMP/fi.csv" -- sleep 0.35
check "-I: timestamped lines with perf's field count" sh -c '
	a=$(grep -v "^#" "$1" | grep . | awk -F, "{print NF}" | sort -u)
	b=$(grep -v "^#" "$2" | grep . | awk -F, "{print NF}" | sort -u)
	n=$(grep -v "^#" "$1" | grep -c .)
	test "$a" = "$b" && test "$n" -ge 3' _ "$T_TMP/pi.csv" "$T_TMP/fi.csv"
# perf's -G A,B (a cgroup per event) and -e after -G (counted
# system-wide): pmkit counts every event in one cgroup, so both are
# refused with what to type instead, never counted otherwise than asked
run_pmkit stat -a -e task-clock,context-switches -G /,/ true
check "-G A,B: a usage error (2) that names --for-each-cgroup" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q -- "-G /,/: .*--for-each-cgroup /,/"' _ "$rc" "$err"
run_pmkit stat -a -e task-clock -G / -e context-switches true
check "-e after -G: a usage error (2) naming the event" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q -- "-e context-switches after -G /"' _ "$rc" "$err"
run_pmkit stat -a -G / -e task-clock true
check "-G before every -e: the events counted in the cgroup (exit $rc)" sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "task-clock *  / "' _ "$rc" "$err"
