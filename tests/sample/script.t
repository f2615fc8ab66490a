# script.t: `pmkit script` prints perf script's text, checked with the
# real consumers: FlameGraph's stackcollapse-perf.pl and flamegraph.pl
# (unmodified, from ../shared/third_party), and perf 6.1 itself on the
# SAME perf.data file: the folded stacks of `perf script -i F` and of
# `pmkit script -i F` must be equal, and the text too for a C program.
# A pmkit recording of the same program folds to the same stacks with
# shares within a few points of perf's recording; `report --script` is the
# same text; -F selects perf's fields; an unknown field is a usage error.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
FG=${PMK_FLAMEGRAPH:-$PMK_SRC/../shared/third_party/flamegraph-41fee1f}
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require perf
require perl
if [ ! -x "$FG/stackcollapse-perf.pl" ] && [ ! -f "$FG/stackcollapse-perf.pl" ]; then
	skip "FlameGraph" "no $FG/stackcollapse-perf.pl"; exit 0
fi
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
if ! perf record -q -g -e cpu-clock -o cg.data -- ./stk 0.4 >perf.err 2>&1; then
	skip "perf script" "perf record fails here: $(head -1 perf.err)"; exit 0
fi
collapse() { perl "$FG/stackcollapse-perf.pl" "$@"; }

# 1. the same perf.data through perf script and pmkit script
perf script -i cg.data > perf.txt 2>/dev/null
run_pmkit script -i cg.data
cp "$T_TMP/out" pmk.txt
check "script -i perf.data: status 0 ($rc)" [ "$rc" = 0 ]
collapse perf.txt > perf.fold
collapse pmk.txt > pmk.fold
np=$(wc -l < perf.fold); nq=$(wc -l < pmk.fold)
tp=$(awk '{ t += $NF } END { print t + 0 }' perf.fold)
tq=$(awk '{ t += $NF } END { print t + 0 }' pmk.fold)
# Two naming differences, both documented (docs/profiles.md): pmkit shows
# glibc's versioned names without their version (perf 6.1 prints
# clock_gettime@@GLIBC_2.17), and does not name ld.so's unsized label
# _dl_start_user (a startup sample or two). Both sides are normalized for
# them, then must be equal to the byte.
norm() { sed -E 's/@@?GLIBC_[0-9.]+//g; s/;_dl_start_user;/;[ld-linux-x86-64.so.2];/' "$1" |
	awk '{ c = $NF; $NF = ""; a[$0] += c } END { for (k in a) print k a[k] }' | sort; }
norm perf.fold > perf.norm; norm pmk.fold > pmk.norm
raw=$(diff perf.fold pmk.fold | grep -c '^>')
check "stackcollapse-perf.pl on the same perf.data: equal folded stacks (perf $np stacks, period $tp; pmkit $nq, $tq; $raw differ before naming normalization)" \
	sh -c "[ $np -gt 0 ] && cmp -s perf.norm pmk.norm"
diff perf.norm pmk.norm | head -6 | cut -c1-400 | sed 's/^/# /'
nd=$(diff perf.txt pmk.txt | grep -c '^>')
nl=$(wc -l < perf.txt)
unver() { sed -E 's/@@?GLIBC_[0-9.]+//' "$1"; }
nv=$(unver perf.txt | diff - pmk.txt | grep '^>' | grep -vc '\[unknown\] (.*ld-linux')
check "the text itself: $nd of $nl lines differ from perf script's, $nv of them other than the two names" [ "$nv" = 0 ]
# the header line of a call-graph sample starts with the command, unpadded
check "call-graph header: 'stk TID  SEC.USEC:  PERIOD cpu-clock...: '" \
	grep -Eq '^stk +[0-9]+ +[0-9]+\.[0-9]{6}: +[0-9]+ cpu-clock[^ ]*: $' pmk.txt

# 2. flamegraph.pl draws it
perl "$FG/flamegraph.pl" pmk.fold > pmk.svg 2>fg.err
check "flamegraph.pl draws an SVG with main, via_a and lib_spin" \
	sh -c "grep -q '<svg' pmk.svg && grep -q 'via_a' pmk.svg && grep -q 'lib_spin' pmk.svg"

# 3. a pmkit recording of the same program against perf's recording:
# the share of stk;main;via_a;lib_spin (4/5 of the work) by period
run_pmkit record -q -g -o a.rec -- ./stk 0.4
run_pmkit script -i a.rec
cp "$T_TMP/out" rec.txt
collapse rec.txt > rec.fold
share() { awk '{ t += $NF } /^stk;.*main;via_a;lib_spin [0-9]+$/ { s += $NF } END { if (t) printf "%.1f\n", 100 * s / t; else print 0 }' "$1"; }
sp=$(share perf.fold); sq=$(share rec.fold)
check "pmkit record + script folds like perf (main;via_a;lib_spin: pmkit $sq%, perf $sp%)" \
	awk -v a="$sq" -v b="$sp" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 50 && d <= 8) }'
check "pmkit record file: the CPU in brackets, as perf prints a recorded one" \
	grep -Eq '^stk +[0-9]+ \[[0-9]{3}\] +[0-9]+\.[0-9]{6}: ' rec.txt
grep -m2 -v '^	' rec.txt | sed 's/^/# /'
run_pmkit report --script -i a.rec
cp "$T_TMP/out" rep.txt
check "report --script is the same text as script" cmp -s rec.txt rep.txt

# 4. fields
perf script -F comm,pid,tid,time,event,ip,sym,dso -i cg.data > pf.txt 2>/dev/null
run_pmkit script -F comm,pid,tid,time,event,ip,sym,dso -i cg.data
cp "$T_TMP/out" qf.txt
nd=$(unver pf.txt | diff - qf.txt | grep '^>' | grep -vc '\[unknown\] (.*ld-linux')
check "-F comm,pid,tid,time,event,ip,sym,dso: as perf's ($nd lines differ beyond the two names)" [ "$nd" = 0 ]
perf script -F comm,tid,period -i cg.data > pf2.txt 2>/dev/null
run_pmkit script -F comm,tid,period -i cg.data
cp "$T_TMP/out" qf2.txt
check "-F comm,tid,period: one line per sample, as perf's" cmp -s pf2.txt qf2.txt
run_pmkit script -F -time,+pid -i cg.data
cp "$T_TMP/out" ff.txt
check "-F -time then +pid: no time, pid/tid" grep -Eq '^stk +[0-9]+/[0-9]+ +[0-9]+ cpu-clock' ff.txt
run_pmkit script -F comm,bogus -i cg.data
check "unknown field: usage error (2) naming it ($rc)" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q \"'bogus'\"" _ "$err"

# 5. a sample without a stack: one line, the command padded to 16, as perf
perf record -q -e cpu-clock -o flat.data -- ./stk 0.1 >/dev/null 2>&1
perf script -i flat.data > pflat.txt 2>/dev/null
run_pmkit script -i flat.data
cp "$T_TMP/out" qflat.txt
nd=$(unver pflat.txt | diff - qflat.txt | grep '^>' | grep -vc '\[unknown\] (.*ld-linux')
check "flat perf.data: the same text as perf script ($nd lines differ beyond the two names)" [ "$nd" = 0 ]
