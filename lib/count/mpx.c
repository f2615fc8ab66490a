/*
 * mpx.c: error estimates for multiplexed counts (see pmkit/count.h and
 * docs/counting.md for the model).
 */
#include <math.h>
#include <stdlib.h>

#include "lib/count/eventset.h"
#include "pmkit/count.h"

/*
 * The natives of one set count the same task (or CPU) over the same time,
 * so they share its phases: a phase that one native missed while waiting
 * for a counter is seen by those on counters then, as variability of their
 * slice rates. The median of the natives' relative variabilities (sd of the
 * slice rates / mean rate) is taken as that common part, a floor under each
 * multiplexed native's own: the median, so that one bursty native (page
 * faults, say) does not widen the estimates of all the others.
 */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double pmk__mpx_common_rel_sd(double *rel, int n)
{
	if (n < 2)
		return 0;
	qsort(rel, (size_t)n, sizeof *rel, cmp_double);
	return n % 2 ? rel[n / 2] : (rel[n / 2 - 1] + rel[n / 2]) / 2;
}

/*
 * Edges: for `edge_ns` of the enabled time the thread ran something other
 * than the measured code (the library's own calls), at a rate taken to
 * differ from the measured rate by at most that rate. Scaling carries the
 * edges into the value by 1/f for an event on a counter during them, not
 * at all for one that was not: with the observed rate r = raw / running,
 * the error lies within +-a, a = r * edge * max(1, (1 - f) / f). Taken as
 * uniform over that range, its standard deviation is a / sqrt(3).
 */
static double edge_error(uint64_t raw, uint64_t running_ns, double f,
			 uint64_t edge_ns)
{
	double rate = (double)raw / (double)running_ns;
	double a = rate * (double)edge_ns * fmax(1, (1 - f) / f);
	return a / sqrt(3);
}

double pmk_mpx_error(uint64_t raw, uint64_t enabled_ns, uint64_t running_ns,
		     double rate_sd, int nslices, uint64_t edge_ns)
{
	double f, poisson, var = 0, unseen, edge;
	if (enabled_ns == 0 || running_ns == 0 || running_ns >= enabled_ns)
		return 0;
	f = (double)running_ns / (double)enabled_ns;
	poisson = sqrt((double)raw * (1 - f)) / f;
	unseen = (double)(enabled_ns - running_ns);
	if (nslices >= 2 && rate_sd > 0)
		var = unseen * rate_sd / sqrt((double)nslices);
	if (edge_ns > enabled_ns) /* the calls began before the first enable */
		edge_ns = enabled_ns;
	edge = edge_error(raw, running_ns, f, edge_ns);
	return sqrt(poisson * poisson + var * var + edge * edge);
}

/*
 * What the event set reports (docs/counting.md, measured against the
 * simulated core's truth by tests/sim/test_mpx_calib.c):
 *  - counting noise with one count added, sqrt((raw + 1)(1 - f)) / f, so
 *    that a native that counted nothing while it ran, and may have missed
 *    a few while it waited, does not claim an exact zero;
 *  - rate variability for the unseen time: a program's phases outlast a
 *    slice, so the independent looks at its rate are the runs of slices
 *    the native counted in (windows, nwin) and the runs it missed (gaps,
 *    ngap), not the slices. sd is how much the rate varied between its
 *    windows, less what counting noise alone puts there (the Poisson term
 *    has it), or between its slices when all its time is one window; at
 *    least the set's common relative variability (the natives share the
 *    program's phases; one that has seen few windows borrows from the
 *    others): unseen * sd * sqrt(1/nwin + 1/ngap), the error of the mean
 *    over the windows and the gaps' own departures from it;
 *  - the start: the set's natives that counted all of the first slice
 *    (the start, of length S = start_len_ns) ran there at a rate k times
 *    their rate since. Scaling assumes that the native's running time R
 *    holds the start in the same proportion as the enabled time E; it
 *    held s (first_run_ns) of it. With the rate r elsewhere and k r in
 *    the start, the scaled value is off by r (k - 1) (s E / R - S): a
 *    native that missed the start (s = 0) misses (k - 1) r S, one that
 *    counted mostly the start extrapolates it. Taken as
 *    r |k - 1| |s E / R - S|, r with one count added (a native that saw
 *    nothing may have missed a few). A native that counted all of the
 *    start knows its own k (own_start_rel = |k - 1|); for the others the
 *    set's median |k - 1| (start_rel) stands in;
 *  - edges, as pmk_mpx_error.
 */
double pmk__mpx_estimate(const pmk__mpx_in *in)
{
	double f, unseen, rate, sd, poisson, var, s_off, start, edge;
	uint64_t edge_ns = in->edge_ns;
	int nwin = in->nwin > 0 ? in->nwin : 1, ngap = in->ngap > 0 ? in->ngap : 1;
	if (in->enabled_ns == 0 || in->running_ns == 0 ||
	    in->running_ns >= in->enabled_ns)
		return 0;
	f = (double)in->running_ns / (double)in->enabled_ns;
	unseen = (double)(in->enabled_ns - in->running_ns);
	rate = (double)in->raw / (double)in->running_ns;
	poisson = sqrt(((double)in->raw + 1) * (1 - f)) / f;
	sd = fmax(in->rate_sd, in->common_rel_sd * rate);
	var = unseen * sd * sqrt(1.0 / nwin + 1.0 / ngap);
	s_off = fabs((double)in->first_run_ns / f - (double)in->start_len_ns);
	start = s_off * ((double)in->raw + 1) / (double)in->running_ns *
		(in->own_start_rel >= 0 ? in->own_start_rel : in->start_rel);
	if (edge_ns > in->enabled_ns)
		edge_ns = in->enabled_ns;
	edge = edge_error(in->raw, in->running_ns, f, edge_ns);
	return sqrt(poisson * poisson + var * var + start * start +
		    edge * edge);
}

/*
 * After a start sweep (pmk_eventset_sweep) the run is two strata: the
 * sweep, of which the native saw s_run of s_en, spread over it in
 * `passes` looks, and the rest, rotated by the backend. Each is scaled by
 * its own share, so a start that runs at another rate than the rest (cold
 * caches and predictors: many misses, few instructions) is neither
 * extrapolated over the rest nor diluted in it. The errors add in
 * quadrature: counting noise in the sweep; the full estimate for the rest
 * (its start terms 0: the start is the sweep's); and the start's excess
 * over the rest's rate over the square root of the passes (a burst at the
 * start, cold misses say, is looked at once a pass, and a burst shorter
 * than a step is seen by one batch only).
 */
double pmk__mpx_swept(uint64_t s_raw, uint64_t s_run, uint64_t s_en,
		      int passes, const pmk__mpx_in *rest, double *val)
{
	double fs = (double)s_run / (double)s_en;
	double fr = rest->running_ns < rest->enabled_ns
			    ? (double)rest->running_ns / (double)rest->enabled_ns
			    : 1;
	double noise = fs < 1 ? sqrt(((double)s_raw + 1) * (1 - fs)) / fs : 0;
	double excess = (double)s_raw / fs - ((double)rest->raw + 1) /
						     (double)rest->running_ns *
						     (double)s_en;
	double trans = fabs(excess) / sqrt(passes > 0 ? passes : 1);
	double r = pmk__mpx_estimate(rest);
	*val = (double)s_raw / fs + (double)rest->raw / fr;
	return sqrt(noise * noise + r * r + trans * trans);
}
