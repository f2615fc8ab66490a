# t.sh: helpers for shell tests (sourced). Each check prints one line that
# tests/run counts. $PMKIT is the CLI under test, $PMK_BUILD its build dir.
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
ok()   { echo "ok - $1"; }
nok()  { echo "not ok - $1: $2"; }
skip() { echo "skip - $1: $2"; }
# check NAME COMMAND...: passes when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else nok "$n" "failed: $*"; fi; }
# run_pmkit ARGS...: runs the CLI, leaving $out, $err and $rc
run_pmkit() {
	"$PMKIT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?
	out=$(cat "$T_TMP/out"); err=$(cat "$T_TMP/err")
}
