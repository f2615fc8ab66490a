/*
 * plot.h: pmkit's SVG plot module (internal). Today it holds the flame
 * graph and the shared SVG preamble; the line and bar charts of bench/,
 * sim/addie and sim/cpi are still their own writers (see docs/profiles.md).
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

/* The SVG root element and a white background. */
void pmk__plot_begin(FILE *f, double w, double h, int viewbox);
void pmk__plot_end(FILE *f);

#endif
