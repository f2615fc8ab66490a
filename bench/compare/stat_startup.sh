#!/bin/sh
# stat_startup.sh: how long `pmkit stat -e task-clock -- true` takes beside
# `perf stat -e task-clock -- true`, run alternately in one session.
#   bench/compare/stat_startup.sh [RUNS] [PMKIT]
# Prints the median wall time of each in ms and the ratio pmkit / perf
# (target: at most 1.0). Output of both tools goes to /dev/null.
runs=${1:-41}
pmkit=${2:-build/pmkit}
command -v perf >/dev/null 2>&1 || { echo "perf not installed: measuring pmkit only"; }
now() { date +%s%N; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$runs" ]; do
	t0=$(now); "$pmkit" stat -e task-clock -- true 2>/dev/null; t1=$(now)
	echo $(( (t1 - t0) )) >> "$tmp/pmkit"
	if command -v perf >/dev/null 2>&1; then
		t0=$(now); perf stat -e task-clock -- true 2>/dev/null; t1=$(now)
		echo $(( (t1 - t0) )) >> "$tmp/perf"
	fi
	i=$((i + 1))
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1e6}'; }
p=$(median "$tmp/pmkit")
echo "pmkit stat -e task-clock -- true: median $p ms over $runs runs"
if [ -f "$tmp/perf" ]; then
	q=$(median "$tmp/perf")
	echo "perf  stat -e task-clock -- true: median $q ms over $runs runs"
	awk -v p="$p" -v q="$q" 'BEGIN {printf "ratio pmkit/perf: %.3f\n", p/q}'
fi
