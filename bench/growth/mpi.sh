#!/bin/sh
# mpi.sh: time and peak memory of `pmkit mpi report --svg --html` against
# the job size a file declares (4 records present) and against the records
# present (every declared rank has one). Issue 31: the report was quadratic
# in the declared size (a 3.5 KB file declaring 10^6 ranks ran about 25
# minutes); its work now follows the records present, the ranks without a
# record shown as runs ("1-249999").
# Usage: sh bench/growth/mpi.sh            (PMKIT=path/to/pmkit)
#        DECLARED="1000 ..." PRESENT="1000 ..." sh bench/growth/mpi.sh
# Prints: shape declared present file_bytes seconds cpu_s peak_KB out_bytes
# (cpu_s: user + system; the wall seconds swell on a loaded machine)
PMKIT=${PMKIT:-build/pmkit}
DECLARED=${DECLARED:-"1000 10000 100000 1000000"}
PRESENT=${PRESENT:-"1000 4000 16000 64000"}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# gen SIZE PRESENT: a job of SIZE ranks, PRESENT records spread over it
gen() {
	awk -v n="$1" -v k="$2" 'BEGIN {
		printf "{\"schema\":\"pmkit-mpi/1\",\"size\":%d,\"command\":\"bench\",\"events\":[{\"name\":\"task-clock\",\"unit\":\"ns\"}],\"ranks\":[", n
		step = int(n / k); if (step < 1) step = 1
		for (i = 0; i < k; i++)
			printf "%s\n{\"rank\":%d,\"host\":\"node%d\",\"pid\":%d,\"wall_ns\":%d,\"mpi_ns\":%d,\"events\":{\"task-clock\":%d},\"calls\":[{\"name\":\"MPI_Send\",\"calls\":3,\"ns\":100,\"bytes_sent\":8,\"bytes_recv\":0}],\"regions\":[]}", i ? "," : "", i * step, i % 64, 100 + i, 1000000 + i, 200000, 800000
		print "]}"
	}'
}
run() {
	gen "$2" "$3" > "$T/j.json"
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$PMKIT" mpi report \
		--svg "$T/o.svg" --html "$T/o.html" "$T/j.json" >/dev/null 2>&1
	rc=$?
	read -r secs us ss kb < "$T/time"
	[ $rc = 0 ] || secs="exit$rc"
	out=$(cat "$T/o.svg" "$T/o.html" 2>/dev/null | wc -c)
	printf '%-9s %8d %8d %10d %8s %6.2f %9d %10d\n' "$1" "$2" "$3" \
		"$(wc -c < "$T/j.json")" "$secs" "$(echo "$us + $ss" | bc -l)" \
		"$kb" "$out"
	rm -f "$T"/o.*
}
printf '%-9s %8s %8s %10s %8s %6s %9s %10s\n' shape declared present file_bytes seconds cpu_s peak_KB out_bytes
for n in $DECLARED; do run declared "$n" 4; done
for k in $PRESENT; do run present "$k" "$k"; done
