# t.sh: helpers for shell tests (sourced). Each check prints one line that
# tests/run counts. $PMKIT is the CLI under test, $PMK_BUILD its build dir,
# $PMK_SRC the source tree. tests/run sets all three; run alone from the
# repository root (`sh tests/event/encode.t`) a test gets build/pmkit, or
# the build directory of $PMKIT when only that is set.
case ${PMKIT:=$PWD/build/pmkit} in /*) ;; *) PMKIT=$PWD/$PMKIT ;; esac
case ${PMK_BUILD:=${PMKIT%/*}} in /*) ;; *) PMK_BUILD=$PWD/$PMK_BUILD ;; esac
: "${PMK_SRC:=$PWD}"
export PMKIT PMK_BUILD PMK_SRC
T_NAME=${0#./}
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
ok()   { echo "ok - $1"; }
nok()  { echo "not ok - $1: $2"; }
skip() { echo "skip - $1: $2"; }
# perf_tidy: perf report's --stdio text (on stdin) without what perf 6.1
# prints there and pmkit does not: its tips, the empty comment lines, a
# symbol's glibc version (clock_gettime@@GLIBC_2.17: pmkit shows the name
# alone, docs/profiles.md) and the heading's padding such a name widens
perf_tidy() { grep -v '^# (Tip\|^#$' | sed -E 's/@@?GLIBC_[0-9.]+//; /^# (Overhead|Children|\.)/ s/[ .]+$//'; }
# check NAME COMMAND...: passes when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else nok "$n" "failed: $*"; fi; }
# run_pmkit ARGS...: runs the CLI, leaving $out, $err and $rc
run_pmkit() {
	"$PMKIT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?
	out=$(cat "$T_TMP/out"); err=$(cat "$T_TMP/err")
}
if [ ! -x "$PMKIT" ]; then
	nok "$T_NAME" "$PMKIT is not built (run make, or set PMKIT=BUILD/pmkit)"
	exit 1
fi

# Prerequisites. `have WHAT...` is true when every WHAT is here; when one is
# not, it is false and leaves the reason in $T_WHY. `require WHAT...` skips
# the whole file when one is missing: it prints one `skip - FILE: reason`
# line and exits 0. For a part of a file, branch on `have`:
#   if have perf; then check ...; else skip "against perf" "$T_WHY"; fi
# WHAT is one of:
#   cc           the C compiler $CC (default cc)
#   c++, g++     the C++ compiler $CXX (default c++, or g++ for g++)
#   pmu          a hardware PMU that counts (`pmkit stat -e instructions`)
#   sample       pmkit record works here (cpu-clock sampling)
#   root         running as root
#   tracefs      tracefs with syscalls events; sets $TRACEFS to its mount
#   perf         perf installed and counting task-clock
#   mpi          mpicc, mpirun and $PMK_BUILD/libpmkit-mpi.so
#   chromium     chromium (or chromium-browser); sets $CHROMIUM
#   libpfm4      pmkit built with libpfm4 (a model in `pmkit encode --models`)
#   libiberty, elfutils, capstone   pmkit built with that library
#   anything else: a command of that name on $PATH (python3, valgrind,
#                pkg-config, rustc, setpriv, xmllint, ...)
# A reason names the Debian package that supplies what is missing, if any.
have() {
	for t__what; do
		t__have_one "$t__what" || return 1
	done
	T_WHY=; return 0
}
require() {
	have "$@" && return 0
	skip "$T_NAME" "$T_WHY"
	exit 0
}
# the Debian package that installs command $1 (empty when unknown)
t__deb() {
	case $1 in
	cc | gcc) echo gcc ;; c++ | g++) echo g++ ;; perf) echo linux-perf ;;
	python3 | valgrind | pkg-config | rustc | chromium) echo "$1" ;;
	mpicc | mpirun) echo "openmpi-bin, libopenmpi-dev" ;;
	mpif90) echo "gfortran, openmpi-bin" ;; xmllint) echo libxml2-utils ;;
	setpriv | unshare) echo util-linux ;; ip) echo iproute2 ;;
	esac
}
t__missing() { # COMMAND: is it on $PATH? else the reason
	command -v "$1" >/dev/null 2>&1 && return 0
	t__d=$(t__deb "$1")
	T_WHY="$1 is not installed${t__d:+ (Debian package $t__d)}"
	return 1
}
t__built() { # NAME PACKAGE: HAVE_NAME in the build's config.mk
	grep -q "^HAVE_$1 := 1" "$PMK_BUILD/config.mk" 2>/dev/null && return 0
	T_WHY="pmkit is built without $2 (Debian package $3)"
	return 1
}
t__have_one() {
	case $1 in
	cc) t__missing "${CC:-cc}" || { T_WHY="no C compiler: $T_WHY"; return 1; } ;;
	c++) t__missing "${CXX:-c++}" || { T_WHY="no C++ compiler: $T_WHY"; return 1; } ;;
	g++) t__missing "${CXX:-g++}" || { T_WHY="no C++ compiler: $T_WHY"; return 1; } ;;
	pmu)
		# a number in the value column: an event the machine cannot
		# count is a <not supported> row and stat still exits 0, as perf
		"$PMKIT" stat -x, -e instructions -- true 2>&1 >/dev/null |
			grep -q '^[0-9][0-9.]*,,instructions,' && return 0
		T_WHY="no hardware PMU counts instructions here (a virtual machine?)"
		return 1 ;;
	sample)
		"$PMKIT" record -q -o "$T_TMP/probe.rec" -- true 2>"$T_TMP/probe.err" && return 0
		T_WHY="cannot sample here: $(head -1 "$T_TMP/probe.err")"
		return 1 ;;
	root)
		[ "$(id -u)" = 0 ] && return 0
		T_WHY="needs root"; return 1 ;;
	tracefs)
		for TRACEFS in /sys/kernel/tracing /sys/kernel/debug/tracing; do
			[ -d "$TRACEFS/events/syscalls" ] && return 0
		done
		TRACEFS=
		T_WHY="no tracefs with syscalls events here (mount -t tracefs nodev /sys/kernel/tracing, as root)"
		return 1 ;;
	perf)
		t__missing perf || return 1
		perf stat -e task-clock -x, true >/dev/null 2>&1 && return 0
		T_WHY="perf cannot count task-clock here (perf for this kernel missing, or perf_event_paranoid)"
		return 1 ;;
	mpi)
		t__missing mpicc && t__missing mpirun || return 1
		[ -f "$PMK_BUILD/libpmkit-mpi.so" ] && return 0
		T_WHY="libpmkit-mpi is not built (Debian packages openmpi-bin, libopenmpi-dev)"
		return 1 ;;
	chromium)
		CHROMIUM=$(command -v chromium || command -v chromium-browser) && return 0
		t__missing chromium ;;
	libpfm4)
		"$PMKIT" encode --models 2>/dev/null | grep -q ' libpfm4$' && return 0
		T_WHY="pmkit is built without libpfm4 (Debian package libpfm4-dev)"
		return 1 ;;
	libiberty) t__built IBERTY libiberty libiberty-dev ;;
	elfutils) t__built DW elfutils libdw-dev ;;
	capstone) t__built CAPSTONE capstone libcapstone-dev ;;
	*) t__missing "$1" ;;
	esac
}
