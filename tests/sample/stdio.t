# stdio.t: `pmkit report --stdio` in perf report --stdio's layout, against
# perf 6.1 on the SAME perf.data: the header lines (Samples, Event count),
# the columns Overhead / Command / Shared Object / Symbol with [.]/[k] and
# [kernel.kallsyms], -n, -q, --sort pid, --dsos, and the same top symbols
# and percentages (to the hundredth: same samples, same names).
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require perf
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
if ! perf record -q -e cpu-clock -o flat.data -- ./stk 0.3 >perf.err 2>&1; then
	skip "perf report" "perf record fails here: $(head -1 perf.err)"; exit 0
fi
perf record -q -g -e cpu-clock -o cg.data -- ./stk 0.3 >/dev/null 2>&1
# perf_tidy (t.sh) leaves out perf's tips, the empty comment lines, glibc
# symbol versions (as the -g comparison below takes names) and the padding
# of the Symbol heading they widen
for args in "" "-n" "-q" "--sort dso" "--sort comm,dso,sym -n" "--dsos [kernel.kallsyms]" "--percent-limit 5"; do
	perf report --stdio -i flat.data $args 2>/dev/null | perf_tidy > p.txt
	"$PMKIT" report --stdio -i flat.data $args 2>/dev/null | perf_tidy > q.txt
	nd=$(diff p.txt q.txt | grep -c '^>')
	# ties of equal overhead may come in another order
	sort p.txt > ps.txt; sort q.txt > qs.txt
	check "report --stdio $args: perf's layout ($nd of $(wc -l < q.txt) lines differ, in order)" cmp -s ps.txt qs.txt
	cmp -s ps.txt qs.txt || diff p.txt q.txt | head -12 | sed 's/^/# /'
done
# a stripped program: perf names each sampled address of an object without
# symbols as its own entry, "[.] 0x" and its offset there (16 digits)
$CC -O1 -o nosym "$prog/spin_main.c" "$prog/spin_lib.c" && strip nosym &&
	perf record -q -e cpu-clock -o nosym.data -- ./nosym 0.2 >/dev/null 2>&1
for args in "" "--sort sym" "--sort dso,sym -n"; do
	perf report --stdio -i nosym.data $args 2>/dev/null | perf_tidy | sort > ps.txt
	"$PMKIT" report --stdio -i nosym.data $args 2>/dev/null | perf_tidy | sort > qs.txt
	check "stripped program, report --stdio $args: perf's entries, one per address without a symbol ($(grep -c '\[\.\] 0x' qs.txt) such)" \
		sh -c "grep -q '\[\.\] 0x[0-9a-f]\{16\}\$' qs.txt && cmp -s ps.txt qs.txt"
	cmp -s ps.txt qs.txt || diff ps.txt qs.txt | head -12 | sed 's/^/# /'
done
check "header: '# Samples: N  of event' and '# Event count (approx.): N'" \
	sh -c "\"$PMKIT\" report --stdio -i flat.data | grep -Eq '^# Samples: [0-9]+K? +of event .cpu-clock' && \"$PMKIT\" report --stdio -i flat.data | grep -Eq '^# Event count \\(approx.\\): [0-9]+\$'"
# call-graph file, flat entries: the top 10 by Self, name and share
top() { grep -E '^ +[0-9.]+%' | awk '{ print $1, $NF }' | sed -E 's/@@?GLIBC_[0-9.]+//' | head -10; }
perf report --stdio --no-children -g none -i cg.data 2>/dev/null | top > pt.txt
"$PMKIT" report --stdio --no-children -i cg.data 2>/dev/null | top > qt.txt
check "-g file, --no-children: the same top 10 symbols and percentages ($(head -1 qt.txt))" \
	sh -c "sort pt.txt > a; sort qt.txt > b; [ -s a ] && cmp -s a b"
# the pmkit layout stays the default
run_pmkit report -i flat.data
check "without --stdio: pmkit's own table (# event line, 'function' column)" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^# cpu-clock: [0-9]* samples'" _ "$out"
run_pmkit report --stdio --header-only -i flat.data
check "--header-only: the description, no rows" sh -c "printf '%s\n' \"\$1\" | grep -q '^# ========' && ! printf '%s\n' \"\$1\" | grep -q '%'" _ "$out"
