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
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up # as on any machine
mkdir -p /etc
echo 'root:x:0:0:root:/tmp:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >>/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
echo "PMK-GUEST-BEGIN $(uname -r) $(grep -m1 -i 'cpu part' /proc/cpuinfo)"
sh /pmk/run-guest.sh
echo "PMK-GUEST-END status=$?"
poweroff -f
