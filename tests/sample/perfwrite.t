# perfwrite.t: pmkit writes perf.data that perf 6.1 itself reads. A
# CPU-bound program with ten functions of clearly different shares is
# recorded by pmkit (cpu-clock, a software event) with --format perf; then
# perf report --stdio and pmkit report, reading that same file, must give
# the same top 10 symbols with the same percentages (the same samples, so
# nothing may differ), perf script must read every sample without a
# complaint, and the conversions (pmkit convert) must keep every sample:
# record file -> perf.data -> record file reports as the original. A -g
# recording folds to the same stacks through perf script and pmkit script
# (FlameGraph's stackcollapse-perf.pl); -o - writes perf's pipe format,
# which perf report -i - reads.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
FG=${PMK_FLAMEGRAPH:-$PMK_SRC/../shared/third_party/flamegraph-41fee1f}
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require perf sample
$CC -O1 -g -fno-omit-frame-pointer -o ten "$prog/ten_hot.c" &&
	$CC -O0 -g -fno-omit-frame-pointer -o ten0 "$prog/ten_hot.c" ||
	{ nok "build ten_hot" "cc failed"; exit 0; }

# perf report's rows: "PCT NAME" for the top 10, and pmkit's the same way
perf_top() {
	perf report --stdio -i "$1" --sort symbol --no-children 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $1, $3; if (++n == 10) exit }'
}
pmkit_top() {
	"$PMKIT" report -i "$1" 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $1, $3; if (++n == 10) exit }'
}
names() { awk '{ print $2 }'; }

run_pmkit record --format perf -e cpu-clock -o flat.data -- ./ten 40
check "record --format perf: exit 0, a perf.data ($rc)" sh -c '[ "$1" = 0 ] && head -c 8 flat.data | grep -q PERFILE2' _ "$rc"
check "the file is private (0600, as perf's)" sh -c '[ "$(stat -c %a flat.data)" = 600 ]'
perf_top flat.data > perf.top
pmkit_top flat.data > pmkit.top
check "perf report reads it: 10 rows ($(wc -l < perf.top))" sh -c '[ "$(wc -l < perf.top)" = 10 ]'
check "the top 10 with their shares: perf report = pmkit report ($(names < perf.top | tr '\n' ' '))" cmp -s perf.top pmkit.top
order=$(names < perf.top | tr '\n' ' ')
check "the ten functions lead, in their order (hot10 first, hot01 last)" test "$order" = "hot10 hot09 hot08 hot07 hot06 hot05 hot04 hot03 hot02 hot01 "
n=$(perf report --stdio -i flat.data 2>/dev/null | sed -n "s/^# Samples: \([0-9]*\) .*/\1/p")
perf script -i flat.data > script.txt 2> script.err; src=$?
ns=$(grep -c 'cpu-clock' script.txt)
ours=$(sed -n 's/.*record: \([0-9]*\) samples.*/\1/p' "$T_TMP/err")
check "perf script: status 0, nothing on stderr ($src, $(head -c 200 script.err))" sh -c '[ "$1" = 0 ] && [ ! -s script.err ]' _ "$src"
check "perf script: every sample pmkit recorded ($ns of $ours)" test "$ns" = "$ours"
hdr=$(perf report -i flat.data --header-only 2>/dev/null)
check "perf report --header-only: pmkit's command line and the event's name" sh -c '
	printf "%s\n" "$1" | grep -q "^# cmdline : .*record --format perf -e cpu-clock" &&
	printf "%s\n" "$1" | grep -q "^# event : name = cpu-clock"' _ "$hdr"
perf evlist -i flat.data > evlist.txt 2>&1
check "perf evlist: cpu-clock" grep -qx 'cpu-clock' evlist.txt

