#!/bin/sh
# mpi_overhead.sh: what libpmkit-mpi adds to an MPI program, measured in one
# run with and without it (bench/compare/mpi/mpi_overhead.c, built by
# `make` into BUILD/mpi/mpi_overhead when an MPI is found).
#   bench/compare/mpi_overhead.sh [BUILD_DIR] [REPEATS] [ITERATIONS]
# Alternates REPEATS (default 9) runs without and with the library
# preloaded and prints medians (and, for the per-call figures, the
# minimums: on a busy machine the medians mostly measure the other load):
#  - a 1 KiB ping-pong between 2 ranks (microseconds per round trip) and an
#    MPI_Allreduce of one double (per call): without, with, the ratio and
#    the time added per round trip or call; target: under 5 % added to
#    the ping-pong;
#  - the cost of MPI_Finalize (the slowest rank's) at 2, 4 and 8 ranks,
#    with the library's gather, banner and JSON file, without and with;
#    target: under 50 ms added at 8 ranks.
# On a machine with fewer cores than ranks the runs are oversubscribed;
# other load on the machine shows as spread between repeats.
B=${1:-build}
reps=${2:-9}
iters=${3:-20000}
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
one() { # NP on|off ITERS: prints the program's lines
	if [ "$2" = on ]; then
		$run -np "$1" -x LD_PRELOAD="$lib" "$prog" "$3" 2>/dev/null
	else
		$run -np "$1" "$prog" "$3" 2>/dev/null
	fi
}
echo "# libpmkit-mpi overhead: $reps runs each, alternating; medians, and minimums for"
echo "# the per-call figures (the least disturbed runs); $(nproc) CPUs, $(mpirun --version 2>/dev/null | head -1),"
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for i in $(seq "$reps"); do
	one 2 off "$iters" >> off.2; one 2 on "$iters" >> on.2
done
for what in pingpong allreduce; do
	off=$(awk -v w="${what}_us" '$1==w {print $2}' off.2 | median)
	on=$(awk -v w="${what}_us" '$1==w {print $2}' on.2 | median)
	awk -v w="$what" -v a="$off" -v b="$on" 'BEGIN {
		printf "%-10s median: without %8.3f us  with %8.3f us  ratio %.3f  added %+.1f %% (%+.0f ns)\n",
			w, a, b, b / a, (b / a - 1) * 100, (b - a) * 1000 }'
	off=$(awk -v w="${what}_us" '$1==w {print $2}' off.2 | least)
	on=$(awk -v w="${what}_us" '$1==w {print $2}' on.2 | least)
	awk -v w="$what" -v a="$off" -v b="$on" 'BEGIN {
		printf "%-10s min:    without %8.3f us  with %8.3f us  ratio %.3f  added %+.1f %% (%+.0f ns)\n",
			w, a, b, b / a, (b / a - 1) * 100, (b - a) * 1000 }'
done
for np in 2 4 8; do
	for i in $(seq "$reps"); do
		one "$np" off 1000 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m}' >> fo.$np
		one "$np" on 1000 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m}' >> fn.$np
	done
	off=$(median < fo.$np); on=$(median < fn.$np)
	awk -v n="$np" -v a="$off" -v b="$on" 'BEGIN {
		printf "finalize   %d ranks: without %7.2f ms  with %7.2f ms  added %+.2f ms\n", n, a, b, b - a }'
done
