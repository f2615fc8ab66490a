/*
 * derive_speed.c: how fast user-defined events are.
 *   1. evaluating a compiled 10-term metric (8 natives, 10 terms, constants
 *      folded) over leaf values: target <= 50 ns;
 *   2. loading a 1,000-definition file (parse, resolve, cycle check,
 *      inline, compile every event, register): target <= 10 ms, with base
 *      names resolved by pmkit's own event parser on this machine, and, for
 *      the part that is ours alone, by a table.
 * Prints the median of repeats (101 of about 1 ms for evaluation, 31 loads). No
 * peer is shown: PAPI 7 cannot load a user event on this machine
 * (anchors-counters.md section 4) and perf has no user-defined events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmkit.h"
#include "lib/event/user.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

static const char *bases[8];
static int table(const char *name, pmk_event *ev, pmk_diag *d, void *arg)
{
	int known = name[0] == 'E';
	for (int i = 0; i < 8; i++)
		known |= !strcmp(name, bases[i]);
	if (!known)
		return PMK_ENOEVENT;
	memset(ev, 0, sizeof *ev);
	ev->nleaf = 1;
	ev->leaf[0].type = PMK_TYPE_RAW;
	ev->leaf[0].config = (uint64_t)(unsigned char)name[0] << 8 |
			     (unsigned char)name[strlen(name) - 1];
	snprintf(ev->leaf[0].name, sizeof ev->leaf[0].name, "%s", name);
	return 0;
}

static const char *bases[8] = {
    "task-clock",   "page-faults",  "context-switches", "cpu-migrations",
    "minor-faults", "major-faults", "cpu-clock",	"alignment-faults"};

static char *make_file(int n)
{
	size_t cap = (size_t)n * 160 + 4096, len = 0;
	char *t = malloc(cap);
	for (int i = 0; i < 100 && t; i++)
		len += (size_t)snprintf(t + len, cap - len,
					"#define K%d %d.5e-1\n", i, i + 1);
	for (int i = 0; t && i < n; i++) {
		const char *a = bases[i % 8], *b = bases[(i * 3 + 1) % 8];
		if (i % 10 == 0)
			len += (size_t)snprintf(
			    t + len, cap - len,
			    "# root %d\nM%d = (%s * K%d + %s) / (%s + 1)\n", i,
			    i, a, i % 100, b, bases[(i + 5) % 8]);
		else if (i % 2)
			len += (size_t)snprintf(t + len, cap - len,
						"M%d, M%d|%s|K%d|*|+\n", i,
						i - i % 10, a, i % 100);
		else
			len += (size_t)snprintf(t + len, cap - len,
						"M%d = M%d - %s / 2\n", i,
						i - i % 10, b);
	}
	return t;
}

int main(void)
{
	/* Short samples (about 1 ms), many of them: on a shared machine the
	 * median then falls on samples the scheduler did not interrupt. */
	enum { R = 31, RE = 101, EVALS = 20000 };
	double esamples[RE];
	double samples[R];
	pmk_defs *defs;
	pmk_diag d;
	pmk_event ev;
	pmk_defs_opts topts = {.resolve = table};
	double leaf[PMK_LEAF_MAX] = {1e9, 2e6, 3e5, 4e4, 5e3, 6e2, 7e1, 8};
	volatile double sink = 0;
	char *file;
	int rc;

	/* 1. a 10-term metric over 8 natives */
	rc = pmk_defs_parse_string(
	    &defs, "bench",
	    "#define A 1.5\n#define B 2.5\n"
	    "M10 = A*E1 + B*E2 + 3*E3 + 4*E4 + 5*E5 + 6*E6 + 7*E7 + 8*E8"
	    " + E1/E2 + E3/(E4 - E5)\n",
	    &topts, &d);
	if (rc || pmk_defs_event(defs, 0, &ev, &d)) {
		fprintf(stderr, "derive_speed: %s\n", d.message);
		return 1;
	}
	for (int r = 0; r < RE; r++) {
		double t0 = now_ns();
		for (int i = 0; i < EVALS; i++) {
			leaf[0] += 1;
			sink += pmk_ops_eval(ev.ops, ev.nops, leaf, NULL);
		}
		esamples[r] = (now_ns() - t0) / EVALS;
	}
	printf("eval of a compiled 10-term metric (%d natives, %d steps): "
	       "median %.1f ns (target <= 50)\n",
	       ev.nleaf, ev.nops, median(esamples, RE));
	for (int r = 0; r < RE; r++) {
		double t0 = now_ns();
		for (int i = 0; i < EVALS; i++) {
			leaf[0] += 1;
			sink += pmk_event_eval(&ev, leaf);
		}
		esamples[r] = (now_ns() - t0) / EVALS;
	}
	printf("  the same through pmk_event_eval: median %.1f ns\n",
	       median(esamples, RE));
	pmk_defs_free(defs);

	/* 2. a 1,000-definition file */
	file = make_file(1000);
	if (!file)
		return 1;
	for (int r = 0; r < R; r++) {
		double t0 = now_ns();
		pmk__user_clear();
		rc = pmk_defs_load_string("bench1000.def", file, &d);
		samples[r] = (now_ns() - t0) / 1e6;
		if (rc) {
			fprintf(stderr, "derive_speed: load: %s (line %d)\n",
				d.message, d.line);
			return 1;
		}
	}
	printf("load of a 1,000-definition file (+100 constants), resolved "
	       "by the event parser and registered: median %.2f ms (target "
	       "<= 10)\n",
	       median(samples, R));
	for (int r = 0; r < R; r++) {
		double t0 = now_ns();
		rc = pmk_defs_parse_string(&defs, "bench1000.def", file, &topts,
					   &d);
		for (int i = 0; rc == 0 && i < pmk_defs_count(defs); i++)
			rc = pmk_defs_event(defs, i, &ev, &d);
		samples[r] = (now_ns() - t0) / 1e6;
		pmk_defs_free(defs);
		if (rc)
			return 1;
	}
	printf("  parse + compile only (table resolver): median %.2f ms\n",
	       median(samples, R));
	pmk__user_clear();
	free(file);
	return sink == 12345 ? 2 : 0;
}