# conversions: record file -> perf.data -> record file keep every sample
run_pmkit record -e cpu-clock -o a.rec -- ./ten 20
run_pmkit convert a.rec a.data
check "convert a.rec a.data: a perf.data ($rc)" sh -c '[ "$1" = 0 ] && head -c 8 a.data | grep -q PERFILE2' _ "$rc"
run_pmkit convert a.data b.rec
check "convert a.data b.rec: a record file ($rc)" sh -c '[ "$1" = 0 ] && head -c 8 b.rec | grep -q PMKITREC' _ "$rc"
pmkit_top a.rec > a.top; pmkit_top a.data > ad.top; pmkit_top b.rec > b.top
check "the same top 10 from a.rec, a.data and b.rec" sh -c 'cmp -s a.top ad.top && cmp -s a.top b.top && [ -s a.top ]'
perf_top a.data > pa.top
check "and from perf report on a.data" cmp -s a.top pa.top
run_pmkit convert --to pmkit a.rec c.data
check "convert --to pmkit of a record file: a usage error ($rc)" test "$rc" = 2
run_pmkit convert a.rec a.data
check "convert again: the previous a.data kept as a.data.old" test -s a.data.old

# call chains: the same stacks through perf script and pmkit script
if [ -f "$FG/stackcollapse-perf.pl" ] && have perl; then
	run_pmkit record --format perf -g -e cpu-clock -o cg.data -- ./ten0 10
	# the program's stacks (through main): the loader's start-up frames
	# are named differently by pmkit's symbolizer (_dl_start_user, a
	# symbol of size 0, is "[ld-linux-x86-64.so.2]" in pmkit's script)
	perf script -i cg.data 2>/dev/null | perl "$FG/stackcollapse-perf.pl" | grep ';main;' | sort > perf.folded
	"$PMKIT" script -i cg.data 2>/dev/null | perl "$FG/stackcollapse-perf.pl" | grep ';main;' | sort > pmkit.folded
	check "-g: perf script and pmkit script fold to the same stacks through main ($(wc -l < perf.folded) stacks)" sh -c 'cmp -s perf.folded pmkit.folded && [ -s perf.folded ]'
	check "-g: hot10's samples reach it from main" grep -q ';main;hot10 [0-9]*$' perf.folded
else
	skip "call chains against perf script" "no perl or no $FG"
fi

# pipe mode: perf record -o - | perf report -i -
"$PMKIT" record --format perf -e cpu-clock -o - -- ./ten 20 > pipe.data 2>pipe.err; rc=$?
check "record --format perf -o -: perf's pipe header ($rc)" sh -c '[ "$1" = 0 ] && od -An -tx1 -j8 -N8 pipe.data | tr -d " \n" | grep -qx 1000000000000000' _ "$rc"
perf report --stdio -i - --sort symbol < pipe.data 2>/dev/null | awk '/^ +[0-9.]+%/ { print $1, $3; if (++n == 10) exit }' > pipe.top
check "perf report -i - reads it: hot10 first ($(head -1 pipe.top))" sh -c 'head -1 pipe.top | grep -q " hot10$"'

# and the other way: perf's own pipe read by pmkit report -i - and
# pmkit script -i - (perf record -o - | pmkit report -i -)
perf record -q -e cpu-clock -o - -- ./ten 20 2>/dev/null > perfpipe.data
perf report --stdio -i - --sort symbol < perfpipe.data 2>/dev/null | awk '/^ +[0-9.]+%/ { print $1, $3; if (++n == 10) exit }' > pp.perf
"$PMKIT" report -i - < perfpipe.data 2>/dev/null | awk '/^ +[0-9.]+%/ { print $1, $3; if (++n == 10) exit }' > pp.pmkit
check "perf's pipe: pmkit report -i - = perf report -i - (top 10 and shares)" sh -c 'cmp -s pp.perf pp.pmkit && [ -s pp.perf ]'
"$PMKIT" report -i - < perfpipe.data 2>/dev/null > pp.txt
check "perf's pipe: the event's name from its EVENT_UPDATE record" grep -q '^# cpu-clock: [0-9]* samples' pp.txt
a=$(perf script -i - < perfpipe.data 2>/dev/null | grep -c cpu-clock)
b=$("$PMKIT" script -i - < perfpipe.data 2>/dev/null | grep -c cpu-clock)
check "perf's pipe: pmkit script -i - prints every sample ($b of $a)" test "$a" = "$b" -a "$a" -gt 0
b=$("$PMKIT" record -e cpu-clock -o - -- ./ten 5 2>/dev/null | "$PMKIT" report -i - 2>/dev/null | grep -c hot10)
check "pmkit record -o - | pmkit report -i -" test "$b" = 1

