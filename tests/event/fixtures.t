# fixtures.t: discovery, listing, presets, encoding and top-down
# availability against captured machines (tests/fixtures/*: proc/cpuinfo and
# sys/ trees), on any host. PMK_SYSROOT points pmkit's discovery at each one;
# `list` and `encode` open nothing. `cpistack` and `stat` do try to open
# the captured machine's events on this host, so what they say depends on
# whether this host counts hardware events at all, which it declares itself
# (`pmkit list --json`, PMK_SYSROOT unset: is `instructions` countable?).
. tests/support/t.sh
F=${PMK_SRC:-.}/tests/fixtures
models=$("$PMKIT" encode --models 2>/dev/null | awk '{print $1}')
has_model() { echo "$models" | grep -qx "$1"; }

# topdown FX MODEL CORE TD: what `pmkit cpistack -- COMMAND` says on the
# captured machine FX. TD is "defs" when metrics/topdown.def has a section
# for MODEL, "none" when it has not. Without definitions the answer is the
# same on every host and COMMAND never runs. With them, cpistack says the
# model is defined but a captured machine is described, not counted (its
# events would count on this host), and COMMAND never runs either.
topdown() {
	rm -f "$T_TMP/ran"
	run_pmkit cpistack -- sh -c "echo ran >$T_TMP/ran"
	ran=no; [ -e "$T_TMP/ran" ] && ran=yes
	perf_td=$("$PMKIT" stat -M list 2>/dev/null | awk '{ n = split($2, g, ";"); for (i = 1; i <= n; i++) if (g[i] == "TopdownL1") c++ } END { print c + 0 }')
	# a model topdown.def does not describe and perf's metrics do: perf's
	# TopdownL1 (cpistack_perf.c), described, not counted
	if [ "$4" = none ] && [ "$perf_td" -gt 0 ]; then
		check "$1: cpistack: perf's TopdownL1 for $2 ($perf_td metrics), a captured machine is described, not counted, command not run" sh -c '
			test "$1" = 1 && test "$3" = no &&
			printf "%s\n" "$2" | grep -q "^error: top-down level 1 for CPU model .$4. is defined (perf.s TopdownL1, $5 metrics), but PMK_SYSROOT names a captured machine: it is described, not counted\$"' _ "$rc" "$err" "$ran" "$2" "$perf_td"
	else
	case $4 in
	none)
		check "$1: cpistack: no top-down definitions for $2, command not run" sh -c '
			test "$1" = 1 && test "$3" = no &&
			printf "%s\n" "$2" | grep -q "^error: no top-down definitions (known models: .*) for CPU model $4\$"' _ "$rc" "$err" "$ran" "$2" ;;
	defs)
		check "$1: cpistack: $2 has definitions; a captured machine is described, not counted, command not run" sh -c '
			test "$1" = 1 && test "$3" = no &&
			printf "%s\n" "$2" | grep -q "^error: top-down level 1 for CPU model .$4. is defined, but PMK_SYSROOT names a captured machine: it is described, not counted\$"' _ "$rc" "$err" "$ran" "$2" ;;
	*) nok "$1: top-down" "bad table entry '$4'" ;;
	esac
	fi
	# stat --topdown: perf's TopdownL1 where perf's metrics define it for
	# the model (read from perf's pmu-events JSON when it is installed):
	# it runs as -M does, a row per metric (<not supported> here); else
	# pmkit's definitions first, then a captured machine is described,
	# not counted (this host's counters never asked)
	run_pmkit stat --topdown -x, -- true
	# perf's, where every metric of its TopdownL1 is evaluable as perf's
	# (no warning that pmkit's own definition stands in)
	if [ "$perf_td" -gt 0 ] && [ "$rc" = 0 ] &&
		! printf '%s' "$err" | grep -q "pmkit's own definition"; then
		check "$1: stat --topdown: perf's TopdownL1 for $2, its $perf_td metrics as rows" sh -c '
			test "$1" = 0 && test "$(printf "%s
