# Programs the tests use as real clients, sourced by scripts/configure:
# Debian's Chromium for the browser checks (tests/sample/flame.t opens the
# flame graph headless, clicks and searches) and pkg-config for the
# build-tree check (tests/count/buildtree.t). Installed when missing and
# allowed, like the libraries of the *.list files; without them those
# checks skip and name the package.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	try_install chromium
fi
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
	echo "configure: note: no chromium (Debian package chromium): the browser checks of the flame graph will skip" >&2
command -v pkg-config >/dev/null 2>&1 || try_install pkg-config
command -v pkg-config >/dev/null 2>&1 ||
	echo "configure: note: no pkg-config (Debian package pkg-config): the build-tree check will skip" >&2
