#!/bin/sh
# dwarf_report.sh: DWARF call stacks, pmkit against perf on one program.
#   bench/compare/dwarf_report.sh [SECONDS] [REPEATS] [PMKIT]
# Builds a program and a shared library with -O2 -fomit-frame-pointer
# (main -> via_a | via_b -> lib_spin, 4:1 work), records SECONDS of CPU
# time (default 2) at 4000 Hz with `pmkit record --call-graph dwarf` and,
# when installed, `perf record --call-graph dwarf`, then prints for each:
# samples, samples unwound through main;via_X;lib_spin, file size, and the
# median wall time of REPEATS (default 3) folded reports, with the ratio
# pmkit / perf.
secs=${1:-2}
reps=${2:-3}
pmkit=$(cd "$(dirname "${3:-build/pmkit}")" && pwd)/$(basename "${3:-build/pmkit}")
cc=${CC:-cc}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat > lib.c <<'C'
volatile double lsink;
void lib_spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	lsink = x;
}
C
cat > main.c <<'C'
#include <stdlib.h>
#include <time.h>
void lib_spin(long n);
__attribute__((noinline)) void via_a(long n) { lib_spin(4 * n); __asm__ volatile(""); }
__attribute__((noinline)) void via_b(long n) { lib_spin(n); __asm__ volatile(""); }
int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec ts;
	do {
		via_a(100000);
		via_b(100000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	return 0;
}
C
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
