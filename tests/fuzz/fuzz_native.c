/*
 * fuzz_native.c: libFuzzer entry point for native event strings and
 * preset names (lib/event/native.c, preset.c), on every model table.
 * Input: any bytes; the first byte picks the model (or none), the rest is
 * the string. Checks that a success fills a sane encoding and that a
 * failure fills a diagnostic whose column lies within the string.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/event/tbl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[600];
	pmk_event ev;
	pmk_diag d;
	int nmodels = 0, rc;
	const pmk__model *m;

	if (size == 0 || size >= sizeof s)
		return 0;
	while (pmk__models[nmodels])
		nmodels++;
	m = data[0] % (nmodels + 1) == (unsigned)nmodels
		? NULL
		: pmk__models[data[0] % (nmodels + 1)];
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;

	memset(&ev, 0, sizeof ev);
	pmk_diag_clear(&d);
	rc = pmk__native_parse_model(m, "cpu", s, 1, &ev, &d);
	if (rc == 0 && (ev.nleaf != 1 || ev.leaf[0].type != PMK_TYPE_RAW))
		abort();
	if (rc != 0 && rc != PMK_ENOEVENT &&
	    (d.code != rc || d.column < 1 || d.column > (int)strlen(s) + 1 ||
	     !d.message[0]))
		abort();
	memset(&ev, 0, sizeof ev);
	pmk_diag_clear(&d);
	rc = pmk__preset_resolve_model(m, "cpu", s, 1, &ev, &d);
	if (rc == 0 && (ev.nleaf < 1 || ev.nleaf > PMK_LEAF_MAX))
		abort();
	return 0;
}
