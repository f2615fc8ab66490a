#!/bin/sh
# defs.sh: time and peak memory of `pmkit metric check` against the size of
# a definition file (issue 31), for two shapes: "flat" (N independent
# definitions) and "chain" (each definition names the one before, so that
# inlining copies it: the shape that grew as the square of the file).
# Usage: sh bench/growth/defs.sh [N...]   (PMKIT=path/to/pmkit)
# Prints: shape lines bytes seconds peak_KB KB_per_input_KB exit
PMKIT=${PMKIT:-build/pmkit}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- 1000 2000 4000 8000 16000
printf '%-6s %7s %9s %8s %9s %8s %4s\n' shape lines bytes seconds peak_KB ratio exit
for shape in flat chain; do
	for n in "$@"; do
		awk -v n="$n" -v s="$shape" 'BEGIN {
			print "M0 = task-clock"
			for (i = 1; i < n; i++)
				if (s == "flat") print "M" i " = task-clock + page-faults * " i
				else print "M" i " = M" i-1 " + " i
		}' > "$T/d.def"
		bytes=$(wc -c < "$T/d.def")
		/usr/bin/time -f '%e %M' -o "$T/time" "$PMKIT" metric check "$T/d.def" >/dev/null 2>&1
		rc=$?
		read -r secs kb <<EOF
$(tail -1 "$T/time")
EOF
		printf '%-6s %7d %9d %8s %9d %8.1f %4d\n' "$shape" "$n" "$bytes" "$secs" "$kb" \
			"$(echo "$kb * 1024 / $bytes" | bc -l)" "$rc"
	done
done