# perf's pipe_test.sh pipelines: report --task, inject -b
"$PMKIT" record --format perf -e cpu-clock -o - -- ./ten 5 2>/dev/null | "$PMKIT" report -i - --task > task.txt 2>&1
check "record -o - | report -i - --task: the program's line" grep -Eq '^ +[0-9]+ +[0-9]+ +-1 \|ten$' task.txt
perf report -i flat.data --task 2>/dev/null > task.perf
"$PMKIT" report -i flat.data --task > task.pmkit 2>&1
check "report --task: perf's lines on the same file" cmp -s task.perf task.pmkit
n=$("$PMKIT" record --format perf -e cpu-clock -o - -- ./ten 5 2>/dev/null | "$PMKIT" inject -b | perf report --stdio -i - 2>/dev/null | grep -c '\[\.\] hot10$')
check "record -o - | inject -b | perf report -i -: hot10" test "$n" = 1
"$PMKIT" inject -b -i flat.data -o inj.data
perf_top inj.data > inj.top
check "inject -i F -o G: perf report on G = on F" cmp -s perf.top inj.top

# -z: zstd-compressed data (COMPRESSED records, HEADER_COMPRESSED), read
# by perf and by pmkit, as perf 6.1's record+zstd_comp_decomp.sh checks it
run_pmkit record --format perf -z -e cpu-clock -o z.data -- ./ten 20
if [ "$rc" = 0 ]; then
	perf_top z.data > z.perf; pmkit_top z.data > z.pmkit
	check "-z: perf report = pmkit report on the compressed file" sh -c 'cmp -s z.perf z.pmkit && [ -s z.perf ]'
	perf report -i z.data --stats 2>/dev/null | grep -E '^ +[A-Z_0-9]+ events:' > st.perf
	"$PMKIT" perf report -i z.data --stats 2>/dev/null | grep -E '^ +[A-Z_0-9]+ events:' > st.pmkit
	check "-z: --stats: perf's Aggregated stats lines ($(grep COMPRESSED st.pmkit | tr -s ' '))" sh -c 'cmp -s st.perf st.pmkit && grep -q "COMPRESSED events" st.pmkit'
	h=$("$PMKIT" perf report -i z.data --header 2>/dev/null | grep '^# compressed')
	check "-z: --header: '$h'" sh -c 'printf "%s" "$1" | grep -q "^# compressed : Zstd, level = 1, ratio = [0-9]"' _ "$h"
	"$PMKIT" inject -i z.data -o unz.data
	a=$("$PMKIT" perf report -i z.data -F comm,dso,sym | grep -c '%')
	b=$("$PMKIT" perf report -i unz.data -F comm,dso,sym | grep -c '%')
	check "-z: inject decompresses: the same rows ($a, $b)" sh -c '[ "$1" = "$2" ] && [ "$1" -gt 0 ]' _ "$a" "$b"
else
	skip "-z" "record -z fails here: $err"
fi

# --call-graph dwarf: perf unwinds pmkit's user stacks (the file's other
# segments are mapped for it, so its unwinder reads .eh_frame)
run_pmkit record --format perf --call-graph dwarf -e cpu-clock -o dw.data -- ./ten 10
if [ "$rc" = 0 ]; then
	n=$(perf script -i dw.data 2>/dev/null | grep -c 'main+0x')
	m=$(perf script -i dw.data 2>/dev/null | grep -c 'cpu-clock')
	check "dwarf: perf script unwinds to main in most samples ($n of $m)" sh -c '[ "$1" -gt 0 ] && [ $(($1 * 10)) -ge $(($2 * 8)) ]' _ "$n" "$m"
	a=$(perf report --stdio -i dw.data --no-children --sort symbol 2>/dev/null | awk '/^ +[0-9.]+%/ { print $1, $3; if (++k == 5) exit }')
	b=$("$PMKIT" report -i dw.data 2>/dev/null | awk '/^ +[0-9.]+%/ { print $1, $3; if (++k == 5) exit }')
	check "dwarf: perf report = pmkit report, top 5" test "$a" = "$b"
else
	skip "dwarf" "record --call-graph dwarf fails here: $err"
fi
