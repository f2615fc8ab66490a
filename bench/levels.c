/*
 * levels.c: find the cache levels of a latency-versus-size curve.
 *
 * Pure arithmetic on the curve (no measurement), so tests can feed it
 * synthetic curves. Method (docs/bench.md):
 *   1. cut the curve into runs: a run goes on while each point stays within
 *      `rise` times the median of the run so far;
 *   2. runs of fewer than 3 points (3/8 of an octave at 8 points per octave)
 *      are transitions, not plateaus;
 *   3. consecutive plateaus less than `jump` times apart are one level (a
 *      slowly rising L3 stays one level);
 *   4. the last plateau is memory (size 0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/levels.h"
#include "pmkit/bench.h"

#define MIN_RUN 3

static double run_median(const double *lat, int a, int b)
{
	double tmp[512];
	int n = 0;
	for (int i = a; i <= b && n < 512; i++)
		tmp[n++] = lat[i];
	return pmk_bench_median(tmp, n);
}

int pmk_levels_detect(const size_t *size, const double *lat, int n, double rise,
		      double jump, pmk_level *out, int max)
{
	pmk_level runs[512];
	int nr = 0, nl = 0;

	if (!size || !lat || !out || n < 1 || max < 1)
		return PMK_EINVAL;
	if (rise <= 1)
		rise = 1.15;
	if (jump <= 1)
		jump = 1.3;
	for (int i = 1; i < n; i++)
		if (size[i] <= size[i - 1] || !(lat[i] > 0) || !(lat[0] > 0))
			return PMK_EINVAL;

	/* 1. runs */
	for (int i = 0; i < n && nr < 512;) {
		int j = i + 1;
		while (j < n) {
			double m = run_median(lat, i, j - 1);
			if (lat[j] > m * rise || lat[j] < m / rise)
				break;
			j++;
		}
		runs[nr].first = i;
		runs[nr].last = j - 1;
		runs[nr].flags = 0;
		runs[nr].latency_ns = run_median(lat, i, j - 1);
		runs[nr].size_bytes = size[j - 1];
		nr++;
		i = j;
	}

	/* 2 and 3: keep plateaus, merge those too close to the previous */
	for (int r = 0; r < nr; r++) {
		pmk_level *p = &runs[r];
		int len = p->last - p->first + 1;
		/* a plateau has 3 points and spans 3/4 of an octave at least,
		 * or half an octave if it is flat (rises by less than half of
		 * `rise`): a cache squeezed by a neighbour (a VM's share of an
		 * L3) can be that short, and a slow transition that stays
		 * within `rise` for half an octave still climbs */
		double span = (double)size[p->last] / (double)size[p->first];
		int flat = lat[p->last] <= lat[p->first] * (1 + (rise - 1) / 2);
		if ((len < MIN_RUN || span < 1.41 || (span < 1.68 && !flat)) &&
		    !(r == nr - 1 && nl == 0))
			continue;
		if (nl > 0 && p->latency_ns < out[nl - 1].latency_ns * jump) {
			pmk_level *q = &out[nl - 1];
			q->last = p->last;
			q->size_bytes = p->size_bytes;
			q->latency_ns = run_median(lat, q->first, q->last);
			continue;
		}
		if (nl == max)
			break;
		out[nl++] = *p;
	}
	/* A curve that ends in a short run well above the last plateau
	 * still has a slower level beyond: keep its last point as memory. */
	if (nl > 0 && nl < max && runs[nr - 1].last > out[nl - 1].last &&
	    runs[nr - 1].last > runs[nr - 1].first &&
	    runs[nr - 1].latency_ns >= out[nl - 1].latency_ns * jump) {
		out[nl] = runs[nr - 1];
		nl++;
	}
	/* lmbench's sanity rule: a "level" slower than half of memory is a
	 * point of the transition to memory, not a cache. A long plateau
	 * taken this way may have been a slow cache (a mesh L3): the memory
	 * level says so (PMK_LEVEL_AMBIGUOUS) rather than losing it quietly */
	for (int l = nl - 2; l >= 0; l--)
		if (out[l].latency_ns > out[nl - 1].latency_ns / 2) {
			int long_run =
			    out[l].last - out[l].first + 1 >= MIN_RUN &&
			    (double)size[out[l].last] >=
				2 * (double)size[out[l].first];
			out[nl - 1].first = out[l].first;
			if (long_run)
				out[nl - 1].flags |= PMK_LEVEL_AMBIGUOUS;
			memmove(&out[l], &out[l + 1],
				(size_t)(nl - 1 - l) * sizeof *out);
			nl--;
		}
	/* a level whose latency creeps up along its plateau */
	for (int l = 0; l < nl; l++)
		if (lat[out[l].last] >= 1.3 * lat[out[l].first])
			out[l].flags |= PMK_LEVEL_RISING;
	if (nl > 0)
		out[nl - 1].size_bytes = 0;
	return nl;
}

double pmk_levels_edge(const size_t *size, const double *lat, int n,
		       const pmk_level *a, const pmk_level *b)
{
	/* a chase that misses on a fraction f of its loads takes
	 * (1 - f) a + f b per load: half the lines lost is the mean */
	double target = (a->latency_ns + b->latency_ns) / 2;
	for (int i = a->last; i < n - 1 && i < b->first + 1; i++) {
		if (lat[i] <= target && lat[i + 1] > target) {
			double f = (target - lat[i]) / (lat[i + 1] - lat[i]);
			double ls = log2((double)size[i]),
			       le = log2((double)size[i + 1]);
			return exp2(ls + f * (le - ls));
		}
	}
	return (double)size[a->last];
}

