/*
 * svg.c: the Addie figures' line charts, drawn by the plot module
 * (lib/core/plot_line.c): this only maps the Addie chart description
 * (fixed ranges, log10 axes, reference lines, a legend corner) onto it.
 */
#include <stdlib.h>

#include "lib/core/plot.h"
#include "pmkit/error.h"
#include "sim/addie/addie_int.h"

int pmk__svg_lines(FILE *f, const pmk__svg_chart *c, const pmk__svg_series *s,
		   size_t ns)
{
	pmk__line_series *ls;
	pmk__line_chart p = {0};
	int rc;

	if (ns > 4096 || c->nhlines > 4096 || c->nvlines > 4096)
		return PMK_EINVAL;
	ls = calloc(ns ? ns : 1, sizeof *ls);
	if (!ls)
		return PMK_ENOMEM;
	for (size_t k = 0; k < ns; k++) {
		if (s[k].n > 0x7fffffff) {
			free(ls);
			return PMK_EINVAL;
		}
		ls[k] = (pmk__line_series){s[k].label, s[k].x, s[k].y,
					   (int)s[k].n, s[k].color ? s[k].color
								   : "black",
					   s[k].dashed};
	}
	p.title = c->title;
	p.xlabel = c->xlabel;
	p.ylabel = c->ylabel;
	p.xlog = c->xlog ? 10 : 0;
	p.ylog = c->ylog ? 10 : 0;
	p.series = ls;
	p.nseries = (int)ns;
	p.marks_x = c->vlines;
	p.nmarks = (int)c->nvlines;
	p.xmin = c->xmin;
	p.xmax = c->xmax;
	p.ymin = c->ymin;
	p.ymax = c->ymax;
	p.hlines = c->hlines;
	p.nhlines = (int)c->nhlines;
	p.legend = c->legend == 0 ? 1 : c->legend == 1 ? 2 : 3;
	p.width = 720;
	p.height = 420;
	rc = pmk__plot_lines(f, &p);
	free(ls);
	return rc;
}
