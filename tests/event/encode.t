# encode.t: `pmkit encode` prints the encoding, one event per line, and
# rejects bad strings with the column and a hint (exit 2).
. tests/support/t.sh

run_pmkit encode --model skl INST_RETIRED:ANY_P:u UOPS_ISSUED:ANY:c=1:i
check "encode exits 0" test "$rc" = 0
check "one line per event" test "$(echo "$out" | wc -l)" = 2
check "skl INST_RETIRED:ANY_P:u" sh -c 'echo "$1" | grep -q "^INST_RETIRED:ANY_P:u: .*type=4.*config=0xc0 .*exclude_user=0 exclude_kernel=1"' _ "$out"
check "threshold and invert" sh -c 'echo "$1" | grep -q "config=0x180010e "' _ "$out"

run_pmkit encode --model zen4 --json DISPATCH_STALLS_1:FE_NO_OPS:c=6
check "json encode exits 0" test "$rc" = 0
check "json has the config" sh -c 'echo "$1" | grep -q "\"config\":\"0x1060001a0\""' _ "$out"
if have python3; then
	check "json parses" sh -c 'echo "$1" | python3 -c "import json,sys; [json.loads(l) for l in sys.stdin]"' _ "$out"
else
	skip "json parses" "$T_WHY"
fi

run_pmkit encode --model zen5 PAPI_L1_ICM
check "derived preset prints its formula" sh -c 'echo "$1" | head -1 | grep -q "derived (preset) = .* +$"' _ "$out"
check "and one line per native" test "$(echo "$out" | grep -c '^  ')" = 2

run_pmkit encode --model skl INST_RETIRED:ANY_P:c=300
check "c=300 exits 2" test "$rc" = 2
check "c=300 marks the column" sh -c 'echo "$1" | grep -q "^                       ^~~~~"' _ "$err"
check "c=300 hints the range" sh -c 'echo "$1" | grep -q "hint: c takes 0..255"' _ "$err"

run_pmkit encode --model skl INST_RETIRED:ANY_Q
check "unknown umask exits 2" test "$rc" = 2
check "unknown umask names the valid ones" sh -c 'echo "$1" | grep -q "hint: unit masks of INST_RETIRED: ANY_P"' _ "$err"

run_pmkit encode --model nosuch cycles
check "unknown model exits 2" test "$rc" = 2

run_pmkit encode --models
check "models listed" sh -c 'echo "$1" | grep -q "^amd64_fam1ah_zen5 "' _ "$out"

run_pmkit encode
check "no event is bad usage" test "$rc" = 2

run_pmkit encode --describe --model zen5 RETIRED_OPS
check "describe a native of the tables" sh -c 'test "$2" = 0 && echo "$1" | grep -q "^amd64_fam1ah_zen5::RETIRED_OPS: .*modifiers: u, k, h"' _ "$out" "$rc"
run_pmkit encode --describe --model zen5 NO_SUCH_EVENT
check "describe an unknown event exits 2" test "$rc" = 2