int pmk_tlb_fit(const size_t *size, const double *win, const double *all, int n,
		const pmk_level *lv, double *entries, double *miss_ns)
{
	int use[512], nu = 0;
	double best_sse = INFINITY, best_e = 0, best_m = 0;
	if (!size || !win || !all || !lv || lv->first < 0 || lv->last >= n ||
	    lv->first > lv->last)
		return PMK_EINVAL;
	/* only clean points of the plateau: within 5 % of its latency */
	for (int i = lv->first; i <= lv->last && nu < 512; i++)
		if (win[i] <= lv->latency_ns * 1.05)
			use[nu++] = i;
	if (nu < 5)
		return 0;
	/* robust fit: for each E, m is the median of gap / x over the points
	 * clearly past the reach (x >= 0.15), and the cost is the sum of
	 * absolute residuals, so a few disturbed points do not pull E */
	for (double e = 4; e <= (double)size[use[nu - 1]] / 4096; e += 1) {
		double r[512], sad = 0, m;
		int nr = 0;
		for (int k = 0; k < nu; k++) {
			double x = 1 - e * 4096 / (double)size[use[k]];
			if (x >= 0.15)
				r[nr++] = (all[use[k]] - win[use[k]]) / x;
		}
		if (nr < 2)
			continue;
		m = pmk_bench_median(r, nr);
		for (int k = 0; k < nu; k++) {
			double x = 1 - e * 4096 / (double)size[use[k]];
			double y = all[use[k]] - win[use[k]];
			x = x > 0 ? x : 0;
			sad += fabs(y - m * x);
		}
		if (sad < best_sse)
			best_sse = sad, best_e = e, best_m = m;
	}
	/* a real step: a miss costs more than a quarter of the level's
	 * latency, and the plateau goes on beyond the reach: at least 2
	 * points past 1.25 E pages, whose median gap is above 5 % of the
	 * level's latency (one disturbed point does not make a step) */
	double far[512];
	int nf = 0;
	for (int k = 0; k < nu; k++)
		if ((double)size[use[k]] / 4096 > 1.25 * best_e)
			far[nf++] = all[use[k]] - win[use[k]];
	if (!(best_e > 0 && best_m > 0.25 * lv->latency_ns && nf >= 2 &&
	      pmk_bench_median(far, nf) > 0.05 * lv->latency_ns))
		return 0;
	*entries = best_e;
	*miss_ns = best_m;
	return 1;
}

double pmk__tlb_cost_at(const size_t *size, const double *win,
			const double *all, int n, const pmk_level *lv,
			double entries)
{
	double r[512];
	int nr = 0;
	if (!size || !win || !all || !lv || lv->first < 0 || lv->last >= n)
		return 0;
	for (int i = lv->first; i <= lv->last && nr < 512; i++) {
		double x = 1 - entries * 4096 / (double)size[i];
		if (win[i] <= lv->latency_ns * 1.05 && x >= 0.15)
			r[nr++] = (all[i] - win[i]) / x;
	}
	return nr < 2 ? 0 : pmk_bench_median(r, nr);
}

void pmk_levels_envelope(const double *lat, int n, double *out)
{
	double prev = 0;
	for (int i = 0; i < n; i++) {
		double v[3] = {lat[i > 0 ? i - 1 : i], lat[i],
			       lat[i + 1 < n ? i + 1 : i]};
		out[i] = pmk_bench_median(v, 3);
	}
	for (int i = n - 1; i >= 0; i--) {
		if (i < n - 1 && out[i] > prev)
			out[i] = prev;
		prev = out[i];
	}
}

int pmk_levels_tail(const size_t *size, const double *lat, int n,
		    double *peak_ns, size_t *peak_bytes, double *end_ns)
{
	double sm[512], last[3];
	int from = n / 2, top;
	if (!size || !lat || n < 6 || n > 512)
		return PMK_EINVAL;
	for (int i = 0; i < n; i++) {
		double v[3] = {lat[i > 0 ? i - 1 : i], lat[i],
			       lat[i + 1 < n ? i + 1 : i]};
		sm[i] = pmk_bench_median(v, 3);
	}
	top = from;
	for (int i = from; i < n; i++)
		if (sm[i] >= sm[top])
			top = i;
	/* the slowest of the last 3 points: all three must be fast, since a
	 * neighbour's memory traffic can slow the peak's points as well */
	double end = 0;
	for (int k = 0; k < 3; k++)
		last[k] = lat[n - 1 - k], end = end > last[k] ? end : last[k];
	if (peak_ns)
		*peak_ns = sm[top];
	if (peak_bytes)
		*peak_bytes = size[top];
	if (end_ns)
		*end_ns = end;
	/* the tail falls by more than 15 % after a peak at least three
	 * points and half an octave before the end */
	return top <= n - 4 &&
	       1.414 * (double)size[top] <= (double)size[n - 1] &&
	       end * 1.15 < sm[top];
}

int pmk__levels_disturbed(const size_t *size, const double *lat, int n,
			  size_t limit, double tol, int *idx, int max)
{
	double right = INFINITY;
	int k = 0;
	for (int i = n - 1; i >= 0; i--) {
		if (size[i] <= limit && lat[i] > tol * right && k < max)
			idx[k++] = i;
		if (lat[i] < right)
			right = lat[i];
	}
	return k;
}
