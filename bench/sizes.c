/*
 * sizes.c: size points for latency and bandwidth curves, and size parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "pmkit/bench.h"

int pmk_bench_sizes(size_t lo, size_t hi, int per_octave, size_t align,
		    size_t *out, int max)
{
	int n = 0;
	size_t last = 0;
	if (per_octave < 1)
		per_octave = 1;
	if (align == 0)
		align = 1;
	if (lo < align)
		lo = align;
	/* Start at the power of two at or below lo. */
	size_t oct = 1;
	while (oct * 2 <= lo)
		oct *= 2;
	for (; oct <= hi && n < max; oct *= 2) {
		for (int j = 0; j < per_octave && n < max; j++) {
			size_t s = oct + oct * (size_t)j / (size_t)per_octave;
			s -= s % align;
			if (s < lo || s > hi || s == last || s == 0)
				continue;
			out[n++] = last = s;
		}
		if (oct > ((size_t)-1) / 4)
			break;
	}
	if (n < max && last != hi && hi >= lo && hi % align == 0 && hi > last)
		out[n++] = hi;
	return n;
}

int pmk_bench_parse_size(const char *s, size_t *out)
{
	char *end;
	double v;
	if (!s || !*s || *s == '-' ||
	    !(isdigit((unsigned char)*s) || *s == '.'))
		return PMK_EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return PMK_EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 0:
		break;
	case 'k':
		v *= 1024.0;
		end++;
		break;
	case 'm':
		v *= 1024.0 * 1024.0;
		end++;
		break;
	case 'g':
		v *= 1024.0 * 1024.0 * 1024.0;
		end++;
		break;
	default:
		return PMK_EINVAL;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || v < 1 || v > 1e15)
		return PMK_EINVAL;
	*out = (size_t)v;
	return 0;
}
