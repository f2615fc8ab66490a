/*
 * cmd_report.c: `pmkit report [-i FILE] [--sort function|line|address|dso|data]
 * [--json] [--folded [--event NAME]] [--annotate FUNCTION]`: read a record
 * file and print where the samples fell.
 */
/* pmkit-command: report | show a profile from a record file */
#include <string.h>

#include "cli/cli.h"

int cmd_report(int argc, char **argv)
{
	const char *in = PMK_REC_DEFAULT_FILE, *annot = NULL, *event = NULL;
	pmk_sort sort = PMK_SORT_FUNCTION;
	int json = 0, folded = 0, mangled = 0, rc;
	pmk_profile *p;
	pmk_profile_stats st;
	pmk_diag d;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-i") || !strcmp(a, "--input")) {
			if (!v)
				return cli_usage("report");
			in = v;
			i++;
		} else if (!strcmp(a, "-s") || !strcmp(a, "--sort")) {
			if (!v || pmk_sort_parse(v, &sort) != 0) {
				cli_error("--sort takes function, line, "
					  "address, dso or data, not '%s'",
					  v ? v : "");
				return EXIT_USAGE;
			}
			i++;
		} else if (!strncmp(a, "--sort=", 7)) {
			if (pmk_sort_parse(a + 7, &sort) != 0) {
				cli_error("--sort takes function, line, "
					  "address, dso or data, not '%s'",
					  a + 7);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--no-demangle")) {
			mangled = 1;
		} else if (!strcmp(a, "--folded")) {
			folded = 1;
		} else if (!strcmp(a, "--event") || !strcmp(a, "-e")) {
			if (!v)
				return cli_usage("report");
			event = v;
			i++;
		} else if (!strcmp(a, "--annotate") || !strcmp(a, "-a")) {
			if (!v)
				return cli_usage("report");
			annot = v;
			i++;
		} else if (a[0] != '-' && i == argc - 1) {
			in = a; /* pmkit report FILE */
		} else {
			cli_error("unknown option '%s'", a);
			return cli_usage("report");
		}
	}
	if (json + folded + (annot != NULL) > 1) {
		cli_error("--json, --folded and --annotate exclude each other");
		return EXIT_USAGE;
	}
	pmk_diag_clear(&d);
	rc = pmk_profile_load(&p, in, &d);
	if (rc < 0) {
		if (!d.message[0])
			snprintf(d.message, sizeof d.message, "%s",
				 pmk_strerror(rc));
		cli_error("%s: %s", in, d.message);
		if (d.hint[0])
			fprintf(stderr, "hint: %s\n", d.hint);
		return rc == PMK_ENOENT || rc == PMK_EIO ? 1 : EXIT_USAGE;
	}
	pmk_profile_set_mangled(p, mangled);
	pmk_profile_stats_get(p, &st);
	if (st.truncated_bytes)
		cli_warn("%s ends with an incomplete record (%llu bytes "
			 "ignored): the recording was cut short",
			 in, (unsigned long long)st.truncated_bytes);
	if (st.lost)
		cli_warn("%llu samples were lost while recording",
			 (unsigned long long)st.lost);
	if (sort == PMK_SORT_DATA && !folded && !annot && !st.data_samples) {
		cli_error("%s: no sample has a data address", in);
		fprintf(stderr, "hint: record with --data (page-faults give "
				"the faulting address anywhere; memory events "
				"need a PMU with PEBS or IBS)\n");
		pmk_profile_free(p);
		return 1;
	}
	if (!pmk_profile_can_symbolize())
		cli_warn("built without elfutils: no symbols or lines, "
			 "offsets only");
	if (folded)
		rc = pmk_profile_print_folded(p, event, stdout);
	else if (annot)
		rc = pmk_profile_annotate(p, annot, stdout, &d);
	else
		rc = pmk_profile_print(p, sort, json, stdout);
	pmk_profile_stats_get(p, &st);
	if (st.dsos_changed)
		cli_warn("%llu file(s) changed since the recording (build id, "
			 "size or time differs): their symbols may be wrong",
			 (unsigned long long)st.dsos_changed);
	pmk_profile_free(p);
	if (rc == PMK_ENOEVENT) {
		cli_error("no event '%s' in %s", event, in);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		if (d.message[0]) {
			cli_error("%s", d.message);
			if (d.hint[0])
				fprintf(stderr, "hint: %s\n", d.hint);
		} else {
			cli_error("%s", pmk_strerror(rc));
		}
		return 1;
	}
	return 0;
}
