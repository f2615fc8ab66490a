#!/bin/sh
# stat_sets.sh: peak memory of `stat -a` against the number of event sets
# it keeps (one per CPU, and per cgroup with --for-each-cgroup), beside
# perf's in the same run. The number of CPUs is the machine's; the sets
# are multiplied by listing the root cgroup K times, which both tools
# count as K cgroups on every CPU.
# Usage: sh bench/growth/stat_sets.sh [EVENTS [K...]]   (PMKIT=path/to/pmkit)
# Prints: sets, each tool's peak RSS, and the growth per event per set
# between the first and the last K (perf's figure beside it: the ratio).
PMKIT=${PMKIT:-build/pmkit}
n=${1:-40}; [ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 1 4 16
base=task-clock,context-switches,cpu-migrations,page-faults,minor-faults
ev=$base; i=5; while [ $i -lt "$n" ]; do ev="$ev,$base"; i=$((i + 5)); done
ncpu=$(getconf _NPROCESSORS_ONLN)
command -v perf >/dev/null 2>&1 || echo "# perf not installed (Debian: linux-perf): pmkit alone"
rss() { # TOOL K: peak RSS in KB of one stat -a run over K copies of /
	cg=/; j=1; while [ $j -lt "$2" ]; do cg="$cg,/"; j=$((j + 1)); done
	/usr/bin/time -f %M "$1" stat -a -e "$ev" --for-each-cgroup "$cg" \
		-- sleep 0.01 2>&1 >/dev/null | tail -1
}
echo "# $i events, $ncpu CPUs, $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %6s %12s %12s\n' cgroups sets pmkit_KB perf_KB
first=; for k in "$@"; do
	p=$(rss "$PMKIT" "$k"); q=$(command -v perf >/dev/null && rss perf "$k" || echo 0)
	printf '%6d %6d %12d %12d\n' "$k" $((k * ncpu)) "$p" "$q"
	[ -n "$first" ] || { first=$k; p0=$p; q0=$q; }
	last=$k; p1=$p; q1=$q
done
[ "$last" != "$first" ] && awk -v a="$p0" -v b="$p1" -v c="$q0" -v d="$q1" \
	-v s=$(( (last - first) * ncpu )) -v e="$i" 'BEGIN {
	pe = (b - a) * 1024 / s / e; qe = (d - c) * 1024 / s / e
	printf "per event per set: pmkit %.0f B, perf %.0f B", pe, qe
	if (qe > 0) printf " (pmkit/perf %.2f)", pe / qe
	printf "\n" }'
