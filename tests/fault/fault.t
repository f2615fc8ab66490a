# fault.t: fault injection, SQLite-style (issue 16). For each scenario -
# record -o, stat -o and sim record -o, each over an existing file, metric
# check, report -i, and PMK_USER_EVENTS_FILE read by every command - and for
# each kind of call (open, write, read, mmap, perf_event_open), a first run
# counts the calls pmkit makes, then each of them in turn is made to fail
# (errno ENOSPC, EMFILE, ENOMEM, EACCES and EINTR in rotation, so that each
# errno meets every kind) through the LD_PRELOAD library of
# tests/fault/interpose.c. Every run must: not crash (no signal, no
# sanitizer report: in the sanitized build that includes leaks), exit with a
# documented code (0, 1, 2, or 126 when the workload could not be started),
# say "error: ..." when it
# fails, keep the user's previous file (intact, or as NAME.old beside a
# complete new one), leave no temporary file, and leave no workload running.
. tests/support/t.sh
lib=$PMK_BUILD/fault/libpmkfault.so
[ -f "$lib" ] || { nok "fault injector" "$lib not built (mk/fault.mk)"; exit 0; }
cd "$T_TMP" || exit 1
# the sanitized pmkit: ASan wants to come first; the injector does not mind
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
ERRNOS="ENOSPC EMFILE ENOMEM EACCES EINTR"
CAP=${PMK_FAULT_CAP:-40} # calls failed per kind and scenario, at most
cat > work.sh <<'SH'
echo $$ > wpid
sleep 0.2
SH
printf 'IPC2 = task-clock / 2\n' > defs.def
"$PMKIT" record -q -o base.rec -- true 2>/dev/null; can_record=$?
"$PMKIT" stat -e task-clock -- true >/dev/null 2>&1; can_stat=$?

# run SCENARIO: one pmkit run (with the environment already set)
run() {
	rm -f wpid out.txt.tmp-* out.rec.tmp-*
	case $1 in
	record) echo precious > out.rec; rm -f out.rec.old
		timeout 60 "$PMKIT" record -q -o out.rec -- sh work.sh ;;
	stat) echo precious > out.txt; rm -f out.txt.old
		timeout 60 "$PMKIT" stat -o out.txt -e task-clock -- sh work.sh ;;
	simrec) echo precious > out.rec; rm -f out.rec.old
		timeout 60 "$PMKIT" sim record -o out.rec -e inst_retired:period=1000 int-mix:n=20000 ;;
	check) timeout 60 "$PMKIT" metric check defs.def ;;
	report) timeout 60 "$PMKIT" report -i base.rec ;;
	userenv) PMK_USER_EVENTS_FILE=defs.def timeout 60 "$PMKIT" encode IPC2 ;;
	esac >out 2>err
}

# verdict SCENARIO RC: "" when the run behaved, else what went wrong
verdict() {
	s=$1 rc=$2
	if grep -q 'Sanitizer\|runtime error:' err; then echo "sanitizer: $(grep -m1 'Sanitizer\|runtime error' err)"; return; fi
	case $s:$rc in
	*:0|*:1|*:2) ;;
	# the command could not be started: documented as 126 (127: not found)
	record:126|stat:126) grep -q "cannot run\|cannot start" err || { echo "exit $rc without saying the command could not run"; return; } ;;
	*) echo "exit $rc"; return ;;
	esac
	if [ "$rc" != 0 ] && ! grep -q '^error: ' err; then echo "exit $rc without an error message"; return; fi
	if [ -f wpid ] && kill -0 "$(cat wpid)" 2>/dev/null; then
		sleep 0.5 # the workload's own 0.2 s, then it must be gone
		kill -0 "$(cat wpid)" 2>/dev/null && { echo "workload left running"; return; }
	fi
	case $s in
	record|stat|simrec)
		f=out.rec; [ "$s" = stat ] && f=out.txt
		ls $f.tmp-* >/dev/null 2>&1 && { echo "temporary file left"; return; }
		if [ "$(cat $f 2>/dev/null)" != precious ] &&
		   [ "$(cat $f.old 2>/dev/null)" != precious ]; then
			echo "the previous $f is lost"; return
		fi
		if [ "$rc" = 0 ]; then
			if [ "$s" != stat ]; then
				"$PMKIT" report -i out.rec >/dev/null 2>rep.err || { echo "exit 0 but out.rec unreadable: $(head -1 rep.err)"; return; }
				grep -q 'incomplete' rep.err && { echo "exit 0 but out.rec is cut short"; return; }
			elif ! grep -q task-clock out.txt; then
				echo "exit 0 but out.txt has no counts"; return
			fi
		fi ;;
	esac
}

total=0
for s in record stat simrec check report userenv; do
	case $s in
	record|report) [ "$can_record" = 0 ] || { skip "faults in $s" "cannot sample here"; continue; } ;;
	stat) [ "$can_stat" = 0 ] || { skip "faults in $s" "cannot count task-clock here"; continue; } ;;
	esac
	for call in open write read mmap perf_event_open; do
		LD_PRELOAD=$lib PMK_FAULT_CALL=$call PMK_FAULT_COUNT=$T_TMP/count run $s
		n=$(cat count 2>/dev/null || echo 0)
		total=$((total + n))
		[ "$n" -gt "$CAP" ] && n=$CAP
		bad="" i=1 codes=""
		while [ "$i" -le "$n" ]; do
			e=$(echo $ERRNOS | cut -d' ' -f$((i % 5 + 1)))
			LD_PRELOAD=$lib PMK_FAULT_CALL=$call PMK_FAULT_NTH=$i PMK_FAULT_ERRNO=$e run $s
			rc=$?
			v=$(verdict $s $rc)
			[ -n "$v" ] && bad="$bad; call $i ($e): $v"
			case " $codes " in *" $rc "*) ;; *) codes="$codes $rc" ;; esac
			i=$((i + 1))
		done
		if [ -z "$bad" ]; then
			ok "$s: each of its $n $call calls failed in turn (exits:$codes)"
		else
			nok "$s: $call faults" "${bad#; }"
		fi
	done
done
# a pass must mean that faults were injected: a static pmkit ignores
# LD_PRELOAD, and then nothing was tested
if [ "$total" = 0 ]; then
	nok "fault injector" "no call was seen: was $lib preloaded?"
fi