" "$2" | grep -c ",,tma_")" = "$3"' _ "$rc" "$err" "$perf_td"
		return
	fi
	case $4 in
	none)
		check "$1: stat --topdown: no top-down definitions for $2" sh -c '
			test "$1" = 1 && printf "%s\n" "$2" | grep -q "^error: --topdown: no top-down definitions (known models: .*) for CPU model $3\$"' _ "$rc" "$err" "$2" ;;
	defs)
		check "$1: stat --topdown: $2 defined, a captured machine is not counted" sh -c '
			test "$1" = 1 && printf "%s\n" "$2" | grep -q "^error: --topdown: top-down level 1 for CPU model .$3. is defined, but PMK_SYSROOT names a captured machine: it is described, not counted\$"' _ "$rc" "$err" "$2" ;;
	esac
}

# fixture | model of the core PMU | core PMU | hardware PMU | top-down
# definitions (metrics/topdown.def) | native string | expected encoding
# (a native string with = is a sysfs alias, encoded with or without a
# native source; encodings are libpfm4's, checked against the vendors'
# event tables)
while IFS='|' read -r fx model core hw td native enc; do
	[ -n "$fx" ] || continue
	export PMK_SYSROOT="$F/$fx"
	run_pmkit list --json
	check "$fx: list --json exits 0" test "$rc" = 0
	check "$fx: detected as $model, core PMU '$core', hardware PMU $hw" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); model,core,hw=sys.argv[2:5]
assert d["model"]==model, d["model"]
assert d["captured"] is True
assert d["hardware_pmu"]==(hw=="true")
cores=[p for p in d["pmus"] if p["core"]]
if core!="-":
    assert cores and cores[0]["name"] in (core,"cpu_atom"), cores
    assert any(p["name"]==core for p in cores)
else:
    assert not cores
