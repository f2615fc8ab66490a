# outputs.t: pmkit never loses or clobbers a user's file (issue 16). Each
# case of the issue: a symlink planted at the output name (its target is
# untouched), a workload that cannot run and a -p that names no process (the
# existing file is intact), a successful run (the previous file is kept as
# NAME.old), --no-backup, -o - (standard output), and a full file system
# (a 16 KiB tmpfs: the workload is waited for, never orphaned, the message is
# printed once, and what was written stays readable).
. tests/support/t.sh
cd "$T_TMP" || exit 1
same() { [ "$(cat "$1")" = "$2" ]; }

# --- stat -o (software events work everywhere)
echo precious > s1
run_pmkit stat -o s1 -e task-clock -- /nonexistent
check "stat -o FILE -- /nonexistent: exits 127, FILE intact" \
	sh -c '[ "$1" = 127 ] && [ "$(cat s1)" = precious ]' _ "$rc"
check "stat -o: no temporary file left behind" sh -c '! ls s1.tmp-* 2>/dev/null'
echo victim > victim_s; ln -s victim_s s2
run_pmkit stat -o s2 -e task-clock -- true
if [ "$rc" = 0 ]; then
	check "stat -o through a planted symlink: the link's target untouched" same victim_s victim
	check "stat -o: the link is replaced by a regular file with the counts" \
		sh -c '[ -f s2 ] && [ ! -L s2 ] && grep -q task-clock s2'
	check "stat -o: the link itself kept as s2.old" sh -c '[ -L s2.old ]'
	run_pmkit stat -o s1 -e task-clock -- true
	check "stat -o existing FILE: the previous FILE kept as FILE.old" \
		sh -c '[ "$(cat s1.old)" = precious ] && grep -q task-clock s1'
	: > s4; echo precious > s4.old
	run_pmkit stat -o s4 -e task-clock -- true
	check "stat -o over an empty FILE (mktemp's): replaced, FILE.old from before kept as it was" \
		sh -c '[ "$(cat s4.old)" = precious ] && grep -q task-clock s4'
	umask 027; run_pmkit stat -o s3 -e task-clock -- true; umask 022
	check "stat -o: mode 0644 under the umask (027 gives 0640)" \
		sh -c '[ "$(stat -c %a s3)" = 640 ]'
	run_pmkit stat -o /dev/null -e task-clock -- true
	check "stat -o /dev/null writes to the device, leaves it a device" \
		sh -c '[ "$1" = 0 ] && [ -c /dev/null ]' _ "$rc"
	"$PMKIT" stat -o /dev/stdout -e task-clock -- true > via-stdout.txt 2>/dev/null; rc=$?
	check "stat -o /dev/stdout into a file: the counts reach it, /dev/stdout stays a link" \
		sh -c '[ "$1" = 0 ] && grep -q task-clock via-stdout.txt && [ -L /dev/stdout ] && ! ls /dev/stdout.* 2>/dev/null' _ "$rc"
	mkdir sdir; run_pmkit stat -o sdir -e task-clock -- true
	check "stat -o DIRECTORY: refused before running (exit 1, message)" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "is a directory"' _ "$rc" "$err"
else
	skip "stat -o" "cannot count task-clock here: $(printf '%s' "$err" | head -1)"
fi

# --- record -o
if ! have sample; then
	skip "record -o" "$T_WHY"; exit 0
fi
echo victim > victim; ln -s victim x.rec
run_pmkit record -q -o x.rec -- true
check "record -o through a planted symlink: exit 0, the target untouched" \
	sh -c '[ "$1" = 0 ] && [ "$(cat victim)" = victim ]' _ "$rc"
check "record -o: the link replaced by the record file, kept as x.rec.old" \
	sh -c '[ -f x.rec ] && [ ! -L x.rec ] && [ -L x.rec.old ] && "$PMKIT" report -i x.rec >/dev/null'
