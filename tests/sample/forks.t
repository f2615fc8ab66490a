# forks.t: children forked without exec, sampled while attached to their
# parent (record -p) or system-wide (record -a), are named as perf names
# them: their own pid, the parent's command (a child that does not exec
# keeps it), and their functions resolved through the parent's maps. perf
# 6.1 on the same program is the oracle where it can record here.
. tests/support/t.sh
src=$(pwd)/tests/sample/prog/fork_spin.c
cd "$T_TMP" || exit 1
require sample cc
${CC:-cc} -O1 -g -o fkspin "$src" || { nok "build fork_spin" "cc failed"; exit 0; }

# the children's rows of `report --sort pid,comm,sym`: "PID COMM SYM" lines
rows() { # FILE REPORTER...
	f=$1; shift
	"$@" -i "$f" --stdio --sort pid,comm,sym 2>/dev/null |
		awk '$1 ~ /%$/ && $NF == "child_work" { sub(/:.*/, "", $2); print $2, $3, $NF }' | sort
}
# attached PID: wait until process PID (the recorder) holds a perf event,
# then let fork_spin fork (so a slow start under load still sees it)
attached() {
	i=0
	while [ $i -lt 400 ] && ! ls -l /proc/"$1"/fd 2>/dev/null | grep -q perf_event; do
		sleep 0.05; i=$((i + 1))
	done
	sleep 0.1
	touch go
}
want() { # the children of the last run, as perf names them
	while read -r c; do echo "$c fkspin child_work"; done < kids | sort
}

rm -f go; ./fkspin kids go 0.6 & wp=$!
"$PMKIT" record -q -p "$wp" -o p.rec 2>err & rp=$!
attached $rp
wait $rp; rc=$?; err=$(cat err)
wait $wp
if [ "$rc" != 0 ]; then
	skip "record -p" "cannot attach here: $(printf '%s' "$err" | head -1)"
else
	got=$(rows p.rec "$PMKIT" report)
	check "record -p: both children's child_work samples under their pids and the parent's command" \
		[ "$got" = "$(want)" ]
	[ "$got" = "$(want)" ] || printf '# got: %s\n# want: %s\n' "$got" "$(want | tr '\n' ';')"
fi

rm -f go; ./fkspin kids go 0.6 & wp=$!
"$PMKIT" record -q -a -o a.rec -- sh -c "while kill -0 $wp 2>/dev/null; do sleep 0.05; done" 2>err & rp=$!
attached $rp
wait $rp; rc=$?; err=$(cat err)
[ "$rc" = 0 ] || touch go
wait $wp
if [ "$rc" != 0 ]; then
	skip "record -a" "not permitted here: $(printf '%s' "$err" | head -1)"
else
	got=$(rows a.rec "$PMKIT" report)
	check "record -a: both children's child_work samples under their pids and the parent's command" \
		[ "$got" = "$(want)" ]
	[ "$got" = "$(want)" ] || printf '# got: %s\n# want: %s\n' "$got" "$(want | tr '\n' ';')"
fi

# perf on the same program, run as its command (perf 6.1 attached with -p
# to a process that forks sometimes names the children ":PID" with their
# addresses unresolved): the names pmkit gives above
if have perf; then
	touch go
	if perf record -q -e cpu-clock -o perf.data -- ./fkspin kids go 0.4 >/dev/null 2>&1; then
		got=$(rows perf.data perf report)
		check "perf 6.1 names them the same way (pid, parent's command, child_work)" \
			[ "$got" = "$(want)" ]
		[ "$got" = "$(want)" ] || printf '# perf: %s\n' "$got"
	else
		skip "perf oracle" "perf record cannot record here"
	fi
else
	skip "perf oracle" "$T_WHY"
fi
