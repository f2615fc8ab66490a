# perfdiff.t: `pmkit diff` in perf diff's layout (as perf, or with --stdio
# or -c), against perf 6.1 on the SAME two perf.data files: the heading,
# and every row (Baseline, Delta Abs / Delta / Ratio, Shared Object,
# Symbol), rows only one file has included. Rows of equal value may come
# in another order (perf orders such ties by address), so the rows are
# compared sorted, and pmkit's order is checked on its own. perf keeps a
# symbol's version (cfree@GLIBC_2.2.5), pmkit shows the name alone.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
require perf
${CC:-cc} -O0 -g -fno-omit-frame-pointer -o cg "$prog/cg_tree.c" ||
	{ nok "build cg_tree" "cc failed"; exit 0; }
if ! perf record -q -e cpu-clock -F 1000 -o a.data -- ./cg 0.3 >perf.err 2>&1; then
	skip "diff" "perf record fails here: $(head -1 perf.err)"; exit 0
fi
perf record -q -e cpu-clock -F 1000 -o b.data -- sh -c './cg 0.2; cat /usr/lib/os-release >/dev/null' >/dev/null 2>&1
tidy() { sed -E 's/@@?GLIBC_[0-9.]+//g; /^#/ { s/ +/ /g; s/\.+/./g; }'; }
for c in "" "-c delta" "-c ratio"; do
	perf diff $c a.data b.data 2>/dev/null | tidy > p.txt
	"$PMKIT" diff --stdio $c a.data b.data 2>q.err | tidy > q.txt
	check "diff ${c:--c delta-abs}: perf's heading ($(grep '^# Base' q.txt))" \
		sh -c '[ -s "$1" ] && [ "$(grep "^#" "$1")" = "$(grep "^#" "$2")" ]' _ p.txt q.txt
	check "diff ${c:--c delta-abs}: perf's rows ($(grep -vc '^#' q.txt) of them)" \
		sh -c 'grep -v "^#" "$1" | sort > a; grep -v "^#" "$2" | sort > b; [ -s b ] && cmp -s a b' _ p.txt q.txt
	cmp -s p.txt q.txt || diff p.txt q.txt | head -6 | sed 's/^/# /'
done
# the order: by the size of the change, the baseline-only rows last (the
# columns read by position: "  %8s  %9s  ": a symbol may hold spaces)
"$PMKIT" diff --stdio a.data b.data > o.txt 2>&1
check "delta-abs: rows by the size of the change, baseline-only rows last" awk '
	/^#/ { next }
	{ c = substr($0, 13, 9); gsub(/ /, "", c)
	  if (c == "") { seen_base = 1; next }
	  sub(/%/, "", c); c += 0; d = c < 0 ? -c : c
	  if (seen_base || (n++ && d > last + 1e-9)) { bad = 1; print "out of order: " $0 }
	  last = d }
	END { exit bad || !n }' o.txt
# as perf, the layout is perf's without --stdio
mkdir -p bin && ln -sf "$PMKIT" bin/perf
PATH="$T_TMP/bin:$PATH" perf diff a.data b.data > o2.txt 2>&1
check "as perf: perf's layout by default" cmp -s o.txt o2.txt
run_pmkit diff -c wdiff a.data b.data
check "-c wdiff: refused, naming the choices (exit $rc)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "delta-abs, delta or ratio"' _ "$rc" "$err"
