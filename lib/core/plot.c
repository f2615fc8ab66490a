/*
 * plot.c: SVG pictures. The flame graph: one box per distinct call path,
 * as wide as the samples that passed through it, callers below callees;
 * colours from a hash of the name (warm tones), or for a differential
 * graph from the change against a base profile (red grew, blue shrank).
 * A small script embedded in the SVG makes it interactive in a browser:
 * a click zooms to a frame (its callers stay, greyed, below), "Reset zoom"
 * goes back, "Search" highlights the frames whose names match a regular
 * expression and prints the share they cover, and hovering shows a frame's
 * details at the bottom (every frame also has a <title> tooltip).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "lib/core/textout.h"
#include "pmkit/error.h"

void pmk__plot_begin(FILE *f, double w, double h, int viewbox)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
		"height=\"%g\"",
		w, h);
	if (viewbox)
		fprintf(f, " viewBox=\"0 0 %g %g\"", w, h);
	fprintf(f, " font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void pmk__plot_end(FILE *f)
{
	fputs("</svg>\n", f);
}

enum { FH = 16, PAD = 10, TOP = 44, BOTTOM = 34 };

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct fctx {
	FILE *f;
	const pmk__flame_opts *o;
	const pmk__flame_node *n;
	double scale, total, maxd, min_px;
	int height, maxdepth;
};

static int depth_of(const pmk__flame_node *n, size_t nn, int i, int d,
		    int *max)
{
	if (d > *max)
		*max = d;
	if (d > 4096)
		return -1;
	for (int c = n[i].child; c >= 0 && (size_t)c < nn; c = n[c].next)
		if (depth_of(n, nn, c, d + 1, max) < 0)
			return -1;
	return 0;
}

static double max_delta(const struct fctx *x, int i)
{
	double m = 0;
	if (x->n[i].base >= 0)
		m = fabs(x->n[i].value - x->n[i].base);
	for (int c = x->n[i].child; c >= 0; c = x->n[c].next) {
		double k = max_delta(x, c);
		if (k > m)
			m = k;
	}
	return m;
}

static void color(const struct fctx *x, const pmk__flame_node *n, char *buf,
		  size_t size)
{
	if (x->o->diff) {
		double d = n->base >= 0 ? n->value - n->base : n->value;
		double a = x->maxd > 0 ? fabs(d) / x->maxd : 0;
		int v = 255 - (int)(a * 190);
		if (a > 1)
			v = 65;
		if (d > 0)
			snprintf(buf, size, "rgb(255,%d,%d)", v, v);
		else if (d < 0)
			snprintf(buf, size, "rgb(%d,%d,255)", v, v);
		else
			snprintf(buf, size, "rgb(235,235,235)");
		return;
	}
	{
		unsigned h = name_hash(n->name);
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50,
			 90 + (h >> 8) % 130, 40 + (h >> 16) % 50);
	}
}

static void frame(struct fctx *x, int i, double px, int depth)
{
	const pmk__flame_node *n = &x->n[i];
	double w = n->value * x->scale;
	double y = x->height - BOTTOM - (depth + 1) * FH;
	char col[40];
	if (w < x->min_px)
		return;
	color(x, n, col, sizeof col);
	fprintf(x->f, "<g class=\"f\" data-x=\"%.2f\" data-w=\"%.2f\" "
		      "data-d=\"%d\" data-n=\"",
		px, w, depth);
	pmk__xml_text(x->f, n->name);
	fprintf(x->f, "\"><title>");
	pmk__xml_text(x->f, n->name);
	fprintf(x->f, " (%.0f %s, %.2f%%", n->value,
		x->o->unit ? x->o->unit : "samples",
		x->total > 0 ? 100.0 * n->value / x->total : 0.0);
	if (x->o->diff && n->base >= 0)
		fprintf(x->f, "; base %.2f%%, change %+.2f points",
			x->total > 0 ? 100.0 * n->base / x->total : 0.0,
			x->total > 0 ? 100.0 * (n->value - n->base) / x->total
				     : 0.0);
	fprintf(x->f,
		")</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		"height=\"%d\" rx=\"2\" fill=\"%s\"/><text x=\"%.2f\" "
		"y=\"%.0f\"></text></g>\n",
		px, y, w, FH - 1, col, px + 3, y + FH - 4);
	for (int c = n->child; c >= 0; c = x->n[c].next) {
		frame(x, c, px, depth + 1);
		px += x->n[c].value * x->scale;
	}
}

/* The script: zoom, search, details, labels fitted to the boxes. */
static const char script[] =
    "<script><![CDATA[\n"
    "(function () {\n"
    "var svg = document.documentElement, ns = 'http://www.w3.org/2000/svg';\n"
    "var fr = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
    "var full = +svg.getAttribute('data-full'), pad = +svg.getAttribute('data-pad');\n"
    "var det = document.getElementById('details'), mt = document.getElementById('matched');\n"
    "function at(g, k) { return +g.getAttribute('data-' + k); }\n"
    "function place(g, x, w) {\n"
    "  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
    "  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));\n"
    "  t.setAttribute('x', (x + 3).toFixed(2));\n"
    "  var name = g.getAttribute('data-n'), fit = Math.floor((w - 6) / 7);\n"
    "  t.textContent = fit < 3 ? '' : name.length <= fit ? name : name.slice(0, fit - 2) + '..';\n"
    "}\n"
    "function zoom(z) {\n"
    "  var x0 = at(z, 'x'), w0 = at(z, 'w'), d0 = at(z, 'd'), s = full / w0;\n"
    "  fr.forEach(function (g) {\n"
    "    var x = at(g, 'x'), w = at(g, 'w'), d = at(g, 'd'), e = 0.01;\n"
    "    if (d >= d0 && x >= x0 - e && x + w <= x0 + w0 + e) {\n"
    "      g.style.display = ''; g.style.opacity = '';\n"
    "      place(g, pad + (x - x0) * s, w * s);\n"
    "    } else if (d < d0 && x <= x0 + e && x + w >= x0 + w0 - e) {\n"
    "      g.style.display = ''; g.style.opacity = '0.5';\n"
    "      place(g, pad, full);\n"
    "    } else g.style.display = 'none';\n"
    "  });\n"
    "  svg.setAttribute('data-zoomed', z.getAttribute('data-n'));\n"
    "}\n"
    "fr.forEach(function (g) {\n"
    "  place(g, at(g, 'x'), at(g, 'w'));\n"
    "  g.addEventListener('click', function () { zoom(g); });\n"
    "  g.addEventListener('mouseover', function () {\n"
    "    det.textContent = g.querySelector('title').textContent; });\n"
    "  g.addEventListener('mouseout', function () { det.textContent = ' '; });\n"
    "});\n"
    "document.getElementById('reset').addEventListener('click', function () {\n"
    "  if (fr.length) zoom(fr[0]); });\n"
    "function search(re) {\n"
    "  var hits = [], sum = 0, end = -1;\n"
    "  fr.forEach(function (g) {\n"
    "    var r = g.querySelector('rect');\n"
    "    if (!r.hasAttribute('data-c')) r.setAttribute('data-c', r.getAttribute('fill'));\n"
    "    var hit = re && re.test(g.getAttribute('data-n'));\n"
    "    r.setAttribute('fill', hit ? 'rgb(230,0,230)' : r.getAttribute('data-c'));\n"
    "    if (hit) hits.push([at(g, 'x'), at(g, 'w')]);\n"
    "  });\n"
    "  hits.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
    "  hits.forEach(function (h) {\n"
    "    if (h[0] >= end) { sum += h[1]; end = h[0] + h[1]; }\n"
    "    else if (h[0] + h[1] > end) { sum += h[0] + h[1] - end; end = h[0] + h[1]; }\n"
    "  });\n"
    "  mt.textContent = re ? 'Matched: ' + (100 * sum / full).toFixed(1) + '%' : ' ';\n"
    "  svg.setAttribute('data-matched', re ? (100 * sum / full).toFixed(1) : '');\n"
    "}\n"
    "svg.pmkSearch = function (s) { search(s ? new RegExp(s) : null); };\n"
    "document.getElementById('search').addEventListener('click', function () {\n"
    "  var s = window.prompt('Search (regular expression; empty clears)', '');\n"
    "  if (s === null) return;\n"
    "  try { search(s ? new RegExp(s) : null); } catch (e) { mt.textContent = 'bad expression'; }\n"
    "});\n"
    "})();\n"
    "]]></script>\n";

