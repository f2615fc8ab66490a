#!/bin/sh
# mpi_overhead.sh: what libpmkit-mpi adds to an MPI program
# (bench/compare/mpi/mpi_overhead.c, built by `make` into
# BUILD/mpi/mpi_overhead when an MPI is found).
#   bench/compare/mpi_overhead.sh [BUILD_DIR] [REPEATS] [PAIRS] [RUNS]
#  - Per call, with and without the library in the same run: with the
#    library preloaded, the program runs PAIRS (default 300) pairs of
#    blocks, one through the MPI_ entry points (wrapped), one through
#    PMPI_ (not wrapped), the order alternating, so both halves of a pair
#    see the same machine and load. Printed: the median block of each, and
#    the median over pairs of the difference (what the library added) for
#      iprobe    one MPI_Iprobe on one rank (the wrapper's own cost per call)
#      selfmsg   MPI_Isend + MPI_Recv + MPI_Wait of 1 KiB to itself, one rank
#      pingpong  a 1 KiB round trip between 2 ranks; target: under 5 % added
#      allreduce one MPI_Allreduce of a double, 2 ranks
#    "library" is the default timing (every call timed, mpi/timing.c),
#    "sample" the opt-in sampling (PMKIT_MPI_TIMING=sample: in bursts of
#    short calls one call in 32 on average is timed, the others counted). The
#    same program without the library is the control (its difference is
#    the method's own noise: it should be 0). iprobe is run once more with
#    the library on clock_gettime (PMKIT_MPI_CLOCK=monotonic), and the
#    program prints what one read of each clock costs: a timed call reads
#    the clock twice. With sampling, each MPI_ block begins after a PMPI_
#    one, a pause the library sees, so its first 16 calls or more are
#    timed (a new burst): blocks of 200 iterations weigh that more than a
#    long loop.
#  - The ping-pong again in RUNS (default 5) runs with the library and
#    RUNS with sampling, alternating: its round trip changes from run to
#    run (where the two ranks land), so the target is judged on the
#    median over runs of each run's added percentage (numbers sorted as
#    numbers, 1.4e+06 included: awk reads them, sort -n would not).
#  - MPI_Finalize (the slowest rank's; with the library: its gather, the
#    banner on stderr and the JSON file), REPEATS (default 7) runs each
#    without and with the library, alternating, at 2, 4 and 8 ranks: the medians, and the median of the
#    differences; target: under 50 ms added at 8 ranks.
# On a machine with fewer cores than ranks the runs are oversubscribed.
# Quote the load average with the figures: under load the 2 ranks of the
# ping-pong share their CPUs with other work and its round trip varies.
B=${1:-build}
reps=${2:-7}
blocks=${3:-300}
ppruns=${4:-5}
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
# the median of numbers one a line; awk reads 1.4e+06 as a number and
# prints it in plain notation before sort -n, which would not read it
median() { awk 'NF {printf "%.9f\n", $1}' | sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.4f", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
one() { # NP on|off|mono BLOCKS: prints the program's lines
	r=$run
	# up to as many ranks as CPUs: no --oversubscribe, so Open MPI polls
	# without yielding, as on dedicated cores
	[ "$1" -le "$(nproc)" ] && r=$(echo "$run" | sed 's/ --oversubscribe//')
	if [ "$2" = on ]; then
		$r -np "$1" -x LD_PRELOAD="$lib" "$prog" "$3" 2>err
	elif [ "$2" = mono ]; then
		$r -np "$1" -x LD_PRELOAD="$lib" -x PMKIT_MPI_CLOCK=monotonic "$prog" "$3" 2>/dev/null
	elif [ "$2" = sample ]; then
		$r -np "$1" -x LD_PRELOAD="$lib" -x PMKIT_MPI_TIMING=sample "$prog" "$3" 2>/dev/null
	else
		$r -np "$1" "$prog" "$3" 2>/dev/null
	fi
}
# WHAT FILE: "median-PMPI median-MPI median-of-pair-differences pairs"
summary() {
	awk -v w="$1" '$1==w && $2=="PMPI" {p[++np]=$3} $1==w && $2=="MPI" {m[++nm]=$3}
		END {n = np < nm ? np : nm; for (i = 1; i <= n; i++) print p[i], m[i], m[i] - p[i]}' "$2" > pairs
	printf "%s %s %s %s\n" "$(cut -d' ' -f1 pairs | median)" "$(cut -d' ' -f2 pairs | median)" \
		"$(cut -d' ' -f3 pairs | median)" "$(wc -l < pairs)"
}
echo "# libpmkit-mpi overhead ($(nproc) CPUs, $(mpirun --version 2>/dev/null | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg))"
one 1 on "$blocks" > on.1
one 1 off "$blocks" > off.1
one 1 mono "$blocks" > mono.1
one 1 sample "$blocks" > sample.1
one 2 on "$blocks" > on.2
one 2 sample "$blocks" > sample.2
one 2 off "$blocks" > off.2
awk '$1=="clock" {c[$2]=$3} END {
	printf "# one clock read:%s clock_gettime %.1f ns\n", ("tsc" in c) ? sprintf(" TSC %.1f ns,", c["tsc"]) : "", c["monotonic"] }' on.1
