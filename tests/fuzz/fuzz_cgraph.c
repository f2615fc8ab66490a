/*
 * fuzz_cgraph.c: perf's -g argument (lib/sample/cgraph.c) and the call
 * graphs drawn from it. The input's first line is the argument; each
 * further line a chain, `PERIOD name;name;...`, added to one tree that
 * is then drawn in the parsed mode and in every other.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sample/cgraph.h"

enum { MAXF = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *line, *save = NULL, err[200];
	pmk__cg_opts o;
	pmk__cg *t;
	static FILE *out;
	uint64_t total = 0;
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	pmk__cg_opts_init(&o);
	line = strtok_r(s, "\n", &save);
	if (line)
		(void)pmk__cg_parse(line, &o, err, sizeof err);
	t = pmk__cg_new();
	if (!out) /* the drawings' sink, opened once */
		out = fopen("/dev/null", "w");
	if (!t || !out)
		goto done;
	while ((line = strtok_r(NULL, "\n", &save))) {
		pmk__cg_frame f[MAXF];
		char *sp, *name, *s2 = NULL;
		size_t n = 0;
		uint64_t period = strtoull(line, &sp, 10) % 1000000;
		for (name = strtok_r(sp, "; ", &s2); name && n < MAXF;
		     name = strtok_r(NULL, "; ", &s2))
			f[n++] = (pmk__cg_frame){name, (int)(n % 3),
						 (uint64_t)(unsigned char)name[0],
						 name[0] == 'i'};
		if (pmk__cg_add(t, f, n, period, 1) < 0)
			break;
		total += period;
	}
	pmk__cg_print(t, &o, total, total, out);
	for (int m = PMK_CG_GRAPH; m <= PMK_CG_FOLDED; m++) {
		o.mode = m;
		o.value = m % 3;
		pmk__cg_print(t, &o, total, total / 2, out);
	}
done:
	if (out)
		fflush(out);
	pmk__cg_free(t);
	free(s);
	return 0;
}
