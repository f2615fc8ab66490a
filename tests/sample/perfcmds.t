# perfcmds.t: perf's annotate, evlist and diff as pmkit commands over what
# report has, on one recording of a program with a known hot function, and
# on a perf.data perf wrote (perf's own evlist as the oracle).
. tests/support/t.sh
src=$(pwd)/tests/sample/prog/inline_hot.c
cd "$T_TMP" || exit 1
require sample cc
${CC:-cc} -O2 -g -o ih "$src" || { nok "build inline_hot" "cc failed"; exit 0; }
run_pmkit record -q -e task-clock -o a.rec -- ./ih 0.3
if [ "$rc" != 0 ]; then
	skip "perfcmds" "cannot record here: $(printf '%s' "$err" | head -1)"; exit 0
fi
run_pmkit record -q -e task-clock -o b.rec -- ./ih 0.3
# evlist: the event recorded; -v its samples, as report counts them
run_pmkit evlist -i a.rec
check "evlist: the recorded event, one a line" [ "$rc" = 0 -a "$out" = task-clock ]
run_pmkit evlist -i a.rec -v
n=$(printf '%s' "$out" | sed -n 's/^task-clock: \([0-9]*\) samples.*/\1/p')
rep=$("$PMKIT" report -i a.rec 2>/dev/null | sed -n 's/^# task-clock: \([0-9]*\) samples.*/\1/p')
check "evlist -v: the samples report counts ($n, report $rep)" sh -c '[ -n "$1" ] && [ "$1" -gt 0 ] && [ "$1" = "$2" ]' _ "$n" "$rep"
# annotate: the hot function (outer) with its instructions; the samples on
# its rows add up to the samples its header names
run_pmkit annotate -i a.rec outer
check "annotate outer: exit 0, a header naming outer and its samples" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "^# outer .*: [0-9]* samples"' _ "$rc" "$out"
check "annotate outer: the rows' samples add up to the header's" sh -c '
	printf "%s\n" "$1" | awk "
	/^# outer/ { for (i = 1; i <= NF; i++) if (\$(i + 1) ~ /^samples/) h = \$i + 0 }
	/^ +[0-9.]+% +[0-9]+ / { s += \$2 }
	END { exit !(h > 0 && s == h) }"' _ "$out"
# (every function's listing: read from the file, as it may be larger
# than one argument may be)
run_pmkit annotate -i a.rec
check "annotate with no symbol: every function with samples, outer among them (exit 0)" sh -c '[ "$1" = 0 ] && grep -q "^# outer " "$2"' _ "$rc" "$T_TMP/out"
run_pmkit annotate -i a.rec no_such_function
check "annotate an unknown function: exit 2" [ "$rc" = 2 ]
# diff: a recording against itself changes nothing; two runs of the same
# program keep outer on top
run_pmkit diff a.rec a.rec
check "diff a.rec a.rec: every change is 0" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | awk "/^ +[0-9.]+%/ { n++; if (\$3 != \"+0.00\") bad = 1 } END { exit bad || !n }"' _ "$rc" "$out"
run_pmkit diff --json a.rec b.rec
check "diff --json parses" sh -c '[ "$1" = 0 ] && printf "%s" "$2" | python3 -c "import json,sys; json.load(sys.stdin)"' _ "$rc" "$out"
cp a.rec pmkit.rec.old && cp b.rec pmkit.rec
run_pmkit diff
check "diff with no file: pmkit.rec.old against pmkit.rec" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q " outer "' _ "$rc" "$out"
# perf's evlist on a perf.data perf wrote: the same lines
if have perf && perf record -q -e cpu-clock,page-faults -o perf.data ./ih 0.2 >/dev/null 2>&1; then
	run_pmkit perf evlist
	check "pmkit perf evlist reads perf.data as perf evlist does" sh -c '[ "$1" = 0 ] && [ "$2" = "$(perf evlist -i perf.data 2>/dev/null)" ]' _ "$rc" "$out"
else
	skip "perf evlist oracle" "${T_WHY:-perf cannot record here}"
fi
