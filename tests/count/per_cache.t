# per_cache.t: stat -a --per-cache[=LN] (perf 6.3's option; perf 6.1 has
# none to compare with): one row per instance of the level's data or
# unified cache, labelled S<socket>-D<die>-L<level>-ID<id> with its number
# of CPUs, the instances and their CPUs as this machine's sysfs declares
# them (each CPU's cache/indexN/id, else the first CPU of
# shared_cpu_list); the highest level by default.
. tests/support/t.sh
C=/sys/devices/system/cpu
[ -d $C/cpu0/cache ] || { skip "$T_NAME" "no caches in $C/cpu0/cache"; exit 0; }
# LEVEL: "ID NCPUS" lines, as sysfs declares them for the online CPUs
expect() {
	for d in $C/cpu[0-9]*; do
		[ -f $d/online ] && [ "$(cat $d/online)" = 0 ] && continue
		for i in $d/cache/index*; do
			[ "$(cat $i/level)" = "$1" ] || continue
			[ "$(cat $i/type)" = Instruction ] && continue
			if [ -f $i/id ]; then cat $i/id; else cut -d, -f1 $i/shared_cpu_list | cut -d- -f1; fi
		done
	done | sort -n | uniq -c | awk '{ print $2, $1 }'
}
top=$(cat $C/cpu0/cache/index*/level | sort -n | tail -1)
for lv in "" "=L1" "=L$top"; do
	l=${lv#=L}; l=${l:-$top}
	run_pmkit stat -a --per-cache$lv -x, -e task-clock -- sleep 0.1
	if [ "$rc" != 0 ] && [ -z "$lv" ]; then
		skip "--per-cache" "cannot count every CPU here: $(printf '%s' "$err" | head -1)"; exit 0
	fi
	got=$(printf '%s\n' "$err" | awk -F, -v l="$l" '$1 ~ "^S[0-9]+-D[0-9]+-L" l "-ID[0-9]+$" { sub(/.*-ID/, "", $1); print $1, $2 }' | sort -n)
	check "--per-cache${lv}: a row per L$l instance with its CPUs, as sysfs declares ($(echo $got | tr '\n' ' '))" \
		sh -c '[ "$1" = 0 ] && [ -n "$2" ] && [ "$2" = "$3" ]' _ "$rc" "$got" "$(expect $l)"
done
# -j: perf 6.5's key, "cache", and the same instances (the table of keys
# once stopped at "node" and read past its end here)
run_pmkit stat -a --per-cache -j -e task-clock -- sleep 0.05
got=$(printf '%s\n' "$err" | sed -n 's/^{"cache" : "S[0-9]*-D[0-9]*-L[0-9]*-ID\([0-9]*\)", "aggregate-number" : \([0-9]*\), .*/\1 \2/p' | sort -n)
check "--per-cache -j: {\"cache\" : ..., \"aggregate-number\" : N} per L$top instance ($(echo $got | tr '\n' ' '))" \
	sh -c '[ "$1" = 0 ] && [ -n "$2" ] && [ "$2" = "$3" ]' _ "$rc" "$got" "$(expect $top)"
run_pmkit stat -a --per-cache -x, --metric-only -e task-clock -- sleep 0.05
check "--per-cache --metric-only -x,: heading starts cache,cpus" sh -c 'printf "%s\n" "$1" | grep -q "^cache,cpus,"' _ "$err"
run_pmkit stat -a --per-cache=X3 -e task-clock -- true
check "--per-cache=X3: usage error naming the option ($rc)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q -- --per-cache' _ "$rc" "$err"
run_pmkit stat --per-cache -e task-clock -- true
check "--per-cache without -a: usage error ($rc)" [ "$rc" = 2 ]
