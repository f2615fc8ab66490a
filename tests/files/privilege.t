# privilege.t: refusals name their real cause (issue 16), checked as an
# unprivileged user (nobody, through setpriv) at this machine's
# perf_event_paranoid level: -a names what -a needs (and does not suggest
# ':u', which -a is refused too), another user's process names ptrace
# access (not the paranoid level), and at level 2 pmkit record falls back to
# user-space sampling as pmkit stat does, and says so.
. tests/support/t.sh
require root setpriv
level=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
chmod 711 "$T_TMP"; mkdir "$T_TMP/w"; chmod 777 "$T_TMP/w"; cd "$T_TMP/w" || exit 1
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$PMKIT" "$@" >out 2>err
	rc=$?; err=$(cat err)
}
has() { printf '%s' "$err" | grep -q -- "$1"; }
if [ "$level" -ge 1 ] && [ "$level" -le 2 ]; then
	asnobody stat -a -e task-clock -- true
	check "stat -a as a user (paranoid $level): exit 1, says what -a needs, no ':u' hint" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "every CPU (-a) needs perf_event_paranoid 0" && ! printf "%s" "$2" | grep -q "with .:u."' _ "$rc" "$err"
	asnobody record -q -o a.rec -a -- true
	check "record -a as a user: exit 1, says what -a needs" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "every CPU (-a)"' _ "$rc" "$err"
	asnobody stat -p 1 -e task-clock:u
	check "stat -p 1 -e task-clock:u as a user: names ptrace access, not the paranoid level" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "ptrace access" && ! printf "%s" "$2" | grep -q "paranoid=1"' _ "$rc" "$err"
	asnobody stat -p 1 -e task-clock
	check "stat -p 1 (kernel too) as a user: still names ptrace access" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "ptrace access"' _ "$rc" "$err"
else
	skip "-a and ptrace messages" "perf_event_paranoid is $level here (needs 1 or 2)"
fi
if [ "$level" = 2 ]; then
	asnobody record -q -o u.rec -- true
	check "record as a user at paranoid 2: exit 0, says it samples user space only" \
		sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q "sampling user space only"' _ "$rc" "$err"
	check "  and the file it wrote is readable" sh -c '"$PMKIT" report -i u.rec >/dev/null'
else
	skip "record's user-space fallback" "perf_event_paranoid is $level here (needs 2)"
fi
