/*
 * sweep.c: the start sweep of an event set (pmk_eventset_sweep,
 * docs/counting.md).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/backend/backend.h"
#include "lib/count/es_struct.h"
#include "lib/count/eventset.h"

/*
 * The start sweep (docs/counting.md): a program's start is a phase of its
 * own (exec, first page faults, cold caches, predictors and TLBs), and
 * under the backend's rotation only the groups on counters then see it;
 * the others extrapolate over it a rate they never had there. Called
 * every fraction of a rotation through the run's start, each call enables
 * the next batch of groups that fit the `counters` and disables the rest,
 * so that every group samples the whole start; after `steps` (rounded up
 * to whole passes over the batches) it enables them all again and reads
 * the set, so that the first slice is the sweep (the event set then
 * scales the sweep and the rest apart: pmk__mpx_swept). A group held
 * disabled has that time added to its enabled time (the sweep's length,
 * sweep_ref_open, less its own enabled time in it), so that its count
 * scales over the whole run. Groups of software natives are not swept
 * (the kernel never multiplexes them), unless PMK_SWEEP_SOFTWARE=1 (a
 * test of the kernel path on a machine without a PMU). Returns 1 while
 * sweeping, 0 when done, or an error.
 */
static int sweep_software(void)
{
	const char *e = getenv("PMK_SWEEP_SOFTWARE");
	return e && *e == '1';
}

static int sweepable(const pmk_eventset *es, const struct group *gr)
{
	for (int i = 0; i < gr->nleaf; i++) {
		const pmk_attr *a = &es->leaf[gr->leaf[i]].attr;
		if (pmk__es_counter_limited(a) || a->type == PMK_TYPE_SIM ||
		    (a->type == PMK_TYPE_SOFTWARE && es->sweep_sw))
			return 1;
	}
	return 0;
}

static int sweep_batches(pmk_eventset *es, int counters)
{
	int nb = 0, used = 0;
	for (int g = 0; g < es->ngroup; g++) {
		struct group *gr = &es->grp[g];
		gr->batch = -1;
		if (!sweepable(es, gr))
			continue;
		if (nb == 0 || used + gr->nleaf > counters) {
			nb++;
			used = 0;
		}
		gr->batch = nb - 1;
		used += gr->nleaf;
	}
	return nb;
}

static int batch_control(pmk_eventset *es, int b, int op)
{
	int rc = 0;
	for (int g = 0; g < es->ngroup; g++)
		if (es->grp[g].batch >= 0 && (b < 0 || es->grp[g].batch == b)) {
			int r = es->be->ops->control(es->be, es->grp[g].leader,
						     op, 1);
			if (r && !rc)
				rc = r;
		}
	return rc;
}

/* The backend's enabled time of group g, or of batch b's first group. */
static uint64_t group_enabled(pmk_eventset *es, int g)
{
	pmk_group_read r;
	return es->be->ops->read_group(es->be, es->grp[g].leader, &r) == 0
		       ? r.enabled_ns
		       : 0;
}

static uint64_t batch_enabled(pmk_eventset *es, int b)
{
	for (int g = 0; g < es->ngroup; g++)
		if (es->grp[g].batch == b)
			return group_enabled(es, g);
	return 0;
}

/* The sweep's clock is the task's (a group's enabled time grows only while
 * its task runs, summed over its threads when inherited): on the kernel, a
 * software event that stays on through the sweep, opened for the set's
 * scope. Reading batches in turn instead would put each read's own time
 * (an interrupt to the task's CPU, 10-20 us in a VM) into the steps. On a
 * backend that cannot open one (the simulated core, where no time passes
 * between two calls) the batches' own spans are the clock. */
static int sweep_ref_open(pmk_eventset *es)
{
	pmk_open_opts o;
	pmk_attr a;
	if (strcmp(es->be->ops->name, "kernel") != 0)
		return -1;
	pmk__es_open_opts(es, -1, &o);
	o.enable_on_exec = 0; /* enabled below: the exec is past */
	memset(&a, 0, sizeof a);
	a.type = PMK_TYPE_SOFTWARE;
	a.config = 9; /* PERF_COUNT_SW_DUMMY: counts nothing, keeps time */
	a.exclude_kernel = a.exclude_hv = 1;
	int h = es->be->ops->open(es->be, &a, &o, NULL);
	if (h >= 0 && es->be->ops->control(es->be, h, PMK_BE_ENABLE, 0)) {
		es->be->ops->close(es->be, h);
		h = -1;
	}
	return h;
}

