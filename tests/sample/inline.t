# inline.t: inlined frames. A static always_inline function (mix) doing the
# hot work inside a noinline caller (outer), built -O2 -g and recorded with
# --call-graph dwarf: report -g shows "mix (inlined)" under outer, the
# srcline view gives mix's own lines; --no-inline shows neither (the line
# is then the call's, in outer). Against perf 6.1 on its perf.data where
# perf records here. The C++ twin (inline_hot.cc) names mix by its
# demangled linkage name.
. tests/support/t.sh
src=$(pwd)/tests/sample/prog/inline_hot.c
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require sample
$CC -O2 -g -o ih "$src" || { nok "build inline_hot" "cc failed"; exit 0; }
run_pmkit record -q --call-graph dwarf -o ih.rec -- ./ih 0.4
if [ "$rc" != 0 ]; then
	skip "inline" "record --call-graph dwarf failed here: $(printf '%s' "$err" | head -1)"; exit 0
fi
# mix's body, and the line in outer that calls it
mlo=$(grep -n 'unsigned long mix(' "$src" | cut -d: -f1)
mhi=$(grep -n 'return x;' "$src" | head -1 | cut -d: -f1)
call=$(grep -n '= mix(x);' "$src" | cut -d: -f1)

run_pmkit report -i ih.rec -g
gout=$out
tree=$(printf '%s\n' "$out" | grep -A3 -- '---outer$')
share=$(printf '%s\n' "$tree" | sed -n 's/.*--\([0-9.]*\)%--mix (inlined)$/\1/p' | head -1)
check "report -g: 'mix (inlined)' is a frame under outer (${share:-none}% of samples)" \
	awk -v s="${share:-0}" 'BEGIN { exit !(s > 50) }'
check "report -g: main's tree reaches outer then mix (inlined)" sh -c \
	"printf '%s\n' \"\$1\" | grep -A4 -- '---main\$' | grep -q -- '--mix (inlined)\$'" _ "$out"
run_pmkit report -i ih.rec -g --inline
check "--inline (the default) gives the same report" sh -c \
	"printf '%s\n' \"\$1\" | grep -q -- '--mix (inlined)\$'" _ "$out"
run_pmkit report -i ih.rec -g --no-inline
check "--no-inline: no inlined frame in the trees (status $rc)" sh -c \
	"[ $rc = 0 ] && printf '%s\n' \"\$1\" | grep -q -- '--outer\$' && ! printf '%s\n' \"\$1\" | grep -q inlined" _ "$out"

run_pmkit report -i ih.rec --sort srcline
top=$(printf '%s\n' "$out" | awk '$1 ~ /%$/ { print $3; exit }')
ln=${top##*:}
check "--sort srcline: the top line ($top) is in mix's body ($mlo-$mhi)" sh -c \
	"[ '${top%%:*}' = inline_hot.c ] && [ '$ln' -ge $mlo ] && [ '$ln' -le $mhi ]"
run_pmkit report -i ih.rec --sort srcline --no-inline
top=$(printf '%s\n' "$out" | awk '$1 ~ /%$/ { print $NF; exit }')
check "--sort srcline --no-inline: the top line ($top) is outer's call of mix (inline_hot.c:$call)" \
	[ "$top" = "inline_hot.c:$call" ]
run_pmkit report -i ih.rec --sort dso,srcline
check "--sort dso,srcline: mix's lines in the view too" sh -c \
	"printf '%s\n' \"\$1\" | awk '\$1 ~ /%\$/ { print \$NF; exit }' | grep -Eq '^inline_hot.c:($(seq -s'|' $mlo $mhi))\$'" _ "$out"

# perf as the oracle, on its own file
if have perf &&
	perf record -q -e cpu-clock --call-graph dwarf -o perf.data ./ih 0.3 >/dev/null 2>&1; then
	# pmkit does not unwind a perf.data file's DWARF user stacks (it
	# shows their kernel and IP frames only), so perf's tree on its file
	# is set beside pmkit's on its own recording of the same program
	pout=$(perf report -i perf.data --stdio --no-children -g 2>/dev/null)
	check "perf 6.1 on its perf.data also shows outer then mix (inlined), as pmkit does" sh -c \
		"printf '%s\n' \"\$1\" | grep -A3 -- '^ *outer\$' | grep -q -- 'mix (inlined)\$' && printf '%s\n' \"\$2\" | grep -A3 -- '---outer\$' | grep -q -- '--mix (inlined)\$'" _ "$pout" "$gout"
else
	skip "perf comparison" "${T_WHY:-perf cannot record here}"
fi

# C++: the inlined function's qualified name from its linkage name,
# demangled like the symbols (kept mangled with --no-demangle)
CXX=${CXX:-c++}
if have c++ &&
	"$CXX" -O2 -g -o ihcc "${src%.c}.cc" 2>/dev/null; then
	run_pmkit record -q --call-graph dwarf -o cc.rec -- ./ihcc 0.3
	run_pmkit report -i cc.rec -g
	check "C++: 'work::mix(unsigned long) (inlined)' under work::outer" sh -c \
		"printf '%s\n' \"\$1\" | grep -A2 -- '---work::outer(unsigned long)\$' | grep -q -- '--work::mix(unsigned long) (inlined)\$'" _ "$out"
	run_pmkit report -i cc.rec -g --no-demangle
	check "C++ --no-demangle: '_ZN4work3mixEm (inlined)'" sh -c \
		"printf '%s\n' \"\$1\" | grep -q -- '--_ZN4work3mixEm (inlined)\$'" _ "$out"
else
	skip "C++ inlined names" "${T_WHY:-$CXX cannot build inline_hot.cc}"
fi

# Nested inlining (step inlined into round, round into block, block into
# work::outer): at the hottest address every level addr2line -i names is a
# frame of report -g's tree, outermost first, under the function.
if have c++ && have addr2line &&
	"$CXX" -O2 -g -o nest "$(dirname "$src")/inline_nest.cc" 2>/dev/null; then
	run_pmkit record -q -g -o nest.rec -- ./nest 0.4
	hot=$("$PMKIT" script -i nest.rec -F ip 2>/dev/null | awk 'NF == 1 && $1 != "0" { n[$1]++ }
		END { for (a in n) if (n[a] > m) { m = n[a]; h = a }; print h }')
	# addr2line: innermost first, the last is the function itself
	want=$(addr2line -i -f -C -e nest "0x$hot" | awk 'NR % 2' | sed '$d' |
		tac | sed 's/$/ (inlined)/' | tr '\n' ';')
	run_pmkit report -i nest.rec -g
	got=$(printf '%s\n' "$out" | grep -A6 -- '---work::outer(unsigned long)$' |
		sed -n 's/^[ |`]*--[0-9.]*%--\(.* (inlined)\)$/\1/p' | tr '\n' ';')
	check "nested inlining at the hottest address 0x$hot: every level addr2line -i shows, outermost first (${want:-none})" \
		sh -c '[ -n "$1" ] && [ "$(echo "$1" | tr -cd ";" | wc -c)" -ge 3 ] && [ "$1" = "$2" ]' _ "$want" "$got"
	[ "$want" = "$got" ] || echo "# pmkit: $got"
else
	skip "nested inlining" "${T_WHY:-$CXX cannot build inline_nest.cc, or no addr2line}"
fi
