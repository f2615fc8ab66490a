/*
 * probe.c: the machine probe. Measures the core clock, two random-chase
 * latency curves (TLB-friendly 64-page windows, and random over the whole
 * range), finds the cache levels on the first and the TLB step where the
 * second departs from it, then the line size, bandwidth per level, memory
 * latency, branch-misprediction penalty and FP latencies. Declared sizes
 * (sysfs, CPUID) are put beside the measured ones; docs/bench.md gives the
 * rule for which one is trusted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/levels.h"
#include "bench/penalty.h"
#include "lib/core/textout.h"
#include "pmkit/bench.h"

#define MAXPTS 256

struct ctx {
	pmk_probe_progress cb;
	void *arg;
	double done, total;
};

static void step(struct ctx *c, const char *what, double work)
{
	if (c->cb)
		c->cb(c->arg, what, c->total > 0 ? c->done / c->total : 0);
	c->done += work;
}

static void cpu_name(char *out, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	snprintf(out, n, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *c = strchr(line, ':');
		if (c && !strncmp(line, "model name", 10)) {
			c++;
			while (*c == ' ')
				c++;
			c[strcspn(c, "\n")] = 0;
			snprintf(out, n, "%s", c);
			break;
		}
	}
	fclose(f);
}

/* A point of the window curve more than this much slower than a larger
 * footprint was slowed by something else (a larger footprint cannot be
 * faster): it is measured again. */
#define DISTURBED 1.15
/* Repeated measurements stop at this footprint: beyond it the chains are
 * slow to build (a level found beyond keeps its single reading). */
#define REPEAT_MAX (16u << 20)

static int chase_at(pmk_chase *ch, size_t size, const pmk_bench_cfg *cfg,
		    double *v)
{
	pmk_bench_stat st;
	int rc;
	if (pmk_chase_build(ch, size) < 1)
		return PMK_ENOMEM;
	if ((rc = pmk_chase_time(ch, cfg, &st)))
		return rc;
	*v = st.min_ns;
	return 0;
}

/*
 * Pass 1: both curves, interleaved size by size (so a noisy neighbour
 * disturbs both alike), smallest footprint first. Pass 2: the window curve
 * again up to REPEAT_MAX, largest first, keeping the minimum: a neighbour's
 * burst that slowed a run of sizes in pass 1 falls on other sizes in pass
 * 2, and the all-pages curve with it (each pass's readings are kept: the
 * TLB fit is made on each, and refused when they disagree).
 *
 * The largest footprint is measured first; the points of the coarse part
 * of the grid (beyond FINE_MAX) are skipped, and dropped from the curves,
 * once the last three points measured are all within MEM_NEAR of it: the
 * curve has reached memory (it cannot fall again), and those chains take
 * 0.1-0.6 s each to build.
 */
#define FINE_MAX (32u << 20)
#define MEM_NEAR 0.9
/* The raw readings of each pass, kept to compare them (twice_*): w1/a1 the
 * first pass of the window and all-pages curves, w2/a2 the second (NAN
 * beyond REPEAT_MAX, measured once). */
struct passes {
	double w1[MAXPTS], w2[MAXPTS], a1[MAXPTS], a2[MAXPTS];
};
static int curves(pmk_probe *p, const pmk_bench_cfg *cfg, struct ctx *c,
		  struct passes *ps)
{
	pmk_lat_cfg lc;
	pmk_chase *ch[2] = {NULL, NULL};
	double *lat[2] = {p->lat_window, p->lat_all};
	int rc = 0, last = p->npts - 1, k = 0;
	pmk_lat_cfg_default(&lc);
	for (int m = 0; m < 2 && rc == 0; m++) {
		lc.mode = m ? PMK_LAT_RANDOM_ALL : PMK_LAT_RANDOM;
		rc = pmk_chase_new(&ch[m], p->sizes[last], &lc);
	}
	for (int m = 0; m < 2 && rc == 0; m++)
		rc = chase_at(ch[m], p->sizes[last], cfg, &lat[m][last]);
	/* k: points kept so far (moved down over the skipped ones) */
	for (int i = 0; i < last && rc == 0; i++) {
		step(c, "latency curves", 1);
		if (p->sizes[i] > FINE_MAX && k >= 3 &&
		    fmin(lat[0][k - 1], fmin(lat[0][k - 2], lat[0][k - 3])) >=
			MEM_NEAR * lat[0][last])
			continue;
		p->sizes[k] = p->sizes[i];
		for (int m = 0; m < 2 && rc == 0; m++)
			rc = chase_at(ch[m], p->sizes[k], cfg, &lat[m][k]);
		k++;
	}
	p->sizes[k] = p->sizes[last];
	lat[0][k] = lat[0][last];
	lat[1][k] = lat[1][last];
	p->npts = k + 1;
	for (int i = 0; i < p->npts; i++) {
		ps->w1[i] = lat[0][i];
		ps->a1[i] = lat[1][i];
		ps->w2[i] = ps->a2[i] = NAN;
	}
	/* pass 2, both curves again, interleaved, largest first: the second
	 * reading of every figure fitted on them (levels, TLB) */
	for (int i = p->npts - 1; i >= 0 && rc == 0; i--) {
		double v[2];
		if (p->sizes[i] > REPEAT_MAX)
			continue;
		step(c, "latency curves", 1);
		for (int m = 0; m < 2 && rc == 0; m++)
			rc = chase_at(ch[m], p->sizes[i], cfg, &v[m]);
		if (rc)
			break;
		ps->w2[i] = v[0];
		ps->a2[i] = v[1];
		for (int m = 0; m < 2; m++)
			if (v[m] < lat[m][i])
				lat[m][i] = v[m];
	}
	pmk_chase_free(ch[0]);
	pmk_chase_free(ch[1]);
	return rc;
}

