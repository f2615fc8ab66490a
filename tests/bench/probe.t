# probe.t: `pmkit probe --quick` on a small footprint: the table, the JSON
# schema and the machine-constants file. Structure only, no figures.
. tests/support/t.sh
run_pmkit probe --quick --max 4m --json --constants "$T_TMP/c.h" --svg "$T_TMP/p.svg"
check "probe exits 0" test "$rc" = 0
if have python3; then
	check "probe: json levels schema" python3 -c '
import json,sys; d=json.loads(sys.argv[1])
assert d["core_ghz"]>0 and len(d["levels"])>=1
for i,l in enumerate(d["levels"]):
    for k in ("level","type","size_bytes","line_bytes","latency_ns","latency_cycles","declared_size_bytes"):
        assert k in l, k
    assert l["level"]==i+1 and l["size_bytes"]>0 and l["latency_ns"]>0
    assert abs(l["latency_cycles"]-l["latency_ns"]*d["core_ghz"])<0.02*l["latency_cycles"]+0.01
lat=[l["latency_ns"] for l in d["levels"]]
assert lat==sorted(lat), lat
assert d["memory"]["footprint_bytes"]==4<<20
# --max 4m: the "memory" figure is a cache'"'"'s where the host declares a
# level larger than 4 MiB (32 MiB of L3 here): only beyond every declared
# level must it be the slowest (the host'"'"'s caches are not assumed)
decl=max((l.get("declared_size_bytes") or 0) for l in d["levels"])
if d["memory"]["footprint_bytes"]>decl:
    assert d["memory"]["latency_ns"]>=lat[-1], (lat, d["memory"]["latency_ns"])' "$out"
	# the cycle figures: the constants file is the JSON's ns x the clock,
	# and the clock agrees with the second, independent chain
	check "probe: constants cycles = ns x clock, clock = second chain" python3 -c '
import json,re,sys; d=json.loads(sys.argv[1]); c=open(sys.argv[2]).read()
k=d["clock"]; g=d["core_ghz"]
assert k["method"] and k["chain1_ghz"]>0 and k["chain2_ghz"]>0 and k["agree"], k
assert abs(g/k["chain2_ghz"]-1)<=0.10 or k["counter_ghz"]>0, k
v={m.group(1):float(m.group(2)) for m in re.finditer(r"^#define (\w+) ([0-9.]+)$",c,re.M)}
l1=d["levels"][0]
# a figure whose two readings disagree is refused (not written, a note)
if "L1_lat" in v:
    assert abs(v["L1_lat"]-l1["latency_ns"]*g)<=0.5+1e-9, (v["L1_lat"],l1)
    # an L1 hit is 3-5 cycles on every core we know; a folded clock made it 29
    assert 1.5<=v["L1_lat"]<=12, v["L1_lat"]
if "Mem_lat" in v:
    assert abs(v["Mem_lat"]-d["memory"]["latency_ns"]*g)<=0.5+1e-9
# the JSON keeps 4 decimals, the comment 3 of the unrounded clock: compare
# the figures, not their text (3.6695 may print as 3.669 or 3.670)
m=re.search(r"^# Core clock ([0-9.]+) GHz",c,re.M)
assert m and abs(float(m.group(1))-g)<=0.0006, (m and m.group(1), g)
assert "Cycles = ns x clock" in c' "$out" "$T_TMP/c.h"
	# every figure measured twice: each #define has two readings that
	# agree, each refused figure a note in place of its #define
	check "probe: constants figures measured twice, refused with a note" python3 -c '
