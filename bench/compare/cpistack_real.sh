#!/bin/sh
# cpistack_real.sh: seed 001's study on real programs instead of generated
# workloads. Each program below runs under valgrind (`pmkit trace`), its
# first SKIP instructions (start-up) left out and the next N kept; then
# `pmkit cpistack --sim` gives every method's stack and its errors against
# Sim and Sim inv, on the default core.
#   bench/compare/cpistack_real.sh [OUTDIR] [PMKIT]
# Environment: SKIP (default 2000000), N (default 1000000).
# Writes OUTDIR/NAME.trace, OUTDIR/cpistack.txt and .csv, and
# OUTDIR/real-*.svg (default OUTDIR: build/cpistack-real). Needs valgrind;
# a program that is not installed is left out with a note.
set -u
out=${1:-build/cpistack-real}
pmkit=${2:-build/pmkit}
skip=${SKIP:-2000000}
n=${N:-1000000}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
mkdir -p "$out" || exit 1
in=$out/input.txt
src=$out/input.c
# Inputs made here, the same on every machine: 200,000 lines of numbers and
# words, and a C file of 400 small functions.
awk 'BEGIN { x = 12345; for (i = 1; i <= 200000; i++) {
	x = (x * 1103515245 + 12345) % 2147483648
	printf "%d line%d %s %d\n", x % 100003, i, (x % 7 ? "alpha" : "omega"), x % 977 } }' >"$in"
awk 'BEGIN { for (i = 0; i < 400; i++) {
	printf "int f%d(int *a, int n) { int s = %d; for (int i = 0; i < n; i++)\n", i, i
	printf "  s += (a[i] %% %d) ? a[i] * %d : s >> 1; return s; }\n", i + 2, i + 3 } }' >"$src"
cc1=$(gcc -print-prog-name=cc1 2>/dev/null)
# the interpreter itself, not a wrapper script (valgrind does not follow exec)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# trace NAME COMMAND...: the program's instructions SKIP+1 to SKIP+N
trace() {
	name=$1
	shift
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "$name: $1 is not installed, left out"
		return
	fi
	t0=$(date +%s)
	# output to a file: GNU grep stops at the first match into /dev/null
	"$pmkit" trace -o "$out/$name.trace" --skip "$skip" -n "$n" -- "$@" </dev/null >"$out/$name.out" 2>"$out/$name.log"
	echo "$name: $(tail -1 "$out/$name.log") ($(($(date +%s) - t0)) s)"
	grep -q "^trace: $n instructions" "$out/$name.log" ||
		{ echo "$name: fewer than $skip + $n instructions, left out"; rm -f "$out/$name.trace"; }
}
rm -f "$out"/*.trace
trace gzip gzip -c -6 "$in"
trace bzip2 bzip2 -c "$in"
trace xz xz -c -1 "$in"
trace sort sort -n "$in"
trace python3 "$py" -c "import collections; c = collections.Counter(l.split()[2] for l in open('$in')); print(sorted(c.items())[:3])"
trace perl perl -ne '$h{(split)[0] % 1000} += (split)[3]; END { print scalar(keys %h), "\n" }' "$in"
trace awk awk '{ s[$1 % 5000] += $4 } END { n = 0; for (k in s) n++; print n }' "$in"
trace sed sed -e 's/line\([0-9]*\)/L\1L/' -e 's/[aeiou]/_/g' "$in"
trace grep grep -c -E '^([0-9])[0-9]* .* \1[0-9]*$' "$in"
trace cc1 "$cc1" -quiet -O2 "$src" -o /dev/null
trace sha256sum sha256sum "$in"
trace md5sum md5sum "$in"

traces=
for f in "$out"/*.trace; do
	[ -s "$f" ] && traces="$traces $f"
done
[ -n "$traces" ] || { echo "no traces"; exit 1; }
# shellcheck disable=SC2086
"$pmkit" cpistack --sim -n "$n" --csv $traces >"$out/cpistack.csv" &&
	"$pmkit" cpistack --sim -n "$n" --svg "$out/real" $traces | tee "$out/cpistack.txt"
