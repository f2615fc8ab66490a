#!/bin/sh
# run-guest.sh: inside the guest, run pmkit's unit-test programs
# (/pmk/unit/*), the guest test programs (/pmk/guest/g_*) and the guest
# shell tests (/pmk/cases/*.t). Every result line is printed as
# `[PROGRAM] ok|not ok|skip - ...`; other output is kept as `[PROGRAM] #...`
# comments. A program that exits non-zero without reporting a failure, or
# times out, counts as one failure, as in tests/run.
export PMKIT=/pmk/pmkit PMK_GUEST=/pmk PMK_SRC=/pmk
cd /tmp || exit 1
fails=0
run_one() {
	name=$1; shift
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout 120 "$@" >/tmp/out 2>&1; rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	f=$(grep -c '^not ok - ' /tmp/out)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $name: exited with status $rc without reporting a failure" >>/tmp/out
	fi
	[ "$rc" != 0 ] && fails=$((fails + 1))
	while IFS= read -r line; do
		case $line in
		"ok - "* | "not ok - "* | "skip - "*) echo "[$name] $line" ;;
		*) echo "[$name] # $line" ;;
		esac
	done </tmp/out
	# virtual time: at -icount shift=0, 1 s is 10^9 instructions
	echo "[$name] # $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
}
# What to run: pmk_run=unit (pmkit's unit tests), guest (the guest tests)
# or all, from the kernel command line.
what=$(sed -n 's/.*pmk_run=\([a-z]*\).*/\1/p' /proc/cmdline)
case ${what:-all} in unit | all)
	for t in /pmk/unit/*; do
		[ -x "$t" ] && run_one "$(basename "$t")" "$t"
	done ;;
esac
case ${what:-all} in guest | all)
	for t in /pmk/guest/g_*; do
		[ -x "$t" ] && run_one "$(basename "$t")" "$t"
	done
	for t in /pmk/cases/*.t; do
		[ -f "$t" ] && run_one "$(basename "$t")" sh "$t"
	done ;;
esac
[ "$fails" = 0 ]
