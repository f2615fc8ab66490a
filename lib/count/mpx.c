/*
 * mpx.c: error estimates for multiplexed counts (see pmkit/count.h and
 * docs/counting.md for the model).
 */
#include <math.h>

#include "pmkit/count.h"

double pmk_mpx_error(uint64_t raw, uint64_t enabled_ns, uint64_t running_ns,
		     double rate_sd, int nslices)
{
	double f, poisson, var = 0, unseen;
	if (enabled_ns == 0 || running_ns == 0 || running_ns >= enabled_ns)
		return 0;
	f = (double)running_ns / (double)enabled_ns;
	poisson = sqrt((double)raw * (1 - f)) / f;
	unseen = (double)(enabled_ns - running_ns);
	if (nslices >= 2 && rate_sd > 0)
		var = unseen * rate_sd / sqrt((double)nslices);
	return sqrt(poisson * poisson + var * var);
}
