/*
 * study.c: one CPI-stack study of a workload: the observed run (every
 * accountant at once) and the references Sim and Sim inv, which rerun the
 * workload with the idealization switches.
 *
 * The references start with every miss-event type idealized (that CPI is
 * their base), then enable the types one at a time and charge each CPI
 * increase to the type just enabled. Sim enables the front end first
 * (branch, L1I, L2I, I-TLB, then L1D, L2D, D-TLB, long latency); Sim inv
 * the back end first, in the opposite order, except that an L1 always comes
 * before the L2 of its side: with a perfect L1 the L2 is never reached, so
 * enabling L2 misses first would charge nothing to L2 and everything to L1
 * (docs/cpistack.md). Both orders end with the real configuration, which is
 * the observed run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pmkit/cpistack.h"

void pmk__cpi_acct_spec_events(pmk_cpi_acct *a, const uint64_t *ev);

static const char *const comp_names[PMK_CPI_NCOMP] = {
    "base", "branch", "l1i", "l2i", "itlb", "l1d", "l2d", "dtlb", "longlat",
};
static const char *const method_names[PMK_CPI_NMETHOD] = {
    "sim",    "sim-inv", "fmt",	  "sfmt",	   "fmt-ov",
    "fmt-wp", "naive",	 "naive-nonspec", "power5",
};

const char *pmk_cpi_comp_name(int comp)
{
	return comp >= 0 && comp < PMK_CPI_NCOMP ? comp_names[comp] : "?";
}

const char *pmk_cpi_method_name(int method)
{
	return method >= 0 && method < PMK_CPI_NMETHOD ? method_names[method]
						       : "?";
}

int pmk_cpi_method_find(const char *name)
{
	for (int i = 0; i < PMK_CPI_NMETHOD; i++)
		if (!strcmp(name, method_names[i]))
			return i;
	return PMK_ENOENT;
}

uint32_t pmk_cpi_comp_perfect(int comp)
{
	switch (comp) {
	case PMK_CPI_BRANCH:
		return PMK_SIM_PERFECT_BP;
	case PMK_CPI_L1I:
		return PMK_SIM_PERFECT_L1I;
	case PMK_CPI_L2I:
		return PMK_SIM_PERFECT_L2I;
	case PMK_CPI_ITLB:
		return PMK_SIM_PERFECT_ITLB;
	case PMK_CPI_L1D:
		return PMK_SIM_PERFECT_L1D;
	case PMK_CPI_L2D:
		return PMK_SIM_PERFECT_L2D;
	case PMK_CPI_DTLB:
		return PMK_SIM_PERFECT_DTLB;
	case PMK_CPI_LONGLAT:
		return PMK_SIM_PERFECT_LONGLAT;
	}
	return 0;
}

void pmk_cpi_ref_order(int inv, int *order)
{
	static const int fwd[PMK_CPI_NCOMP - 1] = {
	    PMK_CPI_BRANCH, PMK_CPI_L1I, PMK_CPI_L2I,  PMK_CPI_ITLB,
	    PMK_CPI_L1D,    PMK_CPI_L2D, PMK_CPI_DTLB, PMK_CPI_LONGLAT,
	};
	static const int rev[PMK_CPI_NCOMP - 1] = {
	    PMK_CPI_LONGLAT, PMK_CPI_DTLB, PMK_CPI_L1D, PMK_CPI_L2D,
	    PMK_CPI_ITLB,    PMK_CPI_L1I,  PMK_CPI_L2I, PMK_CPI_BRANCH,
	};
	memcpy(order, inv ? rev : fwd, sizeof fwd);
}

/* Speculative miss counts for the naive method, from the core's PMU. */
static const struct {
	int comp;
	const char *ev;
} spec_events[] = {
    {PMK_CPI_L1I, "l1i_miss"},	      {PMK_CPI_L2I, "l2_miss:umask=4"},
    {PMK_CPI_ITLB, "itlb_miss"},      {PMK_CPI_L1D, "l1d_miss:umask=1"},
    {PMK_CPI_L2D, "l2_miss:umask=1"}, {PMK_CPI_DTLB, "dtlb_miss:umask=1"},
};
#define NSPEC (int)(sizeof spec_events / sizeof spec_events[0])

