# formats.t: every command's --json output is one JSON document and its
# --csv (or -x,) output is CSV with as many cells in each row as in its
# header (several tables: a blank line between them, each with its
# header), read back with python3's json and csv modules. Commands that
# need what this machine may lack (counters, MPI) skip with the reason.
. tests/support/t.sh
require python3

# is_json: the standard input is one JSON document
is_json() { python3 -c 'import json,sys; json.load(sys.stdin)'; }
# is_csv: non-empty CSV tables, each row as wide as its header
is_csv() {
	python3 -c '
import csv, sys
text = sys.stdin.read()
blocks = [b for b in text.split("\n\n") if b.strip()]
assert blocks, "no table"
for b in blocks:
    rows = list(csv.reader(b.strip("\n").split("\n")))
    assert len(rows) >= 2, "a header without rows: %r" % rows[:1]
    for r in rows[1:]:
        assert len(r) == len(rows[0]), "%d cells under %d columns: %r" % (len(r), len(rows[0]), r)
'
}
# is_rows: CSV without a header (perf stat's -x, form), rows alike in width
is_rows() {
	python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if r]
assert rows, "no rows"
assert all(len(r) == len(rows[0]) for r in rows), rows
'
}
# fmt_check NAME json|csv|rows ARGS...: run pmkit ARGS, check the output
# (stderr's where FMT_ON=err: stat writes its counts there, as perf does)
fmt_check() {
	n=$1 f=$2; shift 2
	run_pmkit "$@"
	doc=$out
	[ "${FMT_ON:-}" = err ] && doc=$err
	if [ "$rc" != 0 ]; then
		nok "$n --$f" "exit $rc: $(printf '%s' "$err" | head -3)"
	elif printf '%s\n' "$doc" | "is_$f" 2>"$T_TMP/why"; then
		ok "$n --$f parses"
	else
		nok "$n --$f parses" "$(tail -1 "$T_TMP/why")"
	fi
}

fmt_check "addie figures" json addie figures --seeds 5 --samples 300 --json
fmt_check "addie figures" csv addie figures --seeds 5 --samples 300 --csv
fmt_check "addie quality" json addie quality --bits 4,5 --seeds 2 --json
fmt_check "addie quality" csv addie quality --bits 4,5 --seeds 2 --csv
fmt_check "addie membuf" json addie membuf --requests 3000 --json
fmt_check "addie membuf" csv addie membuf --requests 3000 --csv
fmt_check "addie membuf --sweep" json addie membuf --requests 2000 --sweep --json
fmt_check "addie membuf --sweep" csv addie membuf --requests 2000 --sweep --csv
fmt_check "addie membuf --pattern list" json addie membuf --pattern list --json
fmt_check "addie membuf --pattern list" csv addie membuf --pattern list --csv
fmt_check "addie sim" json addie sim int-mix:n=20000 --json
fmt_check "addie sim" csv addie sim int-mix:n=20000 --csv
fmt_check "cpistack --sim" json cpistack --sim -w int-mix -n 20000 --json
fmt_check "cpistack --sim" csv cpistack --sim -w int-mix -w stream -n 20000 --csv
fmt_check "cpistack --sim --no-refs" csv cpistack --sim -w int-mix -n 20000 --no-refs --csv
fmt_check "bench lat" json bench lat --quick --max 64k --json
fmt_check "bench lat" csv bench lat --quick --max 64k --csv
fmt_check "bench bw" json bench bw 64k rd --quick --json
fmt_check "bench bw" csv bench bw 64k rd --quick --csv
fmt_check "bench os" json bench os null_syscall --quick --json
fmt_check "bench os" csv bench os null_syscall --quick --csv
fmt_check "probe" json probe --quick --max 256k --json
fmt_check "probe" csv probe --quick --max 256k --csv
fmt_check "encode" json encode --model zen4 --json DISPATCH_STALLS_1:FE_NO_OPS:c=6
fmt_check "list" json list --json
cat > "$T_TMP/m.def" <<'DEF'
IPC, PAPI_TOT_INS|PAPI_TOT_CYC|/
DEF
fmt_check "metric needs" json metric needs "$T_TMP/m.def" --json --any-names
printf 'PAPI_TOT_INS,2000\nPAPI_TOT_CYC,1000\n' > "$T_TMP/m.csv"
fmt_check "metric eval" json metric eval "$T_TMP/m.def" "$T_TMP/m.csv" --json

# stat and record/report count and sample with software events, which a
# machine without a PMU has too; they still need perf_event_open.
run_pmkit stat -e task-clock -- true
if [ "$rc" = 0 ]; then
	FMT_ON=err fmt_check "stat" json stat --json -e task-clock -- true
	FMT_ON=err fmt_check "stat -x," rows stat -x, -e task-clock,page-faults -- true
	FMT_ON=
else
	skip "stat --json, -x," "no software counters here: $(printf '%s' "$err" | head -1)"
fi
run_pmkit record -e task-clock -o "$T_TMP/r.pmk" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
if [ "$rc" = 0 ]; then
	fmt_check "report" json report --json -i "$T_TMP/r.pmk"
else
	skip "report --json" "cannot record here: $(printf '%s' "$err" | head -1)"
fi
# mpi report reads a job's file written by libpmkit-mpi under mpirun
# (tests/mpi/mpi.t runs one where MPI is installed); here a two-rank file
# in that schema, written by hand, so the formats are checked without MPI.
mrec() { # RANK WALL_NS
	printf '{"rank":%d,"host":"h","pid":1,"wall_ns":%d,"mpi_ns":100,"events":{"task-clock":500},"calls":[],"regions":[]}' "$@"
}
printf '{"schema":"pmkit-mpi/1","size":2,"command":"x","events":[{"name":"task-clock","unit":"ns"}],"ranks":[%s,%s]}\n' \
	"$(mrec 0 1000)" "$(mrec 1 2000)" > "$T_TMP/job.json"
fmt_check "mpi report" json mpi report --json - "$T_TMP/job.json"
fmt_check "mpi report" csv mpi report --csv "$T_TMP/job.json"
