# derived_sum.t: a derived event (a ratio of natives, here -M
# context_switches_per_s = context-switches / task-clock seconds) is
# computed from its natives' counts, not added or differenced itself:
# under -I each interval's value is the formula on that interval's counts
# (it was the difference of two running ratios), and under -a the value
# is the formula on the counts of all CPUs (it was the sum of each CPU's
# ratio). The oracle is the shadow metric perf's layout prints beside
# context-switches ("N K/sec", "N /sec"), from the same interval's rows.
. tests/support/t.sh
W='for i in 1 2 3 4 5 6 7 8; do sleep 0.04; done'
"$PMKIT" stat -I 100 -x, -M context_switches_per_s -e context-switches,task-clock -o "$T_TMP/i.csv" -- sh -c "$W"
check "-I: each interval's ratio is the formula on that interval's counts ($(grep -c context_switches_per_s "$T_TMP/i.csv") intervals)" awk -F, '
	/^#/ || NF < 4 { next }
	$4 == "context-switches" && $8 != "" { s = $7 * ($8 == "K/sec" ? 1000 : $8 == "M/sec" ? 1e6 : 1); t = $1; next }
	$4 == "context_switches_per_s" && $1 == t {
		n++; v = $2 + 0; tol = ($8 == "K/sec" ? 0.6 : 0.0006) + 0.001 * s
		if (v - s > tol || s - v > tol) { bad = 1; print "interval " $1 ": " v " against " s }
	}
	END { exit bad || n < 2 }' "$T_TMP/i.csv"
run_pmkit stat -a -x, -M context_switches_per_s -e context-switches,task-clock -- sleep 0.2
if [ "$rc" = 0 ]; then
	check "-a: the ratio of the CPUs' total counts, not a sum of ratios" sh -c '
		printf "%s\n" "$1" | awk -F, "
		\$3 == \"context-switches\" { s = \$6 * (\$7 == \"K/sec\" ? 1000 : 1) }
		\$3 == \"context_switches_per_s\" { v = \$1 + 0; n++ }
		END { tol = 0.002 * s + 0.6; exit !(n == 1 && v - s <= tol && s - v <= tol) }"' _ "$err"
else
	skip "-a" "cannot count every CPU here: $(printf '%s' "$err" | head -1)"
fi
