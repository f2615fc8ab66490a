#!/bin/sh
# check.sh: the emulated-PMU tier (`make check-guest`, docs/guest.md).
#   1. fetch.sh: host tools, and the arm64 kernel and busybox from Debian
#   2. cross-build pmkit, its unit tests and the guest tests, static, aarch64
#   3. an initramfs holding them, booted once per CPU model under QEMU with
#      exact, deterministic instruction counting (-icount shift=0)
#   4. `N passed, N failed, N skipped` over all boots; exit 1 on any failure.
# If a download or package is unavailable the tier is reported as skipped
# with the reason and exits 0 (GUEST_STRICT=1 makes that exit 1).
# Environment: GUEST_BOOTS (default "a57 max unit", see boot_spec),
# GUEST_DIR (default build/guest), GUEST_VERBOSE=1 prints the consoles.
set -u
cd "$(dirname "$0")/../.." || exit 1
G=${GUEST_DIR:-build/guest}
A=build/aarch64
CROSS=aarch64-linux-gnu-
t0=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
skipped() {
	echo "guest: skipped: $1"
	echo "guest: 0 passed, 0 failed, 1 skipped"
	[ "${GUEST_STRICT:-0}" = 1 ] && exit 1
	exit 0
}

# 1. Host tools and downloads.
reason=$(sh tests/guest/fetch.sh "$G/cache" 2>&1 >/dev/null); rc=$?
printf '%s\n' "$reason" | grep -v '^guest: missing' | grep . 
[ "$rc" = 0 ] || skipped "$(printf '%s\n' "$reason" | grep '^guest: missing' | sed 's/^guest: //')"
echo "guest: kernel $(cat "$G/cache/kernel-package" 2>/dev/null), ready after $(elapsed "$t0") s"

# 2. Cross-build (a build failure is a real failure: pmkit must build here).
# Only the static programs: the sysroot's libdw.a is not PIC, so no .so.
# The sysroot holds elfutils (marker done) and libpfm4 (pfm-done), each
# when its download worked (fetch.sh).
sysroot= have=
[ -f "$G/cache/sysroot/done" ] && have="$have elfutils"
[ -f "$G/cache/sysroot/pfm-done" ] && have="$have libpfm4"
[ -n "$have" ] && sysroot=GUEST_SYSROOT=$G/cache/sysroot
# Objects do not depend on flags: rebuild when a library comes or goes.
[ "$(cat "$A/.guest-sysroot" 2>/dev/null)" = "$sysroot$have" ] || rm -rf "$A"
mkdir -p "$A" && echo "$sysroot$have" >"$A/.guest-sysroot"
if ! make --no-print-directory -j2 CROSS=$CROSS O=$A $sysroot $A/pmkit tests guest-progs guest-papi >"$G/build.log" 2>&1; then
	tail -30 "$G/build.log"
	echo "guest: cross-build for aarch64 failed (log: $G/build.log)"
	echo "guest: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
echo "guest: cross-built for aarch64 (with${have:- no optional libraries}) after $(elapsed "$t0") s"

