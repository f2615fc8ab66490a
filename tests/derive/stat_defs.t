# stat_defs.t: a user event over software events counted live with
# `pmkit stat --defs FILE -e NAME -- COMMAND`, shown by `pmkit list --defs`,
# and the same definition evaluated afterwards by `pmkit metric eval` over
# stat's CSV and JSON output.
. tests/support/t.sh
D=$T_TMP/pf.def
cat > "$D" <<'DEF'
# page faults per millisecond of task-clock (task-clock counts ns)
faults_per_ms = page-faults / (task-clock / 1e6)
DEF
W="head -c 20000000 /dev/zero | cat > /dev/null"

run_pmkit stat --defs "$D" -e faults_per_ms,page-faults,task-clock -x, -- sh -c "$W"
line() { printf '%s\n' "$out$err" | awk -F, -v n="$1" '$3==n{print $1}'; }
f=$(line faults_per_ms); p=$(line page-faults); t=$(line task-clock)
if [ "$rc" = 0 ] && [ -n "$f" ] && [ -n "$p" ] && [ -n "$t" ] &&
   awk -v f="$f" -v p="$p" -v t="$t" 'BEGIN{ e = p / t; exit !(f > 0 && (f - e) / e < 0.05 && (e - f) / e < 0.05) }'; then
	ok "stat --defs counts faults_per_ms live ($f vs $p / $t ms)"
else
	nok "stat --defs counts faults_per_ms live" "rc=$rc f=$f p=$p t=$t $err"
fi

run_pmkit list --defs "$D" faults_per_ms
case "$out" in *"faults_per_ms"*countable*"page-faults / (task-clock / 1e6)"*) ok "list --defs shows the user event and its definition";;
*) nok "list --defs shows the user event and its definition" "$out $err";; esac

# A bad file: the error with line and column, exit 2, nothing run.
printf 'ok_one = page-faults * 2\nbad, page-faults|+\n' > "$T_TMP/bad.def"
run_pmkit stat --defs "$T_TMP/bad.def" -e ok_one -- touch "$T_TMP/ran"
case "$err" in *"bad.def:2:18:"*underflow*) [ "$rc" = 2 ] && [ ! -e "$T_TMP/ran" ] && ok "a bad --defs file stops stat before running anything" || nok "bad --defs" "rc=$rc";;
*) nok "a bad --defs file stops stat before running anything" "$err";; esac
run_pmkit stat -e ok_one -- true
[ "$rc" = 2 ] && ok "nothing of the bad file was loaded" || nok "nothing of the bad file was loaded" "rc=$rc"

# Recorded, then evaluated: the same value as stat computes from the record.
"$PMKIT" stat -e page-faults,task-clock -x, -o "$T_TMP/run.csv" -- sh -c "$W"
run_pmkit metric eval "$D" "$T_TMP/run.csv"
v=$(printf '%s\n' "$out" | awk '$1=="faults_per_ms"{print $2}')
p=$(awk -F, '$3=="page-faults"{print $1}' "$T_TMP/run.csv")
t=$(awk -F, '$3=="task-clock"{print $1}' "$T_TMP/run.csv")
awk -v v="$v" -v p="$p" -v t="$t" 'BEGIN{ e = p / t; exit !(v != "" && (v - e) / e < 1e-6 && (e - v) / e < 1e-6) }' &&
	ok "metric eval over stat CSV ($v)" || nok "metric eval over stat CSV" "v=$v p=$p t=$t $out $err"
"$PMKIT" stat -e page-faults,task-clock --json -o "$T_TMP/run.json" -- true
run_pmkit metric eval "$D" "$T_TMP/run.json" --json
case "$out" in *'"name":"faults_per_ms","value":'[0-9]*) ok "metric eval over stat JSON";;
*) nok "metric eval over stat JSON" "$out $err";; esac

# PMK_USER_EVENTS_FILE: loaded at library init; a bad one is reported once.
PMK_USER_EVENTS_FILE=$D "$PMKIT" stat -e faults_per_ms -x, -- true >"$T_TMP/o" 2>&1
grep -q '^[0-9.]*,,faults_per_ms,' "$T_TMP/o" && ok "PMK_USER_EVENTS_FILE loads at init" || nok "PMK_USER_EVENTS_FILE loads at init" "$(cat "$T_TMP/o")"
PMK_USER_EVENTS_FILE=$T_TMP/bad.def "$PMKIT" stat -e task-clock -x, -- true >"$T_TMP/o" 2>&1
grep -q "PMK_USER_EVENTS_FILE not loaded: .*bad.def:2:18: stack underflow" "$T_TMP/o" && grep -q ',task-clock,' "$T_TMP/o" &&
	ok "a bad PMK_USER_EVENTS_FILE is reported, and counting goes on" || nok "bad PMK_USER_EVENTS_FILE" "$(cat "$T_TMP/o")"
