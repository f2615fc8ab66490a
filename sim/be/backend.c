/*
 * backend.c: the simulated core as an event-set backend (lib/backend/
 * backend.h), so `pmk_eventset` (and `pmkit stat --sim`) counts on it.
 *
 * Each open() is a virtual counter. Unqualified `inst_retired` and `cycles`
 * go to the fixed counters; the rest need programmable ones. When the
 * groups need more programmable counters than the core has, they are
 * time-multiplexed like the kernel does: every pmu.rotate cycles (20,000 by
 * default) the groups move on by one, as many as fit taking the counters,
 * each counting its enabled and running time (in ns at freq_mhz), so the
 * event-set layer scales them and estimates their error as on hardware.
 * pmk_sim_backend_step() runs a given number of cycles, so that the set
 * can be read in the middle of the run (the kernel path's periodic reads);
 * rotations do not depend on reads. A group enabled or disabled between
 * two steps (the event set's start sweep) is scheduled at once, the
 * rotation starting over, as the kernel does. Counting state (edge,
 * threshold history) restarts when a counter is reprogrammed.
 *
 * Sampling (attr.sample) is not done through this backend yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/backend/backend.h"
#include "pmkit/sim.h"

#define VMAX  64

typedef struct vctr {
	int used, leader, fixed, enabled;
	pmk_sim_counter_cfg cfg;
	uint64_t value, enabled_cyc, running_cyc;
	int phys; /* counter index while scheduled, else -1 */
} vctr;

typedef struct simbe {
	pmk_backend be;
	pmk_sim_config cfg;
	char *what;
	int kind;
	pmk_sim *sim;
	pmk_sim_source *src;
	vctr v[VMAX];
	int nv, ran, turn, done;
	int lead[VMAX], ng, fits; /* groups needing programmable counters */
	uint64_t rotate, rotate_left; /* cycles per rotation, and to the next */
} simbe;

static simbe *SB(pmk_backend *be)
{
	return (simbe *)be;
}

static int fail(pmk_diag *d, int code, const char *msg)
{
	if (d) {
		pmk_diag_clear(d);
		d->code = code;
		snprintf(d->message, sizeof d->message, "%s", msg);
	}
	return code;
}

static int group_size(simbe *s, int leader)
{
	int n = 0;
	for (int i = 0; i < s->nv; i++)
		if (s->v[i].used && s->v[i].leader == leader && !s->v[i].fixed)
			n++;
	return n;
}

static int sb_open(pmk_backend *be, const pmk_attr *a, const pmk_open_opts *o,
		   pmk_diag *d)
{
	simbe *s = SB(be);
	vctr *v;
	int h;
	if (a->type != PMK_TYPE_SIM)
		return fail(d, PMK_ENOTSUP,
			    "the simulated core counts only sim events "
			    "(`pmkit sim list-events`)");
	if (a->sample)
		return fail(d, PMK_ENOTSUP,
			    "sampling through the sim backend is not "
			    "supported yet (use `pmkit sim run --sample`)");
	if (s->ran)
		return fail(d, PMK_ESTATE, "the simulation has already run");
	for (h = 0; h < s->nv && s->v[h].used; h++)
		;
	if (h == VMAX)
		return fail(d, PMK_ETOOMANY, "too many sim events");
	v = &s->v[h];
	memset(v, 0, sizeof *v);
	pmk_sim_counter_decode(a->config, &v->cfg);
	if (v->cfg.event >= pmk_sim_event_count())
		return fail(d, PMK_ENOEVENT, "no such sim event");
	v->cfg.usr = !a->exclude_user;
	v->cfg.os = !a->exclude_kernel;
	v->used = 1;
	v->phys = -1;
	v->leader = o->leader >= 0 ? o->leader : h;
	v->fixed = v->cfg.usr && v->cfg.os && !v->cfg.umask && !v->cfg.edge &&
		   !v->cfg.inv && !v->cfg.thresh &&
		   (v->cfg.event == pmk_sim_event_find("inst_retired") ||
		    v->cfg.event == pmk_sim_event_find("cycles"));
	if (o->leader >= 0 && (o->leader >= s->nv || !s->v[o->leader].used))
		return fail(d, PMK_EINVAL, "bad group leader");
	if (!v->fixed &&
	    group_size(s, v->leader) + 1 > (int)s->cfg.pmu_counters) {
		v->used = 0;
		return fail(d, PMK_ECONFLICT,
			    "the group needs more programmable counters than "
			    "the simulated PMU has (pmu.counters)");
	}
	if (h == s->nv)
		s->nv++;
	return h;
}

