# perf_shell.t: perf 6.1's own shell tests (the scripts perf installs in
# /usr/lib/perf-core/tests/shell/, run unmodified) as the oracle for the
# perf personality. Each script runs twice in this one run: with perf, and
# with a `perf` link to pmkit first on PATH. Where perf passes (exit 0) and
# pmkit does not, the test fails; where perf skips (exit 2) or fails
# itself, the script says nothing about pmkit and is skipped with perf's
# status. A script perf passes only because it has nothing to do here (no
# metrics to iterate over) is reported as vacuous, not as a pass.
# Each runs under the shell its first line names. Known gaps (commands
# pmkit does not have) are listed with their reason and not run; PMK_PERF_SHELL="a.sh b.sh" runs those scripts instead of
# the default list (any installed script, known gaps included).
. tests/support/t.sh
SH=${PMK_PERF_SHELL_DIR:-/usr/lib/perf-core/tests/shell}
require perf
[ -d "$SH" ] || { skip "$T_NAME" "no $SH (Debian's linux-perf installs it)"; exit 0; }
mkdir -p "$T_TMP/bin" "$T_TMP/run"
ln -s "$PMKIT" "$T_TMP/bin/perf"

# known gaps: NAME|why (none now: perf daemon, lock and probe are pmkit
# daemon, lock and uprobe)
known=''
list=${PMK_PERF_SHELL:-$(cd "$SH" && ls *.sh)}

for s in $list; do
	why=$(printf '%s\n' "$known" | awk -F'|' -v s="$s" '$1 == s { print $2 }')
	if [ -n "$why" ] && [ -z "$PMK_PERF_SHELL" ]; then
		skip "$s" "known gap, not run: $why"
		continue
	fi
	# each script under the shell its first line names (#!/bin/bash for
	# 8 of them: under dash their [[ ]] tests fail and their cleanups do
	# nothing, leaving probes behind for the next run)
	shell=$(head -1 "$SH/$s" | sed -n 's|^#! *\([^ ]*\).*|\1|p')
	[ -x "${shell:-/nonexistent}" ] || shell=sh
	(cd "$T_TMP/run" && timeout 300 "$shell" "$SH/$s" >"$T_TMP/perf.log" 2>&1); p=$?
	if [ "$p" != 0 ]; then
		skip "$s" "perf itself exits $p here (2: skipped)"
		continue
	fi
	(cd "$T_TMP/run" && PATH="$T_TMP/bin:$PATH" timeout 300 "$shell" "$SH/$s" >"$T_TMP/pmkit.log" 2>&1); k=$?
	case $s in
	record+probe_libc_inet_pton.sh)
		# it records `ping -6 ::1`; without ping both record nothing
		# and the comparison of the backtrace reads no line
		if ! command -v ping >/dev/null 2>&1; then
			skip "$s" "vacuous here: no ping (iputils-ping) to trace (pmkit exits $k)"
			continue
		fi ;;
	stat_all_metrics.sh | stat_all_metricgroups.sh)
		w=${s#stat_all_}; w=${w%.sh}
		if [ -z "$(perf list --raw-dump "$w" 2>/dev/null)" ]; then
			skip "$s" "vacuous here: perf lists no $w on this machine (pmkit exits $k)"
			continue
		fi ;;
	esac
	check "$s: perf passes, pmkit exits $k ($(tail -1 "$T_TMP/pmkit.log" | cut -c1-100))" test "$k" = 0
done
