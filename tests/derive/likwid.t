# likwid.t: `pmkit stat -g GROUP` and `-g list` over LIKWID's performance
# groups (Debian's likwid), on captured machines (PMK_SYSROOT): the list
# says which groups are evaluable and why the others are not; a group runs
# the workload, keeps its exit status, and prints each event and metric
# (<not supported> where this machine cannot count them); a group whose
# events do not all map names them with the reason; an unknown group gets
# the nearest names; a bad group file is refused with file:line; without
# the groups the error names the package.
. tests/support/t.sh
LW=${PMKIT_LIKWID_GROUPS:-/usr/share/likwid/perfgroups}
if [ ! -d "$LW/zen3" ]; then
	skip "$0" "LIKWID's groups are not installed (Debian package likwid)"
	exit 0
fi
require libpfm4
zen3=tests/fixtures/amd-zen3 icx=tests/fixtures/intel-icx spr=tests/fixtures/intel-spr

# -g list: the groups of the model, evaluable or partial with the reasons
for fx in $zen3 $icx; do
	PMK_SYSROOT=$fx run_pmkit stat -g list
	check "-g list on $fx: exit 0" test "$rc" = 0
	ng=$(printf '%s\n' "$out" | grep -c '^[A-Za-z0-9_]*  *evaluable ')
	check "-g list on $fx: evaluable groups listed ($ng)" test "$ng" -ge 8
	check "-g list on $fx: the count line" sh -c 'printf "%s\n" "$1" | grep -q "^$2 of [0-9]* groups evaluable"' _ "$out" "$ng"
	check "-g list on $fx: partial groups name their events" sh -c 'printf "%s\n" "$1" | grep -q "^    event [A-Z_0-9]* ([A-Z0-9]*): "' _ "$out"
done
PMK_SYSROOT=$zen3 run_pmkit stat -g list
check "-g list zen3: FLOPS_DP evaluable" sh -c 'printf "%s\n" "$1" | grep -q "^FLOPS_DP  *evaluable"' _ "$out"
check "-g list zen3: MEM1's data-fabric counters not mapped" sh -c 'printf "%s\n" "$1" | grep -q "event DRAM_CHANNEL_0 (DFC0): AMD.s data-fabric counters"' _ "$out"

# spr: LIKWID 5.2 has no directory; ICX's groups on request
PMK_SYSROOT=$spr run_pmkit stat -g list
check "-g list on spr: exit 1" test "$rc" = 1
check "-g list on spr: says there is no directory for spr" sh -c 'printf "%s\n" "$1" | grep -q "have no directory for CPU model .spr."' _ "$err"
PMK_SYSROOT=$spr PMKIT_LIKWID_ARCH=ICX run_pmkit stat -g list
check "-g list on spr with PMKIT_LIKWID_ARCH=ICX: exit 0" test "$rc" = 0

# a complete group: the workload runs, its exit status is kept
PMK_SYSROOT=$zen3 run_pmkit stat -g FLOPS_DP -- sh -c 'exit 3'
check "-g FLOPS_DP: the workload's exit status" test "$rc" = 3
for row in RETIRED_INSTRUCTIONS RETIRED_SSE_AVX_FLOPS_ALL 'CPI' 'DP \[MFLOP/s\]'; do
	check "-g FLOPS_DP: row $row" sh -c 'printf "%s\n" "$1" | grep -q "<not supported> *$2 "' _ "$out$err" "$row"
done
check "-g FLOPS_DP: runtime computed" sh -c 'printf "%s\n" "$1" | grep -q "^ *[0-9.]*  *Runtime (RDTSC) \[s\]"' _ "$out$err"
check "-g FLOPS_DP: no warning" test -z "$(printf '%s\n' "$err" | grep warning)"