static uint64_t sweep_ref_ns(pmk_eventset *es)
{
	uint64_t v[3] = {0, 0, 0};
	es->be->ops->read_one(es->be, es->sweep_ref, v);
	return v[1];
}

static int sweep_begin(pmk_eventset *es, int counters, int steps)
{
	int rc = 0;
	es->sweep_sw = sweep_software();
	es->nbatch = sweep_batches(es, counters > 0 ? counters
						    : pmk__core_counters());
	es->sweep_passes =
		es->nbatch > 0 ? (steps + es->nbatch - 1) / es->nbatch : 0;
	if (!(es->may_mpx || es->sweep_sw) || es->nbatch < 2 ||
	    es->sweep_passes < 1) {
		es->sweep_step = -1; /* nothing to sweep */
		return 0;
	}
	for (int g = 0; g < es->ngroup; g++)
		if (es->grp[g].batch >= 0)
			es->grp[g].sweep_on = group_enabled(es, g);
	es->sweep_ref = sweep_ref_open(es);
	es->sweep_ns = es->sweep_ref >= 0 ? sweep_ref_ns(es) : 0;
	for (int b = 1; b < es->nbatch; b++)
		rc |= batch_control(es, b, PMK_BE_DISABLE);
	es->sweep_mark = batch_enabled(es, 0);
	es->sweep_step = 1;
	return rc ? PMK_EIO : 1;
}

/* The last step: every batch on again; a group's held time is the sweep's
 * length less its own enabled time in it; the read closes the first slice
 * (the sweep). */
static int sweep_end(pmk_eventset *es)
{
	int rc = batch_control(es, -1, PMK_BE_ENABLE);
	if (es->sweep_ref >= 0) {
		es->sweep_ns = sweep_ref_ns(es) - es->sweep_ns;
		es->be->ops->close(es->be, es->sweep_ref);
		es->sweep_ref = -1;
	}
	for (int g = 0; g < es->ngroup; g++) {
		struct group *gr = &es->grp[g];
		if (gr->batch < 0)
			continue;
		uint64_t on = group_enabled(es, g) - gr->sweep_on;
		gr->held_ns = es->sweep_ns > on ? es->sweep_ns - on : 0;
	}
	es->sweep_step = -1;
	es->swept = 1;
	if (!rc)
		rc = pmk__es_read(es);
	return rc ? PMK_EIO : 0;
}

int pmk_eventset_sweep(pmk_eventset *es, int counters, int steps)
{
	int rc, k, prev, next;
	if (!es || !es->opened || !es->started)
		return PMK_ESTATE;
	pthread_mutex_lock(&es->lock);
	k = es->sweep_step;
	if (k <= 0) {
		rc = k == 0 ? sweep_begin(es, counters, steps) : 0;
		pthread_mutex_unlock(&es->lock);
		return rc;
	}
	prev = (k - 1) % es->nbatch;
	next = k % es->nbatch;
	if (es->sweep_ref < 0) {
		/* no reference: prev's span since its enable; no time
		 * passes between two calls on such a backend */
		uint64_t en = batch_enabled(es, prev);
		es->sweep_ns += en > es->sweep_mark ? en - es->sweep_mark : 0;
		es->sweep_mark = batch_enabled(es, next);
	}
	if (k >= es->nbatch * es->sweep_passes || steps == 0) {
		rc = sweep_end(es);
		pthread_mutex_unlock(&es->lock);
		return rc;
	}
	/* next on before prev off: no time with no batch counting */
	rc = batch_control(es, next, PMK_BE_ENABLE);
	rc |= batch_control(es, prev, PMK_BE_DISABLE);
	es->sweep_step = k + 1;
	pthread_mutex_unlock(&es->lock);
	return rc ? PMK_EIO : 1;
}

