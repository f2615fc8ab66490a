# perf's event and metric definitions (the pmu-events JSON), sourced by
# scripts/configure: pmkit reads perf's metrics (`pmkit stat -M`,
# lib/derive/pmu_json.c; docs/metrics.md) from tools/perf/pmu-events/arch
# of the kernel source Debian ships as linux-source-6.1 (or -6.12). The
# x86 and arm64 trees are extracted once from /usr/src/linux-source-*.tar.xz
# into a cache (/var/cache/pmkit/pmu-events-VERSION as root, else
# BUILD_DIR/pmu-events) and its path is compiled in as PMK_PMU_EVENTS_DIR.
# Installed when missing and allowed, like the libraries of the *.list
# files. Optional: without it -M has pmkit's own metric library only;
# PMKIT_PMU_EVENTS=DIR names an arch directory at run time either way.
pmu_events_tarball() {
	ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V -r | head -n 1
}
pmu_events_extract() { # TARBALL DIR
	ver=$(basename "$1" .tar.xz)
	ver=${ver#linux-source-}
	dest=$2/pmu-events-$ver
	if [ -f "$dest/arch/x86/mapfile.csv" ]; then
		echo "$dest/arch"
		return 0
	fi
	mkdir -p "$dest.tmp" || return 1
	tar -xJf "$1" -C "$dest.tmp" --strip-components=4 --wildcards \
		"*/tools/perf/pmu-events/arch/x86/*" \
		"*/tools/perf/pmu-events/arch/arm64/*" >/dev/null 2>&1 &&
		[ -f "$dest.tmp/arch/x86/mapfile.csv" ] || { rm -rf "$dest.tmp"; return 1; }
	rm -rf "$dest" && mv "$dest.tmp" "$dest" && echo "$dest/arch"
}
pmu_events_dir=
tb=$(pmu_events_tarball)
if [ -z "$tb" ]; then
	try_install linux-source-6.1 || try_install linux-source-6.12
	tb=$(pmu_events_tarball)
fi
if [ -n "$tb" ]; then
	if [ "$(id -u)" = 0 ]; then
		pmu_events_dir=$(pmu_events_extract "$tb" /var/cache/pmkit)
	fi
	[ -n "$pmu_events_dir" ] || pmu_events_dir=$(mkdir -p "$out" && pmu_events_extract "$tb" "$(cd "$out" && pwd)")
fi
case $pmu_events_dir in *[!A-Za-z0-9/._+-]*) pmu_events_dir= ;; esac
if [ -n "$pmu_events_dir" ]; then
	echo "PMU_EVENTS_DIR := $pmu_events_dir"
	echo "CPPFLAGS += -DPMK_PMU_EVENTS_DIR='\"$pmu_events_dir\"'"
else
	echo "configure: note: no perf pmu-events JSON (Debian package linux-source-6.1 or linux-source-6.12, extracted from /usr/src/linux-source-*.tar.xz): -M has pmkit's own metric library only (PMKIT_PMU_EVENTS=DIR names tools/perf/pmu-events/arch at run time)" >&2
	echo "PMU_EVENTS_DIR :="
fi