/* One simulation; CPI in *cpi. With `acct`, the accountants watch it. */
static int run_one(const pmk_sim_config *base, uint32_t perfect,
		   const char *what, int kind, uint64_t max_insns,
		   pmk_cpi_acct *acct, double *cpi, pmk_cpistack *out,
		   pmk_diag *d)
{
	pmk_sim_config c = *base;
	pmk_sim_source *src = NULL;
	pmk_sim *s = NULL;
	const pmk_sim_stats *st;
	int rc;
	c.perfect = perfect;
	if (acct && c.pmu_counters < NSPEC)
		c.pmu_counters = NSPEC;
	rc = pmk_sim_source_open(&src, what, kind, d);
	if (rc < 0)
		return rc;
	rc = pmk_sim_new(&s, &c, pmk_sim_source_next, src, d);
	if (rc < 0)
		goto out;
	if (acct) {
		pmk_sim_observer o;
		pmk_cpi_acct_observer(acct, &o);
		pmk_sim_set_observer(s, &o);
		for (int i = 0; i < NSPEC; i++) {
			pmk_sim_counter_cfg cc;
			rc = pmk_sim_counter_parse(spec_events[i].ev, &cc, d);
			if (rc < 0 ||
			    (rc = pmk_sim_counter_set(s, i, &cc)) < 0 ||
			    (rc = pmk_sim_counter_enable(s, i, 1)) < 0)
				goto out;
		}
	}
	rc = pmk_sim_run(s, max_insns);
	if (rc < 0) {
		if (d) {
			const pmk_diag *sd = pmk_sim_source_diag(src);
			if (sd && sd->code)
				*d = *sd;
			else
				*d = *pmk_sim_diag(s);
		}
		goto out;
	}
	rc = 0;
	st = pmk_sim_stats_get(s);
	if (!st->committed) {
		rc = PMK_EINVAL;
		if (d) {
			pmk_diag_clear(d);
			d->code = rc;
			snprintf(d->message, sizeof d->message,
				 "'%s' has no instructions", what);
		}
		goto out;
	}
	*cpi = (double)st->cycles / (double)st->committed;
	out->runs++;
	if (acct) {
		uint64_t ev[PMK_CPI_NCOMP] = {0};
		for (int i = 0; i < NSPEC; i++)
			ev[spec_events[i].comp] = pmk_sim_counter_read(s, i);
		pmk__cpi_acct_spec_events(acct, ev);
		out->insns = st->committed;
		out->cycles = st->cycles;
	}
out:
	pmk_sim_free(s);
	pmk_sim_source_close(src);
	return rc;
}

