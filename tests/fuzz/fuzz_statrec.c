/*
 * fuzz_statrec.c: the stat record reader (cli/stat_file.c, `pmkit stat
 * report`) on arbitrary bytes: a parse that succeeds is printed again in
 * every layout stat report offers (to /dev/null), so the results it gives
 * are safe to print.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/stat_file.c"
#include "cli/stat_output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct stat_file sf;
	pmk_diag d;
	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	if (stat_file_parse((const char *)data, size, "fuzz", &sf, &d) != 0)
		return 0;
	for (int i = 0; i < sf.n; i++) {
		struct stat_result *r = &sf.res[i];
		if (!r->target)
			r->target = "'?'";
		stat_print_text(null, r);
		stat_print_csv(null, ",", r);
		stat_print_perf_json(null, r);
		stat_print_json(null, r);
	}
	stat_file_free(&sf);
	return 0;
}
