# PAPI's preset definitions (papi_events.csv), sourced by scripts/configure:
# pmkit reads the presets PAPI defines for each CPU model from the file
# Debian's libpapi7.0 installs (pulled in by libpapi-dev), at run time
# (lib/event/preset.c; docs/metrics.md). Found here, or installed when
# missing and allowed, like the libraries of the *.list files; its path is
# compiled in as PMK_PAPI_EVENTS_CSV. Without it pmkit's own preset tables
# and the generic presets serve alone; PMK_PAPI_EVENTS=FILE names a file at
# run time either way.
papi_csv_find() {
	for f in $(ls -d /usr/share/papi/*/papi_events.csv /usr/share/papi/papi_events.csv 2>/dev/null | sort -V -r); do
		# a path the compiler flag can carry as is
		case $f in *[!A-Za-z0-9/._+-]*) continue ;; esac
		[ -r "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
papi_csv=$(papi_csv_find) || { try_install libpapi-dev; papi_csv=$(papi_csv_find); }
if [ -n "$papi_csv" ]; then
	echo "PAPI_EVENTS_CSV := $papi_csv"
	echo "CPPFLAGS += -DPMK_PAPI_EVENTS_CSV='\"$papi_csv\"'"
else
	echo "configure: note: no papi_events.csv (Debian package libpapi7.0, installed with libpapi-dev): presets from pmkit's own tables and the generic events only (PMK_PAPI_EVENTS=FILE names one at run time)" >&2
	echo "PAPI_EVENTS_CSV :="
fi
