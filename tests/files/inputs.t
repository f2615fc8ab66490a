# inputs.t: every input file is bounded and typed (issue 16): /dev/zero, a
# directory, a FIFO and a file with a NUL byte are refused at once with a
# clear message and exit 2, for definition files, measurement files,
# PMK_USER_EVENTS_FILE (loaded by every command), record files, the
# simulator's configuration and traces; the size cap is PMK_INPUT_MAX.
. tests/support/t.sh
cd "$T_TMP" || exit 1
mkdir adir; mkfifo afifo
printf 'A = 1\nB = 2\0junk\n' > nul.def
printf 'X = task-clock\n' > good.def
# timeout: a FIFO that blocks, or /dev/zero read to the end, fails the test
# instead of hanging the suite
t() { timeout 20 "$PMKIT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?; err=$(cat "$T_TMP/err"); }
refused() { # NAME WHAT: exit 2 and a message naming WHAT
	check "$1: exit 2 (got $rc), says '$2'" \
		sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "$3"' _ "$rc" "$err" "$2"
}
for f in /dev/zero:"character device" adir:directory afifo:FIFO; do
	p=${f%%:*} what=${f#*:}
	t metric check "$p"; refused "metric check $p" "$what"
	t metric eval good.def "$p"; refused "metric eval good.def $p" "$what"
	t report -i "$p"; refused "report -i $p" "$what"
	t sim run -c "$p"; refused "sim run -c $p" "$what"
	PMK_USER_EVENTS_FILE=$p t encode task-clock
	check "PMK_USER_EVENTS_FILE=$p: encode still works (exit $rc), warns '$what'" \
		sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "PMK_USER_EVENTS_FILE.*$3"' _ "$rc" "$err" "$what"
done
t sim run /dev/zero; refused "sim run TRACE=/dev/zero" "character device"
t sim run adir; refused "sim run TRACE=directory" "directory"
t metric check nul.def
refused "metric check: a NUL byte is an error at file:line:column" "nul.def:2:6: NUL byte at offset 11"
PMK_USER_EVENTS_FILE=nul.def t encode task-clock
check "PMK_USER_EVENTS_FILE with a NUL byte: warned with file:line" \
	sh -c 'printf "%s" "$1" | grep -q "nul.def:2:6"' _ "$err"
head -c 3000 /dev/zero | tr '\0' '#' > big.def
PMK_INPUT_MAX=2K t metric check big.def
refused "PMK_INPUT_MAX=2K: a 3000-byte file is refused" "larger than 2048 bytes"
PMK_INPUT_MAX=4K t metric check big.def
check "PMK_INPUT_MAX=4K: the same file is read (exit $rc)" \
	sh -c '[ "$1" = 0 ] && ! printf "%s" "$2" | grep -q "larger than"' _ "$rc" "$err"
printf 'PMKTRACE' > tr.bin
t sim run tr.bin
refused "a truncated trace is bad input" "trace"
# measurement names are looked up by hash: 200,000 distinct names (about
# 15 s before, quadratic) read and evaluated within a generous timeout
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "name_%d %d\n", i, i }' > many.txt
printf 'X = name_5 + name_199999\nY = name_100000\n' > many.def
t metric eval many.def many.txt
check "metric eval over 200,000 distinct names: X = 200004, Y = 100000 (exit $rc)" \
	sh -c '[ "$1" = 0 ] && grep -q "^X  *200004" out && grep -q "^Y  *100000" out' _ "$rc"
# a malformed trace found mid-run is bad input too (it exited 1)
head -c 60 "$PMK_SRC/tests/fuzz/corpus/trace/champsim0" > cut.champsim
t sim run --champsim cut.champsim
refused "sim run --champsim on a truncated record" "truncated ChampSim record"
# metric check says what stat --defs refuses: a definition of more steps
# than one event holds (2,048) cannot be counted (metric eval still computes it)
{ printf 'BIG = task-clock'; i=0; while [ $i -lt 1100 ]; do printf ' + page-faults'; i=$((i + 1)); done; echo; } > big9.def
t metric check big9.def; crc=$rc; cerr=$err; cp out check.out
t stat --defs big9.def -e task-clock -- true; src=$rc
check "2,201 steps in one definition: stat --defs refuses (exit $src), metric check warns at file:line and says so" \
	sh -c '[ "$1" = 2 ] && [ "$2" = 0 ] && printf "%s" "$3" | grep -q "big9.def:1:1: .BIG. needs more than 64 natives or 2048 steps" && grep -q "1 not countable" check.out' _ "$src" "$crc" "$cerr"
