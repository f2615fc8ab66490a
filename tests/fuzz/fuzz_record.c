/*
 * fuzz_record.c: the record-file reader and the profile built on it must
 * survive any bytes: read every record, then load a profile and print every
 * kind of report from it (to /dev/null). Seeds: tests/fuzz/corpus/record/.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pmkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	pmk_rec_reader *r;
	pmk_rec_item it;
	pmk_profile *p;
	pmk_diag d;
	if (!null)
		null = fopen("/dev/null", "w");
	if (pmk_rec_reader_open_mem(&r, data, size, &d) == 0) {
		while (pmk_rec_next(r, &it, &d) == 1)
			;
		pmk_rec_reader_close(r);
	}
	if (pmk_profile_load_mem(&p, data, size, &d) == 0) {
		const pmk_profile_row *rows;
		int n;
		for (int s = 0; s <= PMK_SORT_DATA; s++)
			pmk_profile_histogram(p, (pmk_sort)s, &rows, &n);
		if (null) {
			pmk_profile_print(p, PMK_SORT_FUNCTION, 1, null);
			pmk_profile_print(p, PMK_SORT_LINE, 0, null);
			pmk_profile_print(p, PMK_SORT_DATA, 0, null);
			pmk_profile_print_folded(p, NULL, null);
			pmk_profile_annotate(p, "[unknown]", null, &d);
			{
				pmk_view_opts o;
				memset(&o, 0, sizeof o);
				o.sort = "comm,tid,dso,sym,address";
				pmk_profile_view(p, &o, null, &d);
				o.sort = NULL;
				o.children = o.graph = 1;
				pmk_profile_view(p, &o, null, &d);
				o.children = 0;
				o.callee = 1;
				pmk_profile_view(p, &o, null, &d);
			}
			pmk_profile_flamegraph(p, p, NULL, NULL, null);
			pmk_profile_speedscope(p, NULL, null);
			pmk_profile_diff(p, p, NULL, 0, null);
		}
		pmk_profile_free(p);
	}
	return 0;
}