echo precious > e2
run_pmkit record -o e2 -- /nonexistent
check "record -o FILE -- /nonexistent: exits 127, FILE intact" \
	sh -c '[ "$1" = 127 ] && [ "$(cat e2)" = precious ] && [ ! -e e2.old ]' _ "$rc"
echo precious > e4
run_pmkit record -o e4 -p 999999
check "record -o FILE -p 999999: exits 1, FILE intact" \
	sh -c '[ "$1" = 1 ] && [ "$(cat e4)" = precious ] && [ ! -e e4.old ]' _ "$rc"
run_pmkit record -q -o e4 -- true
check "record -o existing FILE: succeeds, the previous one kept as FILE.old" \
	sh -c '[ "$1" = 0 ] && [ "$(cat e4.old)" = precious ] && "$PMKIT" report -i e4 >/dev/null' _ "$rc"
cp e4 e4.copy; echo second > e4.old
run_pmkit record -q --no-backup -o e4 -- true
check "record --no-backup: FILE replaced, FILE.old left alone" \
	sh -c '[ "$1" = 0 ] && [ "$(cat e4.old)" = second ] && "$PMKIT" report -i e4 >/dev/null' _ "$rc"
check "no temporary files left behind" sh -c '! ls *.tmp-* 2>/dev/null'
"$PMKIT" record -q -o - -- true > piped.rec 2>/dev/null; rc=$?
check "record -o - writes the record file to standard output" \
	sh -c '[ "$1" = 0 ] && "$PMKIT" report -i piped.rec >/dev/null' _ "$rc"
"$PMKIT" record -q -o /dev/stdout -- true > via-stdout.rec 2>/dev/null; rc=$?
check "record -o /dev/stdout into a file: a readable record file, /dev/stdout stays a link" \
	sh -c '[ "$1" = 0 ] && "$PMKIT" report -i via-stdout.rec >/dev/null && [ -L /dev/stdout ]' _ "$rc"
mkdir rdir; run_pmkit record -q -o rdir -- true
check "record -o DIRECTORY: refused (exit 1, 'is a directory')" \
	sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "is a directory"' _ "$rc" "$err"

# --- a full file system: a tmpfs of 16 KiB
mkdir full
if mount -t tmpfs -o size=16k pmkit-test "$T_TMP/full" 2>/dev/null; then
	trap 'umount "$T_TMP/full" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	cat > work.sh <<'SH'
echo $$ > "$1"
i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done
echo finished > "$1.done"
SH
	echo precious > full/out.rec
	run_pmkit record -F 4000 -o full/out.rec -- sh work.sh w1
	n=$(printf '%s\n' "$err" | grep -c 'cannot write')
	check "full disk: exit 1, 'cannot write' said once (got $n)" \
		sh -c '[ "$1" = 1 ] && [ "$2" = 1 ] && printf "%s" "$3" | grep -q "No space left"' _ "$rc" "$n" "$err"
	check "full disk: the workload was waited for (it finished)" [ -s w1.done ]
	check "full disk: no workload left running" sh -c '! kill -0 "$(cat w1)" 2>/dev/null'
	check "full disk: the previous file kept as out.rec.old" same full/out.rec.old precious
	run_pmkit report -i full/out.rec
	check "full disk: what was written is readable (report exit 0)" \
		sh -c '[ "$1" = 0 ] && printf "%s" "$2" | grep -q samples' _ "$rc" "$out"
	rm -f full/*
	run_pmkit record -F 4000 --on-error=kill -o full/k.rec -- sh work.sh w2
	check "full disk --on-error=kill: the workload is stopped (exit 1, not finished)" \
		sh -c '[ "$1" = 1 ] && [ ! -e w2.done ] && ! kill -0 "$(cat w2)" 2>/dev/null' _ "$rc"
	umount "$T_TMP/full"
else
	skip "full disk" "cannot mount a tmpfs here (needs root)"
fi
