#!/bin/sh
# top10_vs_perf.sh: flat profiles of pmkit and perf on nine real workloads
# (issue 18's: dd, two pthreads with libm, gzip, a shell pipeline, a JIT
# with /tmp/perf-PID.map, C++ -O2 through the PLT and the vdso, python3 with
# zlib, xz -T2, make -j2 of 8 C files). Each workload is recorded RUNS times
# by each tool (cpu-clock, 4000 Hz), interleaved (pmkit perf, perf pmkit,
# ...), every report reduced to function -> share. A "max diff" is the
# largest difference in points over the union of two top-10 lists of
# shares of samples, kernel and PLT rows included; samples both tools leave
# unnamed (a stripped file's functions) are one row per file, "[file]" as
# pmkit prints it and perf's raw-address rows of that file summed; names
# are compared without C++
# parameter lists and glibc version suffixes (perf 6.1 prints no parameters
# and keeps "@@GLIBC_2.17"). Printed per workload:
#
#   medians    pmkit's median shares against perf's median shares (the
#              function with the largest difference, pmkit %, perf %, and
#              each tool's lowest and highest share of it over the runs)
#   perf o/e   perf against itself the same way: the median of its odd
#              runs against the median of its even runs (each of about
#              RUNS/2 runs, so somewhat wider than a RUNS-run median)
#   per run    the median over runs of run i of pmkit against run i of perf
#   perf-perf  the same statistic for perf against itself (run i against
#              run i+1, median): what sampling and the workload's own
#              variation give with no second tool involved
#   same file  pmkit report and perf report of one perf.data (the largest
#              over runs): naming and attribution only, no sampling noise
#
#   sh bench/compare/top10_vs_perf.sh [BUILD_DIR]
#   RUNS=5 sh bench/compare/top10_vs_perf.sh          (default 3)
#   ONLY='dd' sh bench/compare/top10_vs_perf.sh       (workloads by name, a
#                                                     shell pattern)
#   PMKIT_BASE=/path/to/old/pmkit sh bench/compare/top10_vs_perf.sh
#       also reports pmkit's recordings with another build (before/after
#       a report change, from the same recordings)
#
# Needs perf and a C compiler; g++, python3, gzip, xz, make are used when
# present. Each run of the nine takes about 2 minutes on a 2-core VM
# (RUNS=7: 12 minutes at load average 1 to 4).
set -u
B=${1:-build}
RUNS=${RUNS:-3}
PMKIT=$(cd "$B" && pwd)/pmkit
BASE=${PMKIT_BASE:-}
ONLY=${ONLY:-*}
SRC=$(pwd)
command -v perf >/dev/null 2>&1 || { echo "top10_vs_perf: perf not installed"; exit 0; }
W=$(mktemp -d)
# the JIT writes /tmp/perf-PID.map and prints its PID: remove those maps
cleanup() {
	[ -f "$W/jit.pids" ] && for p in $(cat "$W/jit.pids"); do rm -f "/tmp/perf-$p.map"; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$W" || exit 1

# --- workloads
cat > mt.c <<'C'
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
volatile double sink[2];
static void *work(void *a)
{
	double x = 0;
	for (int i = 0; i < 20000000; i++)
		x += sin(i * 0.001) * cos(i * 0.002);
	sink[(long)a] = x;
	return NULL;
}
int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
C
cc -O2 -o mt mt.c -lm -lpthread || exit 1
cc -O1 -o jit "$SRC/tests/sample/prog/jit.c" || exit 1
head -c 30000000 /dev/urandom | od -An -tx1 | head -c 40000000 > text
set -- \
	"dd|dd if=/dev/zero of=/dev/null bs=4k count=400000" \
	"pthreads+libm|./mt" \
	"gzip|gzip -c text" \
	"shell pipeline|sh -c 'gzip -c text | sort | xz -c -0'" \
	"JIT map|./jit 1 >> jit.pids"
if command -v g++ >/dev/null 2>&1 &&
   g++ -O2 -g -fno-builtin -fomit-frame-pointer -o cxx "$SRC/tests/sample/prog/plt_vdso.cc"; then
	set -- "$@" "C++ -O2 (PLT, vdso)|./cxx 1"
fi
command -v python3 >/dev/null 2>&1 &&
	set -- "$@" "python3 zlib|python3 -c 'import zlib
d = bytes(range(256)) * 40000
for i in range(30): zlib.compress(d, 9)'"
command -v xz >/dev/null 2>&1 && set -- "$@" "xz -T2|xz -T2 -c -3 text"
# make -j2 of 8 generated C files (80 small functions each, -O2)
if command -v make >/dev/null 2>&1; then
	mkdir mk
	for f in 1 2 3 4 5 6 7 8; do
		awk -v f=$f 'BEGIN { for (j = 0; j < 80; j++)
			printf "int f%d_%d(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { s += a[i] * %d; if (a[i] > %d) s ^= i << %d; else s -= a[(i * %d) %% n]; } return s; }\n", f, j, j + 1, j * 3, j % 7, j + 2 }' > mk/u$f.c
	done
	printf 'O = u1.o u2.o u3.o u4.o u5.o u6.o u7.o u8.o\nall: $(O)\n%%.o: %%.c\n\tcc -O2 -c -o $@ $<\n' > mk/Makefile
	set -- "$@" "make -j2 (8 C files)|make -s -j2 -B -C mk"
