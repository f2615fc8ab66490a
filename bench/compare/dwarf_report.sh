#!/bin/sh
# dwarf_report.sh: DWARF call stacks, pmkit against perf on one program.
#   bench/compare/dwarf_report.sh [SECONDS] [REPEATS] [PMKIT]
# Builds tests/sample/prog/spin_main.c and spin_lib.c (the program of the
# stack tests) with -O2 -fomit-frame-pointer (main -> via_a | via_b ->
# lib_spin, 4:1 work), records SECONDS of CPU
# time (default 2) at 4000 Hz with `pmkit record --call-graph dwarf` and,
# when installed, `perf record --call-graph dwarf`, then prints for each:
# samples, samples unwound through main;via_X;lib_spin, file size, and the
# median wall time of REPEATS (default 3) folded reports, with the ratio
# pmkit / perf.
secs=${1:-2}
reps=${2:-3}
pmkit=$(cd "$(dirname "${3:-build/pmkit}")" && pwd)/$(basename "${3:-build/pmkit}")
cc=${CC:-cc}
root=$(cd "$(dirname "$0")/../.." && pwd) # the program: tests/sample/prog
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cp "$root/tests/sample/prog/spin_lib.c" lib.c &&
	cp "$root/tests/sample/prog/spin_main.c" main.c || exit 1
F="-O2 -g -fomit-frame-pointer"
$cc $F -shared -fPIC -o libspin.so lib.c && $cc $F -o prog main.c -L. -lspin -Wl,-rpath,"$tmp" ||
	{ echo "cannot build the program"; exit 1; }
now() { date +%s%N; }
median() { sort -n "$1" | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]/1e9}'; }
# report TOOL FOLDED-FILE: samples and unwound ones from a folded listing
# (pmkit: "frames count"; perf: "count frames")
count() {
	awk -v tool="$1" '{ n = (tool == "perf") ? $1 : $NF; all += n
		if ($0 ~ /main;via_[ab];lib_spin( |$)/) ok += n }
		END { printf "%d samples, %d unwound through main;via_X;lib_spin", all, ok }' "$2"
}
"$pmkit" record -q --call-graph dwarf -F 4000 -o p.rec -- ./prog "$secs" || exit 1
i=0; : > pt
while [ $i -lt "$reps" ]; do
	t0=$(now); "$pmkit" report -i p.rec --folded > p.fold; t1=$(now)
	echo $((t1 - t0)) >> pt; i=$((i + 1))
done
pm=$(median pt)
echo "pmkit: $(count pmkit p.fold), $(wc -c < p.rec) bytes, report --folded median $pm s"
if command -v perf >/dev/null 2>&1 &&
   perf record -q --call-graph dwarf -F 4000 -o perf.data ./prog "$secs" 2>/dev/null; then
	i=0; : > qt
	while [ $i -lt "$reps" ]; do
		t0=$(now)
		perf report -i perf.data --stdio --no-children -g folded,0,caller,count > q.fold 2>/dev/null
		t1=$(now)
		echo $((t1 - t0)) >> qt; i=$((i + 1))
	done
	q=$(median qt)
	grep -E '^[0-9]+ ' q.fold > q2.fold
	echo "perf:  $(count perf q2.fold), $(wc -c < perf.data) bytes, report (folded) median $q s"
	awk -v p="$pm" -v q="$q" 'BEGIN { printf "ratio pmkit/perf: %.3f\n", p / q }'
else
	echo "perf not installed or cannot sample here: measuring pmkit only"
fi
