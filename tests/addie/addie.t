# addie.t: `pmkit addie` figures and quality, their table formats, errors.
. tests/support/t.sh

run_pmkit addie figures --seeds 50 --samples 1000
if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^64/255 .*independent' &&
   printf '%s\n' "$out" | grep -q '^200/255 .*correlated'; then
	ok "figures prints both streams and both modes"
else nok "figures prints both streams and both modes" "rc=$rc $err"; fi

# The median settle time of an 8-bit Addie from 128 lies in the hundreds
# (the article: about 500), nowhere near 0 or the limit.
run_pmkit addie figures --seeds 200 --samples 500 --csv
med=$(printf '%s\n' "$out" | awk -F, '$1=="64/255" && $3=="independent" {print $8}')
if [ -n "$med" ] && [ "${med%.*}" -ge 200 ] && [ "${med%.*}" -le 1200 ]; then
	ok "settle median $med in the hundreds"
else nok "settle median in the hundreds" "got '$med'"; fi

run_pmkit addie figures --seeds 20 --samples 500 --json
if have python3; then
	if printf '%s\n' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["settle"])==4 and len(d["figures"])==4'; then
		ok "figures --json parses"
	else nok "figures --json parses" "$out"; fi
else skip "figures --json parses" "$T_WHY"; fi

run_pmkit addie figures --seeds 5 --samples 300 --svg-dir "$T_TMP"
if [ "$rc" = 0 ] && grep -q '<svg' "$T_TMP/addie-figure2.svg" && grep -q '</svg>' "$T_TMP/addie-figure3.svg" && grep -q '</svg>' "$T_TMP/addie-settle.svg"; then
	ok "figures writes its three SVG plots"
else nok "figures writes its three SVG plots" "rc=$rc $err"; fi
# What the pictures show: one line per series (3, 3, 4), their legend
# labels, the axis titles, and the line's x coordinates rising.
svg_shows() { # file nseries label...
	f=$1 n=$2; shift 2
	[ "$(grep -c 'class="series"' "$f")" = "$n" ] || return 1
	for l in "$@"; do grep -q ">$l</text>" "$f" || return 1; done
	grep 'class="series"' "$f" | head -1 | sed 's/.* d="//; s/".*//' |
	    tr ' ' '\n' | sed -n 's/^[ML]\([0-9.]*\),.*/\1/p' |
	    awk 'NR > 1 && $1 <= p { bad = 1 } { p = $1; n++ }
		 END { exit bad || n < 2 }'
}
if [ "$rc" = 0 ] &&
    svg_shows "$T_TMP/addie-figure2.svg" 3 samples probability \
	'input stream, 250-sample average' 'Addie counter / 256' &&
    svg_shows "$T_TMP/addie-figure3.svg" 3 samples probability &&
    svg_shows "$T_TMP/addie-settle.svg" 4 'fraction of runs' \
	'64/255, independent' '200/255, correlated'; then
	ok "figure SVGs: series, legend, axes, x rising"
else nok "figure SVGs: series, legend, axes, x rising" "rc=$rc"; fi

run_pmkit addie quality --bits 4,6 --seeds 4 --csv
rows=$(printf '%s\n' "$out" | grep -c '^addie\|^ratio\|^ema')
if [ "$rc" = 0 ] && [ "$rows" = 10 ]; then ok "quality: 5 estimators x 2 widths"
else nok "quality: 5 estimators x 2 widths" "rc=$rc rows=$rows"; fi

# Wider counters are more precise: steady-state RMS error falls.
e4=$(printf '%s\n' "$out" | awk -F, '$1=="addie" && $2==4 {print $7}')
e6=$(printf '%s\n' "$out" | awk -F, '$1=="addie" && $2==6 {print $7}')
if awk -v a="$e4" -v b="$e6" 'BEGIN{exit !(b < a)}'; then ok "rms error falls with width"
else nok "rms error falls with width" "$e4 -> $e6"; fi

run_pmkit addie figures --bits 3
if [ "$rc" = 2 ] && printf '%s' "$err" | grep -q "between 4 and 16"; then ok "bad width exits 2"
else nok "bad width exits 2" "rc=$rc $err"; fi
run_pmkit addie figures --rng nosuch
[ "$rc" = 2 ] && ok "bad rng exits 2" || nok "bad rng exits 2" "rc=$rc"
run_pmkit addie quality --bits 4,x
[ "$rc" = 2 ] && ok "bad bits list exits 2" || nok "bad bits list exits 2" "rc=$rc"
run_pmkit addie nosuch
[ "$rc" = 2 ] && ok "unknown subcommand exits 2" || nok "unknown subcommand exits 2" "rc=$rc"
run_pmkit addie figures --svg-dir /nonexistent/dir --seeds 2 --samples 100
[ "$rc" = 1 ] && ok "unwritable svg dir fails" || nok "unwritable svg dir fails" "rc=$rc"
run_pmkit help addie
printf '%s' "$out" | grep -q "membuf" && ok "help addie" || nok "help addie" "$err"

# Addies on the simulated core, read mid-run.
run_pmkit addie sim int-mix:n=30000 --every 10000 --csv
rows=$(printf '%s\n' "$out" | grep -c '^[0-9]')
if [ "$rc" = 0 ] && [ "$rows" -ge 3 ] && printf '%s\n' "$out" | head -1 | grep -q 'l1d-hit_addie'; then
	ok "sim: readings every 10000 instructions ($rows rows)"
else nok "sim: readings every 10000 instructions" "rc=$rc rows=$rows $err"; fi
run_pmkit addie sim int-mix:n=100 --signals nosuch
[ "$rc" = 2 ] && printf '%s' "$err" | grep -q "unknown signal 'nosuch'" && ok "sim: unknown signal exits 2" || nok "sim: unknown signal exits 2" "rc=$rc $err"
run_pmkit addie sim nosuchworkload
[ "$rc" = 2 ] && ok "sim: unknown workload exits 2" || nok "sim: unknown workload exits 2" "rc=$rc"
