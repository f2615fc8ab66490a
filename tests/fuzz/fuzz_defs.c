/*
 * fuzz_defs.c: definition files (lib/derive) from arbitrary bytes: parse
 * with a table resolver (names starting "E" or "PAPI_" are events), then
 * evaluate and compile every definition. Any crash, hang or sanitizer
 * report is a bug; errors are the expected outcome for most inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit.h"

static int resolve(const char *name, pmk_event *ev, pmk_diag *d, void *arg)
{
	memset(ev, 0, sizeof *ev);
	if (name[0] == 'E' || !strncmp(name, "PAPI_", 5)) {
		ev->nleaf = 1;
		ev->leaf[0].type = PMK_TYPE_RAW;
		ev->leaf[0].config =
		    (uint64_t)strlen(name) * 31u + (uint8_t)name[1];
		strncpy(ev->leaf[0].name, name, sizeof ev->leaf[0].name - 1);
		return 0;
	}
	if (name[0] == 'U')
		return PMK_ENOTSUP;
	return PMK_ENOEVENT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	pmk_defs *defs = NULL;
	pmk_diag d;
	pmk_defs_opts o = {
	    .resolve = resolve, .model = "zen9", .no_include = 1};
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (int pass = 0; pass < 2; pass++) {
		o.symbolic = pass;
		if (pmk_defs_parse_string(&defs, "fuzz", text, &o, &d) == 0) {
			for (int i = 0; i < pmk_defs_count(defs); i++) {
				double in[256];
				pmk_event ev;
				int nb = pmk_defs_base_count(defs, i);
				for (int k = 0; k < nb && k < 256; k++)
					in[k] = k;
				if (nb <= 256)
					(void)pmk_defs_eval(defs, i, in, NULL);
				if (pmk_defs_event(defs, i, &ev, &d) == 0) {
					double lv[PMK_LEAF_MAX] = {1, 2, 3, 4,
								   5, 6, 7, 8};
					(void)pmk_ops_eval(ev.ops, ev.nops, lv,
							   NULL);
				}
			}
			pmk_defs_free(defs);
		} else {
			char buf[1024];
			pmk_diag_format(&d, buf, sizeof buf);
		}
	}
	free(text);
	return 0;
}
