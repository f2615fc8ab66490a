# pmu_metrics_all.t: every metric perf 6.1's pmu-events JSON defines for
# Ice Lake-SP, Sapphire Rapids and Zen 3 is evaluable by `pmkit stat -M` on
# those machines' fixtures (issue 30's done-when), and -M TopdownL1 to
# TopdownL4 count the same events as perf's definitions. The JSON is read
# here by Python, not by pmkit's reader: the metric names and each group's
# events (its metrics' expressions, sub-metrics expanded) come from the
# files themselves; pmkit's side is `pmkit encode -M`, which prints the
# natives -M would count.
# Needs perf's pmu-events (Debian's linux-source-6.1,
# scripts/deps.d/pmu_events.sh) and python3.
. tests/support/t.sh
require python3
FX=$PMK_SRC/tests/fixtures
cat >"$T_TMP/perfjson.py" <<'EOF'
# perfjson.py DIR names | DIR events GROUP: perf's metric names, or the
# events a metric group's expressions name (sub-metrics expanded; perf's
# #literals and keywords left out), one a line
import json, os, re, sys
d, what = sys.argv[1], sys.argv[2]
mets = {}
for f in sorted(os.listdir(d)):
    if f.endswith('.json'):
        for e in json.load(open(os.path.join(d, f))):
            if 'MetricName' in e:
                mets[e['MetricName']] = e
if what == 'names':
    print('\n'.join(sorted(mets)))
    sys.exit(0)
kw = {'if', 'else', 'min', 'max', 'd_ratio', 'and', 'or', 'not'}
tok = re.compile(r'((?:[A-Za-z_#@]|\\.)(?:[A-Za-z0-9_.@#:]|\\.)*)')
def events(name, seen):
    out = set()
    if name in seen:
        return out
    seen.add(name)
    for t in tok.findall(mets[name]['MetricExpr']):
        t = t.replace('\\', '')
        if t in kw or t.startswith('#'):
            continue
        out |= events(t, seen) if t in mets else {t}
    return out
ev = set()
for n, e in mets.items():
    if sys.argv[3] in e.get('MetricGroup', '').split(';'):
        ev |= events(n, set())
print('\n'.join(sorted(ev)))
EOF
PMK_SYSROOT=$FX/amd-zen3 "$PMKIT" stat -M list >"$T_TMP/probe" 2>&1
if ! grep -q "^perf's metrics for amd64_fam19h_zen3 (x86/amdzen3, " "$T_TMP/probe"; then
	skip "$T_NAME" "perf's pmu-events are not installed ($(grep "perf's metrics" "$T_TMP/probe"))"
	exit 0
fi

for fx in intel-icx:icelakex intel-spr:sapphirerapids amd-zen3:amdzen3; do
	m=${fx%%:*} pd=${fx#*:}
	export PMK_SYSROOT=$FX/$m
	"$PMKIT" stat -M list >"$T_TMP/$m.list" 2>&1
	dir=$(sed -n "s|^perf's metrics for [^ ]* (x86/$pd, \(.*\)):\$|\1|p" "$T_TMP/$m.list")/x86/$pd
	python3 "$T_TMP/perfjson.py" "$dir" names >"$T_TMP/$m.names"
	n=$(wc -l <"$T_TMP/$m.names")
	# -M list: every one listed, none in the refused section but for a
	# machine constant a captured fixture cannot declare (the TSC's
	# frequency, which pmkit reads from CPUID on the machine itself)
	sed -n "/^perf's metrics for/,\$p" "$T_TMP/$m.list" | awk 'NR > 2 {print $1}' | sort -u >"$T_TMP/$m.listed"
	sed -n '/^not evaluable/,$p' "$T_TMP/$m.list" | grep -v "#SYSTEM_TSC_FREQ', a machine property" | awk 'NR > 1 {print $1}' | sort -u >"$T_TMP/$m.refused"
	missing=$(comm -23 "$T_TMP/$m.names" "$T_TMP/$m.listed" | head -5)
	refused=$(comm -12 "$T_TMP/$m.names" "$T_TMP/$m.refused" | head -5)
	[ "$n" -gt 10 ] && [ -z "$missing" ] && [ -z "$refused" ] &&
		ok "$m: -M list shows all $n of perf's metrics for x86/$pd, none refused" ||
		nok "$m: perf's metrics in -M list" "n=$n not listed: $missing; refused: $refused"
	# each one encodes: one derived event per metric, each with natives
	grep -v '^cpu_operating_frequency$' "$T_TMP/$m.names" >"$T_TMP/$m.want"
	# shellcheck disable=SC2046
	"$PMKIT" encode -M $(cat "$T_TMP/$m.want") >"$T_TMP/$m.enc" 2>"$T_TMP/$m.encerr"
	rc=$?
	grep -v '^  ' "$T_TMP/$m.enc" | sed 's/: .*//' | sort -u >"$T_TMP/$m.encoded"
	nn=$(awk '/^  / {n++} END {print n + 0}' "$T_TMP/$m.enc")
	diff=$(comm -3 "$T_TMP/$m.want" "$T_TMP/$m.encoded" | head -5)
	[ "$rc" = 0 ] && [ -z "$diff" ] && [ "$nn" -ge "$(wc -l <"$T_TMP/$m.want")" ] &&
		ok "$m: encode -M encodes each of perf's metrics ($(wc -l <"$T_TMP/$m.want") metrics, $nn natives)" ||
		nok "$m: encode -M of perf's metrics" "rc=$rc diff: $diff $(head -3 "$T_TMP/$m.encerr")"
	case $m in amd-*) continue ;; esac
	for l in 1 2 3 4; do
		python3 "$T_TMP/perfjson.py" "$dir" events "TopdownL$l" >"$T_TMP/want"
		"$PMKIT" encode -M "TopdownL$l" >"$T_TMP/enc" 2>&1
		rc=$?
		# a native's line: "  NAME (pmu/terms/): ..." or "  pmu/alias/: ..."
		sed -n 's/^  //p' "$T_TMP/enc" | sed 's/: pmu=.*//; s/ (.*//; s,^cpu/\(.*\)/$,\1,' | sort -u >"$T_TMP/got"
		d=$(diff "$T_TMP/want" "$T_TMP/got" | grep '^[<>]' | head -4 | tr '\n' ' ')
		[ "$rc" = 0 ] && [ -s "$T_TMP/want" ] && [ -z "$d" ] &&
			ok "$m: -M TopdownL$l counts perf's $(wc -l <"$T_TMP/want") events for it" ||
			nok "$m: -M TopdownL$l's events" "rc=$rc perf < > pmkit: $d"
	done
done
unset PMK_SYSROOT

# the machine constant a fixture lacks is named as such, with where pmkit
# reads it on a live machine
PMK_SYSROOT=$FX/intel-spr run_pmkit stat -M cpu_operating_frequency -- true
case "$err" in *"#SYSTEM_TSC_FREQ', a machine property: the target does not declare its TSC frequency (a captured machine's"*"CPUID leaf 0x15"*)
	[ "$rc" = 2 ] && ok "spr fixture: cpu_operating_frequency refused for the TSC frequency a captured machine cannot declare" ||
		nok "cpu_operating_frequency on spr" "rc=$rc" ;;
*) nok "cpu_operating_frequency on spr names the TSC frequency" "rc=$rc $err" ;;
esac
