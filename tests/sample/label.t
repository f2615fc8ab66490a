# label.t: code under a label with no type and no size (an assembly entry
# point, as ld.so's _dl_start_user) is named by the label, as perf names it
# (its symbol reaches to the next one); it was "[DSO]".
. tests/support/t.sh
src=$(pwd)/tests/sample/prog/label_hot.c
cd "$T_TMP" || exit 1
require sample cc
${CC:-cc} -O1 -o lh "$src" || { nok "build label_hot" "cc failed"; exit 0; }
if ! readelf -sW lh 2>/dev/null | grep -Eq ' NOTYPE +GLOBAL +DEFAULT +[0-9]+ hot_label$'; then
	skip "label" "hot_label is not an untyped label on this machine"; exit 0
fi
run_pmkit record -q -e task-clock -o l.rec -- ./lh
if [ "$rc" != 0 ]; then
	skip "label" "cannot record here: $(printf '%s' "$err" | head -1)"; exit 0
fi
run_pmkit report -i l.rec --stdio --sort sym -q
top=$(printf '%s\n' "$out" | awk '$1 ~ /%$/ { print $NF; exit }')
check "the hot code under the label is named hot_label ($top)" [ "$top" = hot_label ]
if have perf && perf record -q -e task-clock -o perf.data ./lh >/dev/null 2>&1; then
	ptop=$(perf report -i perf.data --stdio --sort sym -q 2>/dev/null | awk '$1 ~ /%$/ { print $NF; exit }')
	check "perf 6.1 names it the same ($ptop)" [ "$ptop" = hot_label ]
else
	skip "perf oracle" "${T_WHY:-perf cannot record here}"
fi
