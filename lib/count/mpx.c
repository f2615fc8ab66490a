/*
 * mpx.c: error estimates for multiplexed counts (see pmkit/count.h and
 * docs/counting.md for the model).
 */
#include <math.h>

#include "pmkit/count.h"

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
