# pfm.t (guest): libpfm4's Arm event names on the emulated PMUv3, where
# user-space counts are exact. The guest's pmkit links Debian's arm64
# libpfm4 (libpfm4-dev's libpfm.a, fetched by tests/guest/fetch.sh);
# w_loop retires exactly 2 x 10^6 x ARGS + 9 user instructions
# (tests/guest/prog/w_loop.S), and at -icount shift=0 as many cycles.
#
# cortex-a57 (MIDR 0x41/0xd07) is detected as libpfm4's arm_ac57, so bare
# names count; `max` has a MIDR no libpfm4 knows (implementer 0, part
# 'Q'), so pmkit counts there with generic and sysfs events, and libpfm4's
# names with an explicit MODEL:: prefix.
. "$PMK_GUEST/t.sh"
W=$PMK_GUEST/guest
dev=/sys/bus/event_source/devices
pmu=$(basename "$(ls -d $dev/armv8* | head -1)")
cpu=$(sed -n 's/.*pmk_cpu=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)

if ! "$PMKIT" encode --models 2>/dev/null | grep -q '^arm_ac57 .*libpfm4'; then
	skip "pfm" "the guest's pmkit is built without libpfm4 (Debian arm64 package libpfm4-dev not downloaded: see cache/apt/pfm.log under GUEST_DIR, build/guest by default)"
	exit 0
fi

# libpfm4's Arm models, as `pmkit encode --models` lists them.
arm_models=$("$PMKIT" encode --models | awk '$1 ~ /^arm_/ && $NF == "libpfm4" { printf "%s ", $1 }')
n=$(echo $arm_models | wc -w)
if [ "$n" -ge 4 ]; then
	ok "pfm_arm_models: $n from libpfm4: $arm_models"
else
	nok "pfm_arm_models" "$n: $arm_models"
fi

# csv_value FILE EVENT: the value field of EVENT's CSV line
csv_value() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }

