# corrupt.t: single-byte corruptions of a DWARF-stack record file (random
# offsets and values, fixed seed): a damaged record is skipped, counted and
# reported with its offset, the reader resynchronizes and reports the rest.
# Every run must exit 0 with a profile or 2 naming the byte offset, and at
# least 95 % must still report. PMK_CORRUPT_TRIALS sets the number of trials
# (default 60; the issue's figure is measured with 300).
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require sample
F="-O2 -g -fomit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
run_pmkit record -q --call-graph dwarf,2048 -o d.rec -- ./stk 0.15
if [ "$rc" != 0 ]; then
	skip "corruption" "record --call-graph dwarf failed here: $(printf '%s' "$err" | head -1)"; exit 0
fi
size=$(wc -c < d.rec)
n=${PMK_CORRUPT_TRIALS:-60}
$CC -O1 -o recwalk "$prog/recwalk.c" && ./recwalk d.rec > recs ||
	{ nok "build recwalk" "cc failed"; exit 0; }
# half uniformly over the file (mostly stack bytes), half in the first 64
# bytes of a random record (its kind, size and a sample's fixed fields),
# where the reader's checks and resynchronization are what matter
awk -v n="$n" -v size="$size" 'NR == FNR { ro[NR] = $1; nr = NR; next }
	END { srand(18); for (i = 0; i < n; i++) {
		if (i % 2) off = ro[1 + int(rand() * nr)] + int(rand() * 64)
		else off = int(rand() * size)
		if (off >= size) off = size - 1
		printf "%d %d\n", off, 1 + int(rand() * 255) } }' recs recs > flips
reported=0; exit2=0; bad=0; warned=0; t=0
while read -r off val; do
	t=$((t + 1))
	cp d.rec c.rec
	old=$(od -An -tu1 -j "$off" -N1 d.rec | tr -d ' ')
	new=$(( (old + val) % 256 ))
	printf "$(printf '\\%03o' "$new")" | dd of=c.rec bs=1 seek="$off" conv=notrunc 2>/dev/null
	"$PMKIT" report -i c.rec > c.out 2> c.err; rc=$?
	if [ "$rc" = 0 ] && grep -q 'lib_spin' c.out; then
		reported=$((reported + 1))
		grep -q 'damaged record' c.err && warned=$((warned + 1))
		grep -q 'damaged record' c.err && ! grep -q 'at byte [0-9]' c.err && { bad=$((bad + 1)); echo "# trial $t (byte $off): warning without offset: $(cat c.err)"; }
	elif [ "$rc" = 2 ] && grep -q 'at byte [0-9]' c.err; then
		exit2=$((exit2 + 1))
	else
		bad=$((bad + 1)); echo "# trial $t (byte $off -> $new): status $rc: $(head -2 c.err)"
	fi
done < flips
echo "# $t single-byte corruptions of a $size-byte file: $reported reported ($warned with a damage warning), $exit2 refused with an offset, $bad otherwise"
check "every corrupted file reports (status 0) or is refused with its offset (status 2)" [ "$bad" = 0 ]
check "at least 95 % of $t corrupted files still report ($reported)" [ $((reported * 100)) -ge $((t * 95)) ]