/*
 * A repair pass: the window curve's points up to REPEAT_MAX that are more
 * than DISTURBED slower than some larger footprint are measured again
 * (largest first), keeping the minimum. The probe spreads its repair
 * passes between its other measurements, so that they fall in other
 * moments of a neighbour's activity. Returns how many points were
 * disturbed, or an error.
 */
static int repair(pmk_probe *p, pmk_chase *ch, const pmk_bench_cfg *cfg,
		  struct ctx *c)
{
	int idx[MAXPTS], n, rc;
	n = pmk__levels_disturbed(p->sizes, p->lat_window, p->npts, REPEAT_MAX,
				  DISTURBED, idx, MAXPTS);
	if (n > 0)
		step(c, "latency repairs", 0);
	for (int k = 0; k < n; k++) {
		double v;
		if ((rc = chase_at(ch, p->sizes[idx[k]], cfg, &v)))
			return rc;
		if (v < p->lat_window[idx[k]])
			p->lat_window[idx[k]] = v;
	}
	return n;
}

/* The capacity for an interpolated edge `x`: the nearest (in log scale) of
 * 2^k and 3 * 2^(k-1), the sizes caches come in. The edge of a cache with
 * random physical pages moves by a grid point or two between runs (lines
 * lost to conflicts before it is full, a neighbour's share of a shared
 * level); the snap keeps the answer the same from run to run. */
static size_t nearest(double x)
{
	double best = 1024, bd = INFINITY;
	for (int k = 10; k < 40; k++) {
		double c[2] = {exp2(k), 3 * exp2(k - 1)};
		for (int j = 0; j < 2; j++)
			if (fabs(log(x / c[j])) < bd)
				bd = fabs(log(x / c[j])), best = c[j];
	}
	return (size_t)best;
}

static void human(size_t b, char *buf, size_t n)
{
	if (b >= (1u << 20))
		snprintf(buf, n, "%.4g MiB", (double)b / (1 << 20));
	else
		snprintf(buf, n, "%.4g KiB", (double)b / 1024);
}

static void trust(pmk_probe_level *l)
{
	char d[20], m[20];
	human(l->declared_bytes, d, sizeof d);
	human(l->measured_bytes, m, sizeof m);
	if (!l->declared_bytes) {
		l->size_bytes = l->measured_bytes;
		snprintf(l->trusted, sizeof l->trusted, "measured");
		snprintf(l->why, sizeof l->why, "nothing declared");
	} else if (fabs(log2((double)l->declared_bytes /
			     (double)l->measured_bytes)) <= 0.585) {
		l->size_bytes = l->declared_bytes;
		snprintf(l->trusted, sizeof l->trusted, "declared");
		snprintf(l->why, sizeof l->why,
			 "declared %s agrees with the curve (%s)", d, m);
	} else {
		l->size_bytes = l->measured_bytes;
		snprintf(l->trusted, sizeof l->trusted, "measured");
		snprintf(l->why, sizeof l->why,
			 "declared %s is %.3gx the curve's edge (%s)", d,
			 (double)l->declared_bytes / (double)l->measured_bytes,
			 m);
	}
}

/* Tolerances for two readings of one figure (the larger over the smaller,
 * less one). Latencies: a busy machine slows a chase by far more than
 * this, and a clean one repeats within a few per cent. */
#define TWICE_TOL 0.15
#define TWICE_TOL_ENTRIES 0.25

static const char *const fig_name[PMK_PROBE_NFIG] = {
    "L1_lat",	 "L2_lat",	       "L3_lat",
    "Mem_lat",	 "BR_miss_lat",	       "FP_add_sub_mul_lat",
    "FP_div_sqrt_lat", "Data_TLB_lat", "TLB entries"};

static void twice(pmk_probe *p, int fig, double a, double b, double tol,
		  const char *unit)
{
	pmk_probe_twice *t = &p->twice[fig];
	double lo = fmin(a, b), hi = fmax(a, b);
	t->measured = 1;
	t->first = a;
	t->second = b;
	if (!(lo > 0) || !(hi <= lo * (1 + tol))) {
		t->refused = 1;
		snprintf(t->why, sizeof t->why,
			 "measured twice, %.3g and %.3g %s: more than %.0f %% "
			 "apart",
			 a, b, unit, tol * 100);
	}
}

/* After two readings disagreed, a third (r[2]): the figure stands when two
 * of the three agree, the pair with the lower values (a disturbance slows
 * a measurement); `why` says so. Returns the index of the reading left
 * out, or -1 when no two agree (refused). */
static int third(pmk_probe *p, int fig, const double r[3], double tol,
		 const char *unit)
{
	static const int pr[3][2] = {{0, 1}, {0, 2}, {1, 2}};
	pmk_probe_twice *t = &p->twice[fig];
	int best = -1;
	for (int k = 0; k < 3; k++) {
		double a = r[pr[k][0]], b = r[pr[k][1]];
		double lo = fmin(a, b), hi = fmax(a, b);
		if (lo > 0 && hi <= lo * (1 + tol) &&
		    (best < 0 || hi < fmax(r[pr[best][0]], r[pr[best][1]])))
			best = k;
	}
	t->measured = 1;
	if (best < 0) {
		t->refused = 1;
		snprintf(t->why, sizeof t->why,
			 "measured three times, %.3g, %.3g and %.3g %s: no two "
			 "within %.0f %%",
			 r[0], r[1], r[2], unit, tol * 100);
		return -1;
	}
	t->refused = 0;
	t->first = r[pr[best][0]];
	t->second = r[pr[best][1]];
	snprintf(t->why, sizeof t->why,
		 "readings %.3g and %.3g %s disagreed; a third, %.3g, agrees "
		 "with %.3g",
		 r[0], r[1], unit, r[2], best == 1 ? r[0] : r[1]);
	return 3 - pr[best][0] - pr[best][1];
}

