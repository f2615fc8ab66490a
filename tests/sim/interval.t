# interval.t: `stat --sim -I MS` prints the counts of each MS milliseconds
# of simulated time (fractions allowed: 0.02 is 20 us at the core's clock),
# in every layout -I has on the kernel path; every interval has the same
# number of cycles, the intervals add up to the totals (--summary) less the
# last partial one, which is not printed (as the kernel path), and
# --interval-count stops after N.
. tests/support/t.sh
run_pmkit stat --sim -I 0.02 --summary -x, -e cycles,instructions --workload stream
check "--sim -I 0.02 --summary -x,: exit 0" [ "$rc" = 0 ]
printf '%s\n' "$err" > "$T_TMP/o"
check "every interval has the same number of cycles" sh -c '
	n=$(awk -F, "\$4 == \"cycles\" && \$1 ~ /^ *[0-9.]+\$/ { print \$2 }" "$1" | sort -u | wc -l)
	c=$(awk -F, "\$4 == \"cycles\" && \$1 ~ /^ *[0-9.]+\$/" "$1" | wc -l)
	[ "$c" -ge 3 ] && [ "$n" = 1 ]' _ "$T_TMP/o"
check "intervals add up to the totals, less a last partial interval" sh -c '
	awk -F, "
	\$1 ~ /^ *[0-9.]+\$/ && \$4 == \"instructions\" { s += \$2; per = \$2 }
	\$1 ~ /summary/ && \$4 == \"instructions\" { tot = \$2 }
	END { exit !(tot > 0 && s <= tot && tot - s <= 2 * per) }" "$1"' _ "$T_TMP/o"
check "the time column is simulated seconds, one interval apart (0.00002 s)" sh -c '
	awk -F, "\$4 == \"cycles\" && \$1 ~ /^ *[0-9.]+\$/ { n++; t = \$1 + 0; if (n > 1 && (t - p < 0.0000199 || t - p > 0.0000201)) bad = 1; p = t }
	END { exit bad || n < 3 }" "$1"' _ "$T_TMP/o"
run_pmkit stat --sim -I 0.02 --interval-count 2 -e cycles --workload stream
check "--interval-count 2: two prints, no summary" sh -c '
	[ "$1" = 0 ] && [ "$(printf "%s\n" "$2" | grep -c " cycles")" = 2 ] && ! printf "%s" "$2" | grep -q "Performance counter stats"' _ "$rc" "$err"
run_pmkit stat --sim -I 0.02 --json -e cycles --workload stream
check "--json with -I: one document per interval, each parses" sh -c '
	[ "$1" = 0 ] && printf "%s\n" "$2" | python3 -c "
import json, sys
docs = [json.loads(l) for l in sys.stdin if l.strip()]
assert len(docs) >= 3 and all(\"interval_s\" in d for d in docs[:-1]), docs[:1]"' _ "$rc" "$err"
run_pmkit stat --sim -I zero -e cycles --workload stream
check "-I with --sim needs a number (exit 2)" [ "$rc" = 2 ]
run_pmkit stat -I 5 -e task-clock -- true
check "without --sim, -I stays 10 ms or more (exit 2)" [ "$rc" = 2 ]
