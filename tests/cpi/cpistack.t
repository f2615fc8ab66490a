# cpistack.t: `pmkit cpistack` from the command line: the table, CSV, JSON
# and SVG of a short simulated run, bad input, and the hardware path: the
# answer this host's CPU model and PMU call for, and the same check on
# captured machines that take each of its branches.
. tests/support/t.sh

run_pmkit cpistack --sim -n 20000 --workload branchy:n=20000 miss-load:n=20000
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q '^# branchy' &&
   printf '%s\n' "$out" | grep -q '^# miss-load' &&
   printf '%s\n' "$out" | grep -q '^base ' &&
   printf '%s\n' "$out" | grep -q 'summary over 2 workloads'; then
	ok "table with every method"
else nok "table" "rc=$rc err=$err"; fi

run_pmkit cpistack --sim --csv -n 20000 branchy:n=20000
lines=$(printf '%s\n' "$out" | grep -c '^branchy')
hdr=$(printf '%s\n' "$out" | head -1)
if [ $rc = 0 ] && [ "$lines" = 9 ] &&
   [ "$hdr" = "workload,method,base,branch,l1i,l2i,itlb,l1d,l2d,dtlb,longlat,total,max_err_sim,avg_err_sim,max_err_sim_inv,avg_err_sim_inv" ]; then
	# each method's components add up to its total
	bad=$(printf '%s\n' "$out" | awk -F, 'NR>1{s=0;for(i=3;i<=11;i++)s+=$i; d=s-$12; if(d<0)d=-d; if(d>1e-4*$12)print}')
	if [ -z "$bad" ]; then ok "csv: 9 methods, components add up"
	else nok "csv sums" "$bad"; fi
else nok "csv" "rc=$rc lines=$lines hdr=$hdr"; fi

run_pmkit cpistack --sim --json -n 20000 miss-load:n=20000
if [ $rc = 0 ] && printf '%s' "$out" | python3 -c '
import json,sys
d=json.load(sys.stdin)
w=d["workloads"][0]
m=w["methods"]
assert set(m)=={"sim","sim-inv","fmt","sfmt","fmt-ov","fmt-wp","naive","naive-nonspec","power5"}
c=m["fmt"]["components"]
assert abs(sum(c.values())-w["cpi"])<1e-3*w["cpi"]
assert m["fmt"]["error"]["sim"]["max_pct"]>=m["fmt"]["error"]["sim"]["avg_pct"]>=0
assert 0<=m["fmt"]["bound"]["l2d"]<=1
assert c["l2d"]>c["branch"]
' 2>"$T_TMP/py"; then ok "json: methods, errors, bounds; miss-load is L2D-bound"
else nok "json" "rc=$rc $(cat "$T_TMP/py")"; fi

run_pmkit cpistack --sim --no-refs -n 5000 --svg "$T_TMP/fig" ilp:n=5000
if [ $rc = 0 ] && grep -q '<svg' "$T_TMP/fig-stacks.svg" &&
   grep -q '</svg>' "$T_TMP/fig-stacks.svg" && [ ! -e "$T_TMP/fig-errors-sim.svg" ]; then
	ok "svg stacks without references"
else nok "svg" "rc=$rc err=$err"; fi
run_pmkit cpistack --sim -n 5000 --svg "$T_TMP/g" ilp:n=5000
if [ $rc = 0 ] && grep -q 'Maximum CPI component error' "$T_TMP/g-errors-sim.svg" &&
   grep -q '</svg>' "$T_TMP/g-errors-sim-inv.svg"; then ok "svg error charts"
else nok "svg errors" "rc=$rc err=$err"; fi
# against the band: every method but the two references, which define it
if grep -q 'against the band between sim and sim-inv' "$T_TMP/g-errors-band.svg" &&
   grep -q '<title>ilp:n=5000 fmt: ' "$T_TMP/g-errors-band.svg" &&
   ! grep -q '<title>ilp:n=5000 sim\(-inv\)\?: ' "$T_TMP/g-errors-band.svg"; then
	ok "svg error chart against the band"
else nok "svg band" "$(head -c 600 "$T_TMP/g-errors-band.svg" 2>&1)"; fi

# What the pictures show, against the same run's JSON: in the stacks, the
# unclipped references (sim, sim-inv) have one segment per non-zero
# component, sized in proportion to it; the band chart has one bar per
# method but the references, its tooltip the JSON's error, taller bars for
# larger errors (up to the 20 % clip), and a legend entry per method.
run_pmkit cpistack --sim --json -n 5000 ilp:n=5000
if ! have python3; then skip "svg content" "$T_WHY"
elif printf '%s\n' "$out" | python3 -c '
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
w = json.load(sys.stdin)["workloads"][0]
M = w["methods"]
def bars(f):
    out = []
    for r in ET.parse(f).getroot().iter(ns + "rect"):
        if r.get("class") == "bar":
            out.append((r.find(ns + "title").text, float(r.get("height"))))
    return out
