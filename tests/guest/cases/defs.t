# defs.t (guest): user-defined events over hardware events, exact on the
# emulated PMU. w_loop a retires exactly 2,000,009 user instructions and as
# many user cycles (tests/guest/prog/w_loop.S).
. "$PMK_GUEST/t.sh"
W=$PMK_GUEST/guest
cat >"$T_TMP/u.def" <<'X'
# seed 002's postfix form, with a constant
#define TWO 2
DOUBLE_INS, instructions:u|TWO|*
# the infix form
IPC_U = instructions:u / cycles:u
PLUS_ONE = instructions:u + 1
X
csv_value() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }

run_pmkit stat --defs "$T_TMP/u.def" -e DOUBLE_INS,IPC_U,PLUS_ONE,instructions:u -x, -o "$T_TMP/c.csv" -- "$W/w_loop" a
d=$(csv_value "$T_TMP/c.csv" DOUBLE_INS)
i=$(csv_value "$T_TMP/c.csv" IPC_U)
p=$(csv_value "$T_TMP/c.csv" PLUS_ONE)
n=$(csv_value "$T_TMP/c.csv" instructions:u)
if [ "$rc" = 0 ] && [ "$d" = 4000018 ] && [ "$p" = 2000010 ] && [ "$n" = 2000009 ] &&
	awk -v x="$i" 'BEGIN { exit !(x == 1) }'; then
	ok "defs_user_events_exact: DOUBLE_INS $d IPC_U $i PLUS_ONE $p"
else
	nok "defs_user_events_exact" "rc $rc: $(cat "$T_TMP/c.csv") $err"
fi

# Loaded at library start from PMK_USER_EVENTS_FILE, the same.
PMK_USER_EVENTS_FILE="$T_TMP/u.def" "$PMKIT" stat -e DOUBLE_INS -x, -o "$T_TMP/e.csv" -- "$W/w_loop" a b >/dev/null 2>&1; rc=$?
d=$(csv_value "$T_TMP/e.csv" DOUBLE_INS)
if [ "$rc" = 0 ] && [ "$d" = 8000018 ]; then ok "defs_from_environment"; else nok "defs_from_environment" "rc $rc: $(cat "$T_TMP/e.csv")"; fi
