# hostile.t: output names that another user, or a mistake, turned into
# something else (issue 31). A link at the name is never followed, whatever
# it points to (a FIFO, a character device): it is moved to NAME.old and a
# new regular file takes its place. A FIFO, a device or a socket at the name
# itself is refused, and so are a NAME.old that is a directory and another
# user's file in a sticky directory; each refusal comes before the workload
# runs (the workload would write RAN into a file) and leaves nothing behind.
. tests/support/t.sh
cd "$T_TMP" || exit 1
if ! "$PMKIT" stat -e task-clock -o probe.txt -- true 2>probe.err; then
	skip "$T_NAME" "cannot count task-clock here: $(head -1 probe.err)"; exit 0
fi
ran() { [ -e "$1" ]; }
no_tmp() { ! ls ./*.tmp-* >/dev/null 2>&1; }

# --- a link at the name, to a FIFO that somebody reads
mkfifo fifo
cat fifo > fifo.got & reader=$!
sleep 0.2
ln -s fifo l1
run_pmkit stat -e task-clock -o l1 -- true
sleep 0.3; kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
check "stat -o LINK-TO-FIFO: exit 0, the FIFO's reader got nothing" \
	sh -c '[ "$1" = 0 ] && [ ! -s fifo.got ]' _ "$rc"
check "stat -o LINK-TO-FIFO: a regular file with the counts, the link kept as l1.old" \
	sh -c '[ -f l1 ] && [ ! -L l1 ] && grep -q task-clock l1 && [ -L l1.old ] && [ -p fifo ]'

# --- a link at the name, to a character device
if mknod cdev c 1 5 2>/dev/null; then # a /dev/zero of our own
	ln -s cdev l2
	run_pmkit stat -e task-clock -o l2 -- true
	check "stat -o LINK-TO-DEVICE: exit 0, a regular file, the device untouched" \
		sh -c '[ "$1" = 0 ] && [ -f l2 ] && [ ! -L l2 ] && [ -c cdev ] && [ -L l2.old ]' _ "$rc"
else
	skip "stat -o LINK-TO-DEVICE" "mknod refused (needs root)"
fi
ln -s /dev/null l3
run_pmkit stat -e task-clock -o l3 -- true
check "stat -o LINK-TO-/dev/null: the link is replaced, not written through" \
	sh -c '[ "$1" = 0 ] && [ -f l3 ] && grep -q task-clock l3 && [ -L l3.old ] && [ -c /dev/null ]' _ "$rc"

# --- a FIFO or a device at the name itself: refused before the run
mkfifo f2
run_pmkit stat -e task-clock -o f2 -- sh -c ': > ran1'
check "stat -o FIFO: exit 1, 'is a FIFO', the workload never ran" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "it is a FIFO" && [ ! -e ran1 ] && [ -p f2 ]' _ "$rc" "$err"
run_pmkit record -q -o f2 -- sh -c ': > ran2'
check "record -o FIFO: exit 1, 'is a FIFO', the workload never ran" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "it is a FIFO" && [ ! -e ran2 ]' _ "$rc" "$err"
run_pmkit sim record -o f2 -e inst_retired:period=1000 int-mix:n=1000
check "sim record -o FIFO: exit 1, 'is a FIFO'" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "it is a FIFO"' _ "$rc" "$err"
if [ -c cdev ]; then
	run_pmkit stat -e task-clock -o cdev -- sh -c ': > ran3'
	check "stat -o DEVICE (not the null device): exit 1, refused before the run" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "character device" && [ ! -e ran3 ]' _ "$rc" "$err"
fi
if have python3; then
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock
	run_pmkit stat -e task-clock -o sock -- sh -c ': > ran4'
	check "stat -o SOCKET: exit 1, refused before the run" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "socket" && [ ! -e ran4 ]' _ "$rc" "$err"
else
	skip "stat -o SOCKET" "$T_WHY"
fi

# --- NAME.old a directory: found before the run, NAME intact
echo precious > k; mkdir k.old
run_pmkit stat -e task-clock -o k -- sh -c ': > ran5'
check "stat -o NAME with NAME.old a directory: exit 1, said, no run, NAME intact" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "k.old.*is a directory" && [ ! -e ran5 ] && [ "$(cat k)" = precious ]' _ "$rc" "$err"
run_pmkit record -q -o k -- sh -c ': > ran6'
check "record -o NAME with NAME.old a directory: exit 1, no run, NAME intact" \
	sh -c '[ "$1" = 1 ] && [ ! -e ran6 ] && [ "$(cat k)" = precious ]' _ "$rc"
run_pmkit stat -e task-clock -o k.old -- true
check "stat -o DIRECTORY: refused, 'is a directory'" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "is a directory"' _ "$rc" "$err"
check "no temporary file left behind by a refusal" no_tmp

# --- record files are private, as perf.data
run_pmkit sim record -o priv.rec -e inst_retired:period=1000 int-mix:n=1000
check "sim record: the record file is mode 0600" \
	sh -c '[ "$1" = 0 ] && [ "$(stat -c %a priv.rec)" = 600 ]' _ "$rc"
if have sample && "$PMKIT" record -q -o p2.rec -- true 2>/dev/null; then
	check "record: the record file is mode 0600" sh -c '[ "$(stat -c %a p2.rec)" = 600 ]'
else
	skip "record mode 0600" "${T_WHY:-record failed}"
fi

# --- another user's file in a sticky directory (as /tmp): as nobody
if have root setpriv; then
	chmod 755 "$T_TMP"; mkdir sticky; chmod 1777 sticky
	echo roots > sticky/out.txt; chmod 666 sticky/out.txt
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PMKIT" stat -e task-clock -o sticky/out.txt -- sh -c ': > sticky/ran7' >out 2>err
	rc=$?; err=$(cat err)
	check "stat -o another user's file in a sticky directory (as nobody): exit 1, said before the run" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "another user" && [ ! -e sticky/ran7 ] && [ "$(cat sticky/out.txt)" = roots ]' _ "$rc" "$err"
	echo mine > sticky/n2.txt; chown nobody sticky/n2.txt; echo roots > sticky/n2.txt.old
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PMKIT" stat -e task-clock -o sticky/n2.txt -- sh -c ': > sticky/ran8' >out 2>err
	rc=$?; err=$(cat err)
	check "stat -o FILE with another user's FILE.old in a sticky directory (as nobody): exit 1, before the run" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "n2.txt.old" && [ ! -e sticky/ran8 ] && [ "$(cat sticky/n2.txt)" = mine ]' _ "$rc" "$err"
	check "no temporary file left in the sticky directory" sh -c '! ls sticky/*.tmp-* >/dev/null 2>&1'
else
	skip "sticky directory" "needs root and setpriv to run as another user"
fi
