# record.t: pmkit record and pmkit report on real programs (cpu-clock, which
# works without a hardware PMU): a 4:1 profile, lines, stacks through a shared
# library, kills, exit statuses, refusal of unsampleable events, and damaged
# record files.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog # sources shared with bench/compare
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require cc sample

# --- a program whose two functions do work in a 4:1 ratio (line numbers
# matter: the loops are lines 6-7 and 13-14)
cat > prog.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}
__attribute__((noinline)) void warm(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.25;
	sink = x;
}
#include <time.h>
/* Runs rounds of 4:1 work until it has used argv[1] seconds of CPU time,
 * whatever the machine's speed and load. */
int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec ts;
	do {
		hot(400000);
		warm(100000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	return 0;
}
C
$CC -O1 -g -fno-omit-frame-pointer -o prog prog.c || { nok "build prog" "cc failed"; exit 0; }

run_pmkit record -q -F 4000 -o ratio.rec -- ./prog 0.3
check "record exits with the workload's status" [ "$rc" = 0 ]
run_pmkit report -i ratio.rec
pct() { printf '%s\n' "$out" | awk -v f="$1" '$3 == f { sub("%","",$1); print $1; exit }'; }
hot=$(pct hot); warm=$(pct warm)
if [ -n "$hot" ] && [ -n "$warm" ] &&
   awk -v h="$hot" -v w="$warm" 'BEGIN { exit !(h >= 75 && h <= 85 && w >= 15 && w <= 25) }'; then
	ok "4:1 work shows as 80/20 (+-5): hot $hot%, warm $warm%"
else
	nok "4:1 work shows as 80/20 (+-5)" "hot '$hot' warm '$warm': $out"
fi

run_pmkit report -i ratio.rec --sort line
first=$(printf '%s\n' "$out" | awk '!/^#/ { print $3; exit }')
wline=$(printf '%s\n' "$out" | awk '!/^#/ && $5 == "(warm)" { print $3; exit }')
case "$first" in prog.c:6|prog.c:7) ok "--sort line: hottest line is hot's loop ($first)";;
	*) nok "--sort line: hottest line is hot's loop" "got '$first': $out";; esac
case "$wline" in prog.c:13|prog.c:14) ok "--sort line: warm's samples on its loop ($wline)";;
	*) nok "--sort line: warm's samples on its loop" "got '$wline': $out";; esac

run_pmkit report -i ratio.rec --json
check "--json has rows with function and percent" sh -c "printf '%s' '$out' | grep -q '\"key\": \"hot\", \"function\": \"hot\", \"dso\": \"prog\"'"
run_pmkit report -i ratio.rec --annotate hot
check "--annotate shows the loop line with a share" sh -c "printf '%s\n' \"\$1\" | grep -Eq '%.* (6|7)  .*for|%.* 7  .*x \\+='" _ "$out"
run_pmkit report -i ratio.rec --sort dso
check "--sort dso names the executable" sh -c "printf '%s\n' \"\$1\" | grep -Eq '%.* prog\$'" _ "$out"
run_pmkit report -i ratio.rec --sort data
check "--sort data without data addresses: exit 1 and says so" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "no sample has a data address"' _ "$rc" "$err"

