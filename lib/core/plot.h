/*
 * plot.h: pmkit's SVG plot module (internal): the flame graph, line
 * charts (plot_line.c: bench/, sim/addie), stacked and grouped bars
 * (plot_bar.c: sim/cpi, mpi/jobsvg.c; one picture or panels of one) and
 * the shared SVG preamble and text.
 */
#ifndef PMK_CORE_PLOT_H
#define PMK_CORE_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* A node of a flame graph: children by index (first child, next sibling;
 * -1 for none). Node 0 is the root ("all"). `value` sets the width;
 * `base` is the node's value in the profile compared against (a
 * differential graph), already scaled to the same total, or -1. */
typedef struct pmk__flame_node {
	const char *name;
	double value, base;
	int child, next;
} pmk__flame_node;

typedef struct pmk__flame_opts {
	const char *title;
	const char *unit; /* "samples" */
	int diff;	  /* colour by base -> value change */
	int width;	  /* pixels; 0: 1200 */
} pmk__flame_opts;

/* Write an interactive flame graph (click a frame to zoom, Search,
 * tooltips) as a standalone SVG. Returns 0 or PMK_EIO. */
int pmk__plot_flame(FILE *f, const pmk__flame_opts *o,
		    const pmk__flame_node *n, size_t nn);

/* A line chart: one coloured line per series, a legend, optional dashed
 * vertical markers with labels and horizontal reference lines. Axes:
 * `xlog` 0 linear, 2 log2 labelled as sizes (1K, 2M), 10 log10; `ylog` 0
 * or 10. Points a log axis cannot show (<= 0) or that are not finite break
 * the line; lines are clipped to the plot box. Fields after the first
 * ones are optional (zero: the default). */
typedef struct pmk__line_series {
	const char *name;
	const double *x, *y; /* x NULL: 0, 1, 2, ... */
	int n;
	const char *color; /* NULL: pmk__plot_color(index) */
	int dashed;
} pmk__line_series;

typedef struct pmk__line_chart {
	const char *title, *xlabel, *ylabel;
	int xlog, ylog;
	const pmk__line_series *series;
	int nseries;
	const double *marks_x;
	const char *const *marks_label; /* NULL: unlabelled */
	int nmarks;
	/* a fixed range where xmin < xmax (ymin < ymax); else from the data */
	double xmin, xmax, ymin, ymax;
	const double *hlines; /* dotted horizontal reference lines */
	int nhlines;
	int legend; /* 0 right of the box; inside it: 1 top left, 2 top
		       right, 3 bottom right */
	int width, height; /* pixels; 0: 860 x 480 */
} pmk__line_chart;

/* The colour of series `i` (a fixed palette, repeating). */
const char *pmk__plot_color(int i);

/* Returns 0, PMK_EINVAL or PMK_EIO. */
int pmk__plot_lines(FILE *f, const pmk__line_chart *c);

/* A bar chart: `ngroups` groups along x, `nbars` bars in each, each bar
 * a stack of `nseg` segments (nseg 1: grouped bars). Value of segment k
 * of bar b in group g: v[(g * nbars + b) * nseg + k]; NaN: no segment,
 * a bar whose segments are all NaN is left out. Positive segments stack
 * up from 0, negative ones down. The axis runs ymin..ymax (ticks every
 * `tick`, labelled with `unit` appended); a bar beyond it is clipped and
 * its total printed at the clipped end. Colours and legend entries are per
 * segment when nseg > 1, else per bar (legend NULL: none). Group labels
 * sit centred under their group when they fit, else slanted; past 32
 * groups only every k-th is labelled. Fields after `tick` are optional. */
typedef struct pmk__bar_note {
	int group, bar;
	const char *text; /* printed just above the bar (or 0 if absent) */
} pmk__bar_note;

typedef struct pmk__bar_chart {
	const char *title, *unit;
	int ngroups, nbars, nseg;
	const double *v;
	const char *const *group_label; /* ngroups */
	const char *const *bar_label;	/* nbars, under each bar; or NULL */
	const char *const *color, *const *legend;
	double ymin, ymax, tick;
	const double *hlines; /* dashed reference lines */
	int nhlines;
	const char *const *hline_label; /* at their right end; or NULL */
	const char *hline_color;	/* NULL: red */
	double barw; /* pixels; 0: 16 (pmk__plot_bars_in: from the width) */
	const char *xlabel, *ylabel;
	const pmk__bar_note *notes;
	int nnotes;
	/* the tooltip of a segment, or NULL: the value */
	void (*tip)(void *ctx, int g, int b, int k, char *buf, size_t n);
	void *ctx;
} pmk__bar_chart;

/* A picture of its own, as wide as its bars. Returns 0, PMK_EINVAL or
 * PMK_EIO. */
int pmk__plot_bars(FILE *f, const pmk__bar_chart *c);

/* One panel of a larger picture (begun with pmk__plot_begin): the chart
 * fills the box at (x, y) of w x h pixels, its bars sized to fit. */
int pmk__plot_bars_in(FILE *f, const pmk__bar_chart *c, double x, double y,
		      double w, double h);

/* A heat map: `nrows` x `ncols` cells, value of row r, column c at
 * v[r * ncols + c] (0 or NaN: an empty cell, left white), coloured from
 * yellow to dark red on a log scale over the positive values (one
 * colour when they are all equal), with a colour bar labelled in `unit`.
 * Row labels down the left, column labels along the top (every k-th past
 * 32); a cell's tooltip is its labels and value. Fields after `v` are
 * optional. */
typedef struct pmk__heat_map {
	const char *title, *unit;
	int nrows, ncols;
	const double *v;
	const char *const *row_label, *const *col_label; /* or NULL: index */
	const char *xlabel, *ylabel;
	int cell; /* pixels per cell; 0: from the size, 6 to 40 */
} pmk__heat_map;

/* A picture of its own. Returns 0, PMK_EINVAL or PMK_EIO. */
int pmk__plot_heat(FILE *f, const pmk__heat_map *m);

/* A line of text (escaped) at (x, y): `size` pixels, bold or not, colour
 * NULL for black. For headings and notes around panels. */
void pmk__plot_text(FILE *f, double x, double y, int size, int bold,
		    const char *color, const char *text);

/* The SVG root element and a white background. */
void pmk__plot_begin(FILE *f, double w, double h, int viewbox);
void pmk__plot_end(FILE *f);

#endif
