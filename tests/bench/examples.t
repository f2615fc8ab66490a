# examples.t: the case studies build and run (tiny sizes): the four matrix
# multiplies (and OpenBLAS's dgemm when built with it) agree, the sweep and speedup outputs are complete, the two
# sieves find the same primes. No timing is asserted.
. tests/support/t.sh
MM=$PMK_BUILD/examples/matmul SV=$PMK_BUILD/examples/sieve
if [ ! -x "$MM" ] || [ ! -x "$SV" ]; then
	skip "examples" "not built ($PMK_BUILD/examples)"; exit 0
fi
out=$("$MM" --check 2>&1); rc=$?
check "matmul: variants agree" sh -c '[ "$1" = 0 ] && echo "$2" | grep -q "agree"' _ "$rc" "$out"
"$MM" --cache 48k --sizes 40,64 --sweep-sizes 64 --blocks 8,16,45 \
	--csv "$T_TMP/m.csv" --svg-sweep "$T_TMP/sw.svg" --svg-speedup "$T_TMP/sp.svg" >"$T_TMP/out" 2>&1; rc=$?
check "matmul: runs" test "$rc" = 0
check "matmul: N from the cache size" grep -q "N = floor(sqrt(C/3/8)) = 45" "$T_TMP/out"
check "matmul: csv speedup rows" sh -c 'grep -c "^speedup,\(40\|64\),\(naive\|reordered\|transposed\|blocked\)," "$1" | grep -qx 8' _ "$T_TMP/m.csv"
check "matmul: csv sweep rows" sh -c 'grep -c "^sweep,64,blocked,\(8\|16\|45\)," "$1" | grep -qx 3' _ "$T_TMP/m.csv"
check "matmul: naive speedup is 1" sh -c 'grep "^speedup,[0-9]*,naive," "$1" | cut -d, -f6 | grep -vqx "1.0000" && exit 1; exit 0' _ "$T_TMP/m.csv"
if grep -q "OpenBLAS cblas_dgemm" "$T_TMP/out"; then
	check "matmul: BLAS column and csv rows" sh -c 'grep -q "blocked/BLAS" "$1" && grep -c "^speedup,\(40\|64\),blas,0," "$2" | grep -qx 2' _ "$T_TMP/out" "$T_TMP/m.csv"
else
	check "matmul: says it has no BLAS column" grep -q "built without OpenBLAS" "$T_TMP/out"
fi
check "matmul: plots" sh -c 'grep -q "</svg>" "$1" && grep -q "</svg>" "$2"' _ "$T_TMP/sw.svg" "$T_TMP/sp.svg"
"$MM" --blocks x >/dev/null 2>&1
check "matmul: bad list exits 2" test "$?" = 2
out=$("$SV" --size 1m --reps 1 2>&1); rc=$?
check "sieve: runs and agrees" test "$rc" = 0
check "sieve: 82025 primes below 2^20" sh -c 'echo "$1" | grep -c "82025 primes below 1048576" | grep -qx 2' _ "$out"
