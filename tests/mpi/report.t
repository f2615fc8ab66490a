# report.t: `pmkit mpi report` at 16 and 1,024 ranks (issue 26, deliver
# 4). The jobs are synthetic (no MPI needed): every rank computes 6 s
# give or take 0.2 s, of a 10 s wall, except ranks 17, 903 and 511 (9.2,
# 8.7 and 8.1 s: the slowest, in that order) and rank 2 (4 s, the
# fastest). At 16 ranks the picture keeps a labelled bar per rank; at
# 1,024 it aggregates: the slowest, fastest and outlying ranks named in
# words, the 32 slowest as labelled bars, all ranks sorted, a histogram.
# The HTML page shows the picture before the banner. In headless Chromium
# (where installed) the page is laid out at 1280 x 1000 and measured: the
# picture and the line naming the slowest ranks lie within that first
# screen, in type at least 10 px high; a screenshot of it is taken.
. tests/support/t.sh
cd "$T_TMP" || exit 1
gen() { # N [MISSING,...]: the job's JSON
	awk -v n="$1" -v miss="$2" 'BEGIN {
	split(miss, m, ","); for (i in m) gone[m[i]] = 1
	printf "{\"schema\":\"pmkit-mpi/1\",\"size\":%d,\"command\":\"synthetic %d\",", n, n
	printf "\"events\":[{\"name\":\"task-clock\",\"unit\":\"ns\"}],\"ranks\":["
	s = 12345; sep = ""
	for (r = 0; r < n; r++) {
		s = (s * 1103515245 + 12345) % 2147483648
		c = 6e9 + (s / 2147483648 - 0.5) * 4e8
		if (r == 17 % n) c = 9.2e9
		else if (r == 903 && n > 903) c = 8.7e9
		else if (r == 511 && n > 511) c = 8.1e9
		else if (r == 2) c = 4e9
		if (r in gone) continue
		printf "%s{\"rank\":%d,\"host\":\"node%02d\",\"pid\":%d,\"wall_ns\":10000000000,\"mpi_ns\":%.0f,\"events\":{\"task-clock\":%.0f},\"calls\":[],\"regions\":[]}", sep, r, int(r / 128), 1000 + r, 1e10 - c, c
		sep = ","
	}
	print "]}" }'
}
gen 16 > j16.json
gen 1024 > j1024.json
gen 1024 5,9,10,11 > j1020.json

run_pmkit mpi report --svg j16.svg --html j16.html j16.json
check "16 ranks: report (exit $rc)" [ "$rc" = 0 ]
n=$(grep -c '<title>rank [0-9]* compute' j16.svg)
check "16 ranks: a bar per rank, in rank order ($n)" sh -c '[ "$1" = 16 ] &&
	grep -o "<title>rank [0-9]* compute" "$2" | awk "{ if (\$2 != NR - 1) exit 1 }"' _ "$n" j16.svg
check "16 ranks: no aggregated picture" sh -c "! grep -q 'slowest (most compute)' j16.svg"

run_pmkit mpi report --svg j1024.svg --html j1024.html j1024.json
check "1,024 ranks: report (exit $rc)" [ "$rc" = 0 ]
if command -v xmllint >/dev/null 2>&1; then
	check "1,024 ranks: SVG is well-formed XML" xmllint --noout j1024.svg
fi
slow=$(grep -o 'slowest (most compute):[^<]*' j1024.svg)
check "1,024 ranks: the slowest named in order ($slow)" sh -c '
	printf "%s\n" "$1" | grep -q "^slowest (most compute): rank 17 9.2 s, rank 903 8.7 s, rank 511 8.1 s, "' _ "$slow"
fast=$(grep -o 'fastest (wait the most):[^<]*' j1024.svg)
check "1,024 ranks: the fastest named first ($fast)" sh -c '
	printf "%s\n" "$1" | grep -q "^fastest (wait the most): rank 2 4 s, "' _ "$fast"
outl=$(grep -o 'outliers: [^<]*' j1024.svg)
check "1,024 ranks: the four planted ranks, and only they, are outliers ($outl)" sh -c '
	printf "%s\n" "$1" | grep -q "^outliers: 4 ranks .*: 17 (9.2 s), 903 (8.7 s), 511 (8.1 s), 2 (4 s)\$"' _ "$outl"
# the panel of the 32 slowest: labelled bars, slowest first
labs=$(grep -o '<title>rank [0-9]* compute [0-9.]* s (#[0-9]* by compute)' j1024.svg |
	awk '{print $2}' | head -3 | tr '\n' ' ')
