#!/bin/sh
# top10_vs_perf.sh: flat profiles of pmkit and perf on real workloads. Each
# workload is recorded by both (cpu-clock, 4000 Hz, one after the other),
# both reports are reduced to function -> share, and for the union of the
# two top-10 lists the largest difference in points is printed (kernel and
# PLT rows included; rows both tools leave unnamed, "[file]" in pmkit and
# raw addresses in perf, are left out). Names are compared without C++
# parameter lists and glibc version suffixes (perf prints neither).
#
#   sh bench/compare/top10_vs_perf.sh [BUILD_DIR]
#
# Needs perf and a C compiler; g++, python3, gzip, xz are used when present.
set -u
B=${1:-build}
PMKIT=$(cd "$B" && pwd)/pmkit
SRC=$(pwd)
command -v perf >/dev/null 2>&1 || { echo "top10_vs_perf: perf not installed"; exit 0; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
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
	"JIT map|./jit 1"
if command -v g++ >/dev/null 2>&1 &&
   g++ -O2 -g -fno-builtin -fomit-frame-pointer -o cxx "$SRC/tests/sample/prog/plt_vdso.cc"; then
	set -- "$@" "C++ -O2 (PLT, vdso)|./cxx 1"
fi
command -v python3 >/dev/null 2>&1 &&
	set -- "$@" "python3 zlib|python3 -c 'import zlib
d = bytes(range(256)) * 40000
for i in range(30): zlib.compress(d, 9)'"
command -v xz >/dev/null 2>&1 && set -- "$@" "xz -T2|xz -T2 -c -3 text"

norm() { sed -e 's/(.*$//' -e 's/@@.*$//' -e 's/@GLIBC.*$//'; }
printf '%-22s %8s %8s  %s\n' workload samples "max diff" "function (pmkit %, perf %)"
for w in "$@"; do
	name=${w%%|*}; cmd=${w#*|}
	"$PMKIT" record -q -F 4000 -o p.rec -- sh -c "$cmd" > /dev/null 2>&1
	perf record -q -F 4000 -e cpu-clock -o p.data -- sh -c "$cmd" > /dev/null 2>&1
	rm -f /tmp/perf-*.map.keep
	"$PMKIT" report -i p.rec 2>/dev/null |
		awk '/^ +[0-9.]+% / { sub("%","",$1); n = $3; for (i = 4; i < NF; i++) n = n " " $i; print $1 "\t" n }' |
		while IFS='	' read -r pc fn; do printf '%s\t%s\n' "$pc" "$(printf '%s' "$fn" | norm)"; done > a.tsv
	perf report -i p.data --stdio --sort sym 2>/dev/null |
		awk '/^ +[0-9.]+% / { sub("%","",$1); n = $3; for (i = 4; i <= NF; i++) n = n " " $i; print $1 "\t" n }' |
		while IFS='	' read -r pc fn; do printf '%s\t%s\n' "$pc" "$(printf '%s' "$fn" | norm)"; done > b.tsv
	n=$(awk 'END { print NR }' a.tsv)
	awk -F'\t' 'FNR == NR { a[$2] += $1; if (FNR <= 10) top[$2] = 1; next }
		{ b[$2] += $1; if (FNR <= 10) top[$2] = 1 }
		END { m = 0; w = "-"
			for (k in top) {
				if (k ~ /^\[/ || k ~ /^0x/) continue
				d = a[k] - b[k]; if (d < 0) d = -d
				if (d > m) { m = d; w = sprintf("%s (%.2f, %.2f)", k, a[k], b[k]) }
			}
			printf "%8.2f  %s\n", m, w }' a.tsv b.tsv > d.txt
	printf '%-22s %8s %s\n' "$name" "$(grep -c . a.tsv)" "$(cat d.txt)"
done
