#!/bin/sh
# report.sh: time and peak memory of `pmkit report` against the size of a
# record file of random call chains (issue 31: 385 bytes of memory per
# distinct address before call-chain locations were kept in small entries).
# The files come from build/bench/random_chains (pmkit's writer API): one
# process, SAMPLES samples of DEPTH random frames each, so that nearly
# every frame is a distinct address. Each size is reported by function and
# folded (the stack view).
# Usage: sh bench/growth/report.sh [SAMPLES...]   (PMK_BUILD=build directory,
#        DEPTH=16)
# Prints: samples addresses file_bytes view seconds cpu_s peak_KB
#         bytes_per_address (cpu_s: user + system; the wall seconds swell
#         on a loaded machine)
PMK_BUILD=${PMK_BUILD:-build}
DEPTH=${DEPTH:-16}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- 25000 50000 100000 200000
[ -x "$PMK_BUILD/bench/random_chains" ] ||
	{ echo "build $PMK_BUILD/bench/random_chains first (make benches)" >&2; exit 1; }
printf '%8s %9s %10s %-8s %8s %6s %9s %8s\n' samples addresses file_bytes view seconds cpu_s peak_KB B/addr
for n in "$@"; do
	"$PMK_BUILD/bench/random_chains" -o "$T/r.rec" -n "$n" -d "$DEPTH" >/dev/null || exit 1
	bytes=$(wc -c < "$T/r.rec")
	addrs=$((n * DEPTH))
	for view in function folded; do
		if [ $view = folded ]; then set -- --folded; else set --; fi
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$PMK_BUILD/pmkit" report "$@" -i "$T/r.rec" >/dev/null 2>&1
		rc=$?
		read -r secs us ss kb < "$T/time"
		[ $rc = 0 ] || secs="exit$rc"
		printf '%8d %9d %10d %-8s %8s %6.2f %9d %8.0f\n' "$n" "$addrs" "$bytes" $view "$secs" \
			"$(echo "$us + $ss" | bc -l)" "$kb" \
			"$(echo "$kb * 1024 / $addrs" | bc -l)"
	done
done
