#!/bin/sh
# cpistack_why.sh: the per-cycle evidence of docs/cpistack.md, "Where FMT
# misses the bar against the band, and why": for the two presets where the
# seed's FMT misses seed 001's bar against the band (branchy, stream) and
# the two it used to miss (int-mix, kernel-mix), the classes of the real
# run's cycles and what fetch does in the mispredicted windows
# (build/bench/cpistack_trace) beside the reference steps that disagree
# with the accountants, and the interaction of mispredictions with L2D
# misses (four runs of the core with and without each idealized,
# everything else real).
#   bench/compare/cpistack_why.sh [BUILD]     (default BUILD: build)
# One core, about 20 s here; the output goes to stdout.
set -u
b=${1:-build}
tr=$b/bench/cpistack_trace
pmkit=$b/pmkit
n=${N:-200000}
[ -x "$tr" ] && [ -x "$pmkit" ] || { echo "build first: make O=$b" >&2; exit 1; }
for w in branchy stream int-mix kernel-mix; do
	echo "## $w: the real run's cycles, and where each reference step finds its cycles"
	"$tr" -n "$n" "$w"
	case $w in
	branchy)
		steps="sim:branch sim-inv:branch sim:l2i sim-inv:l2i last:l2i" ;;
	stream)
		steps="sim:l2d sim-inv:l2d last:l2d sim-inv:longlat" ;;
	*)
		steps="sim:l2d sim-inv:l2d sim-inv:branch sim:dtlb last:l2d" ;;
	esac
	for s in $steps; do
		"$tr" -n "$n" "$w" "${s%%:*}" "${s#*:}"
	done
	echo
done
# CPI with L2D misses and mispredictions each real or idealized, the rest
# real: the interaction is what neither single step sees alone.
cpi() {
	"$pmkit" sim run -n "$n" -s "perfect=$2" "$1" 2>/dev/null |
		awk '/instructions,/ { gsub(",", ""); print $6 / $4; exit }'
}
for w in int-mix kernel-mix; do
	r=$(cpi "$w" none)
	l=$(cpi "$w" l2d)
	p=$(cpi "$w" bp)
	lp=$(cpi "$w" l2d,bp)
	awk -v w="$w" -v r="$r" -v l="$l" -v p="$p" -v lp="$lp" 'BEGIN {
		printf "## %s: CPI real %.3f, L2D perfect %.3f, BP perfect %.3f, both %.3f\n", w, r, l, p, lp
		printf "L2D misses cost %.3f CPI with mispredictions, %.3f without;\n", r - l, p - lp
		printf "mispredictions cost %.3f CPI with L2D misses, %.3f without;\n", r - p, l - lp
		printf "interaction %.3f CPI (%.1f %% of CPI)\n", r - l - p + lp, (r - l - p + lp) / r * 100 }'
done
