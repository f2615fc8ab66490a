#!/bin/sh
# fetch.sh CACHE_DIR: make sure the host tools of the emulated-PMU tier are
# installed and that CACHE_DIR holds the guest's arm64 kernel Image and
# busybox binary, both taken from the Debian archive, and (optional) a
# sysroot of arm64 static libraries for the guest's pmkit: elfutils and
# libpfm4.
#
# Host packages are installed with apt-get (when missing). The two arm64
# packages are only downloaded, never installed: apt runs with a private
# state directory under CACHE_DIR/apt that lists the arm64 archive, so the
# host's dpkg configuration is left alone (no --add-architecture).
#
# Exit status: 0 ready; 77 something could not be had (the reason is printed
# on stderr as `guest: missing: ...`): callers report the tier as skipped.
set -u
cache=${1:?usage: fetch.sh CACHE_DIR}
mkdir -p "$cache" || exit 77
cache=$(cd "$cache" && pwd)
missing() { echo "guest: missing: $*" >&2; exit 77; }
note() { echo "guest: $*" >&2; }

# 1. Host tools.
need_pkgs=
command -v qemu-system-aarch64 >/dev/null 2>&1 || need_pkgs="$need_pkgs qemu-system-arm"
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need_pkgs="$need_pkgs gcc-aarch64-linux-gnu"
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || need_pkgs="$need_pkgs libc6-dev-arm64-cross"
command -v cpio >/dev/null 2>&1 || need_pkgs="$need_pkgs cpio"
command -v dpkg-deb >/dev/null 2>&1 || missing "dpkg-deb (not a Debian host?)"
if [ -n "$need_pkgs" ]; then
	[ "$(id -u)" = 0 ] || missing "host packages$need_pkgs (run as root to install them)"
	command -v apt-get >/dev/null 2>&1 || missing "host packages$need_pkgs (no apt-get)"
	note "installing$need_pkgs"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $need_pkgs >"$cache/apt-install.log" 2>&1 ||
		missing "host packages$need_pkgs: apt-get install failed (see $cache/apt-install.log)"
fi

# 2. Guest pieces from the arm64 archive.
[ -s "$cache/Image" ] && [ -s "$cache/busybox" ] && [ -f "$cache/sysroot/done" ] &&
	[ -f "$cache/sysroot/pfm-done" ] && exit 0
command -v apt-get >/dev/null 2>&1 || missing "apt-get, to download the arm64 kernel and busybox"
apt="$cache/apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/deb" || exit 77
# A private apt: the host's sources, arm64 only, state and cache under $apt.
# (Word-split on purpose: the build directory's path must have no blanks.)
case $apt in *[[:space:]]*) missing "a build directory path without blanks ($apt)" ;; esac
aptopt="-o APT::Architecture=arm64 -o APT::Architectures::=arm64
	-o Dir::State::Lists=$apt/lists -o Dir::State::status=/dev/null
	-o Dir::Cache=$apt -o Dir::Cache::archives=$apt/archives
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root -q"
# Optional: static arm64 libraries for the guest's pmkit, unpacked into
# $cache/sysroot (mk/guest.mk links what it finds there):
# - elfutils and the compression libraries it needs, so that its reports
#   have symbols and lines (marker: sysroot/done);
# - libpfm4 (libpfm4-dev holds libpfm.a and the headers; the runtime
#   package libpfm4 only the .so), so that it encodes libpfm4's Arm event
#   names (marker: sysroot/pfm-done).
# When one is unavailable the guest build goes without it, and the guest
# tests that need it skip, naming the package.
unpack() { # MARKER LOG PACKAGE...: download into $apt/dev, unpack, mark
	mark=$1 log=$2; shift 2
	[ -f "$cache/sysroot/$mark" ] && return 0
	mkdir -p "$apt/dev" && cd "$apt/dev" || return 1
	rm -f ./*.deb
	# shellcheck disable=SC2086
	if apt-get $aptopt download "$@" >"$apt/$log" 2>&1; then
		for d in ./*.deb; do dpkg-deb -x "$d" "$cache/sysroot" || { rm -f ./*.deb; cd "$cache"; return 1; }; done
		touch "$cache/sysroot/$mark"
		rc=0
	else
		rc=1
	fi
	rm -f ./*.deb
	cd "$cache" || exit 77
	return $rc
}
sysroot() {
	if [ ! -f "$cache/sysroot/done" ]; then
		rm -rf "$cache/sysroot"
		unpack done dev.log libdw-dev libelf-dev zlib1g-dev liblzma-dev \
			libbz2-dev libzstd-dev ||
			note "no arm64 elfutils (see $apt/dev.log): guest reports will lack symbols"
	fi
	unpack pfm-done pfm.log libpfm4-dev ||
		note "no arm64 libpfm4-dev (see $apt/pfm.log): the guest's pmkit is built without libpfm4"
}
if [ ! -f "$apt/updated" ]; then
	note "fetching the arm64 package lists"
	apt-get $aptopt update >"$apt/update.log" 2>&1 ||
		missing "arm64 package lists from the Debian archive (see $apt/update.log)"
	touch "$apt/updated"
fi
# The kernel package's name carries an ABI number that changes with every
# point release: resolve it through the meta-package, then take the unsigned
# flavour (same Image, smaller package).
[ -s "$cache/Image" ] && [ -s "$cache/busybox" ] && { sysroot; exit 0; }
kpkg=$(apt-cache $aptopt depends linux-image-arm64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
kpkg=${kpkg%:arm64}
[ -n "$kpkg" ] || missing "the arm64 kernel package (linux-image-arm64 has no linux-image-N dependency in the lists)"
note "kernel package: $kpkg-unsigned"
cd "$apt/deb" || exit 77
rm -f ./*.deb
apt-get $aptopt download "$kpkg-unsigned" busybox-static >"$apt/download.log" 2>&1 ||
	missing "download of $kpkg-unsigned and busybox-static (see $apt/download.log)"
set -- ./linux-image-*.deb
[ -f "$1" ] || missing "$kpkg-unsigned .deb after download"
rm -rf x && mkdir x || exit 77
# Debian's arm64 vmlinuz is an uncompressed Image: extract only that file.
dpkg-deb --fsys-tarfile "$1" | tar -x -C x --wildcards './boot/vmlinuz-*' ||
	missing "boot/vmlinuz in $1"
dpkg-deb --fsys-tarfile ./busybox-static_*.deb | tar -x -C x ./bin/busybox ||
	missing "bin/busybox in the busybox-static package"
mv x/boot/vmlinuz-* "$cache/Image.tmp" && mv "$cache/Image.tmp" "$cache/Image" &&
	mv x/bin/busybox "$cache/busybox" || exit 77
echo "$kpkg" >"$cache/kernel-package"
rm -rf x ./*.deb
sysroot
note "cached $(du -h "$cache/Image" | cut -f1) kernel Image and busybox in $cache"
