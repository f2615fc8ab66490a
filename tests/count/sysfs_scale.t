# sysfs_scale.t: a PMU event's events/NAME.scale and NAME.unit (RAPL's
# power/energy-pkg/: 2^-32 Joules a count) apply as perf applies them: the
# value is the count times the scale, shown with 2 decimals in the unit.
. tests/support/t.sh
F=$PMK_SRC/tests/fixtures
# the captured Zen 3 tree declares energy-pkg.scale and energy-pkg.unit
PMK_SYSROOT=$F/amd-zen3 run_pmkit encode power/energy-pkg/
check "encode: power/energy-pkg/ is its count times 2.3283e-10, in Joules ($(echo "$out" | head -1))" \
	sh -c 'echo "$1" | head -1 | grep -q "^power/energy-pkg/: derived (PMU) = power/energy-pkg/ 2.32831e-10 \*, in Joules$"' _ "$out"
PMK_SYSROOT=$F/amd-zen3 run_pmkit encode --json power/energy-pkg/
check "encode --json: \"unit\":\"Joules\"" sh -c 'echo "$1" | grep -q "\"unit\":\"Joules\""' _ "$out"
# intel-spr's tree has no energy-pkg.scale: the count stays a count
PMK_SYSROOT=$F/intel-spr run_pmkit encode power/energy-pkg/
check "encode: without a .scale file the event is its count" \
	sh -c 'echo "$1" | grep -q "^power/energy-pkg/: pmu=power type=10(dynamic) config=0x2 "' _ "$out"

# Counting, through this kernel's msr PMU (per CPU, counts without a
# hardware PMU): a tree of its own whose msr/tsc has a scale and a unit
M=/sys/bus/event_source/devices/msr
if [ ! -f $M/type ] || [ ! -f $M/events/tsc ]; then
	skip "msr/tsc/ scaled" "no msr PMU with a tsc event here"; exit 0
fi
R=$T_TMP/root D=$T_TMP/root/sys/bus/event_source/devices
mkdir -p $D/msr/events $D/software $D/tracepoint $R/proc
cp $M/type $D/msr/type; cp $M/events/tsc $D/msr/events/tsc
cp -r $M/format $D/msr/format 2>/dev/null
cp /sys/bus/event_source/devices/software/type $D/software/type
cp /sys/bus/event_source/devices/tracepoint/type $D/tracepoint/type
cp /proc/cpuinfo $R/proc/cpuinfo
echo 0.001 > $D/msr/events/tsc.scale
printf 'kticks\n' > $D/msr/events/tsc.unit
PMK_SYSROOT=$R run_pmkit stat --json -e msr/tsc/ -- sleep 0.01
v=$(printf "%s\n" "$out" "$err" | sed -n 's/.*"event":"msr\/tsc\/","status":"counted","value":\([0-9.e+-]*\),"unit":"\([a-z]*\)","raw":\([0-9]*\),.*/\1 \2 \3/p')
check "stat --json: value = raw count x 0.001, unit kticks ($v)" \
	sh -c '[ "$1" = 0 ] && set -- $2 && [ "$2" = kticks ] && awk -v v="$1" -v r="$3" "BEGIN { exit !(r > 0 && (v - r / 1000) ^ 2 < (r * 1e-12) ^ 2) }"' _ "$rc" "$v"
PMK_SYSROOT=$R run_pmkit stat -e msr/tsc/ -- sleep 0.01
check "stat: perf's row for a unit, 2 decimals then kticks" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +[0-9]+\.[0-9]{2} kticks msr/tsc/"' _ "$err"
PMK_SYSROOT=$R run_pmkit stat -x, -e msr/tsc/ -- sleep 0.01
check "stat -x,: VALUE,kticks,msr/tsc/" sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9]+\.[0-9]{2},kticks,msr/tsc/,"' _ "$err"
