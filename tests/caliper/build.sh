#!/bin/sh
# tests/caliper/build.sh: builds Caliper (LLNL's annotation library, a real
# PAPI client) from ../shared/third_party/ against pmkit's PAPI prefix, once,
# into a cache directory that every later run reuses (docs/papi.md).
#   tests/caliper/build.sh --dir BUILD_DIR   prints the cache directory
#   tests/caliper/build.sh BUILD_DIR         builds it when it is missing
# The cache is /var/cache/pmkit/caliper-COMMIT-KEY when run as root, else
# BUILD_DIR/caliper-COMMIT-KEY. KEY hashes what the build depends on: the
# tarball, this script, PAPI's headers and the compilers' and cmake's
# versions. pmkit's library is not part of the key: Caliper links it by its
# SONAME (libpapi.so.7.0) and the tests run it with LD_LIBRARY_PATH on the
# library of the build under test. A build takes about 8 minutes on two
# cores; it is never started by `make check`, only by `make check-caliper`.
# The cache holds include/, lib/ (libcaliper.so) and papi/, the PAPI prefix
# Caliper was built against (pmkit's `make install-papi`).
set -eu
src=${PMK_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tarball=${CALIPER_TARBALL:-$src/../shared/third_party/caliper-74e4865.tar.gz}
commit=74e4865
mode=build
if [ "${1:-}" = --dir ]; then mode=dir; shift; fi
B=${1:?usage: tests/caliper/build.sh [--dir] BUILD_DIR}
case $B in /*) ;; *) B=$PWD/$B ;; esac
if [ ! -f "$tarball" ]; then
	echo "tests/caliper/build.sh: no Caliper source at $tarball (../shared/third_party/README.md)" >&2
	exit 2
fi
inc=$(sed -n 's/^PAPI_INCDIR := //p' "$B/config.mk" 2>/dev/null)
key=$({
	sha256sum "$tarball" "$0" | cut -d' ' -f1
	cat "${inc:-/usr/include}/papi.h" "${inc:-/usr/include}/papiStdEventDefs.h" 2>/dev/null
	${CC:-cc} --version 2>&1 | head -n 1
	${CXX:-c++} --version 2>&1 | head -n 1
	cmake --version 2>&1 | head -n 1
} | sha256sum | cut -c1-12)
if [ "$(id -u)" = 0 ]; then root=/var/cache/pmkit; else root=$B; fi
dest=$root/caliper-$commit-$key
if [ "$mode" = dir ]; then
	echo "$dest"
	exit 0
fi
if [ -f "$dest/.complete" ]; then
	echo "caliper: cached build $dest"
	exit 0
fi
# one build at a time (a second caller waits, then finds the cache; the
# empty lock file stays)
mkdir -p "$root"
if command -v flock >/dev/null 2>&1; then
	exec 9>"$dest.lock"
	flock 9
	if [ -f "$dest/.complete" ]; then
		echo "caliper: cached build $dest"
		exit 0
	fi
fi
command -v cmake >/dev/null 2>&1 || { echo "tests/caliper/build.sh: cmake is not installed (Debian package cmake)" >&2; exit 2; }
command -v "${CXX:-c++}" >/dev/null 2>&1 || { echo "tests/caliper/build.sh: no C++ compiler (Debian package g++)" >&2; exit 2; }
so=$B/papi/libpapi.so.7.0
[ -f "$so" ] || { echo "tests/caliper/build.sh: $so is not built (make O=$B papi)" >&2; exit 2; }
tmp=$dest.tmp.$$
rm -rf "$tmp" "$dest"
mkdir -p "$tmp/src" "$dest"
# a build that does not finish leaves no cache behind
trap 'rm -rf "$tmp"; [ -f "$dest/.complete" ] || rm -rf "$dest"' EXIT
# run from make (make check-caliper), its flags are not for cmake's own make
unset MAKEFLAGS MFLAGS MAKELEVEL
log=$tmp/build.log
echo "caliper: building $commit against pmkit's PAPI prefix into $dest (about 8 minutes on 2 cores; log $log)"
make -s -C "$src" O="$B" -o "$so" install-papi PAPI_PREFIX="$dest/papi" >"$log" 2>&1
tar -xzf "$tarball" -C "$tmp/src" --strip-components=1
jobs=$(nproc 2>/dev/null || echo 2)
if ! {
	cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_INSTALL_PREFIX="$dest" -DCMAKE_INSTALL_LIBDIR=lib \
		-DWITH_PAPI=On -DPAPI_PREFIX="$dest/papi" \
		-DWITH_GOTCHA=Off -DWITH_KOKKOS=Off -DWITH_TOOLS=Off \
		-DBUILD_TESTING=Off -DBUILD_DOCS=Off &&
		cmake --build "$tmp/build" -j "$jobs" &&
		cmake --install "$tmp/build"
} >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "tests/caliper/build.sh: Caliper's build failed (log above)" >&2
	exit 1
fi
grep -q 'PAPI_LIBRARIES:FILEPATH=.*/papi/lib/libpapi.so' "$tmp/build/CMakeCache.txt" || {
	echo "tests/caliper/build.sh: Caliper did not pick pmkit's PAPI prefix:" >&2
	grep 'PAPI_' "$tmp/build/CMakeCache.txt" >&2
	exit 1
}
cp "$log" "$dest/build.log"
: >"$dest/.complete"
echo "caliper: built $dest"