# --- data addresses: page faults give the faulting address on any machine.
# Two global arrays (32 MB and 4 MB, in .bss) and a heap buffer, each page
# touched once: the 32 MB array takes the most faults (with transparent
# huge pages, fewer of them, in the same order).
cat > data.c <<'C'
#include <stdlib.h>
char big[32 << 20];
char other[4 << 20];
int main(void)
{
	long hn = 16 << 20;
	char *heap = malloc((size_t)hn);
	if (!heap)
		return 1;
	for (long i = 0; i < (long)sizeof big; i += 4096)
		big[i] = 1;
	for (long i = 0; i < (long)sizeof other; i += 4096)
		other[i] = 1;
	for (long i = 0; i < hn; i += 4096)
		heap[i] = 1;
	return big[0] + other[0] + heap[0] - 3;
}
C
$CC -O1 -g -o data data.c || { nok "build data" "cc failed"; exit 0; }
run_pmkit record -q -e page-faults -c 1 --data -o data.rec -- ./data
check "record --data exits with the workload's status" [ "$rc" = 0 ]
run_pmkit report -i data.rec --sort data
rows=$(printf '%s\n' "$out" | grep -v '^#')
first=$(printf '%s\n' "$rows" | awk 'NR == 1 { print $3 "@" $4 }')
nbig=$(printf '%s\n' "$rows" | awk '$3 == "big" && $4 == "data" { print $2 }')
noth=$(printf '%s\n' "$rows" | awk '$3 == "other" && $4 == "data" { print $2 }')
if [ "$first" = "big@data" ] && [ -n "$noth" ] && [ "$nbig" -gt "$noth" ] && [ "$noth" -gt 0 ]; then
	ok "--sort data: faults by .bss object, big ($nbig) above other ($noth)"
else
	nok "--sort data: faults by .bss object" "first '$first' big '$nbig' other '$noth': $(head -12 "$T_TMP/out")"
fi
# (the output is read from its file: it can be too long for an argument)
check "--sort data: the heap buffer as one anonymous mapping" \
	grep -Eq '%  +[0-9]+  \[anon 16 MB at 0x[0-9a-f]+\] +anon$' "$T_TMP/out"
run_pmkit report -i data.rec --sort data --json
check "--sort data --json names the object and its file" \
	grep -q '"key": "big", "function": "big", "dso": "data"' "$T_TMP/out"