# 3. The initramfs.
R=$G/rootfs
rm -rf "$R" && mkdir -p "$R/bin" "$R/pmk/unit" "$R/pmk/guest" "$R/pmk/cases" || exit 1
cp "$G/cache/busybox" "$R/bin/busybox" && chmod 755 "$R/bin/busybox"
cp tests/guest/init.sh "$R/init" && chmod 755 "$R/init"
cp tests/guest/run-guest.sh "$R/pmk/run-guest.sh"
cp "$A/pmkit" "$R/pmk/pmkit"
for f in "$A"/tests/*; do [ -x "$f" ] && cp "$f" "$R/pmk/unit/"; done
for f in "$A"/guest/g_* "$A"/guest/h_* "$A"/guest/w_*; do [ -x "$f" ] && cp "$f" "$R/pmk/guest/"; done
# PAPI's ctests on pmkit's libpapi (mk/papi.mk guest-papi), run by cases/papi.t
mkdir -p "$R/pmk/papi" && for f in "$A"/guest/papi/*; do [ -f "$f" ] && [ -x "$f" ] && cp "$f" "$R/pmk/papi/"; done
for f in tests/guest/cases/*.t; do [ -f "$f" ] && cp "$f" "$R/pmk/cases/"; done
cp tests/support/t.sh "$R/pmk/t.sh"
cp tests/guest/known-failures "$R/pmk/known-failures"
mkdir -p "$R/pmk/src" && cp tests/guest/prog/*.S "$R/pmk/src/"  # for line numbers
[ -d metrics ] && cp -r metrics "$R/pmk/metrics"  # read by unit tests through PMK_SRC
mkdir -p "$R/pmk/tests" && cp -r tests/fixtures "$R/pmk/tests/fixtures"  # the machine fixtures, likewise
# Same contents, same bytes (fixed times): boots stay instruction-for-instruction identical.
find "$R" -exec touch -h -d @0 {} +
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --reproducible --quiet) | gzip -1 -n >"$G/initrd.gz" || exit 1
[ "$(stat -c %s "$G/initrd.gz")" -gt 100000 ] || { echo "guest: initramfs assembly failed"; exit 1; }

# 4. The boots: TAG CPU ICOUNT WHAT. The guest tests run on both CPU models
# with exact counting; pmkit's own unit tests (portability) run once, on a
# boot without -icount, where TCG is several times faster.
boot_spec() {
	case $1 in
	a57) echo "cortex-a57 icount guest" ;;
	max) echo "max,pauth-impdef=on icount guest" ;;
	unit) echo "cortex-a57 plain unit" ;;
	*) return 1 ;;
	esac
}
boot() { # TAG: boot once, console to $G/console-TAG.log, timing to .time
	set -- "$1" $(boot_spec "$1")
	ic=
	[ "$3" = icount ] && ic="-icount shift=0,sleep=off"
	b0=$(date +%s.%N)
	timeout 600 qemu-system-aarch64 -M virt -cpu "$2" -smp 1 -m 512 \
		-nographic -no-reboot -nic none $ic -seed 1 \
		-kernel "$G/cache/Image" -initrd "$G/initrd.gz" \
		-append "console=ttyAMA0 panic=-1 quiet loglevel=1 nokaslr norandmaps pmk_cpu=${2%%,*} pmk_run=$4" \
		</dev/null 2>&1 | tr -d '\r' >"$G/console-$1.log"
	elapsed "$b0" >"$G/console-$1.time"
}
boots=${GUEST_BOOTS:-a57 max unit}
for tag in $boots; do
	boot_spec "$tag" >/dev/null || { echo "guest: unknown boot '$tag' (a57, max, unit)"; exit 1; }
done
rm -f "$G"/console-*
# Two at a time, on the host's two cores.
set -- $boots
while [ $# -gt 0 ]; do
	boot "$1" & p1=$!
	[ $# -gt 1 ] && { boot "$2" & p2=$!; wait $p2; shift; }
	wait $p1; shift
done
# Known failures (tests/guest/known-failures): a matching `not ok` line
# becomes `skip` with the reason.
known() { # LOG -> LOG with known failures rewritten
	awk 'FNR == NR { if ($0 !~ /^#/ && NF >= 3) { k = "[" $1 "] not ok - " $2; r = $0
		sub(/^[^ ]+ [^ ]+ /, "", r); why[k] = r; okk["[" $1 "] ok - " $2] = 1 }; next }
	{ for (k in why) if (index($0, k) == 1 && (length($0) == length(k) || substr($0, length(k) + 1, 1) == ":")) {
		  print "[" substr(k, 2, index(k, "]") - 2) "] skip - " substr(k, index(k, " - ") + 3) ": KNOWN FAILURE: " why[k]; next }
	  for (k in okk) if (index($0, k) == 1) print "[known-failures] # passed on this boot: " k
	  print }' tests/guest/known-failures "$1"
}
tp=0 tf=0 ts=0
for tag in $boots; do
	log=$G/console-$tag.log
	[ "${GUEST_VERBOSE:-0}" = 1 ] && cat "$log"
	known "$log" >"$log.k"
	p=$(grep -c '^\[[^]]*\] ok - ' "$log.k")
	f=$(grep -c '^\[[^]]*\] not ok - ' "$log.k")
	s=$(grep -c '^\[[^]]*\] skip - ' "$log.k")
	if ! grep -q '^PMK-GUEST-END' "$log"; then
		f=$((f + 1))
		echo "guest $tag: the guest did not finish (console: $log):"
		tail -20 "$log"
	fi
	grep -E '^\[[^]]*\] (not ok|skip) - |now passes' "$log.k" | sed "s/^/guest $tag: /"
	echo "guest $tag ($(boot_spec "$tag")): $p passed, $f failed, $s skipped in $(cat "$G/console-$tag.time") s"
	tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
done
echo "guest: $tp passed, $tf failed, $ts skipped ($(elapsed "$t0") s in all)"
[ "$tf" = 0 ] && [ "$tp" -gt 0 ]