# stat_exact NAME EVENTS...: each EVENT counts exactly 2 x 10^6 x k + 9 over
# `w_loop` with k = 0, 1 and 3 arguments.
stat_exact() {
	name=$1; shift
	evs=$(echo "$@" | tr ' ' ,) bad= seen=
	for args in "" "a" "a b c"; do
		set -- $args
		want=$((2000000 * $# + 9))
		run_pmkit stat -e "$evs" -x, -o "$T_TMP/c.csv" -- "$W/w_loop" "$@"
		for e in $(echo "$evs" | tr , ' '); do
			v=$(csv_value "$T_TMP/c.csv" "$e")
			[ "$rc" = 0 ] && [ "$v" = "$want" ] || bad="$bad $e=$v(want $want)"
		done
		seen="$seen $want"
	done
	if [ -z "$bad" ]; then
		ok "$name: $evs = cycles = instructions =$seen"
	else
		nok "$name" "rc $rc:$bad: $(cat "$T_TMP/c.csv") $err"
	fi
}

# Fully qualified libpfm4 names count exactly on either CPU: the
# architected PMUv3 numbers are the same in every Arm model.
stat_exact pfm_qualified_exact arm_ac57::INST_RETIRED:u arm_ac57::CPU_CYCLES:u \
	arm_n1::INST_RETIRED:u arm_n1::CPU_CYCLES:u

# libpfm4's privilege modifiers: :u is exact, :k sees the kernel only.
run_pmkit stat -e arm_ac57::INST_RETIRED:u,arm_ac57::INST_RETIRED:k,arm_ac57::INST_RETIRED -x, -o "$T_TMP/k.csv" -- "$W/w_loop" a
u=$(csv_value "$T_TMP/k.csv" arm_ac57::INST_RETIRED:u)
k=$(csv_value "$T_TMP/k.csv" arm_ac57::INST_RETIRED:k)
a=$(csv_value "$T_TMP/k.csv" arm_ac57::INST_RETIRED)
# The three counters start and stop together (the PMU's global enable), so
# u + k is the unfiltered count exactly.
if [ "$rc" = 0 ] && [ "$u" = 2000009 ] && [ "${k:-0}" -gt 0 ] 2>/dev/null &&
	[ "$((u + k))" = "$a" ]; then
	ok "pfm_privilege_modifiers: u $u + k $k = both $a"
else
	nok "pfm_privilege_modifiers" "rc $rc: $(cat "$T_TMP/k.csv") $err"
fi

# Sampling on a libpfm4 name: CPU_CYCLES (0x11) goes to the cycle counter,
# which samples exactly here (docs/guest.md): w_two's 10,000,000 user
# cycles at a period of 100,000 are 100 samples, 80 in hot and 20 in cold;
# the period given with -c and as libpfm4's period= modifier.
for how in "-c 100000 -e arm_ac57::CPU_CYCLES:u" "-e arm_ac57::CPU_CYCLES:u:period=100000"; do
	ev=${how##* }
	run_pmkit record $how -o "$T_TMP/r.rec" -- "$W/w_two"
	r1=$rc
	run_pmkit report -i "$T_TMP/r.rec" --json
	if [ "$r1" = 0 ] && printf '%s' "$out" | grep -q "\"name\": *\"$ev\", *\"samples\": *100," &&
		printf '%s' "$out" | grep -q '"function": *"hot", *"dso": *"w_two", *"samples": *\[80\]' &&
		printf '%s' "$out" | grep -q '"function": *"cold", *"dso": *"w_two", *"samples": *\[20\]'; then
		ok "pfm_record_exact: $how: 100 samples = 80 hot + 20 cold"
	else
		nok "pfm_record_exact" "$how: record rc $r1: $out $err"
	fi
done

# pmkit encode: a libpfm4 name gives the encoding of the kernel's own
# sysfs alias of the same event (pmkit has no tables of its own for Arm;
# the kernel's armv8_pmuv3/events/ are its other source), for every event
# both know, in two libpfm4 models, plain and with :u. The kernel lists
# only the events the PMU implements (PMCEID): QEMU's a57 has
# cpu_cycles and inst_retired, max adds stall_frontend and stall_backend.
for model in arm_ac57 arm_n1; do
	checked=0 wrong= names=
	for f in "$dev/$pmu"/events/*; do
		a=$(basename "$f")
		up=$(echo "$a" | tr a-z A-Z)
		for mod in "" u; do
			run_pmkit encode "$model::$up${mod:+:$mod}"
			[ "$rc" = 0 ] || continue
			lp=${out#*: }
			run_pmkit encode "$pmu/$a/$mod"
			ks=${out#*: }
			checked=$((checked + 1))
			[ -z "$mod" ] && names="$names $up"
			[ "$lp" = "$ks" ] || wrong="$wrong [$model::$up${mod:+:$mod}: $lp | $pmu/$a/$mod: $ks]"
		done
	done
	if printf '%s\n' $names | grep -qx INST_RETIRED && printf '%s\n' $names | grep -qx CPU_CYCLES &&
		[ -z "$wrong" ]; then
		ok "pfm_encode_equals_sysfs_$model: $checked strings:$names, plain and :u"
	else
		nok "pfm_encode_equals_sysfs_$model" "$checked checked; differ:$wrong"
	fi
	echo "# $model and $pmu/events/ both name:$names"
done

run_pmkit list --json
printf '%s\n' "$out" | grep '"kind":"native"' >"$T_TMP/native"
model=$(printf '%s\n' "$out" | sed -n 's/^{"schema":"pmkit-list\/1","model":"\([^"]*\)".*/\1/p')
from=$(printf '%s\n' "$out" | sed -n "s/.*{\"name\":\"$pmu\",[^}]*\"events_from\":\"\([^\"]*\)\".*/\1/p")
echo "# list: model '$model', native events from '$from', $(wc -l <"$T_TMP/native") native events"

case $cpu in
cortex-a57)
	if [ "$model" = arm_ac57 ] && [ "$from" = libpfm4 ]; then
		ok "pfm_detects_a57: $pmu is libpfm4's arm_ac57"
	else
		nok "pfm_detects_a57" "model '$model', events from '$from'"
	fi
	# The detected model's names need no prefix.
	stat_exact pfm_bare_exact INST_RETIRED:u CPU_CYCLES:u
	# `pmkit list`: libpfm4's Arm events, each with its description.
	n=$(wc -l <"$T_TMP/native")
	nodesc=$(grep -c '"description":""' "$T_TMP/native")
	if [ "$n" -ge 50 ] && [ "$nodesc" = 0 ] &&
		grep '"name":"INST_RETIRED"' "$T_TMP/native" | grep -q '"countable":true'; then
		ok "pfm_list_json: $n native events of arm_ac57, all described, INST_RETIRED countable"
	else
		nok "pfm_list_json" "$n native events, $nodesc without a description: $(head -3 "$T_TMP/native")"
	fi
	run_pmkit list INST_RETIRED
	line=$(printf '%s\n' "$out" | grep -m1 'INST_RETIRED')
	echo "# list INST_RETIRED: $line"
	if [ "$rc" = 0 ] && printf '%s' "$line" | grep -qi 'instruction architecturally executed'; then
		ok "pfm_list_text: $line"
	else
		nok "pfm_list_text" "rc $rc: $out $err"
	fi
	run_pmkit encode --describe INST_RETIRED
	echo "# encode --describe: $out"
	;;
max)
	# No libpfm4 model for this MIDR: pmkit says so and counts the
	# generic and sysfs events; libpfm4's names need their MODEL:: prefix.
	run_pmkit list
	head=$(printf '%s\n' "$out" | sed -n '1,4p')
	echo "# list: $head"
	if [ -z "$model" ] && [ -z "$from" ] && [ ! -s "$T_TMP/native" ] &&
		printf '%s\n' "$head" | grep -q "^$pmu: model unknown, native events from nowhere here"; then
		ok "pfm_max_unknown_model: $(printf '%s\n' "$head" | grep "^CPU")"
	else
		nok "pfm_max_unknown_model" "model '$model', events from '$from': $head"
	fi
	run_pmkit stat -e INST_RETIRED:u -- "$W/w_loop"
	echo "# bare INST_RETIRED:u: rc $rc: $err"
	if [ "$rc" = 2 ] && printf '%s' "$err" | grep -q 'INST_RETIRED is an arm_ac57 event; this machine is Arm implementer 0 part 0x51' &&
		printf '%s' "$err" | grep -q "pmkit encode --model arm_ac57 INST_RETIRED"; then
		ok "pfm_max_bare_name_refused: exit 2, names arm_ac57"
	else
		nok "pfm_max_bare_name_refused" "rc $rc: $err"
	fi
	stat_exact pfm_max_sysfs_exact "$pmu/inst_retired/u" "$pmu/cpu_cycles/u"
	;;
esac