st = bars(sys.argv[1] + "-stacks.svg")
for m in ("sim", "sim-inv"):
    c = M[m]["components"]
    seg = [(t, h) for t, h in st if t.startswith(w["name"] + " " + m + " ")]
    assert len(seg) == sum(1 for v in c.values() if v != 0), (m, seg)
    tot, hs = sum(c.values()), sum(h for _, h in seg)
    for t, h in seg:
        k = t.split()[2].rstrip(":")
        assert abs(h / hs - c[k] / tot) < 0.01, (t, h, hs)
er = bars(sys.argv[1] + "-errors-band.svg")
want = [m for m in M if m not in ("sim", "sim-inv")]
assert [t.split()[1].rstrip(":") for t, _ in er] == want, er
for (t, h), m in zip(er, want):
    got = float(t.split()[-1].rstrip("%"))
    assert abs(got - M[m]["error"]["band"]["max_pct"]) < 0.006, (t, m)
v = [min(M[m]["error"]["band"]["max_pct"], 20) for m in want]
for i in range(len(v)):
    for j in range(len(v)):
        if v[i] < v[j] - 0.05: assert er[i][1] < er[j][1], (er[i], er[j])
txt = open(sys.argv[1] + "-errors-band.svg").read()
assert all(">%s</text>" % m in txt for m in want)
' "$T_TMP/g" 2>"$T_TMP/py"; then ok "svg: segments and bars match the data"
else nok "svg: segments and bars match the data" "$(cat "$T_TMP/py")"; fi

# an empty trace is an error, not a hang (the simulator once ran its idle
# fast-forward to the end of time on an empty source)
printf 'PMKTRACE\001\000\000\000\000\000\000\000' >"$T_TMP/empty.trace"
run_pmkit cpistack --sim "$T_TMP/empty.trace"
if [ $rc = 2 ] && printf '%s' "$err" | grep -q 'no instructions'; then ok "empty trace: error, exit 2"
else nok "empty trace" "rc=$rc err=$err"; fi

# a real program's trace, past its start-up, through every method
if have valgrind; then
	seq 20000 | sort -R --random-source=/dev/zero >"$T_TMP/nums" 2>/dev/null || seq 20000 >"$T_TMP/nums"
	run_pmkit trace -o "$T_TMP/sort.trace" --skip 100000 -n 20000 -- sort -n "$T_TMP/nums"
	run_pmkit cpistack --sim -n 20000 --csv "$T_TMP/sort.trace"
	if [ $rc = 0 ] && [ "$(printf '%s\n' "$out" | grep -c 'sort.trace,')" = 9 ]; then
		ok "a real program's trace: every method"
	else nok "real trace" "rc=$rc err=$err"; fi
else
	skip "a real program's trace" "$T_WHY"
fi

run_pmkit cpistack --sim no-such-workload
if [ $rc = 2 ]; then ok "bad workload exits 2"; else nok "bad workload" "rc=$rc"; fi
run_pmkit cpistack --bogus
if [ $rc = 2 ]; then ok "bad option exits 2"; else nok "bad option" "rc=$rc"; fi
run_pmkit cpistack --sim --csv --json ilp
if [ $rc = 2 ]; then ok "--csv with --json exits 2"; else nok "csv+json" "rc=$rc"; fi

