#!/bin/sh
# regions.sh: time and peak memory of a program using the region API
# against the number of distinct region names (issue 31: 60,000 names added
# 77 s before the names were hashed). Each name is entered and left once,
# counting task-clock.
# Usage: sh bench/growth/regions.sh [N...]   (PMK_BUILD=build directory)
# Prints: names seconds peak_KB
PMK_BUILD=${PMK_BUILD:-build}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- 7500 15000 30000 60000
cat > "$T/app.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <pmkit.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	char name[32];
	pmk_diag d;
	pmk_region_set_events("task-clock", &d);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "r%d", i);
		pmk_region_begin(name);
		pmk_region_end(name);
	}
	return 0;
}
C
cc -O2 -I"$SRC/include" -o "$T/app" "$T/app.c" -L"$PMK_BUILD" -lpmkit \
	-Wl,-rpath,"$(cd "$PMK_BUILD" && pwd)" || exit 1
printf '%7s %8s %9s\n' names seconds peak_KB
for n in "$@"; do
	PMK_REGION_OUTPUT=$T/r.json /usr/bin/time -f '%e %M' -o "$T/time" "$T/app" "$n" >/dev/null 2>&1
	read -r secs kb < "$T/time"
	printf '%7d %8s %9d\n' "$n" "$secs" "$kb"
done
