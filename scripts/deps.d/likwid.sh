# LIKWID's performance groups (/usr/share/likwid/perfgroups/ARCH/*.txt),
# sourced by scripts/configure: `pmkit stat -g GROUP` reads the groups
# Debian's likwid installs, at run time (cli/stat_likwid.c,
# lib/derive/likwid.c; docs/metrics.md). Installed when missing and
# allowed, like the libraries of the *.list files; nothing is compiled in
# (PMKIT_LIKWID_GROUPS=DIR names another perfgroups directory at run time).
# Without it, -g says which package would supply the groups.
if [ ! -d /usr/share/likwid/perfgroups ]; then
	try_install likwid
fi
if [ -d /usr/share/likwid/perfgroups ]; then
	echo "LIKWID_GROUPS := /usr/share/likwid/perfgroups"
else
	echo "configure: note: no LIKWID performance groups (Debian package likwid): 'pmkit stat -g GROUP' needs them (PMKIT_LIKWID_GROUPS=DIR names a perfgroups directory at run time)" >&2
	echo "LIKWID_GROUPS :="
fi
