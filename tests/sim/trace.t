# trace.t: `pmkit trace`: real programs through valgrind lackey and capstone,
# generated workloads, ChampSim import, dump.
. tests/support/t.sh
run_pmkit trace gen -o "$T_TMP/g.trace" -n 1000 branchy
n=$("$PMKIT" trace dump "$T_TMP/g.trace" | grep -c .)
if [ $rc = 0 ] && [ "$n" = 1000 ]; then ok "gen + dump: 1000 records"
else nok "gen" "rc=$rc n=$n err=$err"; fi
run_pmkit sim run "$T_TMP/g.trace"
if [ $rc = 0 ] && printf '%s' "$out" | grep -q "1000 instructions"; then ok "sim runs a trace file"
else nok "sim on trace" "rc=$rc out=$out"; fi
tail -c +2 tests/fuzz/corpus/trace/champsim0 > "$T_TMP/c.champsim"
run_pmkit trace import -o "$T_TMP/c.trace" "$T_TMP/c.champsim"
d=$("$PMKIT" trace dump "$T_TMP/c.trace" | awk '{print $2}' | tr '\n' ' ')
if [ $rc = 0 ] && [ "$d" = "int bcond load " ]; then ok "import ChampSim: $d"
else nok "import" "rc=$rc dump=$d err=$err"; fi
run_pmkit trace dump "$T_TMP/nonexistent"
if [ $rc = 2 ]; then ok "dump of a missing file exits 2"; else nok "dump missing" "rc=$rc"; fi

if ! have valgrind; then
	skip "trace a program" "$T_WHY"
	exit 0
fi
run_pmkit trace -o "$T_TMP/t.trace" -n 20000 -- sh -c 'exit 3'
if [ -s "$T_TMP/t.trace" ] && printf '%s' "$err" | grep -q "20000 instructions"; then
	ok "trace -n 20000 of a real program"
else nok "trace program" "rc=$rc err=$err"; fi
ops=$("$PMKIT" trace dump "$T_TMP/t.trace" | awk '{print $2}' | sort -u | tr '\n' ' ')
case "$ops" in
*bcond*call*|*call*bcond*) case "$ops" in *load*) ok "decoded op classes: $ops";; *) nok "op classes" "$ops";; esac;;
*) nok "op classes" "$ops";;
esac
# --skip: the same instructions as records 5,001 to 25,000 of a full trace
run_pmkit trace -o "$T_TMP/s.trace" --skip 5000 -n 20000 -- sh -c 'exit 3'
run_pmkit trace -o "$T_TMP/u.trace" -n 25000 -- sh -c 'exit 3'
"$PMKIT" trace dump "$T_TMP/u.trace" 2>/dev/null | tail -n 20000 >"$T_TMP/u.txt"
"$PMKIT" trace dump "$T_TMP/s.trace" 2>/dev/null >"$T_TMP/s.txt"
if printf '%s' "$err" | grep -q "25000 instructions (0 skipped" && [ "$(wc -l <"$T_TMP/s.txt")" = 20000 ] &&
	cmp -s "$T_TMP/u.txt" "$T_TMP/s.txt"; then ok "trace --skip 5000 -n 20000 is records 5,001-25,000"
else nok "trace --skip" "err=$err lines=$(wc -l <"$T_TMP/s.txt") $(diff "$T_TMP/u.txt" "$T_TMP/s.txt" | head -3)"; fi
run_pmkit trace -o "$T_TMP/t2.trace" -- sh -c 'exit 3'
if [ $rc = 3 ]; then ok "trace exits with the command's status"; else nok "trace status" "rc=$rc"; fi
run_pmkit sim run -e inst_retired,br_misp_retired "$T_TMP/t.trace"
if [ $rc = 0 ] && printf '%s' "$out" | grep -q "20000 instructions"; then ok "sim runs a real program's trace"
else nok "sim on real trace" "rc=$rc out=$out err=$err"; fi
