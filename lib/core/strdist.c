/*
 * strdist.c: edit distance between two short names, for "did you mean"
 * hints (unknown events, unknown commands).
 */
#include <ctype.h>
#include <string.h>

#include "lib/core/strdist.h"

int pmk__edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), prev[80], cur[80];
	if (la > 78 || lb > 78)
		return 99;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int c = prev[j - 1] + (tolower((unsigned char)a[i - 1]) !=
					       tolower((unsigned char)b[j - 1]));
			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			cur[j] = c;
		}
		memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
	}
	return prev[lb];
}