static void refuse(pmk_probe *p, int fig, const char *why)
{
	p->twice[fig].measured = 1;
	if (!p->twice[fig].refused) {
		p->twice[fig].refused = 1;
		snprintf(p->twice[fig].why, sizeof p->twice[fig].why, "%s",
			 why);
	}
}

/* A level's latency by each pass: the median of the pass's readings over
 * the plateau's points (those it measured). */
static void twice_level(pmk_probe *p, int fig, const struct passes *ps,
			int first, int last)
{
	double v1[MAXPTS], v2[MAXPTS];
	int n1 = 0, n2 = 0;
	for (int i = first; i <= last && i < p->npts; i++) {
		v1[n1++] = ps->w1[i];
		if (!isnan(ps->w2[i]))
			v2[n2++] = ps->w2[i];
	}
	if (n1 == 0)
		return;
	if (n2 == 0) {
		refuse(p, fig,
		       "measured once: its plateau lies beyond the footprints "
		       "measured twice");
		return;
	}
	twice(p, fig, pmk_bench_median(v1, n1), pmk_bench_median(v2, n2),
	      TWICE_TOL, "ns");
}

int pmk_probe_run(pmk_probe *p, unsigned flags, int cpu, size_t max_bytes,
		  pmk_probe_progress cb, void *cb_arg)
{
	return pmk_probe_run_at(p, flags, cpu, max_bytes, 0, cb, cb_arg);
}

