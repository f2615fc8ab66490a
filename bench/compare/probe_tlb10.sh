#!/bin/sh
# probe_tlb10.sh [BUILD] [N]: N quick probes in a row (default 10); for each,
# the TLB entries it reports, the fits on its two passes, the miss cost and
# whether Data_TLB_lat reached the constants file (a figure whose two
# readings disagree is refused there, with a note). The verdict: every
# probe reports the same entries, and the miss costs written are within
# 20 % of each other (largest / smallest), or the figure is refused.
# Prints the machine and the load with each run. PROBE overrides the probe
# command (it is given the constants file's name last and writes the JSON
# on stdout), e.g. a program calling pmk_probe_run the same way.
B=${1:-build}
N=${2:-10}
pmkit=$B/pmkit
if [ -z "$PROBE" ]; then
	[ -x "$pmkit" ] || { echo "probe_tlb10.sh: $pmkit is not built (make O=$B)" >&2; exit 1; }
	PROBE="$pmkit probe --quick --json --constants"
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
grep -m1 'model name' /proc/cpuinfo | sed 's/^/# machine: /'
printf '%-3s %-6s %7s %9s %9s %8s %8s %s\n' run load entries fit1,fit2 fit_min miss_ns cycles constants
i=1
while [ "$i" -le "$N" ]; do
	load=$(cut -d' ' -f1 /proc/loadavg)
	$PROBE "$tmp/c$i.h" >"$tmp/p$i.json" 2>/dev/null ||
		{ echo "$i: probe failed" >&2; i=$((i + 1)); continue; }
	python3 - "$tmp/p$i.json" "$tmp/c$i.h" "$i" "$load" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["tlb"]
tw = {x["figure"]: x for x in d.get("twice", [])}  # none before the check
e = tw.get("TLB entries", {"first": 0, "second": 0})
c = open(sys.argv[2]).read()
line = [l for l in c.splitlines() if "Data_TLB_lat" in l and ("#define" in l or "not written" in l)]
print("%-3s %-6s %7d %4.0f,%-4.0f %9.0f %8.3f %8.2f %s" % (sys.argv[3], sys.argv[4],
      t["entries_4k"], e["first"], e["second"], t.get("entries_fit", 0), t["miss_ns"],
      t["miss_cycles"], line[0] if line else "(no TLB step)"))
import re
other = re.findall(r"^# (\w+): not written: ", c, re.M)
other = [o for o in other if o != "Data_TLB_lat"]
if other:
    print("    also refused: " + ", ".join(other))
PY
	i=$((i + 1))
done
python3 - "$tmp" "$N" <<'PY'
import json, os, sys
tmp, n = sys.argv[1], int(sys.argv[2])
ent, miss, refused = set(), [], 0
for i in range(1, n + 1):
    p = os.path.join(tmp, "p%d.json" % i)
    if not os.path.exists(p):
        continue
    d = json.load(open(p)); t = d["tlb"]
    c = open(os.path.join(tmp, "c%d.h" % i)).read()
    if "#define Data_TLB_lat" in c:
        ent.add(t["entries_4k"])
        miss.append(t["miss_ns"])
    else:
        refused += 1
spread = max(miss) / min(miss) if miss else 0
print("# entries reported with Data_TLB_lat written: %s; Data_TLB_lat written %d, refused %d; written miss costs %s ns, largest/smallest %.3f"
      % (sorted(ent), len(miss), refused, " ".join("%.3f" % m for m in miss), spread))
ok = len(ent) <= 1 and (not miss or spread <= 1.2)
print("# verdict: %s" % ("stable: the written figures have the same entries and miss costs within 20 %%, the rest are refused (%d of %d)" % (refused, n) if ok else "NOT stable"))
PY