int pmk_cpistack_run(const pmk_sim_config *cfg, const char *what, int kind,
		     int refs, uint64_t max_insns, pmk_cpistack *out,
		     pmk_diag *d)
{
	pmk_cpi_acct *acct = NULL;
	uint32_t all = cfg->perfect;
	double real_cpi = 0, ideal = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if (refs && !strcmp(what, "-")) {
		if (d) {
			pmk_diag_clear(d);
			d->code = PMK_EINVAL;
			snprintf(d->message, sizeof d->message,
				 "the references rerun the workload: it cannot "
				 "be read from stdin");
		}
		return PMK_EINVAL;
	}
	rc = pmk_cpi_acct_new(&acct, cfg);
	if (rc < 0)
		return rc;
	rc = run_one(cfg, cfg->perfect, what, kind, max_insns, acct, &real_cpi,
		     out, d);
	if (rc < 0)
		goto out;
	pmk_cpi_acct_finish(acct, &out->counts);
	out->cpi = real_cpi;
	for (int m = PMK_CPI_FMT; m < PMK_CPI_NMETHOD; m++) {
		for (int k = 0; k < PMK_CPI_NCOMP; k++)
			out->stack[m][k] =
			    out->counts.comp[m][k] / (double)out->insns;
		out->have[m] = 1;
	}
	if (!refs)
		goto out;
	for (int k = 1; k < PMK_CPI_NCOMP; k++)
		all |= pmk_cpi_comp_perfect(k);
	rc = run_one(cfg, all, what, kind, max_insns, NULL, &ideal, out, d);
	if (rc < 0)
		goto out;
	out->ideal_cpi = ideal;
	for (int inv = 0; inv < 2; inv++) {
		int order[PMK_CPI_NCOMP - 1],
		    m = inv ? PMK_CPI_SIM_INV : PMK_CPI_SIM;
		uint32_t p = all, prevp;
		double prev = ideal, now;
		pmk_cpi_ref_order(inv, order);
		out->stack[m][PMK_CPI_BASE] = ideal;
		for (int i = 0; i < PMK_CPI_NCOMP - 1; i++) {
			prevp = p;
			p &= ~pmk_cpi_comp_perfect(order[i]);
			p |= cfg->perfect; /* what the user idealized stays */
			if (i == PMK_CPI_NCOMP - 2) {
				now = real_cpi;
			} else if (p == prevp) {
				now = prev; /* nothing changed */
			} else {
				rc = run_one(cfg, p, what, kind, max_insns,
					     NULL, &now, out, d);
				if (rc < 0)
					goto out;
			}
			out->stack[m][order[i]] = now - prev;
			prev = now;
		}
		out->have[m] = 1;
	}
out:
	pmk_cpi_acct_free(acct);
	return rc;
}

double pmk_cpistack_error(const pmk_cpistack *s, int method, int ref,
			  double *avg)
{
	double mx = 0, sum = 0, tot;
	if (avg)
		*avg = NAN;
	if (method < 0 || method >= PMK_CPI_NMETHOD || ref < 0 ||
	    ref >= PMK_CPI_NMETHOD || !s->have[method] || !s->have[ref])
		return NAN;
	tot = 0;
	for (int k = 0; k < PMK_CPI_NCOMP; k++)
		tot += s->stack[ref][k];
	if (!(tot > 0))
		return NAN;
	for (int k = 0; k < PMK_CPI_NCOMP; k++) {
		double e =
		    fabs(s->stack[method][k] - s->stack[ref][k]) / tot * 100;
		if (e > mx)
			mx = e;
		sum += e;
	}
	if (avg)
		*avg = sum / PMK_CPI_NCOMP;
	return mx;
}

double pmk_cpistack_bound(const pmk_cpistack *s, int method, int comp)
{
	double tot = 0;
	if (method < 0 || method >= PMK_CPI_NMETHOD || comp < 0 ||
	    comp >= PMK_CPI_NCOMP || !s->have[method])
		return NAN;
	for (int k = 0; k < PMK_CPI_NCOMP; k++)
		tot += s->stack[method][k];
	return tot > 0 ? s->stack[method][comp] / tot : NAN;
}

double pmk_cpistack_error_band(const pmk_cpistack *s, int method, double *avg)
{
	double mx = 0, sum = 0, tot = s->cpi;
	if (avg)
		*avg = NAN;
	if (method < 0 || method >= PMK_CPI_NMETHOD || !s->have[method] ||
	    !s->have[PMK_CPI_SIM] || !s->have[PMK_CPI_SIM_INV] || !(tot > 0))
		return NAN;
	for (int k = 0; k < PMK_CPI_NCOMP; k++) {
		double a = s->stack[PMK_CPI_SIM][k],
		       b = s->stack[PMK_CPI_SIM_INV][k];
		double lo = a < b ? a : b, hi = a < b ? b : a;
		double v = s->stack[method][k], e = 0;
		if (v < lo)
			e = lo - v;
		else if (v > hi)
			e = v - hi;
		e = e / tot * 100;
		if (e > mx)
			mx = e;
		sum += e;
	}
	if (avg)
		*avg = sum / PMK_CPI_NCOMP;
	return mx;
}
