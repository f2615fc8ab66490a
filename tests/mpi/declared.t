# declared.t: `pmkit mpi report` works from the records a file holds, not
# the job size it declares (issue 31: a 3.5 KB file declaring 10^6 ranks
# took about 25 minutes with --svg/--html). A file of three records
# declaring 1,000,000 ranks: the banner, the SVG and the HTML list the
# ranks without a record as runs, and draw a bar for each record. No MPI
# is needed. The time is not checked (a loaded machine); the output is.
. tests/support/t.sh
J=$T_TMP/big.json
rec() { # RANK HOST WALL_NS
	printf '{"rank":%d,"host":"%s","pid":1,"wall_ns":%d,"mpi_ns":100,"events":{"task-clock":500},"calls":[],"regions":[]}' "$@"
}
{
	printf '{"schema":"pmkit-mpi/1","size":1000000,"command":"declared","events":[{"name":"task-clock","unit":"ns"}],"ranks":['
	rec 0 a 1000; printf ,; rec 500000 b 2000; printf ,; rec 999999 a 3000
	printf ']}\n'
} > "$J"
run_pmkit mpi report --svg "$T_TMP/j.svg" --html "$T_TMP/j.html" "$J"
check "a 3-record file declaring 10^6 ranks reports (exit $rc)" [ "$rc" = 0 ]
"$PMKIT" mpi report "$J" > "$T_TMP/banner" 2>&1
check "banner: 3 reported, 999997 missing" grep -q '^# ranks   : 1000000 (3 reported, 999997 missing)$' "$T_TMP/banner"
check "banner: the missing ranks as two runs" grep -q '^# missing : 1-499999 500001-999998$' "$T_TMP/banner"
check "banner: one table line per run of missing ranks" sh -c '
	test "$(grep -c "(no record)" "$1")" = 2 && grep -q "^# 500001-999998 (no record)" "$1"' _ "$T_TMP/banner"
check "banner: 2 hosts" grep -q '^# hosts   : 2 (a, b)$' "$T_TMP/banner"
n=$(grep -c '<title>rank [0-9]* compute' "$T_TMP/j.svg")
check "SVG: a compute bar per record, not per declared rank ($n)" [ "$n" = 3 ]
check "SVG: bars of ranks 0, 500000 and 999999" sh -c '
	for r in 0 500000 999999; do grep -q "<title>rank $r compute" "$1" || exit 1; done' _ "$T_TMP/j.svg"
check "SVG: the title says how many ranks have a record" grep -q '1000000 ranks (3 with a record)' "$T_TMP/j.svg"
check "SVG: the missing runs are labelled groups" sh -c '
	grep -q ">1-499999<" "$1" && grep -q ">500001-999998<" "$1"' _ "$T_TMP/j.svg"
check "HTML: one row per run of missing ranks" sh -c '
	test "$(grep -c "<td>(no record" "$1")" = 2 &&
	grep -q "<td>1-499999</td><td>(no record: 499999 ranks)</td>" "$1"' _ "$T_TMP/j.html"
check "outputs stay small (SVG + HTML under 64 KB)" sh -c '
	test "$(cat "$1" "$2" | wc -c)" -lt 65536' _ "$T_TMP/j.svg" "$T_TMP/j.html"
if command -v xmllint >/dev/null 2>&1; then
	check "SVG is well-formed XML" xmllint --noout "$T_TMP/j.svg"
fi
# a small job keeps one group per missing rank, marked "?"
printf '{"schema":"pmkit-mpi/1","size":4,"command":"small","events":[],"ranks":[%s,%s,%s]}\n' \
	"$(rec 0 a 1000)" "$(rec 1 a 1000)" "$(rec 3 a 1000)" | sed 's/"task-clock":500//' > "$T_TMP/small.json"
"$PMKIT" mpi report --svg "$T_TMP/s.svg" "$T_TMP/small.json" >/dev/null 2>&1
"$PMKIT" mpi report "$T_TMP/small.json" > "$T_TMP/banner.small" 2>&1
check "small job: rank 2 missing, marked '?' under its own label" sh -c '
	grep -q "^# missing : 2\$" "$2" && grep -q ">?<" "$1" && grep -q ">2<" "$1"' _ "$T_TMP/s.svg" "$T_TMP/banner.small"