# hardware: `pmkit cpistack -- COMMAND` on this host. The right answer
# depends on what the host declares, and is decided from pmkit's own
# detection (`pmkit list --json`: the CPU model, and whether `instructions`
# can be counted here) and from the models metrics/topdown.def describes:
#   no model detected   -> "no CPU model known", COMMAND not run
#   a model without definitions (Zen 1-3, Cascade Lake, Broadwell, Arm...)
#                       -> "no top-down definitions (known models: the
#                          sections of topdown.def) for CPU model M", not run
#   definitions, nothing countable here (a VM)
#                       -> "top-down level 1 for CPU model 'M' needs events
#                          this machine cannot count", not run
#   definitions, a host that counts
#                       -> counted (the four parts), or the same refusal
#                          (a PMU may still refuse: paranoid, a guest...)
#   definitions, a captured machine (PMK_SYSROOT)
#                       -> "is defined, but ... described, not counted"
# The same check then runs on captured machines (PMK_SYSROOT), one for each
# branch, so every branch is exercised on every host; a captured machine's
# events are never opened (they would count on this host).
td_models=$(sed -n 's/^CPU,//p' "${PMK_SRC:-.}/metrics/topdown.def" | tr '\n' ' ')
host_counts=$(PMK_SYSROOT= "$PMKIT" list --json 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin)
print("yes" if any(e["name"]=="instructions" and e["countable"] for e in d["events"]) else "no")' 2>/dev/null)
[ -n "$host_counts" ] || host_counts=no
# cpistack_hw LABEL [BRANCH]: checks cpistack's answer; BRANCH, when given,
# is the one the machine must take (none, defs or unknown)
cpistack_hw() {
	model=$("$PMKIT" list --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["model"])' 2>/dev/null)
	branch=none
	[ -z "$model" ] && branch=unknown
	for m in $td_models; do [ "$m" = "$model" ] && branch=defs; done
	if [ -n "$2" ] && [ "$2" != "$branch" ]; then
		nok "$1: top-down branch" "model '$model' takes '$branch', expected '$2'"
		return
	fi
	rm -f "$T_TMP/ran"
	run_pmkit cpistack -- sh -c "echo ran > $T_TMP/ran"
	ran=no; [ -e "$T_TMP/ran" ] && ran=yes
	case $branch in
	unknown)
		if [ $rc = 1 ] && [ $ran = no ] &&
		   printf '%s\n' "$err" | grep -q '^error: no CPU model known for top-down analysis'; then
			ok "$1: no CPU model detected: said so, command not run"
		else nok "$1: no model" "rc=$rc ran=$ran err=$err"; fi ;;
	none)
		known=$(printf '%s\n' "$err" | sed -n 's/^error: no top-down definitions (known models: \(.*\)) for CPU model \(.*\)$/\1|\2/p')
		if [ $rc = 1 ] && [ $ran = no ] && [ "${known#*|}" = "$model" ] &&
		   [ "$(printf '%s' "${known%|*}" | tr -d ,)" = "$(echo $td_models)" ]; then
			ok "$1: $model has no top-down definitions: said so with topdown.def's models, command not run"
		else nok "$1: no definitions for $model" "rc=$rc ran=$ran err=$err"; fi ;;
	defs)
		if [ -n "$PMK_SYSROOT" ]; then
			if [ $ran = no ] && [ $rc = 1 ] &&
			   printf '%s\n' "$err" | grep -q "^error: top-down level 1 for CPU model '$model' is defined, but PMK_SYSROOT names a captured machine: it is described, not counted\$"; then
				ok "$1: $model: defined; a captured machine is not counted, command not run"
			else nok "$1: captured $model" "rc=$rc ran=$ran err=$err"; fi
		elif [ $ran = yes ] && [ $host_counts = yes ] && [ $rc = 0 ] &&
		   printf '%s\n' "$out" | grep -q "^# top-down level 1, CPU model $model " &&
		   printf '%s\n' "$out" | grep -q '^frontend_bound '; then
			ok "$1: $model: hardware top-down counted"
		elif [ $ran = no ] && [ $rc = 1 ] &&
		     printf '%s\n' "$err" | grep -q "^error: top-down level 1 for CPU model '$model' needs events this machine cannot count:" &&
		     printf '%s\n' "$err" | grep -q '^  '; then
			ok "$1: $model: missing events listed, command not run"
		else nok "$1: hardware top-down for $model" "rc=$rc ran=$ran host_counts=$host_counts err=$err"; fi ;;
	esac
}
unset PMK_SYSROOT
cpistack_hw "this host"
# a CPU no table knows (an Intel model number not yet assigned)
mkdir -p "$T_TMP/unknown-cpu/proc" "$T_TMP/unknown-cpu/sys/bus/event_source/devices/cpu"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 254\nstepping\t: 0\n\n' \
	>"$T_TMP/unknown-cpu/proc/cpuinfo"
echo 4 >"$T_TMP/unknown-cpu/sys/bus/event_source/devices/cpu/type"
for f in amd-zen3:none arm-n2:none intel-skx:defs vm-intel:defs; do
	export PMK_SYSROOT="${PMK_SRC:-.}/tests/fixtures/${f%:*}"
	cpistack_hw "${f%:*}" "${f#*:}"
done
export PMK_SYSROOT="$T_TMP/unknown-cpu"
cpistack_hw "an unknown CPU" unknown
unset PMK_SYSROOT
run_pmkit cpistack --pmu nosuchmodel -- true
if [ $rc = 1 ] && printf '%s' "$err" | grep -qi 'model'; then ok "unknown model"
else nok "unknown model" "rc=$rc err=$err"; fi

# bench/compare/cpistack_trace (the per-cycle evidence of docs/cpistack.md):
# its classes cover every cycle of the run, and the reference step's charges
# spread over them add up to the step's cycles.
tr=$PMK_BUILD/bench/cpistack_trace
if [ -x "$tr" ]; then
	"$tr" -n 20000 int-mix last l2d >"$T_TMP/tr" 2>&1; rc=$?
	if [ $rc = 0 ] && awk '
		/^# .* instructions,/ { gsub(",", ""); insns = $3; cycles = $5
			for (i = 1; i <= NF; i++) if ($i == "before") before = $(i + 1) }
		/^[a-z]/ && $1 != "class" { c += $2; r += $7; n++ }
		END { d = r - (cycles - before); if (d < 0) d = -d
			exit !(n >= 5 && c == cycles && d <= n) }' "$T_TMP/tr"; then
		ok "cpistack_trace: classes cover the run, step charges add up"
	else nok "cpistack_trace" "rc=$rc $(head -c 600 "$T_TMP/tr")"; fi
else skip "cpistack_trace" "$tr is not built"; fi
