# env.t: environment variables and readers that must not hang or disclose
# (issue 31). The text of a PMK_USER_EVENTS_FILE is never shown in its
# warning (a secret file named there stays secret); a bad PMK_INPUT_MAX is
# refused naming it (a huge one wrapped to 1 KiB before); kernel
# pseudo-files (procfs, tracefs's trace_pipe which never ends) and FIFOs are
# refused where a file is read whole, at once; a full disk is named as such;
# the region API says when PMK_REGION_EVENTS is bad or its results cannot
# be written to PMK_REGION_OUTPUT (both were silent).
. tests/support/t.sh
cd "$T_TMP" || exit 1
t() { timeout 20 "$PMKIT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?; err=$(cat "$T_TMP/err"); }

printf 'root:$6$SECRETHASH:19000:0:99999:7:::\n' > shadow
PMK_USER_EVENTS_FILE=$PWD/shadow t encode task-clock
check "PMK_USER_EVENTS_FILE of another format: warned with file:line, its text never shown" \
	sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "shadow:1:" && ! printf "%s" "$2" | grep -q "SECRET\|root"' _ "$rc" "$err"

printf 'X = task-clock\n' > good.def
for v in junk -1 18014398509481985K 5Q; do
	PMK_INPUT_MAX=$v t metric check good.def
	check "PMK_INPUT_MAX=$v: refused (exit 2), the variable named" \
		sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "PMK_INPUT_MAX"' _ "$rc" "$err"
done

t metric check /proc/self/status
check "metric check /proc/self/status: exit 2, 'procfs pseudo-file'" \
	sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "procfs pseudo-file"' _ "$rc" "$err"
tp=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e "$d/trace_pipe" ] && tp=$d/trace_pipe && break
done
if [ -n "$tp" ]; then
	t metric check "$tp"
	check "metric check trace_pipe: refused at once (exit 2, not a timeout)" \
		sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "pseudo-file"' _ "$rc" "$err"
	t stat --defs "$tp" -e task-clock -- true
	check "stat --defs trace_pipe: refused at once (exit 2)" [ "$rc" = 2 ]
else
	skip "trace_pipe" "no tracefs mounted here"
fi
mkfifo ff
t stat --defs ff -e task-clock -- true
check "stat --defs FIFO: refused at once (exit 2, 'FIFO')" \
	sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q FIFO' _ "$rc" "$err"
t report -i ff
check "report -i FIFO: refused at once (exit 2, 'FIFO')" \
	sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q FIFO' _ "$rc" "$err"

# a full disk is named: /dev/full behind -o /dev/stdout, and a tmpfs
timeout 20 "$PMKIT" stat -e task-clock -o /dev/stdout -- true >/dev/full 2>err; rc=$?
check "stat -o /dev/stdout > /dev/full: exit 1, 'No space left on device'" \
	sh -c '[ "$1" = 1 ] && grep -q "No space left on device" err' _ "$rc"
mkdir full
if mount -t tmpfs -o size=16k pmkit-test "$T_TMP/full" 2>/dev/null; then
	trap 'umount "$T_TMP/full" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	t sim record -o full/m.rec -e inst_retired:period=100 int-mix:n=1000000
	check "sim record onto a full tmpfs: exit 1, 'No space left on device'" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "No space left on device"' _ "$rc" "$err"
	rm -f full/*
	head -c 16384 /dev/zero > full/fill 2>/dev/null
	t stat -e task-clock -o full/s.txt -- true
	check "stat -o onto a full tmpfs: exit 1, 'No space left on device', nothing left" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "No space left on device" && ! ls full/*.tmp-* >/dev/null 2>&1' _ "$rc" "$err"
	umount "$T_TMP/full"
else
	skip "full tmpfs" "cannot mount a tmpfs here (needs root)"
fi

# the region API
if have cc && [ -e "$PMK_BUILD/libpmkit.so" ]; then
	cat > app.c <<'C'
#include <pmkit.h>
int main(void)
{
	pmk_region_begin("loop");
	for (volatile int i = 0; i < 100000; i++)
		;
	pmk_region_end("loop");
	return 0;
}
C
	# a sanitized library needs its runtime linked first into the program
	case "$PMK_BUILD" in *san*) san="-fsanitize=address,undefined" ;; *) san= ;; esac
	# shellcheck disable=SC2086
	if cc $san -I"$PMK_SRC/include" -o app app.c -L"$PMK_BUILD" -lpmkit -Wl,-rpath,"$PMK_BUILD" 2>cc.err; then
		mkdir outdir
		PMK_REGION_OUTPUT=$PWD/outdir ./app >/dev/null 2>err; rc=$?
		check "PMK_REGION_OUTPUT a directory: the program is told, on stderr" \
			sh -c '[ "$1" = 0 ] && grep -q "region results were not written.*directory" err' _ "$rc"
		PMK_REGION_EVENTS=no-such-event PMK_REGION_OUTPUT=$PWD/r.json ./app >/dev/null 2>err; rc=$?
		check "PMK_REGION_EVENTS bad: warned naming it, the default events counted" \
			sh -c '[ "$1" = 0 ] && grep -q "PMK_REGION_EVENTS" err && grep -q task-clock r.json' _ "$rc"
	else
		skip "region API" "cannot build a program against libpmkit: $(head -1 cc.err)"
	fi
else
	skip "region API" "needs cc and $PMK_BUILD/libpmkit.so"
fi
