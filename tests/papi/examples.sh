# examples.sh: build PAPI 7.0's own tests from Debian's papi-examples,
# unmodified, against pmkit's libpapi (sourced by tests/papi/*.t).
# Sets EX (the built tree, cached in $PMK_BUILD/papi/examples: the programs
# load whichever libpapi.so.7.0 LD_LIBRARY_PATH finds first, so they are
# built once), PMK_PAPI (pmkit's library directory) and DEB_PAPI (Debian's
# libpapi.so.7.0). Skips the calling test with the reason when something is
# missing. Needs the helpers of tests/support/t.sh.
SRC_EX=/usr/share/doc/papi-examples/examples
PMK_PAPI=$PMK_BUILD/papi
if [ ! -f "$PMK_PAPI/libpapi.so.7.0" ]; then
	skip "$T_NAME" "pmkit's libpapi not built (Debian package libpapi-dev: papi.h)"
	exit 0
fi
if [ ! -d "$SRC_EX/ctests" ]; then
	skip "$T_NAME" "no PAPI test sources (Debian package papi-examples)"
	exit 0
fi
DEB_PAPI=$(ldconfig -p 2>/dev/null | awk '/libpapi\.so\.7\.0 /{print $NF; exit}')
require cc make
EX=$PMK_BUILD/papi/examples
# papi_build DIR TARGET-ARGS...: make in one folder of the copy
papi_make() {
	d=$1; shift
	(cd "$EX/$d" && make -k -j2 testlibdir=../testlib validationlibdir=../validation_tests \
		INCLUDE="-I. -I../testlib -I../validation_tests" \
		TESTLIB=../testlib/libtestlib.a DOLOOPS=../testlib/do_loops.o \
		CLOCKCORE=../testlib/clockcore.o \
		TESTFLOPS=../validation_tests/flops_testcode.o \
		TESTINS=../validation_tests/instructions_testcode.o \
		TESTCYCLES=../validation_tests/busy_work.o \
		DISPLAYERROR=../validation_tests/display_error.o \
		PAPILIB="$PMK_PAPI/libpapi.so" CFLAGS="-O1 -g -w" "$@") \
		>>"$EX/build.log" 2>&1
}
if [ ! -f "$EX/.built" ]; then
	rm -rf "$EX" && mkdir -p "$EX" && cp -r "$SRC_EX"/. "$EX"/
	(cd "$EX/testlib" && cc -O1 -w -I. -c test_utils.c && cc -O0 -w -I. -c do_loops.c &&
		cc -O1 -w -I. -c clockcore.c && ar rcs libtestlib.a test_utils.o) >>"$EX/build.log" 2>&1
	(cd "$EX/validation_tests" && for f in flops_testcode instructions_testcode busy_work display_error; do
		cc -O1 -w -I. -I../testlib -c $f.c || exit 1; done) >>"$EX/build.log" 2>&1
	papi_make ctests all
	papi_make validation_tests all
	touch "$EX/.built"
fi
# the Fortran tests, once pmkit's library has the PAPIF_* entry points
# (papi/fortran.c) and gfortran is here; their own marker, so that a tree
# built before either gets them later
if [ ! -f "$EX/.built-ftests" ] && command -v gfortran >/dev/null 2>&1 &&
	nm -D --defined-only "$PMK_PAPI/libpapi.so.7.0" | grep -q ' papif_start_$'; then
	(cd "$EX/testlib" && gfortran -w -I. -I/usr/include -c ftests_util.F &&
		ar rcs libftestlib.a test_utils.o ftests_util.o) >>"$EX/build.log" 2>&1
	(cd "$EX/ftests" && make -k -j2 testlibdir=../testlib \
		INCLUDE="-I. -I/usr/include -I../testlib" TESTLIB=../testlib/libftestlib.a \
		DOLOOPS=../testlib/do_loops.o PAPILIB="$PMK_PAPI/libpapi.so" \
		FFLAGS="-g -O1 -w -Dlinux -ffixed-line-length-132" all) >>"$EX/build.log" 2>&1
	touch "$EX/.built-ftests"
fi
# papi_run LIBDIR BIN OUT: run one test program quietly with LIBDIR's
# libpapi first (empty: the system's), at most PAPI_LIMIT s; its whole process group
# is killed afterwards (an attach test can leave a ptrace-stopped child
# holding the output open). Prints the verdict word: the last PASSED,
# SKIPPED or FAILED the program printed, or NONE.
# A sanitized pmkit library (check-san) is loaded into PAPI's uninstrumented
# programs with the ASan runtime preloaded first (leak reports off: they
# would be the test programs' own); Debian's library runs as it is.
# Under the sanitizers a program may take several times as long (omptough:
# over 60 s at load 14), so the limit, which only stops a hung program, is
# longer there.
# OpenMP's threads wait passively (OMP_WAIT_POLICY=passive, both libraries
# alike): libgomp's default spins at every barrier, and with two threads on
# a loaded 2-core machine the one spinning waits out the other's time
# slices; omptough (100,000 parallel regions) spent 97 % of its CPU in that
# spin and ran past 300 s under the sanitizers at load 11, 3 s passive.
case "$PMK_BUILD" in
*san*) PAPI_SAN_PRE=$(${CC:-cc} -print-file-name=libasan.so) PAPI_LIMIT=300 ;;
*) PAPI_SAN_PRE= PAPI_LIMIT=60 ;;
esac
papi_run() {
	lib=$1 bin=$2 out=$3 pre=
	[ -n "$lib" ] && pre=$PAPI_SAN_PRE
	mkdir -p "$T_TMP/hl"
	(cd "${bin%/*}" && PAPI_OUTPUT_DIRECTORY=$T_TMP/hl OMP_WAIT_POLICY=passive LD_LIBRARY_PATH=$lib \
		LD_PRELOAD=$pre ASAN_OPTIONS=${pre:+detect_leaks=0:verify_asan_link_order=0} setsid sh -c 'echo $$ >"$0.pid"; exec timeout -k 5 "$2" "$1" TESTS_QUIET' \
		"$out" "$bin" "$PAPI_LIMIT" >"$out" 2>&1 </dev/null)
	[ -s "$out.pid" ] && kill -9 -- "-$(cat "$out.pid")" 2>/dev/null
	# and any fork of it still there (a ptrace-stopped attach child was
	# once seen left behind in a CI run): this binary's path, this build
	pkill -9 -x -f "$bin TESTS_QUIET" 2>/dev/null
	v=$(grep -oE 'PASSED|SKIPPED|FAILED' "$out" | tail -n 1)
	echo "${v:-NONE}"
}
# papi_programs DIR: the test programs built there (helpers left out)
papi_programs() {
	for f in "$EX/$1"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		case ${f##*/} in *.*|burn|attach_target|Makefile*) continue ;; esac
		echo "$f"
	done
}
