/*
 * strdist.c: edit distance between two short names, for "did you mean"
 * hints (unknown events, unknown commands). The bounded form serves the
 * searches over thousands of names (every event of a libpfm4 model): it
 * costs little more than a strlen for a name that cannot be near.
 */
#include <ctype.h>
#include <string.h>

#include "lib/core/strdist.h"

enum { NAME_MAX_ = 78, TOO_FAR = 99 };

/* `s` lowered into `out` (NAME_MAX_ + 1 bytes); its length, or -1 when
 * longer than NAME_MAX_. */
static int lowered(const char *s, char *out)
{
	int n = 0;
	for (; s[n]; n++) {
		if (n == NAME_MAX_)
			return -1;
		out[n] = (char)tolower((unsigned char)s[n]);
	}
	return n;
}

int pmk__edit_distance_max(const char *a, const char *b, int max)
{
	char la_[NAME_MAX_ + 1], lb_[NAME_MAX_ + 1];
	int rows[2][NAME_MAX_ + 2], *prev = rows[0], *cur = rows[1];
	int la, lb, far;
	if (max < 0)
		max = 0;
	if (max > TOO_FAR - 1)
		max = TOO_FAR - 1;
	far = max + 1;
	la = (int)strnlen(a, NAME_MAX_ + 1);
	lb = (int)strnlen(b, NAME_MAX_ + 1);
	if (la > NAME_MAX_ || lb > NAME_MAX_ || la - lb > max || lb - la > max)
		return far;
	lowered(a, la_);
	lowered(b, lb_);
	/* row 0, clamped at `far`: every value past max only needs to stay
	 * past it, and min/plus keep a clamped table clamped */
	for (int j = 0; j <= lb; j++)
		prev[j] = j < far ? j : far;
	if (lb < NAME_MAX_ + 1)
		prev[lb + 1] = far;
	for (int i = 1; i <= la; i++) {
		int lo = i - max > 1 ? i - max : 1;
		int hi = i + max < lb ? i + max : lb;
		int rowmin = far, *t;
		cur[0] = i < far ? i : far;
		if (lo == 1)
			rowmin = cur[0];
		else
			cur[lo - 1] = far; /* left of the band */
		for (int j = lo; j <= hi; j++) {
			int c = prev[j - 1] + (la_[i - 1] != lb_[j - 1]);
			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (c > far)
				c = far;
			cur[j] = c;
			if (c < rowmin)
				rowmin = c;
		}
		if (hi < lb)
			cur[hi + 1] = far; /* right of the band */
		if (rowmin >= far)
			return far; /* every path from here costs more */
		t = prev, prev = cur, cur = t;
	}
	return prev[lb];
}

int pmk__edit_distance(const char *a, const char *b)
{
	return pmk__edit_distance_max(a, b, TOO_FAR - 1);
}
