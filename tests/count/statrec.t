# statrec.t: perf's `stat record` and `stat report` (perf's own stat.sh
# runs `stat record -o - true | stat report -i -`): the counts stat printed
# are kept in a file (pmkit's text format, cli/stat_file.h) and printed
# again, the same, in every layout; read from a pipe the target is 'pipe'
# as perf says; a print cut short is left out with a note; bad files are
# refused naming the line; the file is private (0600) and the old one kept.
. tests/support/t.sh
cd "$T_TMP" || exit 1
run_pmkit stat record -o s.rec -e task-clock,page-faults -- true
if [ "$rc" != 0 ]; then
	skip "stat record" "cannot count software events here: $(printf '%s' "$err" | head -1)"; exit 0
fi
printf '%s\n' "$err" > printed
check "stat record: exit 0, the counts printed as stat prints them" \
	grep -q "Performance counter stats for 'true'" printed
check "stat record: the file is private (0600, as perf.data)" [ "$(stat -c %a s.rec)" = 600 ]
run_pmkit stat report -i s.rec
printf '%s\n' "$err" > reported
check "stat report: the same text stat printed, byte for byte" cmp -s printed reported
run_pmkit stat report -i s.rec -x,
check "stat report -x,: the rows as CSV" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "^[0-9.]*,msec,task-clock,"' _ "$rc" "$err"
run_pmkit stat report -i s.rec --json
check "stat report --json: pmkit's schema, parses" sh -c '[ "$1" = 0 ] && printf "%s" "$2" | python3 -c "import json,sys; d=json.load(sys.stdin); assert any(e[\"event\"]==\"task-clock\" for e in d[\"events\"])"' _ "$rc" "$err"
# perf's shell test, as it types it
out=$("$PMKIT" stat record -o - -e task-clock true 2>/dev/null | "$PMKIT" stat report -i - 2>&1)
check "stat record -o - | stat report -i -: \"Performance counter stats for 'pipe':\"" \
	sh -c 'printf "%s\n" "$1" | grep -q "Performance counter stats for .pipe.:" && printf "%s\n" "$1" | grep -q task-clock' _ "$out"
# the default file is perf.data, as perf's; the old one is kept
run_pmkit stat record -e task-clock -- true
run_pmkit stat record -e task-clock -- true
check "stat record without -o writes perf.data, the previous one kept as perf.data.old" \
	sh -c '[ "$1" = 0 ] && head -1 perf.data | grep -q pmkit-stat-record && [ -f perf.data.old ]' _ "$rc"
run_pmkit stat report
check "stat report without -i reads perf.data" sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q task-clock' _ "$rc" "$err"
# intervals: one print each; a run killed while writing leaves those done
run_pmkit stat record -o i.rec -I 100 -e task-clock -- sleep 0.35
ni=$(grep -c '^result' i.rec)
check "stat record -I 100: a print per interval in the file ($ni)" [ "$ni" -ge 2 ]
sed '$d' i.rec > cut.rec
run_pmkit stat report -i cut.rec
check "a last print without its end: the others shown, a note says so (exit 0)" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "cut short" && [ "$(printf "%s\n" "$2" | grep -c "task-clock")" = "$3" ]' _ "$rc" "$err" "$((ni - 1))"
# bad input: a clear error, naming the file and line, exit 2
printf 'hello\n' > bad1
run_pmkit stat report -i bad1
check "not a stat record: exit 2, says what it expected" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "not a pmkit stat record"' _ "$rc" "$err"
awk 'BEGIN { FS = OFS = "\t" } NR == 3 { $4 = "forty" } { print }' s.rec > bad2
run_pmkit stat report -i bad2
check "a damaged number: exit 2, the line and the field named" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "bad2:3" && printf "%s" "$2" | grep -q "field 4: not a number"' _ "$rc" "$err"
run_pmkit stat report -i no-such-file
check "a missing file: exit 1" [ "$rc" = 1 ]
# perf's order: stat's options before `record` (perf stat -e E record -o F)
run_pmkit stat -e page-faults record -o opts.rec -- true
check "stat -e E record -o F -- CMD: the events before record are counted into F" \
	sh -c '[ "$1" = 0 ] && grep -q "^row	page-faults	" opts.rec' _ "$rc"
# perf's metrics of a hybrid's rows, each core type's own: a record whose
# software rows are renamed as a hybrid's stat names its events (counts
# cannot be made here): cpu_core/instructions/ takes cpu_core/cycles/ for
# its insn per cycle, cpu_atom/instructions/ has no cycles of its own and
# borrows none, cpu_core/cycles/ takes task-clock for its GHz
run_pmkit stat record -o h.rec -e task-clock,context-switches,page-faults,cpu-migrations -- true
sed -e 's/\tcontext-switches\t/\tcpu_core\/cycles\/\t/; s/\tpage-faults\t/\tcpu_core\/instructions\/\t/; s/\tcpu-migrations\t/\tcpu_atom\/instructions\/\t/' h.rec > h2.rec
run_pmkit stat report -i h2.rec
got=$(printf '%s\n' "$err" | awk '/cpu_core\/cycles\// { a = /GHz/ } /cpu_core\/instructions\// { b = /insn per cycle/ } /cpu_atom\/instructions\// { c = /#/ } END { print a + 0, b + 0, c + 0 }')
check "stat report: a hybrid's metrics per core PMU (GHz, IPC, none borrowed: $got)" [ "$got" = "1 1 0" ]
