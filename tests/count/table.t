# table.t: perf's -r N layout of the time, and --table. The time's decimals
# follow its error (perf: as many as the error's first significant digit
# needs, and two more), and --table lists each run's time with its
# difference from the mean and a bar, then "# Final result:", as perf 6.1
# prints it; perf on the same command is the oracle for the shape.
. tests/support/t.sh
run_pmkit stat -r 3 --table -e task-clock -- true
if [ "$rc" != 0 ]; then
	skip "--table" "cannot count software events here: $(printf '%s' "$err" | head -1)"; exit 0
fi
printf '%s\n' "$err" > "$T_TMP/p"
check "--table: a table of the 3 runs, then the final result" sh -c '
	grep -q "^ *# Table of individual measurements:$" "$1" &&
	test "$(grep -cE "^ +[0-9]+\.[0-9]+ \([+-][0-9]+\.[0-9]+\) #+$" "$1")" = 3 &&
	grep -q "^ *# Final result:$" "$1"' _ "$T_TMP/p"
# each row: the run, its difference from the mean (which is the final line)
check "--table: the differences are the runs less the mean, to the decimals shown" sh -c '
	awk "
	/# Final result:/ { fin = 1; next }
	fin && /seconds time elapsed/ { mean = \$1; dec = length(\$1) - index(\$1, \".\") }
	/^ +[0-9.]+ \\([+-]/ { n++; run[n] = \$1; d = \$2; gsub(/[()]/, \"\", d); dif[n] = d }
	END {
		if (n != 3 || mean == \"\") exit 1
		tol = 1.5 * 10 ^ -dec
		for (i = 1; i <= n; i++) { e = run[i] - mean - dif[i]; if (e < -tol || e > tol) exit 1 }
	}" "$1"' _ "$T_TMP/p"
check "the decimals follow the error: 2 more than its first significant digit" sh -c '
	awk "/seconds time elapsed/ {
		m = \$1; s = \$3; dm = length(m) - index(m, \".\"); ds = length(s) - index(s, \".\")
		if (s + 0 <= 0 || s + 0 >= 1) exit !(dm == 2)
		want = 2; for (x = s + 0; x < 1; x *= 10) want++
		exit !(dm == ds && (dm == want || dm == want - 1))
	}" "$1"' _ "$T_TMP/p"
run_pmkit stat -r 2 -e task-clock -- true
check "without --table: no table" sh -c '! printf "%s" "$1" | grep -q "Table of individual"' _ "$err"
if have perf && perf stat -r 3 --table -e task-clock -- true >/dev/null 2>"$T_TMP/perf" &&
	grep -q "Table of individual" "$T_TMP/perf"; then
	shape() { sed -E 's/[0-9]+/N/g; s/\([+-]N/(sN/; s/#+$/#/; s/ +/ /g' "$1" | grep -E "Table|Final|elapsed|\(.N" ; }
	mine=$(shape "$T_TMP/p") theirs=$(shape "$T_TMP/perf")
	check "the same shape as perf 6.1's --table ($(printf '%s\n' "$theirs" | wc -l) lines)" \
		sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$mine" "$theirs"
else
	skip "perf oracle" "${T_WHY:-perf cannot count task-clock here}"
fi