import json,re,sys; d=json.loads(sys.argv[1]); c=open(sys.argv[2]).read()
tw={t["figure"]:t for t in d["twice"]}
defs=set(re.findall(r"^#define (\w+) ",c,re.M))
for name in ("L1_lat","L2_lat","L3_lat","Mem_lat","BR_miss_lat","FP_add_sub_mul_lat","FP_div_sqrt_lat","Data_TLB_lat"):
    t=tw.get(name)
    if name in defs:
        assert t and not t["refused"], (name,t)
        lo,hi=sorted((t["first"],t["second"]))
        assert lo>0 and hi<=lo*1.15+1e-9, (name,t)
    elif t and t["refused"]:
        assert re.search(r"^# %s: not written: " % name,c,re.M), name
for name in ("Mem_lat","BR_miss_lat","FP_add_sub_mul_lat","FP_div_sqrt_lat"):
    assert name in tw, name
assert d["tlb"]["refused"] in (True,False)
# the TLB is unstable (refused) when either of its figures is
assert d["tlb"]["refused"] == any(t["refused"] for t in d["twice"] if t["figure"] in ("Data_TLB_lat","TLB entries")), (d["tlb"], d["twice"])' "$out" "$T_TMP/c.h"
else skip "probe: json levels schema" "$T_WHY"; skip "probe: constants cycles" "$T_WHY"; skip "probe: constants figures measured twice" "$T_WHY"; fi
check "probe: constants file has L1_lat and Mem_lat, or says why not" sh -c '(grep -qE "^#define L1_lat [0-9]+$" "$1" || grep -q "^# L1_lat: not written: " "$1") && (grep -qE "^#define Mem_lat [0-9]+$" "$1" || grep -q "^# Mem_lat: not written: " "$1")' _ "$T_TMP/c.h"
check "probe: constants lines are #define or comments" sh -c '! grep -vE "^(# |#define [A-Za-z_0-9]+ [0-9.]+$)" "$1"' _ "$T_TMP/c.h"
check "probe: svg" grep -q "</svg>" "$T_TMP/p.svg"
run_pmkit probe --quick --max 256k --ghz 40
check "probe: an implausible --ghz is refused" sh -c '[ "$1" = 1 ] && echo "$2" | grep -q "core clock refused: measured 40 GHz"' _ "$rc" "$err"
run_pmkit probe --quick --max 256k --ghz fast
check "probe: a bad --ghz exits 2" test "$rc" = 2
run_pmkit probe --quick --max 256k
# what levels are found depends on the machine and its load (a noisy run
# may find no plateau below 256 KiB): check the table's shape, not figures
check "probe: table has its header and a memory row" sh -c 'echo "$1" | grep -q "^level  *size  *declared" && echo "$1" | grep -q "^memory "' _ "$out"
run_pmkit probe --quick --max 256k --csv
check "probe: csv header and memory row" sh -c 'printf "%s\n" "$1" | head -1 | grep -q "^level,type,size_bytes,line_bytes,latency_ns,latency_cycles,declared_size_bytes" && printf "%s\n" "$1" | grep -q "^memory,window,262144,"' _ "$out"
run_pmkit probe --quick --csv
if printf '%s\n' "$out" | grep -q '^tlb,'; then
	check "probe: csv tlb row says measured or unstable (its two passes disagree)" sh -c 'printf "%s\n" "$1" | grep "^tlb," | grep -qE "^tlb,data,[0-9]+,,[0-9.]+,[0-9.]+,[0-9]+,[0-9]+,(measured|unstable),$"' _ "$out"
else
	skip "probe: csv tlb row" "no TLB step found before memory in this run"
fi
# the constants file is a definition file: seed 002's Mem_cat over it
if "$PMKIT" help metric >/dev/null 2>&1; then
	(cat "$T_TMP/c.h"; echo "Mem_cat, PAPI_L1_DCA|L1_lat|*|PAPI_L2_DCA|L2_lat|*|+|PAPI_L2_DCM|Mem_lat|*|+") > "$T_TMP/defs"
	run_pmkit metric check "$T_TMP/defs" --any-names
	check "probe: constants load as user-event definitions" test "$rc" = 0
else skip "probe: constants load as user-event definitions" "no 'pmkit metric' in this build"; fi