echo "# medians over pairs of blocks (PMPI_ and MPI_ alternating in the same run); added = median of the pairs' differences"
for what in iprobe selfmsg pingpong allreduce; do
	np=2; case $what in iprobe|selfmsg) np=1;; esac
	fs="on sample off"; [ $what = iprobe ] && fs="on mono sample off"
	for f in $fs; do
		set -- $(summary "$what" $f.$np)
		awk -v w="$what" -v f="$f" -v a="$1" -v b="$2" -v d="$3" -v n="$4" 'BEGIN {
			note = ""
			if (f != "off" && w == "iprobe") note = "  (1 wrapped call)"
			if (f == "on" && w == "selfmsg") note = sprintf("  (3 wrapped calls: %+.1f ns each)", d / 3)
			printf "%-9s %-7s PMPI %8.1f ns  MPI %8.1f ns  added %+6.1f ns %+5.1f %%  (%d pairs)%s\n",
				w, f == "on" ? "library" : f == "mono" ? "lib-cgt" : f == "sample" ? "sample" : "control", a, b, d, d / a * 100, n, note }'
	done
done
# a run's added percentage and its round trip without the library
pct() { summary pingpong "$1" | awk '{printf "%.2f %.0f\n", 100 * $3 / $1, $1}'; }
pct on.2 > pp.on; pct sample.2 > pp.sample
for i in $(seq 2 "$ppruns"); do
	one 2 on "$blocks" > r.on; pct r.on >> pp.on
	one 2 sample "$blocks" > r.sample; pct r.sample >> pp.sample
done
for f in on sample; do
	awk -v f=$f -v m="$(cut -d' ' -f1 pp.$f | median)" -v runs="$(awk '{printf "%s%% at %s ns, ", $1, $2}' pp.$f)" -v n="$(wc -l < pp.$f)" 'BEGIN {
		printf "pingpong  %-7s median over %d runs %+5.2f %% added (%s)%s\n", f == "on" ? "library" : f, n, m, substr(runs, 1, length(runs) - 2),
			f == "on" ? (m < 5 ? " target < 5 %: met" : " target < 5 %: NOT met") : "" }'
done
for np in 2 4 8; do
	: > fo.$np; : > fn.$np; : > fd.$np; : > fg.$np
	for i in $(seq "$reps"); do
		a=$(one "$np" off 1 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m + 0}')
		b=$(one "$np" on 1 | awk '$1=="finalize_ms" {if ($3 > m) m = $3} END {print m + 0}')
		sed -n 's/.*gathered in \([0-9.]*\) ms.*/\1/p' err >> fg.$np
		echo "$a" >> fo.$np; echo "$b" >> fn.$np
		echo "$b $a" | awk '{print $1 - $2}' >> fd.$np
	done
	awk -v n="$np" -v a="$(median < fo.$np)" -v b="$(median < fn.$np)" -v d="$(median < fd.$np)" -v r="$reps" \
		-v g="$(median < fg.$np)" 'BEGIN {
		printf "finalize  %d ranks: without %7.2f ms  with %7.2f ms  added %+.2f ms (median of %d paired runs; rank 0 in the library until the banner: %.1f ms)%s\n",
			n, a, b, d, r, g, n == 8 ? (d < 50 ? "  target < 50 ms: met" : "  target < 50 ms: NOT met") : "" }'
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
