# stat_o.t: `pmkit stat -o FILE` as one rank of an MPI job writes FILE.RANK,
# so that the ranks of a job do not overwrite one file; the ranks' records
# (PMKIT_MPI_DIR) merge with `pmkit mpi report --mpi-merge`, which is where
# docs/mpi.md points, and `pmkit stat --mpi-merge` says so. No mpirun: the
# launcher's environment (OMPI_COMM_WORLD_RANK, _SIZE) is set by hand.
. tests/support/t.sh
unset PMI_RANK PMIX_RANK SLURM_PROCID PMI_SIZE SLURM_NTASKS PMKIT_MPI_DIR
F=$T_TMP/counts.csv
mkdir "$T_TMP/d"
for r in 0 1 2; do
	OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=3 PMKIT_MPI_DIR=$T_TMP/d \
		"$PMKIT" stat -x, -o "$F" -e task-clock,page-faults -- sh -c "exit $r"
	eval "rc$r=\$?"
done
check "each rank returns its workload's status ($rc0 $rc1 $rc2)" test "$rc0 $rc1 $rc2" = "0 1 2"
check "three ranks write counts.csv.0 .1 .2, no shared counts.csv" sh -c '
	for r in 0 1 2; do grep -q ",page-faults," "$1.$r" || exit 1; done; test ! -e "$1"' _ "$F"
check "a rank's CSV file has no [rank R] prefix" sh -c '
	grep -q ",task-clock," "$1.1" && ! grep -q "^\[rank" "$1.1"' _ "$F"
OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3 "$PMKIT" stat -o "$T_TMP/t.txt" -e task-clock -- true
check "text to a rank's own file: no prefix, header first" sh -c '
	grep -q "^ Performance counter stats" "$1.1" && ! grep -q "^\[rank" "$1.1"' _ "$T_TMP/t.txt"
# a second run of rank 1 keeps the previous file as .old
cp "$F.1" "$T_TMP/before"
OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3 "$PMKIT" stat -x, -o "$F" -e task-clock -- true
check "rank 1's previous file is kept as counts.csv.1.old" cmp -s "$F.1.old" "$T_TMP/before"
# outside a job -o FILE is FILE
"$PMKIT" stat -x, -o "$F" -e task-clock -- true
check "outside a job -o writes FILE itself" grep -q ",task-clock," "$F"
# -o - is standard output, prefixed text as on stderr
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3 "$PMKIT" stat -o - -e task-clock -- true >"$T_TMP/so" 2>/dev/null
check "-o - under a launcher stays standard output with [rank 2] lines" sh -c '
	grep -q "^\[rank 2\]  Performance counter stats" "$1" && test ! -e ./-.2' _ "$T_TMP/so"
# the records merge into one job with mpi report
"$PMKIT" mpi report --mpi-merge "$T_TMP/d" --json "$T_TMP/m.json" >"$T_TMP/rep" 2>&1; rc=$?
check "pmkit mpi report --mpi-merge DIR merges the 3 ranks' records (exit $rc)" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); assert d["size"]==3, d["size"]
assert not d["missing_ranks"], d["missing_ranks"]' "$T_TMP/m.json"
run_pmkit stat --mpi-merge "$T_TMP/d" -- true
check "pmkit stat --mpi-merge exits 2 naming 'pmkit mpi report --mpi-merge' ($rc)" sh -c '
	test "$1" = 2 && echo "$2" | grep -q "pmkit mpi report --mpi-merge"' _ "$rc" "$err"
