#!/bin/sh
# lat_vs_multichase.sh: memory latency at 256 MiB, `pmkit bench lat` (random
# chase in 64-page windows, each pointer at a random word of its element)
# beside multichase's default chase (`multichase -s E -m 256m`, 64-page TLB
# locality) at the same element size E, alternating, on the same CPU.
#   bench/compare/lat_vs_multichase.sh [ROUNDS] [PMKIT]
# multichase is not packaged: build it from its repository
# (github.com/google/multichase, `make multichase`) and put it on PATH or in
# $MULTICHASE. Prints each round, the medians and the ratio pmkit/multichase
# per element size; bar: within 15 %. Exits 1 when a bar fails.
rounds=${1:-5}
pmkit=${2:-build/pmkit}
mc=${MULTICHASE:-$(command -v multichase)}
cpu=${CPU:-0}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$mc" ] || { echo "multichase not found (set MULTICHASE): pmkit only"; mc=; }
fail=0
for e in 64 256; do
	i=0
	while [ $i -lt "$rounds" ]; do
		"$pmkit" bench lat 256 $e --mode random --min 256m --cpu $cpu --csv |
			awk -F, 'NR==2 {print $4}' >> "$tmp/p$e"
		[ -n "$mc" ] && taskset -c $cpu "$mc" -s $e -m 256m -n 5 | awk '{print $1}' >> "$tmp/m$e"
		i=$((i + 1))
	done
	med() { sort -n "$1" | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}'; }
	p=$(med "$tmp/p$e")
	echo "element $e B, 256 MiB, CPU $cpu, $rounds rounds: pmkit $(tr '\n' ' ' < "$tmp/p$e")-> median $p ns"
	if [ -n "$mc" ]; then
		m=$(med "$tmp/m$e")
		echo "element $e B, 256 MiB, CPU $cpu, $rounds rounds: multichase $(tr '\n' ' ' < "$tmp/m$e")-> median $m ns"
		awk -v p="$p" -v m="$m" 'BEGIN {r = p / m; printf "  ratio pmkit/multichase %.3f: %s (bar: 0.85-1.15)\n", r, (r >= 0.85 && r <= 1.15) ? "PASS" : "FAIL"; exit !(r >= 0.85 && r <= 1.15)}' || fail=1
	fi
done
exit $fail
