# metric.t: `pmkit metric needs/eval/check` on seed 002's Figure 1 and on
# broken files (the issue's acceptance), and values computed by hand.
. tests/support/t.sh
F=$T_TMP/fig1.def
cat > "$F" <<'DEF'
#define BR_lat 5
#define BR_miss_lat 45
#define L1_lat 3
#define L2_lat 13
#define Mem_lat 450

Branch_cat, PAPI_BR_INS|BR_lat*|PAPI_BR_MSP|BR_miss_lat*|+|PAPI_TOT_INS|/
Mem_cat, PAPI_L1_DCA|L1_lat*|PAPI_L2_DCA|L2_lat*|+|PAPI_L2_DCM|Mem_lat*|+
DEF

# Presets are resolved by the event tables; where this build has none,
# the names are checked as written (--any-names).
printf 'X = PAPI_TOT_INS\n' > "$T_TMP/p.def"
A=
if ! "$PMKIT" metric check "$T_TMP/p.def" >/dev/null 2>&1; then
	A=--any-names
	skip "Figure 1 against the preset tables" "this build has no PAPI preset tables: names checked as written"
fi
run_pmkit metric needs "$F" $A
want=$(printf '%s\n' PAPI_BR_INS PAPI_BR_MSP PAPI_TOT_INS PAPI_L1_DCA PAPI_L2_DCA PAPI_L2_DCM)
if [ "$rc" = 0 ] && [ "$out" = "$want" ]; then ok "needs lists Figure 1's six presets"
elif [ "$rc" = 0 ]; then
	# A host with a core PMU and tables lists natives instead.
	[ "$(printf '%s\n' "$out" | wc -l)" -ge 4 ] && ok "needs lists natives of the host model" || nok "needs" "$out"
else nok "needs lists Figure 1's six presets" "rc=$rc $out $err"; fi

run_pmkit metric needs "$F" Mem_cat --json $A
case "$out" in *'"events":["PAPI_L1_DCA","PAPI_L2_DCA","PAPI_L2_DCM"]'*) ok "needs NAME --json";;
*) case "$out" in *'"needs":["PAPI_L1_DCA","PAPI_L2_DCA","PAPI_L2_DCM"]'*) ok "needs NAME --json";;
   *) nok "needs NAME --json" "$out";; esac;; esac

# Hand-computed: Branch_cat = (1000*5 + 50*45) / 10000 = 0.725
#                Mem_cat = 4000*3 + 300*13 + 20*450 = 24900
cat > "$T_TMP/m.txt" <<'M'
# recorded by hand
PAPI_BR_INS 1000
PAPI_BR_MSP 50
PAPI_TOT_INS 10000
PAPI_L1_DCA 4000
PAPI_L2_DCA 300
PAPI_L2_DCM 20
M
run_pmkit metric eval "$F" "$T_TMP/m.txt"
b=$(printf '%s\n' "$out" | awk '$1=="Branch_cat"{print $2}')
m=$(printf '%s\n' "$out" | awk '$1=="Mem_cat"{print $2}')
[ "$rc" = 0 ] && [ "$b" = 0.725 ] && [ "$m" = 24900 ] && ok "eval gives the hand-computed values" || nok "eval gives the hand-computed values" "rc=$rc $out"

# The same over a perf/pmkit-style CSV and JSON, with a zero divisor.
cat > "$T_TMP/m.csv" <<'M'
1000,,PAPI_BR_INS,100,100.00,0,0,
50,,PAPI_BR_MSP,100,100.00,0,0,
0,,PAPI_TOT_INS,100,100.00,0,0,
M
run_pmkit metric eval "$F" "$T_TMP/m.csv" Branch_cat
case "$out" in *"Branch_cat"*nan*"division by zero"*) [ "$rc" = 0 ] && ok "division by a zero count gives nan, flagged" || nok "div0" "rc=$rc";;
*) nok "division by a zero count gives nan, flagged" "$out";; esac
run_pmkit metric eval "$F" "$T_TMP/m.csv" Mem_cat
[ "$rc" = 1 ] && case "$out" in *"<missing>"*PAPI_L1_DCA*) true;; *) false;; esac && ok "eval names missing inputs" || nok "eval names missing inputs" "rc=$rc $out"
printf '{"schema":"pmkit-stat/1","events":[{"event":"PAPI_BR_INS","value":1000},{"event":"PAPI_BR_MSP","value":50},{"event":"PAPI_TOT_INS","value":10000}]}\n' > "$T_TMP/m.json"
run_pmkit metric eval "$F" "$T_TMP/m.json" Branch_cat --json
case "$out" in *'"name":"Branch_cat","value":0.725'*) ok "eval over JSON, --json";; *) nok "eval over JSON, --json" "$out";; esac

