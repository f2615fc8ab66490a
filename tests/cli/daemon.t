# daemon.t: `pmkit daemon` runs record sessions in the background, as
# perf's daemon does: a config file with two sessions on software events
# starts two record processes in BASE/session-NAME; the list (-x:) names
# them with perf's fields (and, where perf is installed, the very layout
# perf prints for the same config); ping answers through each session's
# control FIFO; signal makes a --switch-output session write a file that
# report reads; a second daemon on the same base is refused; stop leaves
# no process behind; a bad config is refused with its file and line.
# First, record's --control (ping, snapshot, stop through FIFOs, each acked)
# and --switch-output (a file a cut, one at the end), which it runs on.
. tests/support/t.sh
require sample
B=$T_TMP/base
mkdir -p "$B"
cfg=$T_TMP/daemon.cfg
printf '[daemon]\nbase = %s\n\n[session-a]\nrun = -e cpu-clock -m 1 --switch-output sleep 120\n\n[session-b]\nrun = -e task-clock -m 1 sleep 120\n' "$B" >"$cfg"
PERFB=
stop_all() { # whatever a failed check left running
	"$PMKIT" daemon stop --config "$cfg" >/dev/null 2>&1
	[ -n "$PERFB" ] && perf daemon stop --base "$PERFB" >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap stop_all EXIT

# up to 30 s for a command to succeed: polled, as the machine may be loaded
wait_for() {
	i=0
	while [ $i -lt 300 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
pings_ok() {
	[ "$("$PMKIT" daemon ping --config "$cfg" | awk '$1 == "OK"' | wc -l)" = 2 ]
}

# record's --control and --switch-output, on which the daemon stands
mkfifo "$T_TMP/ctl" "$T_TMP/ack"
"$PMKIT" record -q --switch-output --control=fifo:"$T_TMP/ctl","$T_TMP/ack" \
	-o "$T_TMP/r.rec" -e cpu-clock -- sleep 120 2>"$T_TMP/r.err" &
rp=$!
send() { # a command, and its answer (20 s at most: the record may be gone)
	timeout 20 sh -c 'printf "%s\n" "$1" >"$2" && head -n 1 <"$3"' _ "$1" "$T_TMP/ctl" "$T_TMP/ack"
}
check "record --control: ping is acked" test "$(send ping)" = ack
check "record --control: snapshot is acked" test "$(send snapshot)" = ack
check "record --control: snapshot wrote a --switch-output file" \
	test "$(ls "$T_TMP" | grep -c '^r\.rec\.[0-9]*$')" = 1
if [ "$(send stop)" = ack ]; then
	ok "record --control: stop is acked"
else
	nok "record --control: stop is acked" "$(cat "$T_TMP/r.err")"
	kill $rp
fi
wait $rp
check "record --control: stop ends it as SIGTERM (143)" test "$?" = 143
check "record --switch-output: the last file at the end" \
	test "$(ls "$T_TMP" | grep -c '^r\.rec\.[0-9]*$')" = 2
check "record --switch-output: no FILE itself" test ! -e "$T_TMP/r.rec"
run_pmkit record --switch-output=3x -- true
check "record --switch-output=3x: usage error" \
	sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "option .--switch-output. takes signal"' _ "$rc" "$err"

# a bad config: the file and the line
printf '[daemon]\nbase = %s\n[session-x]\nrun = true\ncolour = red\n' "$B" >"$T_TMP/bad.cfg"
run_pmkit daemon start --config "$T_TMP/bad.cfg"
check "bad config: exit 2" test "$rc" = 2
check "bad config: the error names file:line" \
	sh -c 'printf "%s" "$1" | grep -q "bad.cfg:5: unknown key .colour."' _ "$err"
printf '[daemon]\nbase = relative/dir\n' >"$T_TMP/bad2.cfg"
run_pmkit daemon start --config "$T_TMP/bad2.cfg"
check "relative base: exit 2, line 2" \
	sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "bad2.cfg:2: base must be an absolute path"' _ "$rc" "$err"

run_pmkit daemon start --config "$cfg"
check "start: exit 0" test "$rc" = 0
check "both sessions answer ping" wait_for pings_ok

run_pmkit daemon --config "$cfg" -x:
list=$out
dpid=$(printf '%s\n' "$list" | awk -F: 'NR == 1 { print $1 }')
apid=$(printf '%s\n' "$list" | awk -F: '$2 == "a" { print $1 }')
bpid=$(printf '%s\n' "$list" | awk -F: '$2 == "b" { print $1 }')
check "list: three lines" test "$(printf '%s\n' "$list" | wc -l)" = 3
check "list: the daemon's line" sh -c 'printf "%s\n" "$1" | head -1 |
	grep -qx "[0-9]*:daemon:$2:$2/output:$2/lock:[0-9]*"' _ "$list" "$B"
check "list: a session's line" sh -c 'printf "%s\n" "$1" | grep -qx \
	"[0-9]*:b:-e task-clock -m 1 sleep 120:$2/session-b:$2/session-b/output:$2/session-b/control:$2/session-b/ack:[0-9]*"' _ "$list" "$B"
check "list: its pids run" sh -c 'test -d /proc/$1 && test -d /proc/$2 && test -d /proc/$3' _ "$dpid" "$apid" "$bpid"
run_pmkit daemon ping --config "$cfg" --session nope
check "ping: a session that does not run" test "$out" = "FAIL nope (not found)"

run_pmkit daemon signal --config "$cfg" --session a
check "signal: said" test "$out" = "signal 12 sent to session 'a [$apid]'"
dump() { ls "$B"/session-a/ | grep '^pmkit\.rec\.[0-9]*$' | head -1; }
check "signal: a --switch-output file is written" wait_for test -n "$(dump)"
check "signal: report reads it" "$PMKIT" report "$B/session-a/$(dump)"

run_pmkit daemon start --config "$cfg"
check "a second daemon on the base is refused" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "another daemon (pid $3) owns"' _ "$rc" "$err" "$dpid"

run_pmkit daemon stop --config "$cfg"
check "stop: exit 0" test "$rc" = 0
gone() { for p in "$@"; do [ -d /proc/$p ] && return 1; done; return 0; }
check "stop: daemon and sessions gone" wait_for gone "$dpid" "$apid" "$bpid"
left() { # a process still working in the base (a session's workload)
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in "$B"*) return 1 ;; esac
	done
	return 0
}
check "stop: no process left in the base" wait_for left
check "stop: the last --switch-output file is written" \
	test "$(ls "$B"/session-a/ | grep -c '^pmkit\.rec\.[0-9]*$')" -ge 2
check "the logs hold no sanitizer report" sh -c '! cat "$1"/output "$1"/session-*/output | grep -q "Sanitizer\|runtime error"' _ "$B"
run_pmkit daemon --config "$cfg"
check "no daemon: list fails" sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "no daemon on"' _ "$rc" "$err"

# perf's own list layout for the same config (pids and base aside)
if have perf && perf daemon -h 2>&1 | grep -q -- --config; then
	PERFB=$T_TMP/pbase
	mkdir -p "$PERFB"
	sed -i 's/ --switch-output//' "$cfg"
	sed "s|$B|$PERFB|" "$cfg" >"$T_TMP/p.cfg"
	perf daemon start --config "$T_TMP/p.cfg" >/dev/null 2>&1
	"$PMKIT" daemon start --config "$cfg" >/dev/null 2>&1
	wait_for pings_ok
	wait_for sh -c '[ "$(perf daemon --config "$1" -x: | wc -l)" = 3 ]' _ "$T_TMP/p.cfg"
	norm() { sed "s|$1|BASE|g; s/^[0-9]*:/PID:/"; }
	check "list -x: the layout of perf's" test \
		"$(perf daemon --config "$T_TMP/p.cfg" -x: | norm "$PERFB")" = \
		"$("$PMKIT" daemon --config "$cfg" -x: | norm "$B")"
	ppid=$(perf daemon --config "$T_TMP/p.cfg" -x: | awk -F: 'NR == 1 { print $1 }')
	perf daemon stop --config "$T_TMP/p.cfg" >/dev/null 2>&1
	wait_for gone "$ppid" # perf's stop returns before its daemon ends
	PERFB=
	"$PMKIT" daemon stop --config "$cfg" >/dev/null 2>&1
else
	skip "list -x: the layout of perf's" "${T_WHY:-perf has no daemon command}"
fi
