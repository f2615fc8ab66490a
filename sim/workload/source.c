/*
 * source.c: one handle over the two instruction sources (a trace file or a
 * generated workload), chosen by whether the name is an existing file.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmkit/sim.h"

struct pmk_sim_source {
	pmk_trace_reader *tr;
	pmk_workload *wl;
	pmk_diag diag;
};

int pmk_sim_source_open(pmk_sim_source **out, const char *what, int kind,
			pmk_diag *d)
{
	struct stat sb;
	pmk_sim_source *s = calloc(1, sizeof *s);
	int rc;
	*out = NULL;
	if (!s)
		return PMK_ENOMEM;
	if (kind != PMK_TRACE_AUTO || !strcmp(what, "-") ||
	    stat(what, &sb) == 0 || strchr(what, '/'))
		rc = pmk_trace_open(&s->tr, what, kind, d);
	else
		rc = pmk_workload_new(&s->wl, what, d);
	if (rc < 0) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int pmk_sim_source_next(void *sp, pmk_sim_insn *out)
{
	pmk_sim_source *s = sp;
	int rc;
	if (s->wl)
		return pmk_workload_next(s->wl, out);
	rc = pmk_trace_read(s->tr, out);
	if (rc < 0)
		s->diag = *pmk_trace_diag(s->tr);
	return rc;
}

const pmk_diag *pmk_sim_source_diag(const pmk_sim_source *s)
{
	return &s->diag;
}

void pmk_sim_source_close(pmk_sim_source *s)
{
	if (!s)
		return;
	pmk_trace_close(s->tr);
	pmk_workload_free(s->wl);
	free(s);
}
