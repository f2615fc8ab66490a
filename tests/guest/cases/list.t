# list.t (guest): `pmkit list --json` marks as countable exactly the events
# that the kernel accepts here, as probed independently by h_probe (a bare
# perf_event_open) from the perf ABI's generic numbers and sysfs.
. "$PMK_GUEST/t.sh"
W=$PMK_GUEST/guest
dev=/sys/bus/event_source/devices

# The perf_event ABI numbers of a generic or cache event name, as TYPE CONFIG.
encode() {
	case $1 in
	cycles | cpu-cycles) echo 0 0 ;; instructions) echo 0 1 ;;
	cache-references) echo 0 2 ;; cache-misses) echo 0 3 ;;
	branches | branch-instructions) echo 0 4 ;; branch-misses) echo 0 5 ;;
	bus-cycles) echo 0 6 ;; stalled-cycles-frontend) echo 0 7 ;;
	stalled-cycles-backend) echo 0 8 ;; ref-cycles) echo 0 9 ;;
	cpu-clock) echo 1 0 ;; task-clock) echo 1 1 ;; page-faults | faults) echo 1 2 ;;
	context-switches | cs) echo 1 3 ;; cpu-migrations | migrations) echo 1 4 ;;
	minor-faults) echo 1 5 ;; major-faults) echo 1 6 ;; alignment-faults) echo 1 7 ;;
	emulation-faults) echo 1 8 ;; dummy) echo 1 9 ;; bpf-output) echo 1 10 ;;
	cgroup-switches) echo 1 11 ;;
	*) false ;;
	esac && return 0
	case $1 in
	L1-dcache-*) id=0 rest=${1#L1-dcache-} ;;
	L1-icache-*) id=1 rest=${1#L1-icache-} ;;
	LLC-*) id=2 rest=${1#LLC-} ;;
	dTLB-*) id=3 rest=${1#dTLB-} ;;
	iTLB-*) id=4 rest=${1#iTLB-} ;;
	branch-*) id=5 rest=${1#branch-} ;;
	node-*) id=6 rest=${1#node-} ;;
	*) return 1 ;;
	esac
	case $rest in
	loads) op=0 res=0 ;; load-misses) op=0 res=1 ;;
	stores) op=1 res=0 ;; store-misses) op=1 res=1 ;;
	prefetches) op=2 res=0 ;; prefetch-misses) op=2 res=1 ;;
	*) return 1 ;;
	esac
	echo 3 $((id | op << 8 | res << 16))
}
# PMU/alias/ from sysfs: the PMU's type and the alias's event= value.
encode_pmu() {
	p=${1%%/*}; a=${1#*/}; a=${a%/}
	[ -f "$dev/$p/events/$a" ] || return 1
	echo "$(cat "$dev/$p/type") $(sed -n 's/^event=\(0x[0-9a-fA-F]*\).*/\1/p' "$dev/$p/events/$a")"
}

run_pmkit list --json
[ "$rc" = 0 ] || nok "list_json" "rc $rc: $err"
checked=0 wrong=
printf '%s\n' "$out" | grep '"name":' | grep '"countable":' | sed 's/^ *//' >"$T_TMP/ev"
while IFS= read -r line; do
	name=$(printf '%s' "$line" | sed -n 's/.*"name":"\([^"]*\)".*/\1/p')
	says=$(printf '%s' "$line" | sed -n 's/.*"countable":\(true\|false\).*/\1/p')
	case $name in */*/) enc=$(encode_pmu "$name") ;; *) enc=$(encode "$name") ;; esac || continue
	[ -n "$enc" ] || continue
	if "$W/h_probe" $enc >/dev/null; then truth=true; else truth=false; fi
	checked=$((checked + 1))
	[ "$says" = "$truth" ] || wrong="$wrong $name(pmkit:$says,kernel:$truth)"
	[ "$truth" = true ] && echo "# countable: $name"
done <"$T_TMP/ev"
if [ "$checked" -ge 60 ] && [ -z "$wrong" ]; then
	ok "list_marks_exactly_the_countable_events: $checked checked"
else
	nok "list_marks_exactly_the_countable_events" "$checked checked; wrong:$wrong"
fi
