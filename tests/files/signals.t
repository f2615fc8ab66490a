# signals.t: SIGINT, SIGTERM and SIGHUP sent to pmkit (issue 31). For
# `stat`, `record` and `sim record`, each signal N: the workload is stopped
# (it gets the same signal; none is left running), what was measured is
# kept (the counts in the -o file, a readable record file), no NAME.tmp-*
# is left behind, and pmkit exits 128+N. A workload that ignores the signal
# is killed 2 s later.
. tests/support/t.sh
cd "$T_TMP" || exit 1
if ! "$PMKIT" stat -e task-clock -o probe.txt -- true 2>probe.err; then
	skip "$T_NAME" "cannot count task-clock here: $(head -1 probe.err)"; exit 0
fi
can_record=1; no_record=
have sample || { can_record=0; no_record=$T_WHY; }

# wait_for FILE: until the workload has written its pid (5 s at most)
wait_for() {
	i=0; while [ ! -s "$1" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
	sleep 0.2
}
# stop SIG PIDFILE ARGS...: run pmkit ARGS in the background, signal it
# once its workload runs, leave $rc and $err
stop() {
	sig=$1 pidf=$2; shift 2
	"$PMKIT" "$@" >out 2>err & p=$!
	wait_for "$pidf"
	kill -"$sig" "$p"
	wait "$p"; rc=$?; err=$(cat err)
}

for sig in INT TERM HUP; do
	case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; esac
	want=$((128 + n))
	rm -f w.pid
	stop "$sig" w.pid stat -e task-clock -o s.txt -- sh -c 'echo $$ > w.pid; exec sleep 30'
	check "stat, SIG$sig: exit $want, the counts written to -o, workload gone, no temp file" \
		sh -c '[ "$1" = "$2" ] && grep -q task-clock s.txt && ! kill -0 "$(cat w.pid)" 2>/dev/null && ! ls ./*.tmp-* >/dev/null 2>&1' _ "$rc" "$want"
	if [ $can_record = 1 ]; then
		rm -f w.pid
		stop "$sig" w.pid record -q -o r.rec -- sh -c 'echo $$ > w.pid; exec sleep 30'
		"$PMKIT" report -i r.rec >rep 2>&1; rrc=$?
		check "record, SIG$sig: exit $want, a readable record file, workload gone, no temp file" \
			sh -c '[ "$1" = "$2" ] && [ "$3" = 0 ] && ! kill -0 "$(cat w.pid)" 2>/dev/null && ! ls ./*.tmp-* >/dev/null 2>&1' _ "$rc" "$want" "$rrc"
	else
		skip "record, SIG$sig" "$no_record"
	fi
	# sim record: a long simulation, stopped after it has started
	"$PMKIT" sim record -o m.rec -e inst_retired:period=1000 int-mix:n=400000000 >out 2>err & p=$!
	sleep 1.5; kill -"$sig" "$p"; wait "$p"; rc=$?
	"$PMKIT" report -i m.rec >rep 2>&1; rrc=$?
	check "sim record, SIG$sig: exit $want, what was simulated is in a readable file, no temp file" \
		sh -c '[ "$1" = "$2" ] && [ "$3" = 0 ] && grep -q "inst_retired.*: [1-9][0-9]* samples" rep && grep -q "stopped by a signal" err && ! ls ./*.tmp-* >/dev/null 2>&1' _ "$rc" "$want" "$rrc"
done

# a workload that ignores SIGTERM is killed 2 s later
rm -f w.pid
t0=$(date +%s)
stop TERM w.pid stat -e task-clock -o s2.txt -- sh -c 'echo $$ > w.pid; trap "" TERM; while :; do :; done'
t1=$(date +%s)
check "stat, SIGTERM to a workload that ignores it: killed within a few seconds, exit 143, counts kept" \
	sh -c '[ "$1" = 143 ] && [ $(($3 - $2)) -le 6 ] && grep -q task-clock s2.txt && ! kill -0 "$(cat w.pid)" 2>/dev/null' _ "$rc" "$t0" "$t1"

# a signal before the file exists as NAME: the previous NAME intact
echo precious > keep.txt
rm -f w.pid
stop INT w.pid stat -e task-clock -o keep.txt -- sh -c 'echo $$ > w.pid; exec sleep 30'
check "stat -o over an existing file, SIGINT: the previous file kept as NAME.old" \
	sh -c '[ "$1" = 130 ] && [ "$(cat keep.txt.old)" = precious ] && grep -q task-clock keep.txt' _ "$rc"
