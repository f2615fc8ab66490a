# uprobe.t: pmkit uprobe (perf probe -x) on a small program: --funcs lists
# its functions, a probe added lands on the function's file offset under
# perf's group and name with perf's "Added new event" text, -f adds a
# second one, -l lists them, -d removes them; a recording of the probe
# event (with /max-stack=3/: a call chain) prints each hit as perf script
# does, naming the function. Where perf is installed it is the oracle:
# the same --funcs list, the same offset in uprobe_events, and perf
# script printing the same text as pmkit script on the recordings of both.
# Every probe made here is removed at the end, whatever happened.
. tests/support/t.sh
require root cc tracefs
UE=$TRACEFS/uprobe_events
[ -w "$UE" ] || { skip "$T_NAME" "no writable $UE (kernel without CONFIG_UPROBE_EVENTS)"; exit 0; }
cd "$T_TMP" || exit 1
prog=pmkuprobet # the group is probe_pmkuprobet: no other test's
G=probe_$prog
cat > u.c <<'EOF'
#include <stdio.h>
__attribute__((noinline)) int probe_me_a(int i) { return i * 3 + 1; }
__attribute__((noinline)) int probe_me_b(int i) { return i ^ 5; }
int main(int argc, char **argv)
{
	int s = 0;
	(void)argv;
	for (int i = 0; i < 3; i++)
		s += probe_me_a(i + argc);
	printf("%d\n", s + probe_me_b(argc));
	return 0;
}
EOF
${CC:-cc} -O1 -g -fno-omit-frame-pointer -o $prog u.c || { nok "build $prog" "cc failed"; exit 0; }
bin=$(pwd)/$prog
cleanup() {
	for e in $(sed -n "s|^[pr]:$G/\([^ ]*\) .*|\1|p" "$UE" 2>/dev/null); do
		echo "-:$G/$e" >> "$UE" 2>/dev/null
	done
	cd / && rm -rf "$T_TMP"
}
trap cleanup EXIT
have perf && perf=1 || perf=

# --funcs: the functions, sorted, once each; the default filter leaves out
# names starting with '_' and PLT entries
run_pmkit uprobe -x $prog --funcs 'probe_me*'
check "--funcs 'probe_me*': probe_me_a and probe_me_b (exit $rc)" \
	[ "$rc" = 0 -a "$out" = "probe_me_a
probe_me_b" ]
run_pmkit uprobe -x $prog --funcs
check "--funcs: main among them, nothing starting with '_'" sh -c \
	'printf "%s\n" "$1" | grep -qx main && ! printf "%s\n" "$1" | grep -q "^_"' _ "$out"
if [ -n "$perf" ]; then
	p=$(perf probe -x $prog --funcs 2>/dev/null)
	check "--funcs: perf's list" [ "$out" = "$p" ]
fi

# add: perf's text, in the shape perf's record+probe_libc_inet_pton.sh
# reads (the event line between the first line and the last five)
run_pmkit uprobe -x $prog probe_me_a
line=$(tail -n +2 "$T_TMP/err" | head -n -5)
want=$(printf '  %-20s (on probe_me_a in %s)' "$G:probe_me_a" "$bin")
check "add: exit 0, perf's 'Added new event:' text (rc $rc)" sh -c \
	'[ "$1" = 0 ] && [ "$2" = "$3" ] &&
	 printf "%s\n" "$4" | head -1 | grep -qx "Added new event:"' \
	_ "$rc" "$line" "$want" "$err"
off=$(sed -n "s|^p:$G/probe_me_a $bin:\(0x[0-9a-f]*\)$|\1|p" "$UE")
check "add: p:$G/probe_me_a in uprobe_events ($off)" [ -n "$off" ]
check "add: events/$G/probe_me_a exists" [ -d "$TRACEFS/events/$G/probe_me_a" ]
if [ -n "$perf" ]; then
	perf probe -q -x $prog pmkperf=probe_me_a 2>/dev/null
	poff=$(sed -n "s|^p:$G/pmkperf $bin:\(0x[0-9a-f]*\)$|\1|p" "$UE")
	check "add: the offset perf probes ($poff)" [ -n "$off" -a "$off" = "$poff" ]
	echo "-:$G/pmkperf" >> "$UE"
fi
run_pmkit uprobe -x $prog probe_me_a
check "add again: exit 1, the event exists" sh -c \
	'[ "$1" = 1 ] && printf "%s\n" "$2" | grep -q "already exists"' _ "$rc" "$err"
run_pmkit uprobe -f -q -x $prog -a probe_me_a
check "-f: a second event, probe_me_a_1, quietly" sh -c \
	'[ "$1" = 0 ] && [ -z "$2" ] && grep -q "^p:$3/probe_me_a_1 " "$4"' _ "$rc" "$err" "$G" "$UE"
run_pmkit uprobe -x $prog no_such_function
check "add a function the binary lacks: exit 2" [ "$rc" = 2 ]
run_pmkit uprobe -l
want=$(printf '  %-20s (on probe_me_a in %s)\n' "$G:probe_me_a" "$bin" "$G:probe_me_a_1" "$bin")
check "-l: both events, on probe_me_a in the binary" [ "$out" = "$want" ]

# record the probe event: three hits of probe_me_a, each printed as perf
# script prints a tracepoint: "comm tid [cpu] time: event: (address)"
run_pmkit record -q -e $G:probe_me_a -o r.rec -- ./$prog
run_pmkit script -i r.rec
n=$(printf '%s\n' "$out" | grep -cE "^ *$prog +[0-9]+ \[[0-9]+\] +[0-9]+\.[0-9]+: $G:probe_me_a: \([0-9a-f]+\)$")
check "record + script: 3 hits of $G:probe_me_a ($n)" [ "$n" = 3 ]
# as perf: perf.data, with a call chain from the max-stack term
run_pmkit perf record -q -e "$G:probe_me_a/max-stack=3/" -o r.data ./$prog
run_pmkit script -i r.data
n=$(printf '%s\n' "$out" | grep -cE "^[[:space:]]+[0-9a-f]+ probe_me_a\+0x0 \($bin\)$")
check "max-stack=3: each hit's stack starts at probe_me_a+0x0 ($n of 3)" [ "$n" = 3 ]
if [ -n "$perf" ]; then
	ps=$(perf script -i r.data 2>/dev/null)
	check "perf script reads pmkit's perf.data: the same text" [ -n "$ps" -a "$ps" = "$out" ]
	perf record -q -e "$G:probe_me_a/max-stack=3/" -o p.data ./$prog >/dev/null 2>&1
	ps=$(perf script -i p.data 2>/dev/null)
	run_pmkit script -i p.data
	check "pmkit script reads perf's perf.data: perf's text" [ -n "$ps" -a "$ps" = "$out" ]
fi

# delete: perf's "Removed event:" for each; nothing of the group is left
run_pmkit uprobe -d "$G:probe_me_a*"
check "-d: both removed, perf's text" sh -c '[ "$1" = 0 ] &&
	[ "$2" = "Removed event: $3:probe_me_a
Removed event: $3:probe_me_a_1" ]' _ "$rc" "$err" "$G"
check "-d: nothing of $G left in uprobe_events" sh -c '! grep -q "$1/" "$2"' _ "$G" "$UE"
run_pmkit uprobe -d "$G:probe_me_a"
check "-d of an event that is not there: exit 1" [ "$rc" = 1 ]
# pmkit's own probe (the machine probe) is still pmkit probe
run_pmkit probe --help
check "pmkit probe is still the machine probe" sh -c 'printf "%s\n" "$1" | grep -q "pmkit-probe"' _ "$out"