check "1,024 ranks: the slowest panel begins 17 903 511 ($labs)" [ "$labs" = "17 903 511 " ]
n=$(grep -c '<title>rank [0-9]* compute' j1024.svg)
check "1,024 ranks: 32 labelled bars and 1,024 sorted ones ($n)" [ "$n" = 1056 ]
check "1,024 ranks: the sorted bars are in decreasing compute" sh -c '
	grep -o "<title>rank [0-9]* compute [0-9.]* s" "$1" | tail -n 1024 |
	awk "{ v = \$4 + 0; if (NR > 1 && v > p) exit 1; p = v }"' _ j1024.svg
h=$(grep -o '<title>[0-9]* ranks with compute' j1024.svg | awk '{s += substr($1, 8)} END {print s}')
check "1,024 ranks: the histogram holds every rank ($h)" [ "$h" = 1024 ]
check "1,024 ranks: the outliers sit in the end bins, named" sh -c '
	grep -q "<title>1 ranks with compute under" "$1" && grep -q "<title>3 ranks with compute over" "$1" &&
	grep -q ">17,903,511<" "$1"' _ j1024.svg
check "1,024 ranks: the event panel sorted, its highest named" grep -q 'task-clock per rank, highest first (imbalance 1.53; highest: rank 17)' j1024.svg
check "HTML: the picture comes before the banner" sh -c '
	s=$(grep -b -o "<svg" "$1" | head -1 | cut -d: -f1); p=$(grep -b -o "<pre>" "$1" | head -1 | cut -d: -f1)
	[ -n "$s" ] && [ -n "$p" ] && [ "$s" -lt "$p" ]' _ j1024.html
run_pmkit mpi report --svg j1020.svg j1020.json
check "1,020 of 1,024: the ranks without a record named" grep -q '>no record: 4 ranks: 5 9-11<' j1020.svg
check "1,020 of 1,024: the title counts the records" grep -q '1024 ranks (1020 with a record)' j1020.svg

if ! have chromium; then
	skip "the pages in a browser" "$T_WHY"
	exit 0
fi
flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --window-size=1280,1000"
# where the page puts things, measured by the browser at 1280 x 1000
measure='<script>
var s = document.querySelector("svg").getBoundingClientRect();
var t = Array.prototype.filter.call(document.querySelectorAll("svg text"),
	function (e) { return /^(slowest|[0-9]+ ranks:)/.test(e.textContent); });
var n = t[t.length - 1].getBoundingClientRect();
document.body.insertAdjacentHTML("beforeend", "<p>layout svg_top=" + s.top + " svg_w=" + s.width +
	" named_bottom=" + n.bottom + " named_h=" + n.height + " vh=" + innerHeight + " end</p>");
</script>'
for j in 16 1024; do
	{ cat j$j.html; printf '%s\n' "$measure"; } > m$j.html
	u=$(mktemp -d)
	res=$(timeout 120 "$CHROMIUM" $flags --user-data-dir="$u" --dump-dom "file://$T_TMP/m$j.html" 2>/dev/null | grep -o 'layout [^<]* end')
	rm -rf "$u"; u=$(mktemp -d)
	timeout 120 "$CHROMIUM" $flags --user-data-dir="$u" --screenshot="$T_TMP/shot$j.png" "file://$T_TMP/j$j.html" >/dev/null 2>&1
	rm -rf "$u"
	if [ -z "$res" ]; then
		nok "$j ranks in chromium" "no layout from the page"
		continue
	fi
	echo "# chromium, $j ranks: $res"
	check "chromium, $j ranks: the picture starts within the first screen, full width" sh -c '
		printf "%s\n" "$1" | awk "{ for (i = 2; i < NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] + 0 } }
		END { exit !(v[\"svg_top\"] < 200 && v[\"svg_w\"] >= 800) }"' _ "$res"
	check "chromium, $j ranks: the line naming the slowest is on the first screen, 10 px or more" sh -c '
		printf "%s\n" "$1" | awk "{ for (i = 2; i < NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] + 0 } }
		END { exit !(v[\"named_bottom\"] <= v[\"vh\"] && v[\"named_h\"] >= 10) }"' _ "$res"
	check "chromium, $j ranks: a screenshot" sh -c "[ -s '$T_TMP/shot$j.png' ] && [ \$(wc -c < '$T_TMP/shot$j.png') -gt 10000 ]"
done
