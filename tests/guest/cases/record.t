# record.t (guest): `pmkit record` sampling cycles with a period, and
# `pmkit report` attributing the samples. w_two (tests/guest/prog/w_two.S)
# retires 8,000,000 user instructions in `hot`'s loop, then 2,000,000 in
# `cold`'s; at -icount shift=0 a user cycle is a user instruction, so a
# period of 100,000 gives exactly 100 samples: 80 in hot, 20 in cold, every
# one on a line of its function's loop. (Sampling on `instructions` arrives
# late in this QEMU and is not asserted: docs/guest.md.)
. "$PMK_GUEST/t.sh"
W=$PMK_GUEST/guest
src=$PMK_GUEST/src/w_two.S
cd "$T_TMP" || exit 1

# The loop's two lines of each function, from the source.
hot1=$(grep -n '^hot_loop:' "$src" | cut -d: -f1); hot1=$((hot1 + 1)); hot2=$((hot1 + 1))
cold1=$(grep -n '^cold_loop:' "$src" | cut -d: -f1); cold1=$((cold1 + 1)); cold2=$((cold1 + 1))

run_pmkit record -e cycles:u -c 100000 -o "$T_TMP/r.rec" -- "$W/w_two"
check "record_cycles_runs" [ "$rc" = 0 ] && [ -s "$T_TMP/r.rec" ]

run_pmkit report -i "$T_TMP/r.rec" --json
j=$out
if printf '%s' "$j" | grep -q '"name": *"cycles:u", *"samples": *100, *"period": *10000000' &&
	printf '%s' "$j" | grep -q '"function": *"hot", *"dso": *"w_two", *"samples": *\[80\]' &&
	printf '%s' "$j" | grep -q '"function": *"cold", *"dso": *"w_two", *"samples": *\[20\]' &&
	printf '%s' "$j" | grep -q '"lost": *0'; then
	ok "report_exact_samples_by_function: 100 = 80 hot + 20 cold"
else
	nok "report_exact_samples_by_function" "$j $err"
fi

# By line: every sample on one of its function's two loop lines.
run_pmkit report -i "$T_TMP/r.rec" --sort line --json
bad=$(printf '%s\n' "$out" | grep '"key"' | awk -v h1="w_two.S:$hot1" -v h2="w_two.S:$hot2" \
	-v c1="w_two.S:$cold1" -v c2="w_two.S:$cold2" '
	{ k = $0; sub(/.*"key": *"/, "", k); sub(/".*/, "", k)
	  f = $0; sub(/.*"function": *"/, "", f); sub(/".*/, "", f)
	  n = $0; sub(/.*"samples": *\[/, "", n); sub(/\].*/, "", n)
	  if (f == "hot" && (k == h1 || k == h2)) hot += n
	  else if (f == "cold" && (k == c1 || k == c2)) cold += n
	  else print k " (" f "): " n }
	END { if (hot != 80 || cold != 20) print "hot " hot " cold " cold }')
if [ "$rc" = 0 ] && [ -z "$bad" ]; then
	ok "report_lines_in_the_loops: w_two.S:$hot1-$hot2 and :$cold1-$cold2"
else
	nok "report_lines_in_the_loops" "rc $rc: $bad $out"
fi

# The same again gives the same profile (deterministic emulation).
run_pmkit record -e cycles:u -c 100000 -o "$T_TMP/r2.rec" -- "$W/w_two"
run_pmkit report -i "$T_TMP/r2.rec" --sort line --json
run_pmkit report -i "$T_TMP/r.rec" --sort line --json
a=$(echo "$out" | sed 's/"duration_ns": [0-9]*, //')
run_pmkit report -i "$T_TMP/r2.rec" --sort line --json
b=$(echo "$out" | sed 's/"duration_ns": [0-9]*, //')
# the recordings' wall times differ; the profiles must not
check "record_repeatable" [ "$a" = "$b" ]
