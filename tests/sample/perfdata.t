# perfdata.t: pmkit report reads perf.data files that perf record writes
# here (cpu-clock, with and without call chains): the same shares as perf
# report, call-graph views and exports on them, and damaged perf.data
# files reported or refused with an offset, never a crash; user stacks
# of --call-graph dwarf unwound.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require perf
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
if ! perf record -q -e cpu-clock -o flat.data -- dd if=/dev/zero of=/dev/null bs=4k count=100000 >perf.err 2>&1; then
	skip "perf.data" "perf record fails here: $(head -1 perf.err)"; exit 0
fi
run_pmkit report -i flat.data
check "report -i perf.data: read (status $rc)" sh -c "[ $rc = 0 ] && printf '%s\n' \"\$1\" | grep -q 'cpu-clock: [0-9]* samples'" _ "$out"
# perf's and pmkit's share of the top kernel function agree (same samples)
top=$(perf report -i flat.data --stdio --sort sym 2>/dev/null | awk '/^ +[0-9.]+%/ && /\[k\]/ { print $1, $3; exit }')
name=${top#* }; theirs=${top%% *}; theirs=${theirs%\%}
ours=$(printf '%s\n' "$out" | awk -v f="$name" '$3 == f { sub("%","",$1); print $1; exit }')
if [ -z "$name" ]; then
	skip "shares against perf report" "perf report shows no kernel symbol here"
else
	check "top kernel function $name: pmkit ${ours:-none}% against perf's $theirs%" \
		awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.5) }'
fi

perf record -q -g -e cpu-clock -o cg.data -- ./stk 0.2 >/dev/null 2>&1
run_pmkit report -i cg.data -g
check "perf.data with call chains: main's Children cover lib_spin" sh -c "printf '%s\n' \"\$1\" | grep -A4 -- '---main\$' | grep -q -- '--via_a\$'" _ "$out"
run_pmkit report -i cg.data --folded
check "perf.data --folded: main;via_a;lib_spin stacks" sh -c "printf '%s\n' \"\$1\" | grep -Eq '(^|;)main;via_a;lib_spin [0-9]+\$'" _ "$out"

# damage: truncated, and a byte flipped in the data section
size=$(wc -c < cg.data)
head -c $((size / 2)) cg.data > half.data
run_pmkit report -i half.data
check "truncated perf.data: status 0 or 2 with an offset, no crash ($rc)" sh -c "[ $rc = 0 ] || { [ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'at byte'; }" _ "$err"
head -c 60 cg.data > head.data
run_pmkit report -i head.data
check "perf.data cut inside its header: status 2 naming the offset" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'at byte'" _ "$err"
# perf record --call-graph dwarf: the user registers and stack copies in
# perf.data unwound by pmkit as its own recordings are (a program without
# frame pointers): every chain perf unwinds, from the leaf to main, pmkit
# unwinds the same, with the same share
if $CC -O1 -g -fomit-frame-pointer -o cgn "$prog/cg_tree.c" &&
	perf record -q --call-graph dwarf -e cpu-clock -F 500 -o dw.data -- ./cgn 0.3 >/dev/null 2>&1; then
	fold() { grep -E '^[0-9.]+% leaf' | sed -E 's/;__libc_start_call_main.*//' | sort; }
	perf report --stdio -i dw.data --no-children -g folded --symbols leaf 2>/dev/null | fold > pf.txt
	"$PMKIT" report --stdio -i dw.data --no-children -g folded --symbols leaf 2>/dev/null | fold > qf.txt
	check "--call-graph dwarf perf.data: perf's unwound chains to main ($(wc -l < qf.txt) of them, e.g. $(head -1 qf.txt))" \
		sh -c 'grep -q ";main$" "$1" && cmp -s "$1" "$2"' _ pf.txt qf.txt
	cmp -s pf.txt qf.txt || diff pf.txt qf.txt | head -6 | sed 's/^/# /'
else
	skip "--call-graph dwarf perf.data" "perf record --call-graph dwarf fails here"
fi