static int sb_close(pmk_backend *be, int h)
{
	simbe *s = SB(be);
	if (h < 0 || h >= s->nv || !s->v[h].used)
		return PMK_EINVAL;
	s->v[h].used = 0;
	return 0;
}

static void reschedule(simbe *s);

static int sb_control(pmk_backend *be, int h, int op, int whole)
{
	simbe *s = SB(be);
	if (h < 0 || h >= s->nv || !s->v[h].used)
		return PMK_EINVAL;
	for (int i = 0; i < s->nv; i++) {
		vctr *v = &s->v[i];
		if (!v->used || (i != h && !(whole && v->leader == h)))
			continue;
		if (op == PMK_BE_ENABLE)
			v->enabled = 1;
		else if (op == PMK_BE_DISABLE)
			v->enabled = 0;
		else if (op == PMK_BE_RESET)
			v->value = v->enabled_cyc = v->running_cyc = 0;
	}
	/* as the kernel, a group enabled or disabled while running is
	 * scheduled at once */
	if (s->ran && op != PMK_BE_RESET)
		reschedule(s);
	return 0;
}

static uint64_t ns(const simbe *s, uint64_t cyc)
{
	return cyc * 1000 / s->cfg.freq_mhz;
}

static int sb_read_group(pmk_backend *be, int leader, pmk_group_read *r)
{
	simbe *s = SB(be);
	memset(r, 0, sizeof *r);
	if (leader < 0 || leader >= s->nv || !s->v[leader].used)
		return PMK_EINVAL;
	r->enabled_ns = ns(s, s->v[leader].enabled_cyc);
	r->running_ns = ns(s, s->v[leader].running_cyc);
	for (int i = 0; i < s->nv && r->n < PMK_GROUP_MAX; i++)
		if (s->v[i].used && s->v[i].leader == leader) {
			r->value[r->n] = s->v[i].value;
			r->handle[r->n++] = i;
		}
	return 0;
}

static int sb_read_one(pmk_backend *be, int h, uint64_t out[3])
{
	simbe *s = SB(be);
	if (h < 0 || h >= s->nv || !s->v[h].used)
		return PMK_EINVAL;
	out[0] = s->v[h].value;
	out[1] = ns(s, s->v[h].enabled_cyc);
	out[2] = ns(s, s->v[h].running_cyc);
	return 0;
}

static void sb_free(pmk_backend *be)
{
	simbe *s = SB(be);
	pmk_sim_free(s->sim);
	pmk_sim_source_close(s->src);
	free(s->what);
	free(s);
}

static const struct pmk_backend_ops sim_ops = {
    "sim", sb_open, sb_close, sb_control, sb_read_group, sb_read_one, sb_free,
};

int pmk_sim_backend_new(struct pmk_backend **out, const pmk_sim_config *cfg,
			const char *workload, pmk_diag *d)
{
	simbe *s;
	int rc;
	*out = NULL;
	if ((rc = pmk_sim_config_check(cfg, d)) < 0)
		return rc;
	s = calloc(1, sizeof *s);
	if (!s)
		return PMK_ENOMEM;
	s->be.ops = &sim_ops;
	s->be.priv = s;
	s->cfg = *cfg;
	s->what = strdup(workload);
	if (!s->what) {
		free(s);
		return PMK_ENOMEM;
	}
	rc = pmk_sim_source_open(&s->src, workload, PMK_TRACE_AUTO, d);
	if (rc < 0) {
		sb_free(&s->be);
		return rc;
	}
	rc = pmk_sim_new(&s->sim, cfg, pmk_sim_source_next, s->src, d);
	if (rc < 0) {
		sb_free(&s->be);
		return rc;
	}
	*out = &s->be;
	return 0;
}

pmk_sim *pmk_sim_backend_core(struct pmk_backend *be)
{
	return be && be->ops == &sim_ops ? SB(be)->sim : NULL;
}

/* Leaders of groups that need programmable counters, in open order. */
static int prog_groups(simbe *s, int *lead)
{
	int n = 0;
	for (int i = 0; i < s->nv; i++)
		if (s->v[i].used && s->v[i].leader == i && s->v[i].enabled &&
		    group_size(s, i) > 0)
			lead[n++] = i;
	return n;
}