assert any(e["name"]=="PAPI_TOT_INS" for e in d["events"]), "no PAPI_TOT_INS"
assert all(e["countable"] is None for e in d["events"])' "$T_TMP/out" "$model" "$core" "$hw"
	run_pmkit encode PAPI_TOT_INS instructions
	check "$fx: presets and generic names encode" test "$rc" = 0
	if [ "$core" != "-" ]; then
		check "$fx: generic events go to $core" sh -c 'echo "$1" | grep -q "^instructions: pmu=$2 type=0"' _ "$out" "$core"
	fi
	# the detected name is a model `--model` takes, with or without a
	# source of natives for it (AMD's were unknown to a build without
	# libpfm4)
	run_pmkit encode --model "$model" instructions
	check "$fx: --model $model is accepted" test "$rc" = 0
	if [ "$native" = "-" ]; then
		:
	elif has_model "$model" || [ "${native#=}" != "$native" ]; then
		native=${native#=}
		run_pmkit encode "$native"
		check "$fx: $native encodes ($enc)" sh -c 'echo "$1" | grep -q "$2"' _ "$out" "$enc"
	else
		skip "$fx: $native" "this build has no source for $model (libpfm4-dev missing?)"
	fi
	topdown "$fx" "$model" "$core" "$td"
done <<'TABLE'
intel-spr|spr|cpu|true|defs|INST_RETIRED:ANY:u|type=4(raw) config=0x1c0 .*exclude_kernel=1
intel-icx|icx|cpu|true|defs|INST_RETIRED:ANY_P:c=1:i|type=4(raw) config=0x18000c0 
intel-clx|clx|cpu|true|defs|MEM_LOAD_L3_MISS_RETIRED:REMOTE_PMM|type=4(raw) config=0x10d3 
intel-skx|skx|cpu|true|defs|INST_RETIRED:ANY_P:t|type=4(raw) config=0x2000c0 
intel-bdx|bdw_ep|cpu|true|none|CYCLE_ACTIVITY:STALLS_L2_PENDING|type=4(raw) config=0x50005a3 
intel-adl|adl_glc|cpu_core|true|defs|-|
amd-zen1|amd64_fam17h_zen1|cpu|true|none|CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C|type=4(raw) config=0x864 
amd-zen2|amd64_fam17h_zen2|cpu|true|none|RETIRED_INSTRUCTIONS:u|type=4(raw) config=0xc0 .*exclude_kernel=1
amd-zen3|amd64_fam19h_zen3|cpu|true|none|RETIRED_SSE_AVX_FLOPS:ANY:k|type=4(raw) config=0xf03 .*exclude_user=1
amd-zen4|amd64_fam19h_zen4|cpu|true|defs|DISPATCH_STALLS_1:FE_NO_OPS:c=6|config=0x1060001a0 
amd-zen5|amd64_fam1ah_zen5|cpu|true|defs|RETIRED_INSTRUCTIONS:k|type=4(raw) config=0xc0 .*exclude_user=1
arm-n1|arm_n1|armv8_pmuv3_0|true|none|=inst_retired:u|pmu=armv8_pmuv3_0 type=8(dynamic) config=0x8 .*exclude_kernel=1
arm-n2|arm_n2|armv8_pmuv3_0|true|none|=stall_slot_frontend:u|pmu=armv8_pmuv3_0 type=8(dynamic) config=0x3e .*exclude_kernel=1
arm-v1|arm_v1|armv8_pmuv3_0|true|none|=l1d_cache_refill|pmu=armv8_pmuv3_0 type=8(dynamic) config=0x3 
arm-v2|arm_v2|armv8_pmuv3_0|true|none|=sve_inst_spec|pmu=armv8_pmuv3_0 type=8(dynamic) config=0x8006 
vm-intel|spr|-|false|defs|INST_RETIRED:ANY|type=4(raw) config=0x1c0 
vm-amd|amd64_fam19h_zen4|-|false|defs|RETIRED_INSTRUCTIONS|type=4(raw) config=0xc0 
vm-arm|arm_n1|-|false|none|-|
TABLE

# Hybrid: each core PMU has its model and its own perf type, as perf has it.
export PMK_SYSROOT="$F/intel-adl"
run_pmkit encode cpu_atom/instructions/ cpu_core/instructions/:u topdown-retiring
check "adl: cpu_atom/instructions/ on its own type" sh -c 'echo "$1" | grep -q "^cpu_atom/instructions/: pmu=cpu_atom type=10(dynamic) config=0xc0 "' _ "$out"
check "adl: cpu_core/instructions/:u" sh -c 'echo "$1" | grep -q "^cpu_core/instructions/:u: pmu=cpu_core type=4(raw) config=0xc0 .*exclude_kernel=1"' _ "$out"
check "adl: a bare sysfs name of the big core" sh -c 'echo "$1" | grep -q "^topdown-retiring: pmu=cpu_core type=4(raw) config=0x8000 "' _ "$out"
# perf's generic names on a hybrid: as a term of either core PMU (sysfs
# has cpu-cycles, not cycles), on the kernel's extended type (the PMU's
# type in config's upper 32 bits); a bare one outside a group is one
# event per core PMU, rows named as perf names them (not counted here:
# the adl types are not this kernel's); in a group it stays one event
run_pmkit encode cpu_atom/cycles/ cpu_core/cache-misses/u
check "adl: cpu_atom/cycles/ is generic cycles on cpu_atom's type (10)" sh -c 'echo "$1" | grep -q "^cpu_atom/cycles/: pmu=cpu_atom type=0(hardware) config=0xa00000000 "' _ "$out"
check "adl: cpu_core/cache-misses/u: the PMU's sysfs alias first" sh -c 'echo "$1" | grep -q "^cpu_core/cache-misses/u: pmu=cpu_core type=4(raw) config=0x412e .*exclude_kernel=1"' _ "$out"
run_pmkit stat -x, -e cycles:u,task-clock -- true
got=$(printf '%s\n' "$err" | cut -d, -f3 | grep cycles | sort | tr '\n' ' ')
check "adl: stat -e cycles:u gives cpu_atom/cycles/u and cpu_core/cycles/u ($got)" [ "$got" = "cpu_atom/cycles/u cpu_core/cycles/u " ]
run_pmkit stat -x, -- true
got=$(printf '%s\n' "$err" | cut -d, -f3 | grep -c '^cpu_\(atom\|core\)/\(cycles\|instructions\|branches\|branch-misses\)/$')
check "adl: stat's default list, each hardware event per core PMU ($got of 8)" [ "$got" = 8 ]
run_pmkit stat -x, -e '{cycles,instructions}' -- true
got=$(printf '%s\n' "$err" | cut -d, -f3 | grep -v '^$' | tr '\n' ' ')
check "adl: a group's generic events stay as written ($got)" [ "$got" = "cycles instructions " ]
run_pmkit list --json
check "adl: a model per core PMU" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); m={p["name"]:p.get("model") for p in d["pmus"]}
assert m["cpu_core"]=="adl_glc" and m["cpu_atom"]=="adl_grt", m' "$T_TMP/out"
if has_model adl_glc; then
	skip "adl: no native source" "this libpfm4 knows adl_glc"
