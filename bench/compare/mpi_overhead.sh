#!/bin/sh
# mpi_overhead.sh: what libpmkit-mpi adds to an MPI program
# (bench/compare/mpi/mpi_overhead.c, built by `make` into
# BUILD/mpi/mpi_overhead when an MPI is found).
#   bench/compare/mpi_overhead.sh [BUILD_DIR] [REPEATS] [BLOCKS]
#  - Per call, with and without the library in the same run: with the
#    library preloaded, the program alternates BLOCKS (default 40) blocks of
#    2000 calls through the MPI_ entry points (wrapped) with blocks through
#    PMPI_ (not wrapped), so both halves see the same machine and load.
#    Printed: the median and the minimum (least disturbed) per block of a 1 KiB ping-pong round trip between
#    2 ranks and of an MPI_Allreduce of one double, the ratio and the time
#    added; target: under 5 % added to the ping-pong. The same program
#    without the library is the control (its ratio should be 1).
#  - MPI_Finalize (the slowest rank's), REPEATS (default 5) runs each
#    without and with the library (its gather, banner and JSON file) at 2,
#    4 and 8 ranks, medians; target: under 50 ms added at 8 ranks.
# On a machine with fewer cores than ranks the runs are oversubscribed.
B=${1:-build}
reps=${2:-5}
blocks=${3:-40}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$B" in /*) ;; *) B=$root/$B;; esac
lib=$B/libpmkit-mpi.so prog=$B/mpi/mpi_overhead
if [ ! -f "$lib" ] || [ ! -x "$prog" ] || ! command -v mpirun >/dev/null; then
	echo "mpi_overhead: needs $lib, $prog and mpirun (make with an MPI installed)"
	exit 1
fi
run="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && run="$run --allow-run-as-root"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
median() { sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.4f", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
least() { sort -n | head -1; }
one() { # NP on|off BLOCKS: prints the program's lines
	r=$run
	# 2 ranks fit 2 CPUs: no --oversubscribe, so Open MPI polls without
	# yielding, as on dedicated cores
	[ "$1" -le "$(nproc)" ] && r=$(echo "$run" | sed 's/ --oversubscribe//')
	if [ "$2" = on ]; then
		$r -np "$1" -x LD_PRELOAD="$lib" -x PMKIT_MPI_BANNER=0 "$prog" "$3" 2>/dev/null
	else
		$r -np "$1" "$prog" "$3" 2>/dev/null
	fi
}
echo "# libpmkit-mpi overhead ($(nproc) CPUs, $(mpirun --version 2>/dev/null | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg))"
one 2 on "$blocks" > on.2
one 2 off "$blocks" > off.2
for what in pingpong allreduce; do
	for f in on off; do
		for stat in median least; do
			a=$(awk -v w="$what" '$1==w && $2=="PMPI" {print $3}' $f.2 | $stat)
			b=$(awk -v w="$what" '$1==w && $2=="MPI" {print $3}' $f.2 | $stat)
			awk -v w="$what" -v f="$f" -v s="$stat" -v a="$a" -v b="$b" 'BEGIN {
				printf "%-9s %-7s %-6s PMPI %7.3f us  MPI %7.3f us  ratio %.3f  added %+5.1f %% (%+.0f ns)\n",
					w, f == "on" ? "library" : "control", s == "least" ? "min" : s,
					a, b, b / a, (b / a - 1) * 100, (b - a) * 1000 }'
		done
	done
done
for np in 2 4 8; do
	for i in $(seq "$reps"); do
		one "$np" off 1 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m}' >> fo.$np
		one "$np" on 1 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m}' >> fn.$np
	done
	off=$(median < fo.$np); on=$(median < fn.$np)
	awk -v n="$np" -v a="$off" -v b="$on" 'BEGIN {
		printf "finalize  %d ranks: without %7.2f ms  with %7.2f ms  added %+.2f ms\n", n, a, b, b - a }'
done
