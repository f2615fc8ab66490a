# callgraph.t: the call chains under perf report --stdio's entries, against
# perf 6.1 on the SAME perf.data: perf's -g argument (graph, fractal, flat,
# folded, none; caller, callee; a minimum percentage and a print limit;
# percent, period, count), --max-stack, --percent-limit pruning the trees,
# with and without --no-children; --sort beginning with the symbol (the
# chain's first frame left out); -t SEP's columns. The program's chains have a known shape
# (tests/sample/prog/cg_tree.c: one leaf under five paths, a recursion).
# Entries of equal overhead may come in another order (perf orders such
# ties by symbol address): each entry with its tree is compared as a block.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
require perf
${CC:-cc} -O0 -g -fno-omit-frame-pointer -o cg "$prog/cg_tree.c" ||
	{ nok "build cg_tree" "cc failed"; exit 0; }
# PMK_CG_DATA=FILE: a recording kept from an earlier run (its program
# where it was), to compare again
if [ -n "${PMK_CG_DATA:-}" ]; then
	cp "$PMK_CG_DATA" cg.data
elif ! perf record -q -g -e cpu-clock -F 1000 -o cg.data -- ./cg 0.4 >perf.err 2>&1; then
	skip "call graphs" "perf record fails here: $(head -1 perf.err)"; exit 0
fi
# the header lines, then each entry line with the tree under it as one
# block, the blocks sorted; perf's tips and empty comment lines left out.
# perf keeps a symbol's version (clock_gettime@@GLIBC_2.17), pmkit shows
# the name alone (docs/profiles.md): the names are compared without it,
# and the header's widths (which the longest name sets) squeezed. perf
# 6.1 marks fractal's "[...]" line "(inlined)" in some runs and not in
# others (its stand-in symbol for the line is allocated, not cleared):
# compared without the mark.
blocks() {
	grep -v '^# (Tip\|^#$' |
		sed -E 's/@@?GLIBC_[0-9.]+//g; s/\[\.\.\.\] \(inlined\)$/[...]/' | awk '
		/^#/ { gsub(/ +/, " "); gsub(/\.+/, "."); print "H " $0; next }
		/^$/ { next }
		/^ +[0-9.]+%[ ,;]/ { if (b != "") print b; b = "B " $0; next }
		{ b = b "\\n" $0 }
		END { if (b != "") print b }' | sort
}
# the program's own functions as entries: samples at the start and the
# end of a process (in ld.so and libc, which keep no frame pointers) have
# chains of garbage that perf and pmkit name differently (addresses 0)
S="--symbols leaf,b1,b2,a1,a2,rec,main"
for args in "" "-g caller" "-g callee" "-g fractal" "-g flat" "-g folded" \
	"-g none" "-g graph,5,callee" "-g fractal,1,caller" "-g graph,0.5,2" \
	"-g period" "-g count" "--no-children" "--no-children -g caller" \
	"--no-children -g folded" "--max-stack 3" "--max-stack 2 -g callee" \
	"--percent-limit 20" "-n --percent-limit 10 -g fractal" \
	"--sort sym,dso --no-children" "--sort sym -g caller" "--sort pid" \
	"-t , --no-children" "-t ; -n" "-t , --sort pid,sym"; do
	perf report --stdio -i cg.data $S $args 2>/dev/null | blocks > p.txt
	"$PMKIT" report --stdio -i cg.data $S $args 2>q.err | blocks > q.txt
	hid=0
	if ! cmp -s p.txt q.txt && [ -s p.txt ]; then
		# perf 6.1's --symbols hides a whole entry when the sample that
		# created it was itself filtered out (a timer interrupt's
		# kernel-leaf sample whose chain runs through b1: perf keeps the
		# filter flag of an entry's first sample), a sample or two in
		# some runs. Such an entry is pmkit's alone, and perf shows the
		# same entry line without --symbols: tolerated and counted;
		# every block perf does show must be pmkit's, byte for byte.
		perf report --stdio -i cg.data $args 2>/dev/null | blocks |
			sed 's/\\n.*//' | tr -d ' ' | sort -u > pu.txt
		comm -23 p.txt q.txt > miss.txt
		comm -13 p.txt q.txt | sed 's/\\n.*//' | tr -d ' ' | sort -u > extra.txt
		if [ ! -s miss.txt ] && [ -z "$(comm -23 extra.txt pu.txt)" ]; then
			hid=$(wc -l < extra.txt)
			cp q.txt p.txt
		fi
	fi
	note=
	[ "$hid" -gt 0 ] && note=", $hid shown by pmkit that perf's --symbols hid"
	check "report --stdio $args: perf's entries and trees ($(grep -c '^B' q.txt) entries, $(wc -c < q.txt) bytes$note)" \
		sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' _ p.txt q.txt
	cmp -s p.txt q.txt || diff p.txt q.txt | head -8 | sed 's/\\n/\n#   /g; s/^/# /'
done
# the shape itself, from pmkit's output alone: leaf's callers in callee
# order are b1, b2, rec, main; the recursion shows rec under rec
"$PMKIT" report --stdio -i cg.data --no-children -g callee,0 > t.txt 2>&1
check "callee tree of leaf: b1, b2, rec and main call it" sh -c '
	for f in b1 b2 rec main; do grep -Eq -- "--[0-9.]+%--$f\$" "$1" || exit 1; done' _ t.txt
check "the recursion: rec called by rec" sh -c 'grep -A1 -E -- "--[0-9.]+%--rec$" "$1" | grep -q "^ *|* *rec$"' _ t.txt
# -g takes perf's argument only: a file name after -g is the input
cp cg.data g.data
"$PMKIT" report --stdio -g g.data > g.txt 2>&1; rc=$?
check "-g FILE: the word after -g is the file (exit $rc)" sh -c '[ "$1" = 0 ] && grep -q "of event .cpu-clock" "$2"' _ "$rc" g.txt
run_pmkit report --stdio -i cg.data -g graph,bogus
check "-g with an unknown item: exit 2 naming it ($rc)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "bogus"' _ "$rc" "$err"
run_pmkit report --stdio -i cg.data --max-stack 0
check "--max-stack 0: exit 2 ($rc)" [ "$rc" = 2 ]