else
	run_pmkit encode INST_RETIRED:ANY
	check "adl: a native string with no source here exits 2" test "$rc" = 2
fi

# Uncore PMUs are listed, with their system-wide nature.
export PMK_SYSROOT="$F/intel-spr"
run_pmkit list --json uncore_imc_0
check "spr: uncore_imc_0 is uncore, with its events" python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert [p for p in d["pmus"] if p["name"]=="uncore_imc_0"][0]["uncore"] is True
assert any(e["name"]=="uncore_imc_0/cas_count_read/" for e in d["events"])' "$T_TMP/out"
run_pmkit encode uncore_imc_0/cas_count_read/ power/energy-pkg/
check "spr: uncore and power events encode on their types" sh -c 'echo "$1" | grep -q "^uncore_imc_0/cas_count_read/: pmu=uncore_imc_0 type=20(dynamic) config=0xcf04 " && echo "$1" | grep -q "^power/energy-pkg/: pmu=power type=10(dynamic) config=0x2 "' _ "$out"

# Tracepoints by name, from the machine's tracefs.
run_pmkit encode sched:sched_switch 'syscalls:sys_enter_rea*'
check "tracepoint by name and a one-match glob" sh -c 'echo "$1" | grep -q "^sched:sched_switch: pmu=tracepoint type=2(tracepoint) config=0x13c " && echo "$1" | grep -q "config=0x2bc "' _ "$out"
run_pmkit encode 'syscalls:sys_enter_*'
check "a many-match glob exits 2 naming the count" sh -c 'test "$2" = 2 && echo "$1" | grep -q "matches 3 tracepoints"' _ "$err" "$rc"
run_pmkit list 'syscalls:sys_enter_*'
check "list expands a tracepoint glob" test "$(echo "$out" | grep -c '^  syscalls:sys_enter_')" = 3
export PMK_SYSROOT="$F/vm-intel"
run_pmkit encode sched:sched_switch
check "no tracefs: the tracepoint is unknown (exit 2)" test "$rc" = 2

# Bad input: an event of another model says so.
export PMK_SYSROOT="$F/amd-zen4"
if has_model amd64_fam19h_zen4; then
	run_pmkit encode INST_RETIRED:ANY_P
	check "another model's event names that model" sh -c 'test "$2" = 2 && echo "$1" | grep -q "INST_RETIRED is an .* event; this machine is amd64_fam19h_zen4"' _ "$err" "$rc"
	run_pmkit encode RETIRED_INSTRUCTONS
	check "a misspelt native suggests the nearest" sh -c 'echo "$1" | grep -q "did you mean .RETIRED_INSTRUCTIONS"' _ "$err"
else
	skip "another model's event" "no source for amd64_fam19h_zen4"
fi

# Cascade Lake-SP is Skylake-SP's family and model at stepping 5 and later:
# the unit mask for Optane persistent memory, which intel-clx encodes
# (above), is no Skylake-SP unit mask.
export PMK_SYSROOT="$F/intel-skx"
if has_model skx; then
	run_pmkit encode MEM_LOAD_L3_MISS_RETIRED:REMOTE_PMM
	check "skx (stepping 4) is not clx: REMOTE_PMM is unknown (exit 2)" sh -c 'test "$2" = 2 && echo "$1" | grep -q "REMOTE_PMM"' _ "$err" "$rc"
else
	skip "skx is not clx" "no source for skx"
fi

# --sysroot is PMK_SYSROOT on the command line.
unset PMK_SYSROOT
run_pmkit encode --sysroot "$F/intel-adl" cpu_atom/instructions/
check "encode --sysroot reads the captured machine" sh -c 'echo "$1" | grep -q "^cpu_atom/instructions/: pmu=cpu_atom type=10(dynamic)"' _ "$out"
run_pmkit list --sysroot "$F/arm-n1" --json inst_retired
check "list --sysroot reads the captured machine" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); assert d["model"]=="arm_n1" and d["captured"] is True
assert any(e["name"]=="armv8_pmuv3_0/inst_retired/" for e in d["events"])' "$T_TMP/out"
