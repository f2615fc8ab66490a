# help.t: the command table and the embedded manuals.
. tests/support/t.sh
run_pmkit help
check "help lists commands" sh -c 'echo "$1" | grep -q "^       help "' _ "$out"
run_pmkit help help
check "help shows a manual" sh -c 'echo "$1" | grep -q "SYNOPSIS"' _ "$out"
run_pmkit nosuchcommand
check "unknown command exits 2" test "$rc" = 2
check "unknown command says so" sh -c 'echo "$1" | grep -q "not a pmkit command"' _ "$err"
run_pmkit hepl
check "nearest-name hint" sh -c 'echo "$1" | grep -q "did you mean .help."' _ "$err"
