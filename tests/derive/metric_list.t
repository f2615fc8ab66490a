# metric_list.t: `pmkit stat -M list` lists nothing that -M then rejects
# (issue 30, "one honest list"). On this machine and on machine fixtures,
# every metric of its tables (pmkit's library, and perf's metrics for the
# model when perf's pmu-events are installed) is accepted by
# `-M NAME -- true`: it runs, or stat says which counters are missing; it
# is never "no metric or metric group" nor refused as not evaluable.
# Every metric named under "not evaluable" is refused by -M with that
# reason, exit 2, nothing run.
. tests/support/t.sh

# the rows under each "metric ..." header, to the next blank line
table() { printf '%s\n' "$1" | awk '$1 == "metric" { on = 1; next } NF == 0 { on = 0 } on { print $1 }'; }
refused() { printf '%s\n' "$1" | awk '/^not evaluable/ { on = 1; next } on && NF { print $1 }'; }

for fx in "" amd-zen3 intel-icx intel-spr vm-intel; do
	where=${fx:-this machine}
	if [ -n "$fx" ]; then export PMK_SYSROOT=$PMK_SRC/tests/fixtures/$fx; else unset PMK_SYSROOT; fi
	run_pmkit stat -M list
	list=$out
	n=0 bad=
	# -M looks every name up before counting anything, so 16 names go
	# in one run; a run that fails is checked again name by name
	names=$(table "$list")
	set -- $names
	while [ $# -gt 0 ]; do
		chunk= k=0
		while [ $# -gt 0 ] && [ $k -lt 16 ]; do
			chunk=${chunk:+$chunk,}$1; shift; k=$((k + 1)); n=$((n + 1))
		done
		for m in "$chunk" $(printf '%s' "$chunk" | tr , ' '); do
			run_pmkit stat -M "$m" -- true
			fail=
			case "$err" in
			*"no metric or metric group"* | *"error: "*"cannot be evaluated here"*) fail="$m: $err;" ;;
			esac
			# a refusal must name what is missing (an event, the PMU)
			if [ "$rc" != 0 ] && ! printf '%s' "$err" | grep -q "event\|counter\|PMU\|not supported"; then
				fail="$fail $m: rc=$rc $err;"
			fi
			[ -z "$fail" ] && [ "$m" = "$chunk" ] && break
			[ "$m" != "$chunk" ] && bad="$bad${fail:+ $fail}"
		done
	done
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ok "$where: the $n metrics -M list shows are accepted by -M"
	else
		nok "$where: the metrics -M list shows are accepted by -M" "n=$n$bad"
	fi
	n=0 bad=
	for m in $(refused "$list"); do
		n=$((n + 1))
		run_pmkit stat -M "$m" -- touch "$T_TMP/ran"
		why=$(printf '%s\n' "$list" | awk -v m="$m" '/^not evaluable/ { on = 1 } on && $1 == m { $1 = ""; sub(/^ +/, ""); print }')
		case "$err" in
		*"error: "*"cannot be evaluated here: $why"*) [ "$rc" = 2 ] && [ ! -e "$T_TMP/ran" ] || bad="$bad $m: rc=$rc;" ;;
		*) bad="$bad $m: $err;" ;;
		esac
	done
	if [ -z "$bad" ]; then
		ok "$where: the $n metrics listed as not evaluable are refused with their reason"
	else
		nok "$where: the metrics listed as not evaluable are refused with their reason" "$bad"
	fi
done