# Broken files: error at file:line:column, exit 2; the file minus the bad
# line loads.
bad() { # NAME LINES WANT [AT]
	printf '%s\n' "$2" > "$T_TMP/bad.def"
	cat "$F" "$T_TMP/bad.def" > "$T_TMP/all.def"
	run_pmkit metric check "$T_TMP/all.def" $A
	at=${4:-all.def:9:}
	case "$err" in *"$at"*"$3"*) [ "$rc" = 2 ] && ok "$1: error at $at" || nok "$1" "rc=$rc";;
	*) nok "$1: error at $at" "$err";; esac
}
bad "stack underflow" "X, PAPI_TOT_INS|+" "underflow" "all.def:9:17:"
bad "leftover values" "X, PAPI_TOT_INS|PAPI_BR_INS" "left on the stack"
bad "cycle" "X = Y + 1
Y = X * 2" "cycle" "all.def:10:5:"
bad "division by a zero constant" "X = PAPI_TOT_INS / (BR_lat - 5)" "division by zero"
run_pmkit metric check "$F" $A
[ "$rc" = 0 ] && case "$out" in *"2 definitions"*) true;; *) false;; esac && ok "the file minus the bad line loads" || nok "the file minus the bad line loads" "$out $err"
printf 'T = task-clock\n' > "$T_TMP/t.def"
if "$PMKIT" metric check "$T_TMP/t.def" >/dev/null 2>&1; then
	printf 'X = task-clock / NO_SUCH_EVENT_AT_ALL\n' > "$T_TMP/u.def"
	cat "$T_TMP/t.def" "$T_TMP/u.def" > "$T_TMP/tu.def"
	run_pmkit metric check "$T_TMP/tu.def"
	case "$err" in *"tu.def:2:18:"*"unknown event"*) [ "$rc" = 2 ] && ok "unknown event: error at line 2" || nok "unknown event" "rc=$rc";;
	*) nok "unknown event: error at line 2" "$err";; esac
	run_pmkit metric check "$T_TMP/t.def"
	[ "$rc" = 0 ] && ok "without the unknown event it loads" || nok "without the unknown event it loads" "$err"
else
	skip "unknown event" "the event parser is not in this build"
fi

# Usage errors.
run_pmkit metric eval "$F"
[ "$rc" = 2 ] && ok "eval without INPUT is a usage error" || nok "eval usage" "rc=$rc"
run_pmkit metric needs "$F" NoSuchMetric --any-names
[ "$rc" = 2 ] && case "$err" in *NoSuchMetric*) true;; *) false;; esac && ok "an unknown NAME is named" || nok "unknown NAME" "$err"

# The metric library loads against the event tables, for each model of
# top-down level 1; `needs --pmu` gives natives of that model.
M=${PMK_SRC:-.}/metrics
for m in skl icl amd64_fam19h_zen4 amd64_fam1ah_zen5; do
	run_pmkit metric check "$M/topdown.def" "$M/basic.def" "$M/seed002-figure1.def" "$M/perfexpert-2level.def" --pmu "$m"
	if [ "$rc" = 0 ]; then ok "metric library loads for $m"
	elif printf '%s' "$err" | grep -q "unknown PMU model"; then skip "metric library for $m" "no tables for $m in this build"
	else nok "metric library loads for $m" "$err"; fi
done
run_pmkit metric needs "$M/seed002-figure1.def" --pmu skl
n=$(printf '%s\n' "$out" | grep -c '^skl::')
if [ "$rc" = 0 ] && [ "$n" -ge 6 ]; then ok "needs --pmu skl lists $n Skylake natives"
elif printf '%s' "$err" | grep -q "unknown PMU model"; then skip "needs --pmu skl" "no Skylake tables in this build"
else nok "needs --pmu skl lists Skylake natives" "rc=$rc $out $err"; fi

# Recorded error estimates (pmkit stat --json "error") give an interval:
# R = A / B with A = 100 +- 5 and B = 50 exact is 2 +- 0.1 in [1.8, 2.2].
printf '{"events":[{"event":"A","value":100,"error":5},{"event":"B","value":50,"error":0}]}\n' > "$T_TMP/e.json"
printf 'R = A / B\n' > "$T_TMP/e.def"
run_pmkit metric eval "$T_TMP/e.def" "$T_TMP/e.json" --json
case "$out" in *'"name":"R","value":2,"error":0.1,"interval":[1.8,2.2]'*) ok "eval propagates recorded errors to an interval";;
*) nok "eval propagates recorded errors to an interval" "$out $err";; esac
