# sysfs_pmu.t: what a PMU's sysfs files declare, applied as perf applies
# it. An event's events/NAME.scale and NAME.unit (RAPL's
# power/energy-pkg/: 2^-32 Joules a count): the value is the count times
# the scale, shown with 2 decimals in the unit. The PMU's cpumask (uncore
# and RAPL PMUs count a whole package on one of its CPUs): with -a the
# event is opened there only, not once per CPU of the package.
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
# hardware PMU): a tree of its own whose msr/tsc has a scale and a unit,
# and later a cpumask
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

# A cpumask of CPU 0, as an uncore PMU's: -a opens msr/tsc/ on CPU 0 only.
# The TSC ticks at one rate on every CPU, so per second of the run the
# sum over the CPUs is one CPU's (without the mask: every CPU's).
rate() { # the -x output in $err: msr/tsc/ per msec of duration_time
	printf '%s\n' "$err" | awk -F, '$3 == "msr/tsc/" { t = $1 } $3 == "duration_time" { d = $1 } END { if (d > 0) printf "%.6g", t / d }'
}
PMK_SYSROOT=$R run_pmkit stat -a -x, -e msr/tsc/,duration_time -- sleep 0.1
all=$(rate)
echo 0 > $D/msr/cpumask
PMK_SYSROOT=$R run_pmkit stat -a -x, -e msr/tsc/,duration_time -- sleep 0.1
one=$(rate)
ncpu=$(printf '%s\n' /sys/devices/system/cpu/cpu[0-9]* | wc -l)
[ -f /sys/devices/system/cpu/online ] && ncpu=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-"); c += (r[2] == "" ? 1 : r[2] - r[1] + 1) } } END { print c }' /sys/devices/system/cpu/online)
check "-a with cpumask 0: msr/tsc/ summed over $ncpu CPUs is one CPU's ($one kticks/ms against $all without the mask)" \
	awk -v a="$all" -v o="$one" -v n="$ncpu" 'BEGIN { exit !(a > 0 && o > 0 && o * n / a > 0.8 && o * n / a < 1.25) }'
PMK_SYSROOT=$R run_pmkit stat -a -A -x, -e msr/tsc/,task-clock -- sleep 0.05
got=$(printf '%s\n' "$err" | awk -F, '$4 == "msr/tsc/" { printf "%s ", $1 } $4 == "task-clock" { t++ } END { printf "task-clock %d", t }')
check "-A with cpumask 0: one msr/tsc/ row, CPU0's, and task-clock on each of $ncpu CPUs ($got)" \
	[ "$got" = "CPU0 task-clock $ncpu" ]
# with -C, as perf 6.1, on the CPUs listed (the kernel counts the package
# there): msr/tsc/ on CPU 0 and CPU 1 alike
if [ "$ncpu" -ge 2 ]; then
	PMK_SYSROOT=$R run_pmkit stat -a -A -C 0,1 -x, -e msr/tsc/ -- sleep 0.01
	got=$(printf '%s\n' "$err" | awk -F, '$4 == "msr/tsc/" && $2 > 0 { printf "%s ", $1 }')
	check "-C 0,1 with cpumask 0: opened on the CPUs listed, as perf 6.1 ($got)" [ "$got" = "CPU0 CPU1 " ]
else
	skip "-C 0,1 with cpumask 0" "one CPU here"
fi
