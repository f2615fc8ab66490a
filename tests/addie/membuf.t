# membuf.t: `pmkit addie membuf`: readings beside exact ratios, the sweep,
# the pattern list, formats and errors.
. tests/support/t.sh

run_pmkit addie membuf --requests 20000
if [ "$rc" = 0 ] && for s in wb-hit read-merge wb-full rb-hit; do
	printf '%s\n' "$out" | grep -q "^$s " || exit 1; done; then
	ok "membuf prints the four signals"
else nok "membuf prints the four signals" "rc=$rc $err"; fi

run_pmkit addie membuf --requests 20000 --pattern stack --csv
hit=$(printf '%s\n' "$out" | awk -F, '$1=="wb-hit" {print $2, $3, $4}')
if [ "$rc" = 0 ] && echo "$hit" | awk '{d=$1-$3; e=$2-$3; if (d<0) d=-d; if (e<0) e=-e; exit !(d < 0.1 && e < 0.03 && $3 > 0.05)}'; then
	ok "wb-hit Addie near the exact ratio ($hit)"
else nok "wb-hit Addie near the exact ratio" "got '$hit'"; fi

# Read-ahead makes a sequential pattern hit the read buffer almost always.
run_pmkit addie membuf --requests 20000 --pattern seqread --read-ahead on --csv
on=$(printf '%s\n' "$out" | awk -F, '$1=="rb-hit" {print $4}')
run_pmkit addie membuf --requests 20000 --pattern seqread --read-ahead off --csv
off=$(printf '%s\n' "$out" | awk -F, '$1=="rb-hit" {print $4}')
if awk -v a="$on" -v b="$off" 'BEGIN{exit !(a > 0.95 && b < 0.8)}'; then
	ok "read-ahead raises seqread rb-hit ($off -> $on)"
else nok "read-ahead raises seqread rb-hit" "$off -> $on"; fi

run_pmkit addie membuf --requests 5000 --pattern lines --sweep --json
if have python3; then
	if printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["sweep"]) == 24
best = min(d["sweep"], key=lambda r: r["stall"])
assert d["best"][0]["stall"] == best["stall"]
assert d["best"][0]["read_ahead"] == "on"
assert len(d["advice"]) >= 2
'; then ok "sweep --json picks the least stall"
	else nok "sweep --json picks the least stall" "$(printf '%s' "$out" | head -c 300)"; fi
else skip "sweep --json picks the least stall" "$T_WHY"; fi

run_pmkit addie membuf --requests 3000 --sweep --svg-dir "$T_TMP"
[ "$rc" = 0 ] && grep -q '</svg>' "$T_TMP/addie-membuf-sweep.svg" && ok "sweep plot" || nok "sweep plot" "rc=$rc"

run_pmkit addie membuf --pattern list
printf '%s\n' "$out" | grep -q '^mixed ' && printf '%s\n' "$out" | grep -q '^memcpy ' && ok "pattern list" || nok "pattern list" "$out"

run_pmkit addie membuf --pattern nosuch
[ "$rc" = 2 ] && printf '%s' "$err" | grep -q "unknown access pattern 'nosuch'" && ok "unknown pattern exits 2" || nok "unknown pattern exits 2" "rc=$rc $err"
run_pmkit addie membuf --watermark 33
[ "$rc" = 2 ] && ok "watermark 33 exits 2" || nok "watermark 33 exits 2" "rc=$rc"
run_pmkit addie membuf --read-ahead maybe
[ "$rc" = 2 ] && ok "bad read-ahead exits 2" || nok "bad read-ahead exits 2" "rc=$rc"

# A workload of the simulator as the source of requests.
run_pmkit addie membuf int-mix:n=20000 --csv
if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^rb-hit,'; then ok "workload source"
else nok "workload source" "rc=$rc $err"; fi
run_pmkit addie membuf --pattern stack int-mix:n=100
[ "$rc" = 2 ] && ok "pattern and source together exit 2" || nok "pattern and source together exit 2" "rc=$rc"
printf 'not a trace' > "$T_TMP/bad.trace"
run_pmkit addie membuf "$T_TMP/bad.trace"
[ "$rc" = 2 ] && printf '%s' "$err" | grep -q "bad.trace" && ok "bad trace file exits 2 naming it" || nok "bad trace file exits 2 naming it" "rc=$rc $err"