int pmk_probe_run_at(pmk_probe *p, unsigned flags, int cpu, size_t max_bytes,
		     double ghz, pmk_probe_progress cb, void *cb_arg)
{
	int quick = flags & PMK_PROBE_QUICK, rc, nl, lt = -1;
	pmk_bench_cfg cfg;
	pmk_declared dec;
	pmk_level lv[8];
	struct ctx c = {cb, cb_arg, 0, 0};
	uint64_t t0 = pmk_bench_now_ns();
	struct passes ps; /* 8 KiB */
	size_t mem = quick ? 128u << 20 : 256u << 20;

	if (!p)
		return PMK_EINVAL;
	memset(p, 0, sizeof *p);
	if (max_bytes) {
		if (max_bytes < (64u << 10))
			return PMK_EINVAL;
		mem = max_bytes - max_bytes % 4096;
	}
	rc = pmk_bench_pin(cpu);
	if (rc < 0)
		return rc;
	p->cpu = rc;
	pmk_bench_cfg_default(&cfg);
	cfg.cpu = p->cpu;
	if (quick)
		cfg.sample_ms = 2;
	cpu_name(p->cpu_name, sizeof p->cpu_name);
	pmk_declared_caches(&dec);
	p->tlb_entries_declared = dec.dtlb_entries;

	p->sizes = calloc(MAXPTS, sizeof *p->sizes);
	p->lat_window = calloc(MAXPTS, sizeof(double));
	p->lat_all = calloc(MAXPTS, sizeof(double));
	if (!p->sizes || !p->lat_window || !p->lat_all) {
		pmk_probe_release(p);
		return PMK_ENOMEM;
	}
	/* 8 points per octave up to 32 MiB (the cache levels), then 2 (the
	 * climb to memory: big chains are slow to build) */
	{
		size_t split = mem < FINE_MAX ? mem : FINE_MAX;
		p->npts = pmk_bench_sizes(8192, split, 8, 64, p->sizes, MAXPTS);
		if (mem > split)
			p->npts += pmk_bench_sizes(split + 1, mem, 2, 4096,
						   p->sizes + p->npts,
						   MAXPTS - p->npts);
	}
	c.total = 13;
	for (int i = 0; i < p->npts; i++)
		c.total += p->sizes[i] <= REPEAT_MAX ? 2 : 1;
	c.total += 3; /* memory, branch and FP measured twice */
	/* Short samples, more of them: on a busy machine a sample that the
	 * scheduler interrupted is slower, and the minimum keeps a clean one.
	 * A neighbour's longer bursts are met by measuring again later (the
	 * second pass and the repairs), not by longer samples.
	 */
	cfg.sample_ms = 1;
	cfg.samples = 5;

	step(&c, "core clock", 1);
	if (ghz > 0) {
		/* the user's clock (--ghz): still checked, still refused
		 * outside the plausible range */
		pmk_clock d;
		pmk_bench_clock(&cfg, &d);
		p->clock = d;
		p->clock.ghz = ghz;
		p->clock.counter_ghz = d.counter_ghz;
		snprintf(p->clock.method, sizeof p->clock.method,
			 "given by the user");
		p->clock.refused = 0;
		p->clock.why[0] = 0;
		rc = pmk_bench_clock_check(&p->clock);
	} else {
		rc = pmk_bench_clock(&cfg, &p->clock);
	}
	if (rc)
		return rc;
	p->ghz = p->clock.ghz;
	if ((rc = curves(p, &cfg, &c, &ps)))
		return rc;
	/* Repair passes (repair()) between the measurements that need no
	 * level: memory latency, branch misprediction, FP latencies. */
	{
		pmk_lat_cfg lc;
		pmk_chase *rep, *mch = NULL;
		double mem1 = NAN;
		size_t top = p->sizes[p->npts - 1];
		pmk_lat_cfg_default(&lc);
		if ((rc = pmk_chase_new(
			 &rep, top < REPEAT_MAX ? top : REPEAT_MAX, &lc)))
			return rc;
		if ((rc = repair(p, rep, &cfg, &c)) < 0)
			goto out;
		p->mem_bytes = mem;
		p->mem_window64_ns = p->lat_window[p->npts - 1];
		p->mem_all_ns = p->lat_all[p->npts - 1];
		/* Memory latency: 256-byte elements in 64-page windows, so
		 * the adjacent-line prefetcher cannot serve half of the loads
		 * (with 64-byte elements the partner line is often fetched
		 * already: ~100 ns instead of ~145 here); multichase's default
		 * stride. Each pointer sits at a random word of its element
		 * (lat.c), so no pattern prefetcher sees a fixed offset. */
		/* Each measured twice, at different moments (the memory
		 * chain before and after the branch test, branch before and
		 * after FP, FP before and after a repair pass). */
		{
			pmk_bench_stat st;
			lc.stride = 256;
			step(&c, "memory latency", 1);
			p->mem_ns = p->mem_window64_ns;
			if (pmk_chase_new(&mch, mem, &lc) == 0) {
				if (pmk_chase_build(mch, mem) > 0 &&
				    pmk_chase_time(mch, &cfg, &st) == 0)
					mem1 = st.min_ns;
			}
		}
		if ((rc = repair(p, rep, &cfg, &c)) < 0)
			goto out;
		/* branch misprediction and FP latencies: many short samples */
		{
			pmk_bench_cfg bc = cfg;
			double rnd, sorted, fp[2][4], br[2];
			bc.sample_ms = 1;
			bc.samples = 15;
			step(&c, "branch misprediction", 1);
			if ((rc = pmk__bench_branch(&bc, &rnd, &sorted)))
				goto out;
			/* random outcomes mispredict half the time */
			br[0] = (rnd - sorted) / 0.5;
			step(&c, "memory latency", 1);
			if (mch) {
				pmk_bench_stat st;
				if (!isnan(mem1) &&
				    pmk_chase_time(mch, &cfg, &st) == 0) {
					double r[3] = {mem1, st.min_ns, NAN};
					twice(p, PMK_PROBE_FIG_MEM, r[0], r[1],
					      TWICE_TOL, "ns");
					p->mem_ns = fmin(r[0], r[1]);
					if (p->twice[PMK_PROBE_FIG_MEM].refused &&
					    pmk_chase_time(mch, &cfg, &st) ==
						0) {
						int out;
						r[2] = st.min_ns;
						out = third(p, PMK_PROBE_FIG_MEM, r,
							    TWICE_TOL, "ns");
						if (out >= 0)
							p->mem_ns = fmin(
							    r[(out + 1) % 3],
							    r[(out + 2) % 3]);
					}
				}
				pmk_chase_free(mch);
				mch = NULL;
			}
			if ((rc = repair(p, rep, &cfg, &c)) < 0)
				goto out;
			step(&c, "floating point", 1);
			if ((rc = pmk__bench_fp(&bc, fp[0])))
				goto out;
			step(&c, "branch misprediction", 1);
			if ((rc = pmk__bench_branch(&bc, &rnd, &sorted)))
				goto out;
			br[1] = (rnd - sorted) / 0.5;
			twice(p, PMK_PROBE_FIG_BR, br[0], br[1], TWICE_TOL,
			      "ns");
			/* a penalty read too high or too low alike: the mean */
			p->br_miss_cycles = (br[0] + br[1]) / 2 * p->ghz;
			if (p->twice[PMK_PROBE_FIG_BR].refused) {
				double r[3] = {br[0], br[1], 0};
				if ((rc = pmk__bench_branch(&bc, &rnd,
							    &sorted)))
					goto out;
				r[2] = (rnd - sorted) / 0.5;
				if (third(p, PMK_PROBE_FIG_BR, r, TWICE_TOL,
					  "ns") >= 0)
					p->br_miss_cycles =
					    (p->twice[PMK_PROBE_FIG_BR].first +
					     p->twice[PMK_PROBE_FIG_BR].second) /
					    2 * p->ghz;
			}
			if ((rc = repair(p, rep, &cfg, &c)) < 0)
				goto out;
			step(&c, "floating point", 1);
			if ((rc = pmk__bench_fp(&bc, fp[1])))
				goto out;
			twice(p, PMK_PROBE_FIG_FP_ADDMUL,
			      fmax(fp[0][0], fp[0][1]),
			      fmax(fp[1][0], fp[1][1]), TWICE_TOL, "ns");
			twice(p, PMK_PROBE_FIG_FP_DIVSQRT,
			      fmax(fp[0][2], fp[0][3]),
			      fmax(fp[1][2], fp[1][3]), TWICE_TOL, "ns");
			/* a chain can only be slowed: the faster reading */
			for (int k = 0; k < 4; k++)
				fp[0][k] = fmin(fp[0][k], fp[1][k]);
			if (p->twice[PMK_PROBE_FIG_FP_ADDMUL].refused ||
			    p->twice[PMK_PROBE_FIG_FP_DIVSQRT].refused) {
				double f3[4];
				if ((rc = pmk__bench_fp(&bc, f3)))
					goto out;
				for (int g = 0; g < 2; g++) {
					int fig = g ? PMK_PROBE_FIG_FP_DIVSQRT
						    : PMK_PROBE_FIG_FP_ADDMUL;
					double r[3] = {
					    p->twice[fig].first,
					    p->twice[fig].second,
					    fmax(f3[2 * g], f3[2 * g + 1])};
					if (p->twice[fig].refused)
						third(p, fig, r, TWICE_TOL,
						      "ns");
				}
				for (int k = 0; k < 4; k++)
					fp[0][k] = fmin(fp[0][k], f3[k]);
			}
			p->fp_add_cycles = fp[0][0] * p->ghz;
			p->fp_mul_cycles = fp[0][1] * p->ghz;
			p->fp_div_cycles = fp[0][2] * p->ghz;
			p->fp_sqrt_cycles = fp[0][3] * p->ghz;
		}
		rc = repair(p, rep, &cfg, &c);
	out:
		pmk_chase_free(mch);
		pmk_chase_free(rep);
		if (rc < 0)
			return rc;
	}

	/* cache levels on the TLB-friendly curve, through its lower envelope
	 * (levels.c): a point slowed by a neighbour must not move an edge or
	 * break a plateau. A prefetch-fooled tail is looked for first, on the
	 * curve as measured. */
	double *sm = calloc((size_t)p->npts, sizeof *sm);
	if (!sm)
		return PMK_ENOMEM;
	if (pmk_levels_tail(p->sizes, p->lat_window, p->npts, &p->tail_peak_ns,
			    &p->tail_peak_bytes, &p->tail_end_ns) == 1)
		p->mem_flags |= PMK_PROBE_PREFETCH_TAIL;
	pmk_levels_envelope(p->lat_window, p->npts, sm);
	nl = pmk_levels_detect(p->sizes, sm, p->npts, 1.15, 1.5, lv, 8);
	if (nl < 1) {
		free(sm);
		return nl < 0 ? nl : PMK_ESTATE;
	}
	p->mem_cycles = p->mem_ns * p->ghz;
	for (int l = 0; l + 1 < nl && p->nlevels < PMK_PROBE_MAX_LEVELS; l++) {
		pmk_probe_level *L = &p->lv[p->nlevels];
		double e =
		    pmk_levels_edge(p->sizes, sm, p->npts, &lv[l], &lv[l + 1]);
		L->level = p->nlevels + 1;
		snprintf(L->type, sizeof L->type,
			 L->level == 1 ? "data" : "unified");
		L->measured_bytes = nearest(e);
		L->edge_bytes = e;
		L->flags = lv[l].flags;
		L->declared_bytes = L->level == 1   ? dec.l1d
				    : L->level == 2 ? dec.l2
				    : L->level == 3 ? dec.l3
						    : 0;
		L->latency_ns = lv[l].latency_ns;
		L->latency_cycles = L->latency_ns * p->ghz;
		trust(L);
		if (L->level <= 3)
			twice_level(p, PMK_PROBE_FIG_L1 + L->level - 1, &ps,
				    lv[l].first, lv[l].last);
		p->nlevels++;
	}
	if (!p->twice[PMK_PROBE_FIG_MEM].measured)
		refuse(p, PMK_PROBE_FIG_MEM,
		       "the 256-byte chain could not be built or timed twice");
	if (nl > 0 && (lv[nl - 1].flags & PMK_LEVEL_AMBIGUOUS))
		p->mem_flags |= PMK_PROBE_AMBIGUOUS;
	p->declared_l3_bytes = dec.l3;
	/* No third plateau while the machine declares an L3 inside the
	 * footprint: the documented fallback reads the L3 latency on the
	 * curve at half the declared size, provided it is below half of
	 * memory there (else it is the climb to memory, and the constants
	 * file says why L3_lat is missing). */
	if (p->nlevels == 2 && dec.l3 > p->lv[1].size_bytes &&
	    dec.l3 / 2 <= p->sizes[p->npts - 1]) {
		int k = -1;
		for (int i = 0; i < p->npts; i++)
			if (p->sizes[i] <= dec.l3 / 2)
				k = i;
		if (k >= 0 && sm[k] < lv[nl - 1].latency_ns / 2) {
			pmk_probe_level *L = &p->lv[p->nlevels++];
			char d[20];
			human(dec.l3, d, sizeof d);
			L->level = 3;
			snprintf(L->type, sizeof L->type, "unified");
			L->declared_bytes = L->size_bytes = dec.l3;
			L->latency_ns = sm[k];
			L->latency_cycles = L->latency_ns * p->ghz;
			L->flags = PMK_PROBE_LEVEL_FALLBACK;
			snprintf(L->trusted, sizeof L->trusted, "declared");
			snprintf(L->why, sizeof L->why,
				 "no third plateau on the curve: declared %s, "
				 "latency read at half of it (fallback rule)",
				 d);
			twice_level(p, PMK_PROBE_FIG_L3, &ps, k, k);
		}
	}

	/* TLB: on the plateau of the first cache level that spans more
	 * than one page count, fit the gap between the all-pages curve and
	 * the window curve with gap(P) = m * max(0, 1 - E / P) (a TLB of E
	 * entries hit with probability E / P under random page order; m the
	 * cost of a miss). A TLB step is not a cache: it is absent from the
	 * window curve by construction. */
	for (int l = 0; l + 1 < nl && lt < 0; l++) {
		double e, m;
		if (pmk_tlb_fit(p->sizes, p->lat_window, p->lat_all, p->npts,
				&lv[l], &e, &m) == 1) {
			lt = l;
			p->tlb_entries_fit = e;
			p->tlb_reach_bytes = (size_t)e * 4096;
			p->tlb_miss_ns = m;
			p->tlb_miss_cycles = m * p->ghz;
		}
	}
	/* The fit above is on the minimum of two passes of the all-pages
	 * curve. The entries are fitted again on each pass alone, and the
	 * step refused when the two disagree, or when it is not the declared
	 * L1 DTLB (more than 1.5x away); with the declared entries confirmed,
	 * they are the reach, so it reads the same from run to run. The miss
	 * cost is then read on each pass at that same reach (a free fit
	 * trades entries against cost), and refused when the two disagree;
	 * the cost reported is the one on the minimum of the passes. */
	if (lt >= 0) {
		double e1 = 0, m1 = 0, e2 = 0, m2 = 0, a2[MAXPTS], reach;
		int ok1, ok2;
		for (int i = 0; i < p->npts; i++) /* measured once: pass 1 */
			a2[i] = isnan(ps.a2[i]) ? ps.a1[i] : ps.a2[i];
		ok1 = pmk_tlb_fit(p->sizes, p->lat_window, ps.a1, p->npts,
				  &lv[lt], &e1, &m1) == 1;
		ok2 = pmk_tlb_fit(p->sizes, p->lat_window, a2, p->npts,
				  &lv[lt], &e2, &m2) == 1;
		if (!ok1 || !ok2) {
			char why[160];
			snprintf(why, sizeof why,
				 "the step is seen on %s pass of the all-pages "
				 "curve only",
				 ok1 ? "the first" : "the second");
			p->twice[PMK_PROBE_FIG_TLB_ENTRIES].first = e1;
			p->twice[PMK_PROBE_FIG_TLB_ENTRIES].second = e2;
			refuse(p, PMK_PROBE_FIG_TLB_ENTRIES, why);
		} else {
			twice(p, PMK_PROBE_FIG_TLB_ENTRIES, e1, e2,
			      TWICE_TOL_ENTRIES, "entries");
		}
		if (p->tlb_entries_declared) {
			double r = p->tlb_entries_fit /
				   (double)p->tlb_entries_declared;
			if (r >= 1 / 1.5 && r <= 1.5) {
				p->tlb_reach_bytes =
				    p->tlb_entries_declared * 4096;
			} else {
				char why[160];
				snprintf(why, sizeof why,
					 "the step at %.0f entries is not the "
					 "declared %zu-entry L1 DTLB",
					 p->tlb_entries_fit,
					 p->tlb_entries_declared);
				refuse(p, PMK_PROBE_FIG_TLB_ENTRIES, why);
			}
		}
		reach = (double)(p->tlb_reach_bytes / 4096);
		m1 = pmk__tlb_cost_at(p->sizes, p->lat_window, ps.a1, p->npts,
				      &lv[lt], reach);
		m2 = pmk__tlb_cost_at(p->sizes, p->lat_window, a2, p->npts,
				      &lv[lt], reach);
		twice(p, PMK_PROBE_FIG_TLB_MISS, m1, m2, TWICE_TOL, "ns");
		if (p->twice[PMK_PROBE_FIG_TLB_ENTRIES].refused) {
			char why[160];
			snprintf(why, sizeof why, "its reach is refused (%.130s)",
				 p->twice[PMK_PROBE_FIG_TLB_ENTRIES].why);
			p->twice[PMK_PROBE_FIG_TLB_MISS].refused = 0;
			refuse(p, PMK_PROBE_FIG_TLB_MISS, why);
		}
		m1 = pmk__tlb_cost_at(p->sizes, p->lat_window, p->lat_all,
				      p->npts, &lv[lt], reach);
		if (m1 > 0) {
			p->tlb_miss_ns = m1;
			p->tlb_miss_cycles = m1 * p->ghz;
		}
	}
	free(sm);

	/* line size: two loads per random block; free second load = same line
	 */
	{
		/* footprint: beyond L1, within L2 and the first TLB */
		size_t blocks[] = {16, 32, 64, 128, 256, 512},
		       range = 256u << 10;
		double t[6], lo = INFINITY, hi = 0;
		int nb = 6;
		step(&c, "line size", 2);
		if (p->nlevels > 0 && p->lv[0].size_bytes * 4 > range)
			range = p->lv[0].size_bytes * 4;
		for (int i = 0; i < nb; i++)
			for (int r = 0; r < 3; r++) {
				double v;
				if ((rc = pmk__bench_pair(blocks[i], range,
							  &cfg, &v)))
					return rc;
				if (r == 0 || v < t[i])
					t[i] = v;
			}
		for (int i = 0; i < nb; i++)
			lo = fmin(lo, t[i]), hi = fmax(hi, t[i]);
		double mid = (lo + hi) / 2;
		p->line_bytes = blocks[0];
		for (int i = 0; i < nb; i++)
			if (t[i] < mid)
				p->line_bytes = blocks[i];
		for (int l = 0; l < p->nlevels; l++)
			p->lv[l].line_bytes =
			    dec.line ? dec.line : p->line_bytes;
	}

	/* bandwidth per level and for memory */
	for (int l = 0; l < p->nlevels; l++) {
		pmk_bw_result r;
		step(&c, "bandwidth", 1);
		if (pmk_bw_run(PMK_BW_RD, p->lv[l].size_bytes / 2, 1, &cfg,
			       &r) == 0)
			p->lv[l].bw_rd_mb_s = r.mb_s_median;
	}
	{
		pmk_bw_result r;
		step(&c, "bandwidth", 1);
		if (pmk_bw_run(PMK_BW_RD, mem, 1, &cfg, &r) == 0)
			p->mem_bw_mb_s = r.mb_s_median;
	}

	/* the chains again: a busy machine can only make a chain slower, so
	 * the faster of the two readings is the better one (not when the
	 * clock is the user's or a counter's) */
	if (!(ghz > 0) && !(p->clock.counter_ghz > 0)) {
		pmk_clock k;
		if (pmk_bench_clock(&cfg, &k) == 0 && k.ghz > p->ghz) {
			double r = k.ghz / p->ghz;
			p->clock = k;
			p->ghz = k.ghz;
			for (int l = 0; l < p->nlevels; l++)
				p->lv[l].latency_cycles *= r;
			p->mem_cycles *= r;
			p->tlb_miss_cycles *= r;
			p->br_miss_cycles *= r;
			p->fp_add_cycles *= r, p->fp_mul_cycles *= r;
			p->fp_div_cycles *= r, p->fp_sqrt_cycles *= r;
		}
	}
	step(&c, "done", 0);
	p->seconds = (double)(pmk_bench_now_ns() - t0) / 1e9;
	return 0;
}

