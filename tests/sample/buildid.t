# buildid.t: buildid-list (perf's) on a pmkit recording, on perf.data files
# perf wrote (perf buildid-list the oracle, with the header section and
# with --buildid-mmap), on an ELF file and for the running kernel; bad
# inputs exit 2 or 1 with a message.
. tests/support/t.sh
src=$(pwd)/tests/sample/prog/inline_hot.c
cd "$T_TMP" || exit 1
require cc
${CC:-cc} -O2 -g -Wl,--build-id -o ih "$src" || { nok "build inline_hot" "cc failed"; exit 0; }
bid=$(readelf -n ih 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p' | head -1)
[ -n "$bid" ] || { skip "buildid-list" "readelf shows no build id for a program linked with --build-id"; exit 0; }
# an ELF file: its own build id (readelf's)
run_pmkit buildid-list -i ih
check "an ELF file: its build id alone, as readelf reads it ($out)" [ "$rc" = 0 -a "$out" = "$bid" ]
# a pmkit recording: the program, whose samples are nearly all in it
if have sample; then
	run_pmkit record -q -e task-clock -o a.rec -- ./ih 0.2
	run_pmkit buildid-list -i a.rec
	check "a pmkit recording: '$bid $T_TMP/ih' among its lines" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -qx "$3"' _ "$rc" "$out" "$bid $T_TMP/ih"
	check "a pmkit recording: each line a build id and a path" sh -c 'printf "%s\n" "$1" | awk "!/^[0-9a-f]+ \// { bad = 1 } END { exit bad }"' _ "$out"
else
	skip "buildid-list on a pmkit recording" "$T_WHY"
fi
# -k: the running kernel's, as perf reads it
if [ -r /sys/kernel/notes ] && have perf; then
	run_pmkit buildid-list -k
	check "-k: the running kernel's build id, as perf's" [ "$rc" = 0 -a "$out" = "$(perf buildid-list -k 2>/dev/null)" ]
else
	skip "buildid-list -k" "no /sys/kernel/notes or no perf"
fi
# perf.data: the header's section, line for line as perf prints it
if have perf && perf record -q -e cpu-clock -o perf.data ./ih 0.2 >/dev/null 2>&1; then
	want=$(perf buildid-list -i perf.data 2>/dev/null)
	run_pmkit perf buildid-list
	check "pmkit perf buildid-list reads perf.data as perf buildid-list does" sh -c '[ "$1" = 0 ] && [ -n "$2" ] && [ "$2" = "$3" ]' _ "$rc" "$out" "$want"
	check "perf.data: the program among them" sh -c 'printf "%s\n" "$1" | grep -qx "$2"' _ "$out" "$bid $T_TMP/ih"
	# --buildid-mmap: no header section; the files with samples from the
	# MMAP2 records, each of them a line of perf's (which adds the kernel)
	if perf record -q --buildid-mmap -e cpu-clock -o mm.data ./ih 0.2 >/dev/null 2>&1; then
		want=$(perf buildid-list -i mm.data 2>/dev/null)
		run_pmkit buildid-list -i mm.data
		check "--buildid-mmap: the program, and every line one of perf's" sh -c '[ "$1" = 0 ] && printf "%s\n" "$2" | grep -qx "$4" &&
			printf "%s\n" "$2" | while read -r l; do printf "%s\n" "$3" | grep -qxF "$l" || exit 1; done' _ "$rc" "$out" "$want" "$bid $T_TMP/ih"
	else
		skip "buildid-list on --buildid-mmap" "perf record --buildid-mmap fails here"
	fi
	# a file cut short after its data: a message, no crash
	head -c 300 perf.data > cut.data
	run_pmkit buildid-list -i cut.data
	check "a perf.data cut short: exit 2 with a message (got $rc)" sh -c '[ "$1" = 2 ] && [ -n "$2" ]' _ "$rc" "$err"
else
	skip "buildid-list on perf.data" "${T_WHY:-perf cannot record here}"
fi
# bad inputs
printf 'not a recording\n' > text
run_pmkit buildid-list -i text
check "a text file: exit 2 naming it" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q "text"' _ "$rc" "$err"
run_pmkit buildid-list -i no_such_file
check "a missing file: exit 1 naming it" sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "no_such_file"' _ "$rc" "$err"
run_pmkit buildid-list --kernal
check "an unknown option: exit 2, the nearest named" sh -c '[ "$1" = 2 ] && printf "%s" "$2" | grep -q -- "--kernel"' _ "$rc" "$err"
