/*
 * svg.c: the benchmarks' plots (pmk_plot_svg), drawn by the plot module
 * as line charts: log2 size axes, log10 or linear value axes, markers.
 */
#include <stdlib.h>

#include "lib/core/plot.h"
#include "pmkit/bench.h"

int pmk_plot_svg(const pmk_plot *p, FILE *f)
{
	pmk__line_chart c = {0};
	pmk__line_series *s;
	int rc;

	if (!p || !f || p->nseries < 0 || (p->nseries && !p->series))
		return PMK_EINVAL;
	s = calloc((size_t)p->nseries + 1, sizeof *s);
	if (!s)
		return PMK_ENOMEM;
	for (int i = 0; i < p->nseries; i++) {
		s[i].name = p->series[i].name;
		s[i].x = p->series[i].x;
		s[i].y = p->series[i].y;
		s[i].n = p->series[i].n;
	}
	c.title = p->title;
	c.xlabel = p->xlabel;
	c.ylabel = p->ylabel;
	c.xlog = p->xlog ? 2 : 0;
	c.ylog = p->ylog ? 10 : 0;
	c.series = s;
	c.nseries = p->nseries;
	c.marks_x = p->marks_x;
	c.marks_label = p->marks_label;
	c.nmarks = p->nmarks;
	rc = pmk__plot_lines(f, &c);
	free(s);
	return rc;
}