int pmk__plot_flame(FILE *f, const pmk__flame_opts *o,
		    const pmk__flame_node *n, size_t nn)
{
	struct fctx x;
	int width = o->width > 0 ? o->width : 1200;
	memset(&x, 0, sizeof x);
	x.f = f;
	x.o = o;
	x.n = n;
	if (!nn)
		return PMK_EINVAL;
	if (depth_of(n, nn, 0, 0, &x.maxdepth) < 0)
		return PMK_EINVAL;
	x.total = n[0].value;
	x.scale = x.total > 0 ? (width - 2 * PAD) / x.total : 0;
	x.min_px = 0.1;
	x.height = TOP + BOTTOM + (x.maxdepth + 1) * FH;
	if (o->diff)
		x.maxd = max_delta(&x, 0);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" data-full=\"%d\" "
		"data-pad=\"%d\" font-family=\"monospace\" font-size=\"12\">\n",
		width, x.height, width, x.height, width - 2 * PAD, PAD);
	fprintf(f, "<style>g.f { cursor: pointer; } g.f:hover rect { "
		   "stroke: black; stroke-width: 0.5; } .b { cursor: "
		   "pointer; fill: #333; }</style>\n");
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
		o->diff ? "#f8f8f8" : "#fdf6ec");
	fprintf(f, "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" "
		   "font-size=\"16\">",
		width / 2);
	pmk__xml_text(f, o->title ? o->title : "Flame graph");
	fprintf(f,
		"</text>\n<text id=\"reset\" class=\"b\" x=\"%d\" "
		"y=\"22\">Reset zoom</text>\n<text id=\"search\" class=\"b\" "
		"x=\"%d\" y=\"22\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\"> </text>\n<text id=\"details\" x=\"%d\" "
		"y=\"%d\"> </text>\n",
		PAD, width - PAD, width - PAD, x.height - 10, PAD,
		x.height - 10);
	if (o->diff)
		fprintf(f, "<text x=\"%d\" y=\"38\" text-anchor=\"middle\" "
			   "font-size=\"11\">width: the new profile; red: "
			   "share grew, blue: share shrank (against the "
			   "base)</text>\n",
			width / 2);
	frame(&x, 0, PAD, 0);
	fputs(script, f);
	fputs("</svg>\n", f);
	return ferror(f) ? PMK_EIO : 0;
}
