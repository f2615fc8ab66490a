# fuzz.t: run every fuzz target (build/fuzz/fuzz_NAME) over its corpus
# (tests/fuzz/corpus/NAME/) and 20,000 seeded mutations of it.
. tests/support/t.sh
found=0
for f in "$PMK_BUILD"/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	found=1
	name=$(basename "$f"); name=${name#fuzz_}
	if "$f" -n "${PMK_FUZZ_ITERS:-20000}" tests/fuzz/corpus/"$name"/* >"$T_TMP/fz" 2>&1; then
		ok "fuzz $name"
	else
		nok "fuzz $name" "$(tail -5 "$T_TMP/fz" | tr '\n' ' ')"
	fi
done
[ "$found" = 1 ] || skip "fuzz targets" "none built"
