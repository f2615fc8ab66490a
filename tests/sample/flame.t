# flame.t: report --flamegraph writes an interactive SVG that a real
# browser opens (headless chromium: a click on a frame zooms it to the full
# width and hides what is outside it, Search highlights and measures, a
# screenshot is taken), a differential flame graph of two files, the
# perf-script text and speedscope JSON exports, and report --diff.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require sample
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
run_pmkit record -q -g -o a.rec -- ./stk 0.2
run_pmkit record -q -g -o b.rec -- ./stk 0.2
run_pmkit report -i a.rec --flamegraph fg.svg
check "--flamegraph writes an SVG" sh -c "[ $rc = 0 ] && grep -q '<svg' fg.svg && grep -q 'data-n=\"lib_spin\"' fg.svg"
if have python3; then
	check "the SVG is well-formed XML" python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse('fg.svg')"
fi
echo old > fg.svg
run_pmkit report -i a.rec --flamegraph fg.svg
check "a second --flamegraph keeps the previous file as fg.svg.old" sh -c "[ \"\$(cat fg.svg.old)\" = old ] && grep -q '<svg' fg.svg"
cp fg.svg target.svg
ln -s target.svg link.svg
run_pmkit report -i b.rec --flamegraph link.svg
check "--flamegraph never writes through a symlink (the link is replaced, its target untouched)" sh -c "[ $rc = 0 ] && [ ! -L link.svg ] && cmp -s fg.svg target.svg"

if ! have chromium; then
	skip "flame graph in a browser" "$T_WHY"
else
	browser=$CHROMIUM
	cp "$prog/flame_click.html" view.html
	flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --allow-file-access-from-files --virtual-time-budget=5000"
	u=$(mktemp -d)
	res=$(timeout 120 "$browser" $flags --user-data-dir="$u" --dump-dom "file://$T_TMP/view.html" 2>/dev/null | grep -o 'frames=[0-9][^<]*')
	rm -rf "$u"; u=$(mktemp -d)
	timeout 120 "$browser" $flags --user-data-dir="$u" --window-size=1240,460 --screenshot="$T_TMP/shot.png" "file://$T_TMP/view.html" >/dev/null 2>&1
	rm -rf "$u"
	if [ -z "$res" ]; then
		nok "flame graph in chromium" "no result from the page"
	else
		echo "# chromium: $res"
		after=$(printf '%s' "$res" | sed -n 's/.* after=\([0-9.]*\).*/\1/p')
		full=$(printf '%s' "$res" | sed -n 's/.* full=\([0-9.]*\).*/\1/p')
		hidden=$(printf '%s' "$res" | sed -n 's/.* hidden=\([0-9]*\).*/\1/p')
		matched=$(printf '%s' "$res" | sed -n 's/.* matched=\([0-9.]*\).*/\1/p')
		check "chromium: a click on main zooms it to the full width ($after of $full px)" \
			awk -v a="$after" -v f="$full" 'BEGIN { exit !(a > 0 && a >= f - 0.5) }'
		check "chromium: frames outside main are hidden after the click ($hidden)" [ "${hidden:-0}" -gt 0 ]
		check "chromium: Search for lib_spin measures its share ($matched %)" \
			awk -v m="$matched" 'BEGIN { exit !(m > 50 && m <= 100) }'
		check "chromium: a screenshot of the zoomed graph" sh -c "[ -s '$T_TMP/shot.png' ] && [ \$(wc -c < '$T_TMP/shot.png') -gt 2000 ]"
	fi
fi

run_pmkit report --diff a.rec b.rec --flamegraph diff.svg
check "--diff A B --flamegraph: a differential flame graph" sh -c "[ $rc = 0 ] && grep -q 'share grew' diff.svg && grep -q 'change' diff.svg"
run_pmkit report --diff a.rec b.rec
check "--diff A B: base and new shares per function" sh -c "printf '%s\n' \"\$1\" | grep -Eq '^ +[0-9.]+% +[0-9.]+% +[-+][0-9.]+ +lib_spin +libspin.so\$'" _ "$out"

"$PMKIT" report -i a.rec --script > script.out 2>&1
check "--script: perf-script blocks (header, frames with symbol+offset and file)" sh -c "grep -q 'cpu-clock: *\$' script.out && grep -Eq '^[[:space:]]+[0-9a-f]+ lib_spin\+0x[0-9a-f]+ \(.*libspin.so\)\$' script.out"
# the stacks perf-script tools rebuild match --folded
awk '/^[^\t]/ && NF { n = 0; next } /^\t/ { s = $2; sub(/\+0x[0-9a-f]+$/, "", s); f[n++] = s; next } /^$/ { if (n) { k = f[n-1]; for (i = n - 2; i >= 0; i--) k = k ";" f[i]; c[k]++ } n = 0 } END { for (k in c) if (k ~ /via_a;lib_spin$/) t += c[k]; print t + 0 }' script.out > via_a.n
run_pmkit report -i a.rec --folded
folded=$(printf '%s\n' "$out" | awk '/via_a;lib_spin [0-9]+$/ { t += $NF } END { print t + 0 }')
check "--script stacks agree with --folded (via_a;lib_spin: $(cat via_a.n) and $folded)" [ "$(cat via_a.n)" = "$folded" ]

run_pmkit report -i a.rec --speedscope prof.speedscope.json
if have python3; then
	check "--speedscope: valid JSON, a sampled profile whose weights sum to the samples" python3 - <<'PY'
import json
d = json.load(open('prof.speedscope.json'))
p = d['profiles'][0]
assert p['type'] == 'sampled' and len(p['samples']) == len(p['weights'])
assert sum(p['weights']) == p['endValue'] > 0
names = [f['name'] for f in d['shared']['frames']]
assert 'lib_spin' in names
assert all(0 <= i < len(names) for s in p['samples'] for i in s)
PY
else
	skip "--speedscope JSON check" "$T_WHY"
fi
