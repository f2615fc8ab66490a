# utils.t: Debian's unchanged PAPI utilities (papi-tools, built for PAPI
# 7.0) on pmkit's libpapi through LD_LIBRARY_PATH: no preset is listed as
# available on a machine where none can be counted, a kernel software event
# counts under PAPI's perf:: name, and a user-defined event from a pmkit
# definition file is an event like any other (seed 002's promise).
. tests/support/t.sh
PMK_PAPI=$PMK_BUILD/papi
if [ ! -f "$PMK_PAPI/libpapi.so.7.0" ]; then
	skip "$T_NAME" "pmkit's libpapi not built (Debian package libpapi-dev: papi.h)"
	exit 0
fi
if ! command -v papi_avail >/dev/null 2>&1; then
	skip "$T_NAME" "no PAPI utilities (Debian package papi-tools)"
	exit 0
fi
export LD_LIBRARY_PATH=$PMK_PAPI
# a sanitized library (check-san) in Debian's uninstrumented programs: the
# ASan runtime preloaded first, leak reports (the programs' own) off
case "$PMK_BUILD" in *san*)
	export LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so)"
	export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 ;;
esac
papi() { "$@" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?; out=$(cat "$T_TMP/out"); }

papi papi_avail
navail=$(printf '%s\n' "$out" | sed -n 's/.*events, \([0-9]*\) are available.*/\1/p')
if have pmu; then
	skip "papi_avail lists no preset here" "this machine has a PMU"
elif [ "$navail" = 0 ]; then ok "papi_avail: 0 presets available (no PMU)"
else nok "papi_avail: presets available without a PMU" "'${navail:-no count line}'"; fi
# what it lists as available must be addable, PMU or not
bad=
for e in $(papi_avail -a 2>/dev/null | awk '/^PAPI_/ {print $1}'); do
	papi_command_line "$e" 2>&1 | grep -q "^$e : " || bad="$bad $e"
done
if [ -z "$bad" ]; then ok "papi_avail -a: every preset listed counts"
else nok "papi_avail -a: listed but not counting" "$bad"; fi

papi papi_command_line perf::TASK-CLOCK perf::PAGE-FAULTS
v=$(printf '%s\n' "$out" | sed -n 's/^perf::TASK-CLOCK :[[:space:]]*\([0-9][0-9]*\).*/\1/p')
if [ -n "$v" ] && [ "$v" -gt 0 ]; then ok "papi_command_line perf::TASK-CLOCK: $v ns"
else nok "papi_command_line perf::TASK-CLOCK" "no count: $out"; fi

papi papi_command_line PAPI_TOT_CYC
if have pmu; then skip "papi_command_line PAPI_TOT_CYC refused" "this machine has a PMU"
elif printf '%s\n' "$out" | grep -q 'Failed adding: PAPI_TOT_CYC'; then ok "papi_command_line PAPI_TOT_CYC: refused (no PMU)"
else nok "papi_command_line PAPI_TOT_CYC" "not refused: $out"; fi

# a user-defined event: task-clock in microseconds, through the utility
printf '# task-clock in microseconds\nMY_EVENT = task-clock / 1000\n' >"$T_TMP/my.def"
PMK_USER_EVENTS_FILE=$T_TMP/my.def papi papi_command_line MY_EVENT perf::TASK-CLOCK
my=$(printf '%s\n' "$out" | sed -n 's/^MY_EVENT :[[:space:]]*\([0-9][0-9]*\).*/\1/p')
tc=$(printf '%s\n' "$out" | sed -n 's/^perf::TASK-CLOCK :[[:space:]]*\([0-9][0-9]*\).*/\1/p')
# counted in the same set (its own task-clock counter, enabled one call
# apart): MY_EVENT is task-clock / 1000 within 1 %
if [ -n "$my" ] && [ -n "$tc" ] && [ "$my" -gt 0 ] &&
	awk -v m="$my" -v t="$tc" 'BEGIN { d = m - t / 1000; exit !(d * d <= (m / 100) ^ 2) }'; then
	ok "papi_command_line MY_EVENT (PMK_USER_EVENTS_FILE): $my us, task-clock $tc ns"
else nok "papi_command_line MY_EVENT" "MY_EVENT '$my', task-clock '$tc': $out"; fi
PAPI_USER_EVENTS_FILE=$T_TMP/my.def papi papi_native_avail -e MY_EVENT
if printf '%s\n' "$out" | grep -q 'MY_EVENT'; then ok "papi_native_avail -e MY_EVENT (PAPI_USER_EVENTS_FILE)"
else nok "papi_native_avail -e MY_EVENT" "$out"; fi

papi papi_native_avail
if printf '%s\n' "$out" | grep -q 'perf::TASK-CLOCK'; then ok "papi_native_avail lists perf::TASK-CLOCK"
else nok "papi_native_avail" "no perf::TASK-CLOCK"; fi
