# recrep_opts.t: the command lines of record and report through the one
# option parser (cli/opt.c): attached values and = forms, combined flags,
# unique prefixes, `--` and the first operand ending options, typos with a
# hint and exit 2; record -t samples the listed threads only.
. tests/support/t.sh
cd "$T_TMP" || exit 1
has() { echo "$1" | grep -q -- "$2"; }

run_pmkit record -q -oa.rec -F999 -- true
check "record -oFILE -F999 attached values" sh -c '[ "$1" = 0 ] && [ -s a.rec ]' _ "$rc"
run_pmkit record -qF0 -o z.rec true
check "record -qF0: the attached 0 reaches -F (exit 2)" sh -c '[ "$1" = 2 ]' _ "$rc"
check "record -qF0 says why" has "$err" "frequency above 0"
run_pmkit record --quiet --output=b.rec --freq=500 --no-backup true
check "record --output=FILE --freq=N" sh -c '[ "$1" = 0 ] && [ -s b.rec ]' _ "$rc"
run_pmkit record -q --outp=c.rec true
check "record unique prefix --outp" sh -c '[ "$1" = 0 ] && [ -s c.rec ]' _ "$rc"
run_pmkit record -q -o d.rec echo -o x.rec --freq
check "record stops at the first operand (the workload's -o)" sh -c '[ "$1" = 0 ] && [ "$2" = "-o x.rec --freq" ] && [ ! -e x.rec ]' _ "$rc" "$out"
run_pmkit record -q -o e.rec sh -c 'exit 3'
check "record returns the workload's status" [ "$rc" = 3 ]
run_pmkit record --ouptut=f.rec true
check "record typo exits 2" [ "$rc" = 2 ]
check "record typo hint" has "$err" "did you mean '--output'"
check "record typo creates nothing" [ ! -e f.rec ]
run_pmkit record -c1000 -F99 true
check "record -c1000 -F99 exclude each other (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q exclude' _ "$rc" "$err"
run_pmkit record -Fx true
check "record -Fx needs a number (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "whole number"' _ "$rc" "$err"
run_pmkit record --call-graph=bogus true
check "record --call-graph=bogus (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "fp or dwarf"' _ "$rc" "$err"
run_pmkit record -q --on-error=kill --call-graph fp -o g.rec true
check "record --call-graph fp (mode as next word), --on-error=kill" sh -c '[ "$1" = 0 ] && [ -s g.rec ]' _ "$rc"
run_pmkit record --on-error=maybe true
check "record --on-error=maybe (2)" [ "$rc" = 2 ]
run_pmkit record -t 1,abc
check "record -t 1,abc (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "thread ids"' _ "$rc" "$err"
run_pmkit record -t 4194303
check "record -t of no thread (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "no thread"' _ "$rc" "$err"
run_pmkit record -t $$ true
check "record -t with a command (2)" [ "$rc" = 2 ]

# report: the same line in its spellings gives the same output
run_pmkit report -i a.rec --sort dso
o1=$out; r1=$rc
run_pmkit report -ia.rec --sort=dso
check "report -iFILE --sort=KEY as -i FILE --sort KEY" sh -c '[ "$1" = 0 ] && [ "$2" = 0 ] && [ "$3" = "$4" ]' _ "$r1" "$rc" "$o1" "$out"
run_pmkit report a.rec --so dso
check "report FILE --so (prefix, options after the file)" sh -c '[ "$1" = 0 ] && [ "$2" = "$3" ]' _ "$rc" "$o1" "$out"
run_pmkit report --jsno a.rec
check "report typo exits 2 with a hint" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "did you mean .--json."' _ "$rc" "$err"
run_pmkit report a.rec b.rec
check "report with two files (2)" [ "$rc" = 2 ]
run_pmkit report --diff a.rec b.rec
o1=$out; r1=$rc
run_pmkit report --diff=a.rec b.rec
check "report --diff BASE NEW and --diff=BASE NEW" sh -c '[ "$1" = 0 ] && [ "$2" = "$3" ]' _ "$r1" "$o1" "$out"
run_pmkit report --diff a.rec
check "report --diff with one file (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "two files"' _ "$rc" "$err"
run_pmkit report -g caller --sort sym -i g.rec
o1=$out; r1=$rc
run_pmkit report -gi g.rec --call-graph=caller --sort=sym
check "report -g caller as -gi FILE --call-graph=caller" sh -c '[ "$1" = 0 ] && [ "$2" = "$3" ]' _ "$r1" "$o1" "$out"
run_pmkit report -g sideways -i g.rec
check "report -g sideways: not an order, an operand (2)" [ "$rc" = 2 ]
run_pmkit report --call-graph=up -i g.rec
check "report --call-graph=up (2)" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "'up'.*caller, callee"' _ "$rc" "$err"
run_pmkit report --percent-limit=101 -i a.rec
check "report --percent-limit=101 (2)" [ "$rc" = 2 ]
run_pmkit report --json -- a.rec
check "report -- FILE" [ "$rc" = 0 ]

# record -t: a two-thread process; -t its second thread gets that thread only
if ! have python3; then
	skip "record -t samples only the listed thread" "$T_WHY"
else
	python3 -c '
import threading, time
def spin():
    print(threading.get_native_id(), flush=True)
    t = time.time()
    while time.time() - t < 1.5: pass
th = threading.Thread(target=spin); th.start()
t = time.time()
while time.time() - t < 1.5: pass
th.join()' >tid.txt &
	py=$!
	i=0; while [ ! -s tid.txt ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done
	tid=$(cat tid.txt)
	run_pmkit record -q -t "$tid" -o t.rec
	r1=$rc
	wait $py
	run_pmkit report --script -i t.rec
	n=$(echo "$out" | awk 'NF' | wc -l)
	other=$(echo "$out" | awk -v t="$tid" 'NF && $2 != t' | wc -l)
	check "record -t TID: exit 0, $n samples, $other of another thread" \
		sh -c '[ "$1" = 0 ] && [ "$2" -gt 0 ] && [ "$3" = 0 ] && [ "$4" != "$5" ]' _ "$r1" "$n" "$other" "$tid" "$py"
fi
