/*
 * test_strdist.c: the edit distance of the "did you mean" hints
 * (lib/core/strdist.c). Proves that the banded, bounded distance equals a
 * naive full-table Levenshtein (case ignored) wherever that is at most the
 * bound, and is bound + 1 wherever it is more, over 20,000 random pairs and
 * every bound from 0 to 12; that the unbounded form keeps its contract (99
 * past 78 characters); and a table of known distances.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/strdist.h"
#include "tests/support/t.h"

/* the textbook table, no band, no early exit */
static int naive(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	static int d[80][80];
	if (la > 78 || lb > 78)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] +
				(tolower((unsigned char)a[i - 1]) !=
				 tolower((unsigned char)b[j - 1]));
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 11);
}

/* a random name over a small alphabet (so that names are often near),
 * of 0 to `len` characters; `like`, when given, is mutated instead */
static void name(char *out, int len, const char *like)
{
	static const char abc[] = "abcAB_:.";
	int n = 0;
	if (like) {
		for (const char *p = like; *p && n < len; p++) {
			unsigned r = next() % 10;
			if (r == 0)
				continue; /* deleted */
			if (r == 1 && n < len)
				out[n++] = abc[next() % 8]; /* inserted */
			if (n < len)
				out[n++] = r == 2 ? abc[next() % 8] : *p;
		}
	} else {
		len = (int)(next() % (unsigned)(len + 1));
		while (n < len)
			out[n++] = abc[next() % 8];
	}
	out[n] = 0;
}

static void test_bounded_matches_naive(void)
{
	char a[90], b[90];
	for (int k = 0; k < 20000; k++) {
		int len = k % 4 == 0 ? 78 : 14, ref;
		name(a, len, NULL);
		name(b, len, k % 2 ? a : NULL);
		ref = naive(a, b);
		T_CHECKF(pmk__edit_distance(a, b) == ref, "'%s' '%s': %d, not %d",
			 a, b, pmk__edit_distance(a, b), ref);
		for (int max = 0; max <= 12; max++) {
			int want = ref <= max ? ref : max + 1;
			int got = pmk__edit_distance_max(a, b, max);
			T_CHECKF(got == want, "'%s' '%s' max %d: %d, not %d", a,
				 b, max, got, want);
			if (got != want)
				return;
		}
	}
}

static void test_known_distances(void)
{
	static const struct {
		int line;
		const char *a, *b;
		int max, want;
	} t[] = {
	    {__LINE__, "kitten", "sitting", 98, 3},
	    {__LINE__, "kitten", "sitting", 2, 3},
	    {__LINE__, "kitten", "sitting", 3, 3},
	    {__LINE__, "INST_RETIRED", "inst_retired", 0, 0},
	    {__LINE__, "INST_RETIRDE", "INST_RETIRED", 4, 2},
	    {__LINE__, "cycles", "", 98, 6},
	    {__LINE__, "", "", 0, 0},
	    {__LINE__, "a", "abcdefgh", 3, 4}, /* lengths 7 apart */
	    {__LINE__, "cache-misses", "cache-misses", 4, 0},
	    {__LINE__, "abcdefghij", "jihgfedcba", 4, 5},
	    {__LINE__, "x", "y", -3, 1}, /* a bound below 0 is 0 */
	};
	char big[100];
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int got = pmk__edit_distance_max(t[i].a, t[i].b, t[i].max);
		T_CHECKF(got == t[i].want, "line %d: %d, not %d", t[i].line,
			 got, t[i].want);
	}
	memset(big, 'a', 79);
	big[79] = 0;
	T_CHECK(pmk__edit_distance(big, "a") == 99);
	T_CHECK(pmk__edit_distance_max(big, big, 5) == 6);
	big[78] = 0;
	T_CHECK(pmk__edit_distance(big, big) == 0);
	T_CHECK(pmk__edit_distance(big, "") == 78);
}

int main(void)
{
	T_RUN(test_bounded_matches_naive);
	T_RUN(test_known_distances);
	return t_done();
}
