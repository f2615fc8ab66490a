# perf_personality.t: pmkit run as `perf` (a link named perf, or `pmkit
# perf ARGS`) takes perf's defaults: record writes perf.data (the previous
# one kept as perf.data.old) with perf's two-line banner, report and script
# read perf.data, report prints perf's --stdio layout, --version prints
# perf's line; run as pmkit, the same commands keep pmkit's defaults
# (pmkit.rec, pmkit's table). Recording needs sampling (cpu-clock works
# without a hardware PMU); the comparison with perf's own report needs perf,
# which also reads the link's perf.data (perf's format) and its pipe.
. tests/support/t.sh
mkdir -p "$T_TMP/bin" "$T_TMP/p" "$T_TMP/k" "$T_TMP/f"
ln -s "$PMKIT" "$T_TMP/bin/perf"
PERF=$T_TMP/bin/perf
W='i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'

v=$("$PERF" --version); rc=$?
check "perf --version: perf's line ($v)" sh -c 'test "$2" = 0 && echo "$1" | grep -Eq "^perf version [0-9]"' _ "$v" "$rc"
v=$("$PMKIT" perf --version)
check "pmkit perf --version: the same" sh -c 'echo "$1" | grep -Eq "^perf version [0-9]"' _ "$v"
v=$("$PMKIT" --version)
check "pmkit --version: pmkit's line ($v)" sh -c 'echo "$1" | grep -Eq "^pmkit [0-9]"' _ "$v"
"$PERF" nosuch 2>"$T_TMP/e"; rc=$?
check "perf nosuch: exit 2 naming perf" sh -c 'test "$2" = 2 && grep -q "not a perf command" "$1"' _ "$T_TMP/e" "$rc"

# counting is the same command either way
"$PERF" stat -e task-clock -x, -- true 2>"$T_TMP/e"; rc=$?
check "perf stat through the link" sh -c 'test "$2" = 0 && grep -q ",msec,task-clock," "$1"' _ "$T_TMP/e" "$rc"

if ! have sample; then
	skip "record, report and script as perf" "$T_WHY"
	exit 0
fi

# record, report, script as perf, with no file named
(cd "$T_TMP/p" && "$PERF" record -- sh -c "$W" 2>"$T_TMP/rec1.err"); rc=$?
check "perf record: exit 0, writes perf.data, not pmkit.rec" sh -c '
	test "$2" = 0 && test -s "$1/perf.data" && test ! -e "$1/pmkit.rec"' _ "$T_TMP/p" "$rc"
check "perf record: perf's two banner lines" sh -c '
	grep -Eq "^\[ perf record: Woken up [0-9]+ times to write data \]$" "$1" &&
	grep -Eq "^\[ perf record: Captured and wrote [0-9.]+ MB perf.data \([0-9]+ samples\) \]$" "$1"' _ "$T_TMP/rec1.err"
(cd "$T_TMP/p" && "$PERF" record -- sh -c "$W" 2>/dev/null)
check "a second perf record keeps perf.data.old, as perf" test -s "$T_TMP/p/perf.data.old"
(cd "$T_TMP/p" && "$PERF" report >"$T_TMP/rep.txt" 2>"$T_TMP/e"); rc=$?
check "perf report: reads perf.data in perf's --stdio layout" sh -c '
	test "$2" = 0 && grep -q "^# Samples: " "$1" &&
	grep -Eq "^# Overhead +Command +Shared Object +Symbol" "$1" &&
	grep -Eq "^ +[0-9.]+% +sh " "$1"' _ "$T_TMP/rep.txt" "$rc"
(cd "$T_TMP/p" && "$PERF" script -F comm,event >"$T_TMP/scr.txt" 2>"$T_TMP/e"); rc=$?
check "perf script -F comm,event: reads perf.data" sh -c '
	test "$2" = 0 && grep -Eq "^ *sh +cpu-clock" "$1"' _ "$T_TMP/scr.txt" "$rc"
(cd "$T_TMP/p" && "$PMKIT" perf report -q >"$T_TMP/rep2.txt" 2>/dev/null); rc=$?
check "pmkit perf report: the same as the link" sh -c '
	test "$2" = 0 && grep -Eq "^ +[0-9.]+% +sh " "$1"' _ "$T_TMP/rep2.txt" "$rc"
(cd "$T_TMP/p" && "$PERF" report -i nosuch.data >/dev/null 2>&1); rc=$?
check "perf report -i FILE: the file named wins (missing: exit 1)" test "$rc" = 1

# as pmkit: pmkit's own defaults
(cd "$T_TMP/k" && "$PMKIT" record -- sh -c "$W" 2>"$T_TMP/rec2.err"); rc=$?
check "pmkit record: writes pmkit.rec, not perf.data, with pmkit's banner" sh -c '
	test "$3" = 0 && test -s "$1/pmkit.rec" && test ! -e "$1/perf.data" &&
	grep -q "^pmkit record: .* written to pmkit.rec" "$2"' _ "$T_TMP/k" "$T_TMP/rec2.err" "$rc"
(cd "$T_TMP/k" && "$PMKIT" report >"$T_TMP/rep3.txt" 2>/dev/null); rc=$?
check "pmkit report: pmkit's table by default" sh -c '
	test "$2" = 0 && grep -q "^#  *overhead  *samples" "$1" && ! grep -q "^# Samples: " "$1"' _ "$T_TMP/rep3.txt" "$rc"

# against perf: its own report of its own perf.data, and the link's
if ! have perf || ! (cd "$T_TMP/f" && perf record -o perf.data -- sh -c "$W" >/dev/null 2>&1); then
	skip "against perf" "${T_WHY:-perf record fails here}"
	exit 0
fi
(cd "$T_TMP/f" && perf report --stdio 2>/dev/null >"$T_TMP/f1.txt"; "$PERF" report 2>/dev/null >"$T_TMP/f2.txt")
check "perf report and the link's report of perf's perf.data: the same headers" sh -c '
	a=$(grep -E "^# (Samples|Overhead|Total Lost)" "$1" | tr -s " ")
	b=$(grep -E "^# (Samples|Overhead|Total Lost)" "$2" | tr -s " ")
	test -n "$a" && test "$a" = "$b" || { printf "perf:\n%s\nlink:\n%s\n" "$a" "$b" >&2; exit 1; }' _ "$T_TMP/f1.txt" "$T_TMP/f2.txt"

# the link's perf.data is perf's format: perf itself reads it, and
# `pmkit perf record -o -` pipes perf's format into perf report -i -
(cd "$T_TMP/p" && perf report --stdio --sort comm 2>/dev/null >"$T_TMP/f3.txt"); rc=$?
check "perf report reads the link's perf.data (status $rc)" sh -c '
	test "$2" = 0 && grep -Eq "^ +[0-9.]+% +sh" "$1"' _ "$T_TMP/f3.txt" "$rc"
check "the link's perf.data starts with perf's magic" sh -c 'head -c 8 "$1" | grep -q PERFILE2' _ "$T_TMP/p/perf.data"
n=$(cd "$T_TMP/p" && "$PMKIT" perf record -o - -- sh -c "$W" 2>/dev/null | perf report --stdio -i - --sort comm 2>/dev/null | grep -Ec '^ +[0-9.]+% +sh')
check "pmkit perf record -o - | perf report -i -" test "$n" = 1