fi

# --- reductions
TAB=$(printf '\t')
norm() { sed -e 's/(.*$//' -e 's/@@.*$//' -e 's/@GLIBC.*$//'; }
# pmkit report -> "share<TAB>function" by share, the share from sample
# counts (the printed percentages are rounded to 0.01: summed over a
# stripped file's hundreds of address rows that is points off)
pmkit_shares() {
	"$1" report -i "$2" 2>/dev/null |
		awk '/^ +[0-9.]+% +[0-9]+ / { n = $3; for (i = 4; i < NF; i++) n = n " " $i
			c[n] += $2; t += $2; if (!(n in o)) o[n] = ++k }
			END { for (n in o) printf "%.4f\t%s\t%d\n", 100 * c[n] / t, n, o[n] }' |
		sort -t'	' -k1,1nr -k3,3n | cut -f1,2 |
		while IFS='	' read -r pc fn; do printf '%s\t%s\n' "$pc" "$(printf '%s' "$fn" | norm)"; done
}
# perf report -> the same; perf's raw-address rows (no symbol) become one
# "[DSO]" row per file, as pmkit's (the kernel's "[kernel.kallsyms]" is
# pmkit's "[kernel]")
perf_shares() {
	perf report -i "$1" --stdio -n --sort dso,sym -t "$TAB" 2>/dev/null |
		awk -F"$TAB" '/^ *[0-9.]+%/ && NF >= 4 { d = $3; n = $4
			gsub(/^ +| +$/, "", d); gsub(/^ +| +$/, "", n); sub(/^\[.\] /, "", n)
			if (n ~ /^0x/) { if (d == "[kernel.kallsyms]") d = "[kernel]"; n = d ~ /^\[/ ? d : "[" d "]" }
			c[n] += $2; t += $2; if (!(n in o)) o[n] = ++k }
			END { for (n in o) printf "%.4f\t%s\t%d\n", 100 * c[n] / t, n, o[n] }' |
		sort -t"$TAB" -k1,1nr -k3,3n | cut -f1,2 |
		while IFS="$TAB" read -r pc fn; do printf '%s\t%s\n' "$pc" "$(printf '%s' "$fn" | norm)"; done
}
# largest difference over the union of both top-10 lists: "points<TAB>fn (a, b)"
maxdiff() {
	awk -F'\t' 'FNR == NR { a[$2] += $1; if (FNR <= 10) top[$2] = 1; next }
		{ b[$2] += $1; if (FNR <= 10) top[$2] = 1 }
		END { m = 0; w = "-"
			for (k in top) {
				d = a[k] - b[k]; if (d < 0) d = -d
				if (d > m) { m = d; w = sprintf("%s (%.2f, %.2f)", k, a[k], b[k]); f = k }
			}
			printf "%.2f\t%s\t%s\n", m, w, f }' "$1" "$2"
}
# lowest..highest share of function $1 over the files that follow (absent: 0)
span() {
	k=$1; shift
	for f in "$@"; do awk -F"$TAB" -v k="$k" '$2 == k { s += $1 } END { printf "%.2f\n", s }' "$f"; done |
		sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s..%s", lo, hi }'
}
# each function's median share over the files given (absent: 0), by share
medians() {
	awk -F'\t' -v n=$# 'FNR == 1 { f++ } { s[$2, f] += $1; fn[$2] = 1 }
		END { for (k in fn) {
				c = 0
				for (i = 1; i <= n; i++) v[++c] = s[k, i] + 0
				for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
				m = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
				printf "%.2f\t%s\n", m, k
			} }' "$@" | sort -t'	' -k1,1nr
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else printf "%.2f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "RUNS=$RUNS per tool, interleaved; $(uptime | sed 's/.*load/load/')"
printf '%-22s %8s %8s %8s %9s %9s  %s\n' workload medians "perf o/e" "per run" perf-perf "same file" "largest on medians: function (pmkit %, perf %); each tool's lowest..highest over runs"
for w in "$@"; do
	name=${w%%|*}; cmd=${w#*|}
	case $name in $ONLY) ;; *) continue ;; esac
	r=1
	while [ $r -le "$RUNS" ]; do
		for tool in $( [ $((r % 2)) = 1 ] && echo "pmkit perf" || echo "perf pmkit"); do
			if [ $tool = pmkit ]; then
				"$PMKIT" record -q -F 4000 -o p.rec -- sh -c "$cmd" > /dev/null 2>&1
			else
				perf record -q -F 4000 -e cpu-clock -o p.data -- sh -c "$cmd" > /dev/null 2>&1
			fi
		done
		pmkit_shares "$PMKIT" p.rec > a.$r
		perf_shares p.data > b.$r
		pmkit_shares "$PMKIT" p.data > s.$r
		[ -n "$BASE" ] && pmkit_shares "$BASE" p.rec > c.$r
		r=$((r + 1))
	done
	i=1; : > run.d; : > self.d; : > same.d; : > base.d
	while [ $i -le "$RUNS" ]; do
		maxdiff a.$i b.$i | cut -f1 >> run.d
		maxdiff s.$i b.$i | cut -f1 >> same.d
		[ -n "$BASE" ] && maxdiff c.$i b.$i | cut -f1 >> base.d
		[ $i -lt "$RUNS" ] && maxdiff b.$i b.$((i + 1)) | cut -f1 >> self.d
		i=$((i + 1))
	done
	medians a.[0-9]* > a.med
	medians b.[0-9]* > b.med
	maxdiff a.med b.med > med.d
	# perf's odd runs against its even runs, both as medians
	medians $(ls b.[0-9]* | awk -F. '$2 % 2') > b.odd
	medians $(ls b.[0-9]* | awk -F. '!($2 % 2)') > b.even
	halves=$( [ "$RUNS" -ge 2 ] && maxdiff b.odd b.even | cut -f1 || echo -)
	k=$(cut -f3 med.d)
	printf '%-22s %8s %8s %8s %9s %9s  %s; runs: pmkit %s, perf %s\n' "$name" "$(cut -f1 med.d)" \
		"$halves" "$(median < run.d)" "$(median < self.d)" \
		"$(sort -n same.d | tail -1)" "$(cut -f2 med.d)" \
		"$(span "$k" a.[0-9]*)" "$(span "$k" b.[0-9]*)"
	if [ -n "$BASE" ]; then
		medians c.[0-9]* > c.med
		maxdiff c.med b.med > bmed.d
		printf '%-22s %8s %8s %8s %9s %9s  %s\n' "  (base build)" "$(cut -f1 bmed.d)" \
			"" "$(median < base.d)" "" "" "$(cut -f2 bmed.d)"
	fi
	rm -f a.* b.* c.* s.*
done