/* Put groups on the counters from group index `turn` on, as many as fit. */
static void schedule(simbe *s, const int *lead, int ng)
{
	int nprog = (int)s->cfg.pmu_counters, next = 0;
	int nfix = pmk_sim_counter_total(s->sim) - nprog;
	for (int i = 0; i < pmk_sim_counter_total(s->sim) - nfix; i++)
		pmk_sim_counter_enable(s->sim, i, 0);
	for (int i = 0; i < s->nv; i++)
		s->v[i].phys = -1;
	for (int k = 0; k < ng; k++) {
		int g = lead[(s->turn + k) % ng], need = group_size(s, g);
		if (next + need > nprog)
			break;
		for (int i = 0; i < s->nv; i++) {
			vctr *v = &s->v[i];
			if (!v->used || v->leader != g || v->fixed)
				continue;
			v->phys = next++;
			pmk_sim_counter_set(s->sim, v->phys, &v->cfg);
			pmk_sim_counter_enable(s->sim, v->phys, 1);
		}
	}
	/* fixed counters count with their group: always when the group
	 * needs no programmable counter, else while it is scheduled */
	for (int i = 0; i < s->nv; i++) {
		vctr *v = &s->v[i];
		int on = 0;
		if (!v->used || !v->fixed || !v->enabled)
			continue;
		if (group_size(s, v->leader) == 0)
			on = 1;
		for (int j = 0; j < s->nv && !on; j++)
			if (s->v[j].used && s->v[j].leader == v->leader &&
			    !s->v[j].fixed && s->v[j].phys >= 0)
				on = 1;
		if (on)
			v->phys = nprog + (v->cfg.event ==
					   pmk_sim_event_find("cycles"));
	}
	for (int i = nprog; i < nprog + nfix; i++)
		pmk_sim_counter_clear(s->sim, i);
}

/* Add the `dc` cycles just simulated to every enabled counter's times and
 * its scheduled counter's count. */
static void account(simbe *s, uint64_t dc)
{
	int nprog = (int)s->cfg.pmu_counters;
	for (int i = 0; i < s->nv; i++) {
		vctr *v = &s->v[i];
		if (!v->used || !v->enabled)
			continue;
		v->enabled_cyc += dc;
		if (v->phys < 0)
			continue;
		/* a group counts together: running time of its leader is
		 * the group's */
		v->running_cyc += dc;
		v->value += pmk_sim_counter_read(s->sim, v->phys);
		if (!v->fixed)
			pmk_sim_counter_clear(s->sim, v->phys);
	}
	for (int i = nprog; i < pmk_sim_counter_total(s->sim); i++)
		pmk_sim_counter_clear(s->sim, i);
}

/* Schedule the groups enabled now, from the first in turn on; rotation
 * starts over. */
static void reschedule(simbe *s)
{
	int need = 0;
	s->ng = prog_groups(s, s->lead);
	for (int k = 0; k < s->ng; k++)
		need += group_size(s, s->lead[k]);
	s->fits = need <= (int)s->cfg.pmu_counters;
	s->rotate = s->cfg.pmu_rotate ? s->cfg.pmu_rotate : 20000;
	s->rotate_left = s->rotate;
	s->turn = s->ng ? s->turn % s->ng : 0;
	schedule(s, s->lead, s->ng);
}

int pmk_sim_backend_step(struct pmk_backend *be, uint64_t cycles,
			 pmk_diag *d)
{
	simbe *s = SB(be);
	int rc = 1;
	uint64_t left = cycles;
	if (!be || be->ops != &sim_ops)
		return PMK_EINVAL;
	if (s->done)
		return 0;
	if (!s->ran) {
		s->ran = 1;
		reschedule(s);
	}
	while (rc > 0 && (cycles == 0 || left > 0)) {
		uint64_t c0 = pmk_sim_stats_get(s->sim)->cycles, dc, want;
		want = cycles ? left : UINT64_MAX;
		if (!s->fits && want > s->rotate_left)
			want = s->rotate_left;
		rc = want == UINT64_MAX ? pmk_sim_run(s->sim, 0)
					: pmk_sim_run_cycles(s->sim, want);
		dc = pmk_sim_stats_get(s->sim)->cycles - c0;
		account(s, dc);
		left -= dc < left ? dc : left;
		if (s->fits)
			continue;
		s->rotate_left -= dc < s->rotate_left ? dc : s->rotate_left;
		if (s->rotate_left == 0 && rc > 0) {
			s->turn = (s->turn + 1) % (s->ng ? s->ng : 1);
			schedule(s, s->lead, s->ng);
			s->rotate_left = s->rotate;
		}
	}
	if (rc < 0) {
		if (d)
			*d = *pmk_sim_source_diag(s->src);
		return rc;
	}
	if (rc == 0)
		s->done = 1;
	return rc;
}

int pmk_sim_backend_run(struct pmk_backend *be, pmk_diag *d)
{
	int rc;
	if (!be || be->ops != &sim_ops)
		return PMK_EINVAL;
	if (SB(be)->ran)
		return PMK_ESTATE;
	rc = pmk_sim_backend_step(be, 0, d);
	return rc < 0 ? rc : 0;
}
