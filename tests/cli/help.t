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
# --help and -h after a subcommand or other options show the command's
# manual and exit 0, as git and perf do (they were unknown options)
for c in "bench os" "mpi report" "addie figures" "stat report" "stat -e task-clock"; do
	for h in --help -h; do
		run_pmkit $c $h
		check "pmkit $c $h: the manual of '${c%% *}' on stdout, exit 0 (got $rc)" \
			sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -q "^SYNOPSIS" && printf "%s\n" "$2" | grep -q "pmkit-${3%% *}"' _ "$rc" "$out" "$c"
	done
done
run_pmkit bench os --hel
check "a misspelt --help is still an unknown option (exit 2)" [ "$rc" = 2 ]