PMK_SYSROOT=$icx run_pmkit stat -g FLOPS_DP -x, -- true
check "-g FLOPS_DP on icx: exit 0" test "$rc" = 0
check "-g FLOPS_DP on icx: AVX512 metric row" sh -c 'printf "%s\n" "$1" | grep -q "AVX512 DP \[MFLOP/s\]"' _ "$out$err"

# a partial group: what does not map, and why
PMK_SYSROOT=$zen3 run_pmkit stat -g MEM1 -- true
check "-g MEM1: runs what maps (exit 0)" test "$rc" = 0
check "-g MEM1: names the unmapped event and why" sh -c 'printf "%s\n" "$1" | grep -q "warning: -g MEM1: event DRAM_CHANNEL_0 (DFC0, .*MEM1.txt:[0-9]*) left out: AMD.s data-fabric counters (DFC): no mapping in pmkit"' _ "$err"
check "-g MEM1: names the metrics left out" sh -c 'printf "%s\n" "$1" | grep -q "metric .Memory bandwidth (channels 0-3) \[MBytes/s\]. left out: DRAM_CHANNEL_0 (DFC0)"' _ "$err"
check "-g MEM1: the metrics that map are rows" sh -c 'printf "%s\n" "$1" | grep -q "<not supported> *CPI "' _ "$out$err"
PMK_SYSROOT=$zen3 run_pmkit stat -g FLOPS_SP -- true
check "-g FLOPS_SP: complete on zen3, no warning" sh -c 'test "$1" = 0 && ! printf "%s\n" "$2" | grep -q warning' _ "$rc" "$err"

# every group -g list calls evaluable runs with no event or metric left out
for fx in $zen3 $icx; do
	PMK_SYSROOT=$fx run_pmkit stat -g list
	bad=
	for g in $(printf '%s\n' "$out" | sed -n 's/^\([A-Za-z0-9_]*\)  *evaluable .*/\1/p'); do
		PMK_SYSROOT=$fx run_pmkit stat -g "$g" -- true
		if [ "$rc" != 0 ] || printf '%s\n' "$err" | grep -q 'left out'; then
			bad="$bad $g(rc $rc)"
		fi
	done
	check "every evaluable group of $fx runs whole:${bad:- yes}" test -z "$bad"
done

# unknown group, bad argument
PMK_SYSROOT=$zen3 run_pmkit stat -g FLOPS -- true
check "-g FLOPS: exit 2" test "$rc" = 2
check "-g FLOPS: nearest names" sh -c 'printf "%s\n" "$1" | grep -q "did you mean.*FLOPS_DP, FLOPS_SP"' _ "$err"
PMK_SYSROOT=$zen3 run_pmkit stat -g A,B -- true
check "-g A,B: exit 2" test "$rc" = 2
PMK_SYSROOT=$zen3 run_pmkit stat -g -e cycles -- true
check "-g -e (perf's --group): exit 2" test "$rc" = 2
check "-g -e: points to {a,b}" sh -c 'printf "%s\n" "$1" | grep -q "written -e .{a,b}."' _ "$err"

# a bad group file: file:line
mkdir -p "$T_TMP/g/zen3"
printf 'SHORT x\nEVENTSET\nPMC0 RETIRED_INSTRUCTIONS\nMETRICS\nbad (PMC0\n' >"$T_TMP/g/zen3/BAD.txt"
PMK_SYSROOT=$zen3 PMKIT_LIKWID_GROUPS=$T_TMP/g run_pmkit stat -g BAD -- true
check "bad group: exit 2" test "$rc" = 2
check "bad group: file:line" sh -c 'printf "%s\n" "$1" | grep -q "BAD.txt:5"' _ "$err"

# no groups: the package named
PMK_SYSROOT=$zen3 PMKIT_LIKWID_GROUPS=$T_TMP/none run_pmkit stat -g FLOPS_DP -- true
check "no groups: exit 2" test "$rc" = 2
check "no groups: names Debian's likwid" sh -c 'printf "%s\n" "$1" | grep -q "package likwid"' _ "$err"
