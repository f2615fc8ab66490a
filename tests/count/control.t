# control.t: `pmkit stat --control` and `-D -1`, perf's way of counting only
# a region of interest: tests/count/prog/roi.c burns CPU time with counting
# off, enables it through the control FIFO and waits for the ack, burns,
# disables, burns again, pings, and prints its own CPU time of the middle
# burn, which task-clock must report (not the whole run's). perf, where
# installed, prints the same "Events ..." lines on the same program.
. tests/support/t.sh
CC=${CC:-cc}
require cc
"$CC" -O1 -o "$T_TMP/roi" "$PMK_SRC/tests/count/prog/roi.c" ||
	{ nok "build roi" "cc failed"; exit 0; }
cd "$T_TMP" || exit 1
mkfifo ctl ack || { skip "$T_NAME" "mkfifo fails here"; exit 0; }
# -D -1 alone: never enabled, as perf: <not counted>, the status kept
run_pmkit stat -D -1 -e task-clock -- sh -c 'exit 4'
check "-D -1 without --control: 'Events disabled', task-clock <not counted>, exit 4 (got $rc)" sh -c '[ "$1" = 4 ] && printf "%s\n" "$2" | grep -q "^Events disabled" && printf "%s\n" "$2" | grep -q "<not counted>.*task-clock"' _ "$rc" "$err"
# the region of interest, 150 ms of the program's 450
run_pmkit stat -D -1 --control fifo:ctl,ack -x, -e task-clock -- ./roi ctl ack 150
in=$(printf '%s\n' "$out" | tail -1)
tc=$(printf '%s\n' "$err" | awk -F, '$3 == "task-clock" { print $1 }')
check "--control: the program got its acks (exit 0, got $rc)" [ "$rc" = 0 ]
check "--control: task-clock ($tc ms) is the enabled burn's CPU time ($in ms) within 25 %, not the run's" \
	awk -v t="$tc" -v i="$in" 'BEGIN { exit !(i > 0 && t > 0.75 * i && t < 1.25 * i) }'
check "--control: 'Events enabled' then 'Events disabled', after the first 'Events disabled'" \
	sh -c '[ "$(printf "%s\n" "$1" | grep "^Events" | tr "\n" " ")" = "Events disabled Events enabled Events disabled " ]' _ "$err"
# without -D -1 it counts from the start: enable is a no-op, disable stops
run_pmkit stat --control fifo:ctl,ack -x, -e task-clock -- ./roi ctl ack 100
tc=$(printf '%s\n' "$err" | awk -F, '$3 == "task-clock" { print $1 }')
check "--control without -D: counted from the start to the disable (~200 of 300 ms: $tc)" \
	awk -v t="$tc" 'BEGIN { exit !(t > 150 && t < 260) }'
# perf's lines on the same program
if have perf && perf stat -D -1 --control fifo:ctl,ack -e task-clock -- ./roi ctl ack 50 >/dev/null 2>pf.err; then
	run_pmkit stat -D -1 --control fifo:ctl,ack -e task-clock -- ./roi ctl ack 50
	check "the Events lines as perf prints them" sh -c '[ "$(grep "^Events" "$1")" = "$(printf "%s\n" "$2" | grep "^Events")" ]' _ pf.err "$err"
else
	skip "--control against perf" "${T_WHY:-perf stat --control fails here}"
fi
# fd:N whose every writer is gone: polled until then, never spun on (a
# pmkit that kept waking on the hang-up burned the whole run's CPU time,
# 500 ms more than the same run without --control; pmkit's own start
# costs what the build and machine make it: 245 ms under ASan on a guest
# with slow page faults)
run_pmkit stat -x, -e task-clock -- "$PMKIT" stat -e task-clock -- sleep 0.5
base=$(printf '%s\n' "$err" | awk -F, '$3 == "task-clock" { print $1 }' | tail -1)
mkfifo hup && { (echo ping > hup &) ; exec 7<hup; }
run_pmkit stat -x, -e task-clock -- "$PMKIT" stat --control fd:7 -e task-clock -- sleep 0.5
exec 7<&-
tc=$(printf '%s\n' "$err" | awk -F, '$3 == "task-clock" { print $1 }' | tail -1)
check "--control fd:N after its writer left: pmkit and sleep 0.5 use $tc ms of CPU ($base without --control; under 150 more)" \
	awk -v t="$tc" -v b="$base" 'BEGIN { exit !(t != "" && b != "" && t < b + 150) }'
# bad values: exit 2, naming the option
run_pmkit stat --control pipe:ctl -e task-clock -- true
check "--control pipe:ctl: exit 2 naming the forms" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "fifo:CTL"' _ "$rc" "$err"
run_pmkit stat --control fifo:no_such_fifo -e task-clock -- true
check "--control fifo:MISSING: exit 2 naming it" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "no_such_fifo"' _ "$rc" "$err"
run_pmkit stat --control fd:999 -e task-clock -- true
check "--control fd:999 (not open): exit 2" [ "$rc" = 2 ]