void pmk_probe_release(pmk_probe *p)
{
	if (!p)
		return;
	free(p->sizes);
	free(p->lat_window);
	free(p->lat_all);
	p->sizes = NULL;
	p->lat_window = p->lat_all = NULL;
	p->npts = 0;
}

static const pmk_probe_level *level(const pmk_probe *p, int n)
{
	for (int i = 0; i < p->nlevels; i++)
		if (p->lv[i].level == n)
			return &p->lv[i];
	return NULL;
}

/* A figure refused for disagreeing readings: its note in place of its
 * #define. Returns 1 when refused. */
static int refused(const pmk_probe *p, FILE *f, int fig)
{
	const pmk_probe_twice *t = &p->twice[fig];
	if (!t->refused)
		return 0;
	fprintf(f, "# %s: not written: %s.\n", fig_name[fig], t->why);
	return 1;
}

int pmk_probe_write_constants(const pmk_probe *p, FILE *f)
{
	const pmk_probe_level *l1 = level(p, 1), *l2 = level(p, 2),
			      *l3 = level(p, 3);
	int l1_refused = 0, l2_refused = 0;
	fprintf(f, "# Machine constants in cycles, measured by `pmkit probe` "
		   "(seed 002 format).\n");
	fprintf(f, "# CPU: %s; pinned to CPU %d.\n", p->cpu_name, p->cpu);
	fprintf(f,
		"# Core clock %.3f GHz from the %s; chains: %s %.3f GHz, %s "
		"%.3f GHz%s",
		p->ghz, p->clock.method, p->clock.chain1, p->clock.chain1_ghz,
		p->clock.chain2, p->clock.chain2_ghz,
		p->clock.counter_ghz > 0 ? "" : "; no cycles counter");
	if (p->clock.declared_ghz > 0)
		fprintf(f, "; declared %.3f GHz (%s)", p->clock.declared_ghz,
			p->clock.declared_from);
	fprintf(f, ". Cycles = ns x clock.\n");
	fprintf(f,
		"# Mem_lat: random chase of 256-byte elements (pointer at a "
		"random word of each) in 64-page windows over %zu MiB (%.1f "
		"ns); over all lines (TLB misses too): %.1f ns.\n",
		p->mem_bytes >> 20, p->mem_ns, p->mem_all_ns);
	fprintf(f,
		"# Every figure below was measured twice, at different moments "
		"of the probe; one whose readings differ by more than %.0f %% "
		"(the TLB entries %.0f %%) is not written, and says why.\n",
		TWICE_TOL * 100, TWICE_TOL_ENTRIES * 100);
	if (l1 && refused(p, f, PMK_PROBE_FIG_L1))
		l1 = NULL, l1_refused = 1;
	if (l2 && refused(p, f, PMK_PROBE_FIG_L2))
		l2 = NULL, l2_refused = 1;
	if (l1) {
		fprintf(f, "#define L1_lat %.0f\n", l1->latency_cycles);
		fprintf(f, "#define Data_L1_lat %.0f\n", l1->latency_cycles);
	}
	if (l2)
		fprintf(f, "#define L2_lat %.0f\n", l2->latency_cycles);
	if (l3) {
		if (l3->flags & PMK_PROBE_LEVEL_FALLBACK)
			fprintf(f, "# L3_lat: %s.\n", l3->why);
		if (!refused(p, f, PMK_PROBE_FIG_L3))
			fprintf(f, "#define L3_lat %.0f\n",
				l3->latency_cycles);
	} else if (p->declared_l3_bytes) {
		fprintf(f,
			"# L3_lat: not written: the curve shows no third level "
			"and the declared L3 (%zu bytes) is beyond the "
			"footprint or at memory latency there.\n",
			p->declared_l3_bytes);
	}
	if ((!l1 && !l1_refused) || (!l2 && !l2_refused))
		fprintf(f,
			"# %s%s%s: not written: the curve shows no such "
			"level.\n",
			!l1 && !l1_refused ? "L1_lat" : "",
			!l1 && !l1_refused && !l2 && !l2_refused ? ", " : "",
			!l2 && !l2_refused ? "L2_lat" : "");
	if (p->mem_flags & PMK_PROBE_AMBIGUOUS)
		fprintf(f, "# Ambiguous curve: a plateau slower than half of "
			   "memory was taken as the climb to memory (lmbench's "
			   "rule).\n");
	if (p->mem_flags & PMK_PROBE_PREFETCH_TAIL)
		fprintf(f,
			"# Prefetch-fooled tail: the chase curve falls from "
			"%.1f ns at %zu bytes to %.1f ns at the end.\n",
			p->tail_peak_ns, p->tail_peak_bytes, p->tail_end_ns);
	if (!refused(p, f, PMK_PROBE_FIG_MEM))
		fprintf(f, "#define Mem_lat %.0f\n", p->mem_cycles);
	if (!refused(p, f, PMK_PROBE_FIG_BR))
		fprintf(f, "#define BR_miss_lat %.0f\n", p->br_miss_cycles);
	if (!refused(p, f, PMK_PROBE_FIG_FP_ADDMUL))
		fprintf(f, "#define FP_add_sub_mul_lat %.0f\n",
			fmax(p->fp_add_cycles, p->fp_mul_cycles));
	if (!refused(p, f, PMK_PROBE_FIG_FP_DIVSQRT))
		fprintf(f, "#define FP_div_sqrt_lat %.0f\n",
			fmax(p->fp_div_cycles, p->fp_sqrt_cycles));
	if (p->tlb_reach_bytes) {
		const pmk_probe_twice *te =
		    &p->twice[PMK_PROBE_FIG_TLB_ENTRIES];
		fprintf(f,
			"# Data_TLB_lat: an L1 DTLB miss; reach %zu entries of "
			"4 KiB (fitted %.0f and %.0f on two passes, %.0f on "
			"their minimum; declared %zu).\n",
			p->tlb_reach_bytes / 4096, te->first, te->second,
			p->tlb_entries_fit, p->tlb_entries_declared);
		if (!refused(p, f, PMK_PROBE_FIG_TLB_MISS))
			fprintf(f, "#define Data_TLB_lat %.0f\n",
				p->tlb_miss_cycles);
	}
	return ferror(f) ? PMK_EIO : 0;
}