# --- call stacks through a shared library (-O0 keeps a frame in every
# function; GCC drops it in leaf functions at -O1 and above)
cp "$prog/spin_lib.c" lib.c && cp "$prog/spin_main.c" main.c || { nok "copy stk sources" "cp failed"; exit 0; }
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so lib.c && $CC $F -o stk main.c -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
run_pmkit record -q -g -o stk.rec -- ./stk 0.3
check "record -g succeeds" [ "$rc" = 0 ]
run_pmkit report -i stk.rec --folded
a=$(printf '%s\n' "$out" | awk '/(^|;)main;via_a;lib_spin [0-9]+$/ { s += $NF } END { print s + 0 }')
b=$(printf '%s\n' "$out" | awk '/(^|;)main;via_b;lib_spin [0-9]+$/ { s += $NF } END { print s + 0 }')
if [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$a" -gt "$b" ]; then
	ok "--folded: main;via_a;lib_spin ($a) and main;via_b;lib_spin ($b)"
else
	nok "--folded stacks through the shared library" "a=$a b=$b: $out"
fi
run_pmkit report -i stk.rec
check "lib_spin attributed to libspin.so" sh -c "printf '%s\n' \"\$1\" | grep -Eq 'lib_spin +libspin.so'" _ "$out"

# --- the same stacks without frame pointers (-O2 -fomit-frame-pointer, as
# distributions build): the kernel's frame-pointer walk cannot follow
# them; --call-graph dwarf copies the user stack and unwinds it with the
# files' call-frame information at report time (the same lib.c and main.c)
F="-O2 -g -fomit-frame-pointer"
run_pmkit record -q --call-graph dwarf -o x.rec -- true
if [ "$rc" = 2 ] && printf '%s' "$err" | grep -q 'not supported on this architecture'; then
	skip "--call-graph dwarf" "$err"
elif $CC $F -shared -fPIC -o libspin2.so lib.c &&
     $CC $F -o dwstk main.c -L. -lspin2 -Wl,-rpath,"$T_TMP"; then
	run_pmkit record -q --call-graph dwarf -o dw.rec -- ./dwstk 0.3
	check "record --call-graph dwarf exits with the workload's status" [ "$rc" = 0 ]
	run_pmkit report -i dw.rec --folded
	a=$(awk '/(^|;)main;via_a;lib_spin [0-9]+$/ { s += $NF } END { print s + 0 }' "$T_TMP/out")
	b=$(awk '/(^|;)main;via_b;lib_spin [0-9]+$/ { s += $NF } END { print s + 0 }' "$T_TMP/out")
	all=$(awk '{ s += $NF } END { print s + 0 }' "$T_TMP/out")
	# 4:1 work: via_a's stacks above via_b's, and most samples unwound
	# through both frames
	if [ "$a" -gt "$b" ] && [ "$b" -gt 0 ] && [ $((2 * (a + b))) -gt "$all" ]; then
		ok "--call-graph dwarf without frame pointers: main;via_a;lib_spin ($a), main;via_b;lib_spin ($b) of $all"
	else
		nok "--call-graph dwarf without frame pointers" "a=$a b=$b all=$all: $(head -20 "$T_TMP/out")"
	fi
	# a stripped libc names its frames from its separate debug file (by
	# build id), where one is installed (Debian's libc6-dbg)
	libc=$(ldd ./dwstk 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')
	bid=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/$(printf '%s' "$bid" | cut -c1-2)/$(printf '%s' "$bid" | cut -c3-).debug
	if [ -n "$bid" ] && [ -f "$dbg" ]; then
		check "a stripped libc's frames named from its debug file ($dbg)" \
			grep -q '__libc_start_call_main;main;via_a;lib_spin ' "$T_TMP/out"
	else
		skip "libc frames from a debug file" "no debug file for ${libc:-libc} (install libc6-dbg)"
	fi
	run_pmkit record -q --call-graph dwarf,100 -o x.rec -- true
	check "--call-graph dwarf,SIZE: SIZE not a multiple of 8 is a usage error" \
		sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "multiple of 8"' _ "$rc" "$err"
else
	nok "build dwstk" "cc failed"
fi

# --- SIGKILL of the workload, and of pmkit itself
cat > spin.c <<'C'
#include <stdio.h>
#include <unistd.h>
volatile unsigned long spin_sink;
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (;;)
		spin_sink++;
}
C
$CC -O1 -g -o spin spin.c || { nok "build spin" "cc failed"; exit 0; }
waitfile() { i=0; while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done; }
"$PMKIT" record -q -o killed.rec -- ./spin w.pid 2>/dev/null & rp=$!
waitfile w.pid; sleep 0.3; kill -9 "$(cat w.pid)"; wait $rp; rc=$?
check "workload killed by SIGKILL: pmkit exits 137" [ "$rc" = 137 ]
run_pmkit report -i killed.rec
check "report reads the file of a killed workload" sh -c "[ $rc = 0 ] && printf '%s\n' \"\$1\" | grep -q ' main '" _ "$out"

"$PMKIT" record -q -o cut.rec -- ./spin p.pid 2>/dev/null & rp=$!
waitfile p.pid; sleep 0.4; kill -9 $rp; wait $rp 2>/dev/null; kill -9 "$(cat p.pid)"
run_pmkit report -i cut.rec
check "report reads the file of a SIGKILLed pmkit" sh -c "[ $rc = 0 ] && printf '%s\n' \"\$1\" | grep -q ' main '" _ "$out"

# --- exit statuses
run_pmkit record -q -o st.rec -- sh -c 'exit 3'
check "exit status of the command (3)" [ "$rc" = 3 ]
run_pmkit record -q -o st.rec -- sh -c 'kill -TERM $$'
check "killed by SIGTERM: 143" [ "$rc" = 143 ]
run_pmkit record -q -o st.rec -- ./no-such-program
check "missing command: 127" [ "$rc" = 127 ]

# --- an event that cannot be sampled here runs nothing
rm -f ran
run_pmkit record -e instructions -o hw.rec -- touch ran
if [ "$rc" = 0 ]; then
	skip "unsampleable event" "this machine samples instructions (hardware PMU present)"
else
	check "-e instructions: refused with usage status" [ "$rc" = 2 ]
	check "-e instructions: reason and time-based suggestion" sh -c "printf '%s' \"\$1\" | grep -q 'cannot be sampled here' && printf '%s' \"\$1\" | grep -q 'cpu-clock'" _ "$err"
	check "-e instructions: the command did not run" [ ! -e ran ]
	check "-e instructions: no record file left" [ ! -e hw.rec ]
fi
# a tool event (perf's duration_time) has no kernel counter on any machine
rm -f ran
run_pmkit record -e duration_time -o tool.rec -- touch ran
check "-e duration_time: status 2, called a tool event, stat suggested, nothing run" sh -c '
	[ "$1" = 2 ] && printf "%s" "$2" | grep -q "tool event" &&
	printf "%s" "$2" | grep -q "pmkit stat -e duration_time" && [ ! -e ran ] && [ ! -e tool.rec ]' _ "$rc" "$err"
run_pmkit record -e nosuch -- true
check "unknown event: status 2 with a column marker" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q '\\^'" _ "$err"

# --- defaults: pmkit.rec in the current directory
run_pmkit record -q -- ./prog 0.01
check "default record file pmkit.rec" [ -s pmkit.rec ]
run_pmkit report
check "report reads pmkit.rec by default" sh -c "[ $rc = 0 ] && printf '%s' \"\$1\" | grep -q 'cpu-clock'" _ "$out"

# --- several events: one column each
run_pmkit record -q -e cpu-clock,task-clock -o two.rec -- ./prog 0.1
run_pmkit report -i two.rec
check "two events, two columns" sh -c "printf '%s\n' \"\$1\" | grep -q '^#.*cpu-clock.*task-clock'" _ "$out"

# --- damaged files: clear errors, never a crash
: > empty.rec
run_pmkit report -i empty.rec
check "empty file: error, status 2" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'empty'" _ "$err"
printf 'this is not a record file at all, not at all\n' > junk.rec
run_pmkit report -i junk.rec
check "foreign file: error, status 2" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'not a pmkit record file'" _ "$err"
size=$(wc -c < ratio.rec)
head -c $((size / 2 + 3)) ratio.rec > half.rec
run_pmkit report -i half.rec
check "truncated file: read up to the last whole record, with a warning" sh -c "[ $rc = 0 ] && printf '%s' \"\$1\" | grep -q 'incomplete record'" _ "$err"
cp ratio.rec bad.rec
printf '\377\377\377\177' | dd of=bad.rec bs=1 seek=$(( $(od -An -tu4 -j12 -N4 ratio.rec) + 4 )) conv=notrunc 2>/dev/null
run_pmkit report -i bad.rec
hs=$(od -An -tu4 -j12 -N4 ratio.rec | tr -d ' ')
check "corrupted record size: the record is skipped with a warning naming its offset ($hs), the rest reported" sh -c "[ $rc = 0 ] && printf '%s' \"\$1\" | grep -q 'damaged record.*at byte $hs'" _ "$err"
check "corrupted record size: the samples after it still count" sh -c "printf '%s\n' \"\$1\" | grep -Eq ' hot +prog\$'" _ "$out"
run_pmkit report -i nonexistent.rec
check "missing file: status 1 and a hint" sh -c "[ $rc = 1 ] && printf '%s' \"\$1\" | grep -q 'hint'" _ "$err"

# --- attach to a running process (-p), and all CPUs (-a)
./prog 0.4 & wp=$!
sleep 0.05
run_pmkit record -q -p "$wp" -o attach.rec
wait $wp 2>/dev/null
check "record -p stops when the process exits" [ "$rc" = 0 ]
run_pmkit report -i attach.rec
check "record -p: samples resolved through the maps read from /proc" sh -c "printf '%s\n' \"\$1\" | grep -Eq ' hot +prog\$'" _ "$out"
run_pmkit record -q -a -o all.rec -- ./prog 0.1
if [ "$rc" = 0 ]; then
	run_pmkit report -i all.rec
	check "record -a: the command's functions are among the samples" sh -c "printf '%s\n' \"\$1\" | grep -Eq ' hot +prog\$'" _ "$out"
else
	skip "record -a" "not permitted here: $(printf '%s' "$err" | head -1)"
fi
