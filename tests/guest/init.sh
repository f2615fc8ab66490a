#!/bin/busybox sh
# /init of the guest's initramfs (tests/guest): mount the pseudo file
# systems, run every guest test once, print the markers the host looks for,
# and power off. Runs as PID 1, as root.
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp TMPDIR=/tmp
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
echo "PMK-GUEST-BEGIN $(uname -r) $(grep -m1 -i 'cpu part' /proc/cpuinfo)"
sh /pmk/run-guest.sh
echo "PMK-GUEST-END status=$?"
poweroff -f