int pmk_probe_write_json(const pmk_probe *p, FILE *f)
{
	fprintf(f, "{\"cpu_name\":");
	pmk__json_str(f, p->cpu_name);
	fprintf(f,
		",\"cpu\":%d,\"core_ghz\":%.4f,\"clock\":{\"method\":", p->cpu,
		p->ghz);
	pmk__json_str(f, p->clock.method);
	fprintf(f, ",\"chain1\":");
	pmk__json_str(f, p->clock.chain1);
	fprintf(f, ",\"chain1_ghz\":%.4f,\"chain2\":", p->clock.chain1_ghz);
	pmk__json_str(f, p->clock.chain2);
	fprintf(f,
		",\"chain2_ghz\":%.4f,\"counter_ghz\":%.4f,"
		"\"declared_ghz\":%.4f,\"declared_from\":",
		p->clock.chain2_ghz, p->clock.counter_ghz,
		p->clock.declared_ghz);
	pmk__json_str(f, p->clock.declared_from);
	fprintf(f,
		",\"agree\":%s},\"seconds\":%.2f,"
		"\"line_bytes_measured\":%zu,\"levels\":[",
		p->clock.agree ? "true" : "false", p->seconds, p->line_bytes);
	for (int i = 0; i < p->nlevels; i++) {
		const pmk_probe_level *l = &p->lv[i];
		fprintf(f,
			"%s{\"level\":%d,\"type\":\"%s\",\"size_bytes\":%zu,"
			"\"line_bytes\":%zu,\"latency_ns\":%.4f,"
			"\"latency_cycles\":%.2f,\"declared_size_bytes\":%zu,"
			"\"measured_size_bytes\":%zu,\"trusted\":\"%s\","
			"\"why\":",
			i ? "," : "", l->level, l->type, l->size_bytes,
			l->line_bytes, l->latency_ns, l->latency_cycles,
			l->declared_bytes, l->measured_bytes, l->trusted);
		pmk__json_str(f, l->why);
		fprintf(f,
			",\"edge_bytes\":%.0f,\"rising\":%s,\"fallback\":%s,"
			"\"bw_rd_mb_s\":%.1f}",
			l->edge_bytes,
			l->flags & PMK_LEVEL_RISING ? "true" : "false",
			l->flags & PMK_PROBE_LEVEL_FALLBACK ? "true" : "false",
			l->bw_rd_mb_s);
	}
	fprintf(f,
		"],\"memory\":{\"footprint_bytes\":%zu,\"latency_ns\":%.3f,"
		"\"latency_cycles\":%.1f,\"method\":\"random chase of 256-byte "
		"elements, pointer at a random word of each, in 64-page "
		"windows\",\"latency_all_lines_ns\":%.3f,"
		"\"latency_window64_ns\":%.3f,\"bw_rd_mb_s\":%.1f,"
		"\"ambiguous\":%s,\"prefetch_tail\":%s,\"tail_peak_ns\":%.3f,"
		"\"tail_peak_bytes\":%zu,\"tail_end_ns\":%.3f},",
		p->mem_bytes, p->mem_ns, p->mem_cycles, p->mem_all_ns,
		p->mem_window64_ns, p->mem_bw_mb_s,
		p->mem_flags & PMK_PROBE_AMBIGUOUS ? "true" : "false",
		p->mem_flags & PMK_PROBE_PREFETCH_TAIL ? "true" : "false",
		p->tail_peak_ns, p->tail_peak_bytes, p->tail_end_ns);
	fprintf(
	    f,
	    "\"tlb\":{\"reach_bytes\":%zu,\"entries_4k\":%zu,"
	    "\"declared_entries\":%zu,\"miss_ns\":%.3f,\"miss_cycles\":%.2f,"
	    "\"entries_fit\":%.1f,\"refused\":%s},",
	    p->tlb_reach_bytes, p->tlb_reach_bytes / 4096,
	    p->tlb_entries_declared, p->tlb_miss_ns, p->tlb_miss_cycles,
	    p->tlb_entries_fit, pmk_probe_tlb_unstable(p) ? "true" : "false");
	fprintf(f, "\"twice\":[");
	for (int i = 0, k = 0; i < PMK_PROBE_NFIG; i++) {
		const pmk_probe_twice *t = &p->twice[i];
		if (!t->measured)
			continue;
		fprintf(f,
			"%s{\"figure\":\"%s\",\"first\":%.4g,"
			"\"second\":%.4g,\"refused\":%s,\"why\":",
			k++ ? "," : "", fig_name[i], t->first, t->second,
			t->refused ? "true" : "false");
		pmk__json_str(f, t->why);
		fprintf(f, "}");
	}
	fprintf(f, "],");
	fprintf(f,
		"\"branch_miss_cycles\":%.2f,\"fp_cycles\":{\"add\":%.2f,"
		"\"mul\":%.2f,\"div\":%.2f,\"sqrt\":%.2f},\"curves\":{"
		"\"size_bytes\":[",
		p->br_miss_cycles, p->fp_add_cycles, p->fp_mul_cycles,
		p->fp_div_cycles, p->fp_sqrt_cycles);
	for (int i = 0; i < p->npts; i++)
		fprintf(f, "%s%zu", i ? "," : "", p->sizes[i]);
	fprintf(f, "],\"random_window_ns\":[");
	for (int i = 0; i < p->npts; i++)
		fprintf(f, "%s%.3f", i ? "," : "", p->lat_window[i]);
	fprintf(f, "],\"random_all_ns\":[");
	for (int i = 0; i < p->npts; i++)
		fprintf(f, "%s%.3f", i ? "," : "", p->lat_all[i]);
	fprintf(f, "]}}\n");
	return ferror(f) ? PMK_EIO : 0;
}

int pmk_probe_tlb_unstable(const pmk_probe *p)
{
	return p->twice[PMK_PROBE_FIG_TLB_MISS].refused ||
	       p->twice[PMK_PROBE_FIG_TLB_ENTRIES].refused;
}
