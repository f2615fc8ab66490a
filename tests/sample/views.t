# views.t: perf-style report views on a real call-stack profile: any
# combination of sort keys, Children/Self with call trees in caller and
# callee order, --percent-limit, --stdio accepted, bad keys refused.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
CC=${CC:-cc}
require sample
F="-O0 -g -fno-omit-frame-pointer"
$CC $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	$CC $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build stk" "cc failed"; exit 0; }
run_pmkit record -q -g -o stk.rec -- ./stk 0.3
[ "$rc" = 0 ] || { nok "record -g" "$err"; exit 0; }

run_pmkit report -i stk.rec --sort comm,pid,tid,dso,sym
line=$(printf '%s\n' "$out" | awk '$NF == "lib_spin" { print; exit }')
set -- $line
check "--sort comm,pid,tid,dso,sym: one column each (stk PID PID libspin.so lib_spin)" \
	sh -c "[ '$3' = stk ] && [ '$4' = '$5' ] && [ '$6' = libspin.so ]"
check "--sort header names the columns" sh -c "printf '%s\n' \"\$1\" | grep -q 'Command  Pid  *Tid  *Shared Object  *Symbol'" _ "$out"
run_pmkit report -i stk.rec --sort dso,srcline,address
check "--sort dso,srcline,address: file:line and address columns" sh -c "printf '%s\n' \"\$1\" | grep -Eq 'libspin.so +spin_lib.c:[0-9]+ +0x[0-9a-f]+\$'" _ "$out"

run_pmkit report -i stk.rec -g
self=$(printf '%s\n' "$out" | awk '$NF == "lib_spin" { sub("%","",$2); print $2; exit }')
ch_main=$(printf '%s\n' "$out" | awk '$NF == "main" && $1 ~ /%$/ { sub("%","",$1); print $1; exit }')
self_main=$(printf '%s\n' "$out" | awk '$NF == "main" && $1 ~ /%$/ { sub("%","",$2); print $2; exit }')
check "-g: Children and Self columns" sh -c "printf '%s\n' \"\$1\" | grep -q 'Children      Self'" _ "$out"
check "-g: main has the children of lib_spin ($ch_main% >= $self%) and no self time ($self_main%)" \
	awk -v c="$ch_main" -v s="$self" -v m="$self_main" 'BEGIN { exit !(c >= s && s > 50 && m < 5) }'
check "-g caller order: main's tree reaches via_a and lib_spin" sh -c "printf '%s\n' \"\$1\" | grep -A4 -- '---main\$' | grep -q -- '--via_a\$'" _ "$out"
run_pmkit report -i stk.rec --call-graph callee
check "--call-graph callee: lib_spin's callers are via_a then main" sh -c "printf '%s\n' \"\$1\" | grep -A3 -- '---lib_spin\$' | grep -q -- '--via_a\$'" _ "$out"
run_pmkit report -i stk.rec --children --percent-limit 50
low=$(printf '%s\n' "$out" | awk '$1 ~ /%$/ { sub("%","",$1); if ($1 + 0 < 50) n++ } END { print n + 0 }')
check "--percent-limit 50 leaves out the rows under 50 % ($low left)" [ "$low" = 0 ]
run_pmkit report -i stk.rec --sort comm,bogus
check "unknown sort key: status 2 naming it, with the list" sh -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q \"'bogus'\" && printf '%s' \"\$1\" | grep -q srcline" _ "$err"
