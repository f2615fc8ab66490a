/* test_plot.c: the SVG plot module writes well-formed XML, escapes the
 * text it is given, and puts log-axis ticks at the powers of the base. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/plot.h"
#include "pmkit/error.h"
#include "tests/support/t.h"

static char buf[1 << 16];

/* A minimal XML check: tags nest and close, text has no raw '<' and every
 * '&' starts an entity; CDATA sections are skipped. Returns 1 if well
 * formed. */
static int well_formed(const char *s)
{
	char stack[64][32];
	int depth = 0, seen_root = 0;
	while (*s) {
		if (!strncmp(s, "<![CDATA[", 9)) {
			s = strstr(s, "]]>");
			if (!s)
				return 0;
			s += 3;
		} else if (*s == '<') {
			int close = s[1] == '/';
			const char *n = s + 1 + close, *e = strchr(s, '>');
			size_t len = strcspn(n, " />\n");
			if (!e || len == 0 || len >= 32)
				return 0;
			for (const char *q = s + 1; q < e; q++)
				if (*q == '<')
					return 0;
			if (close) {
				if (depth == 0 || strncmp(stack[depth - 1], n, len) ||
				    stack[depth - 1][len])
					return 0;
				depth--;
			} else if (e[-1] != '/') {
				if (depth == 64 || (depth == 0 && seen_root))
					return 0;
				memcpy(stack[depth], n, len);
				stack[depth++][len] = 0;
				seen_root = 1;
			}
			s = e + 1;
		} else if (*s == '&') {
			if (strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) &&
			    strncmp(s, "&gt;", 4) && strncmp(s, "&quot;", 6) &&
			    strncmp(s, "&apos;", 6) && strncmp(s, "&#", 2))
				return 0;
			s++;
		} else
			s++;
	}
	return depth == 0 && seen_root;
}

static const char *lines(pmk__line_chart *c)
{
	FILE *f = fmemopen(buf, sizeof buf, "w");
	memset(buf, 0, sizeof buf);
	if (!f)
		return "";
	T_EQ_INT(pmk__plot_lines(f, c), 0);
	fclose(f);
	return buf;
}

static const double xs[] = {1024, 4096, 65536, 1 << 20};
static const double ys[] = {3, 12, 80, 800};
static const double mark[] = {32768};
static const char *const mlab[] = {"L1 <32K> & more"};

static void test_checker_rejects_broken_xml(void)
{
	T_CHECK(well_formed("<svg><a/><b>x</b></svg>"));
	T_CHECK(!well_formed("<svg><b>x</svg>"));
	T_CHECK(!well_formed("<svg>a & b</svg>"));
	T_CHECK(!well_formed("<svg><a></svg></a>"));
}

static void test_line_chart_is_well_formed_and_escaped(void)
{
	pmk__line_series s[] = {{.name = "a<b & \"c\"", .x = xs, .y = ys, .n = 4}};
	pmk__line_chart c = {.title = "T <1> & T",
			     .xlabel = "size",
			     .ylabel = "ns",
			     .xlog = 2,
			     .ylog = 10,
			     .series = s,
			     .nseries = 1,
			     .marks_x = mark,
			     .marks_label = mlab,
			     .nmarks = 1};
	const char *o = lines(&c);
	T_CHECK(strncmp(o, "<svg", 4) == 0);
	T_CHECK(well_formed(o));
	T_CHECK(strstr(o, "T &lt;1&gt; &amp; T") != NULL);
	T_CHECK(strstr(o, "a&lt;b &amp;") != NULL);
	T_CHECK(strstr(o, "L1 &lt;32K&gt; &amp; more") != NULL);
	T_CHECK(strstr(o, "stroke-dasharray") != NULL);
	T_CHECK(strstr(o, pmk__plot_color(0)) != NULL);
}

/* The y text label of a tick, or NULL: ">LABEL</text>" with anchor end. */
static int has_label(const char *o, const char *lab)
{
	char want[64];
	snprintf(want, sizeof want, ">%s</text>", lab);
	return strstr(o, want) != NULL;
}

static void test_log_axes_tick_at_powers(void)
{
	pmk__line_series s[] = {{.name = "s", .x = xs, .y = ys, .n = 4}};
	pmk__line_chart c = {.title = "t", .xlabel = "x", .ylabel = "y",
			     .xlog = 2, .ylog = 10, .series = s, .nseries = 1};
	const char *o = lines(&c);
	/* y from 3 to 800: decades 1 .. 1000, nothing in between */
	T_CHECK(has_label(o, "1") && has_label(o, "10") &&
		has_label(o, "100") && has_label(o, "1000"));
	T_CHECK(!has_label(o, "10000") && !has_label(o, "500") &&
		!has_label(o, "0.1"));
	/* x from 1K to 1M in powers of two, labelled as sizes */
	T_CHECK(has_label(o, "1K") && has_label(o, "2K") &&
		has_label(o, "512K") && has_label(o, "1M"));
	T_CHECK(!has_label(o, "3K") && !has_label(o, "2M"));
	/* log10 x: decades */
	c.xlog = 10;
	o = lines(&c);
	T_CHECK(has_label(o, "1000") && has_label(o, "1e+06"));
	T_CHECK(well_formed(o));
}

static void test_log_axis_skips_points_it_cannot_show(void)
{
	static const double y2[] = {5, 0, -1, 9};
	pmk__line_series s[] = {{.name = "s", .x = xs, .y = y2, .n = 4}};
	pmk__line_chart c = {.title = "t", .xlabel = "x", .ylabel = "y",
			     .xlog = 2, .ylog = 10, .series = s, .nseries = 1};
	const char *o = lines(&c);
	const char *d = strstr(o, " d=\"");
	T_ASSERT(d != NULL);
	/* two pieces: M.. then M.. again after the gap, no L between */
	T_CHECK(d[4] == 'M' && strchr(d + 5, 'M') != NULL);
	T_CHECK(strchr(d, 'L') == NULL || strchr(d, 'L') > strchr(d + 5, '"'));
	T_CHECK(well_formed(o));
}

static void test_flame_is_well_formed(void)
{
	pmk__flame_node n[] = {{"all", 10, -1, 1, -1},
			       {"main<int>&", 10, -1, 2, -1},
			       {"f", 4, -1, -1, -1}};
	pmk__flame_opts o = {"flame & co", "samples", 0, 0};
	FILE *f = fmemopen(buf, sizeof buf, "w");
	T_ASSERT(f != NULL);
	memset(buf, 0, sizeof buf);
	T_EQ_INT(pmk__plot_flame(f, &o, n, 3), 0);
	fclose(f);
	T_CHECK(well_formed(buf));
	T_CHECK(strstr(buf, "main&lt;int&gt;&amp;") != NULL);
}

/* Fixed ranges, x as index, given colours, reference lines, a legend
 * inside the box: every point lands in order and inside the box. */
static void test_line_options(void)
{
	static const double y[] = {0.1, 0.4, 0.2, 0.9, 0.5};
	static const double h[] = {0.5};
	pmk__line_series s[] = {
	    {.name = "first", .y = y, .n = 5, .color = "#123456"},
	    {.name = "second", .y = y, .n = 5, .dashed = 1}};
	pmk__line_chart c = {.title = "t", .xlabel = "samples",
			     .ylabel = "p", .series = s, .nseries = 2,
			     .xmin = 0, .xmax = 4, .ymin = 0, .ymax = 1,
			     .hlines = h, .nhlines = 1, .legend = 2,
			     .width = 720, .height = 420};
	const char *o = lines(&c), *d;
	double px[5], py[5];
	int n = 0;
	T_CHECK(well_formed(o));
	T_CHECK(strstr(o, "width=\"720\"") != NULL);
	T_CHECK(strstr(o, "stroke=\"#123456\"") != NULL);
	T_CHECK(strstr(o, ">first</text>") && strstr(o, ">second</text>"));
	T_CHECK(has_label(o, "0") && has_label(o, "0.2") &&
		has_label(o, "1") && !has_label(o, "1.2"));
	T_CHECK(strstr(o, "stroke-dasharray=\"2,3\"") != NULL);
	d = strstr(o, "class=\"series\"");
	T_ASSERT(d && (d = strstr(d, " d=\"")) != NULL);
	d += 4;
	while (n < 5 && (*d == 'M' || *d == 'L')) {
		char *e;
		px[n] = strtod(d + 1, &e);
		T_ASSERT(*e == ',');
		py[n] = strtod(e + 1, &e);
		n++;
		d = e + 1;
	}
	T_EQ_INT(n, 5);
	for (int i = 0; i < 5; i++) {
		T_CHECK(px[i] >= 70 && px[i] <= 700 && py[i] >= 40 &&
			py[i] <= 370);
		if (i) {
			T_CHECK(px[i] > px[i - 1]);
			T_CHECK((py[i] < py[i - 1]) == (y[i] > y[i - 1]));
		}
	}
	/* the first and last x sit on the box edges: the range was fixed */
	T_CHECK(px[0] == 70 && px[4] == 700);
}

static int count(const char *o, const char *needle)
{
	int n = 0;
	for (; (o = strstr(o, needle)) != NULL; o++)
		n++;
	return n;
}

/* Stacked bars: 2 groups x 2 bars x 3 segments; a NaN bar is left out,
 * a negative segment hangs below 0, a bar beyond the axis is clipped and
 * its total printed; grouped bars: one rect per value. */
static void test_bars(void)
{
	static const double v[] = {/* g0 */ 10, 20, 30, -40, 50, 200,
				   /* g1 */ NAN, NAN, NAN, 5, 0, 5};
	static const char *const gl[] = {"w<1>", "w2"};
	static const char *const bl[] = {"m1", "m2"};
	static const char *const seg[] = {"a", "b", "c"};
	pmk__bar_chart c = {.title = "t", .unit = "%", .ngroups = 2,
			    .nbars = 2, .nseg = 3, .v = v, .group_label = gl,
			    .bar_label = bl, .legend = seg, .ymin = -100,
			    .ymax = 200, .tick = 50};
	FILE *f = fmemopen(buf, sizeof buf, "w");
	T_ASSERT(f != NULL);
	memset(buf, 0, sizeof buf);
	T_EQ_INT(pmk__plot_bars(f, &c), 0);
	fclose(f);
	T_CHECK(well_formed(buf));
	/* 3 + 3 + 0 + 2 (the 0 segment has no height) */
	T_EQ_INT(count(buf, "class=\"bar\""), 8);
	T_CHECK(strstr(buf, "w&lt;1&gt;") != NULL);
	T_CHECK(has_label(buf, "-100%") && has_label(buf, "200%") &&
		has_label(buf, "0%") && !has_label(buf, "250%"));
	T_CHECK(has_label(buf, "250")); /* 50 + 200, clipped at 200 */
	T_EQ_INT(count(buf, ">m1</text>"), 1); /* g1's m1 is absent */
	T_EQ_INT(count(buf, ">m2</text>"), 2);
	T_CHECK(has_label(buf, "a") && has_label(buf, "c"));
	/* grouped */
	c.nseg = 1;
	c.nbars = 3;
	c.ngroups = 1;
	c.bar_label = NULL;
	c.legend = seg;
	f = fmemopen(buf, sizeof buf, "w");
	T_ASSERT(f != NULL);
	memset(buf, 0, sizeof buf);
	T_EQ_INT(pmk__plot_bars(f, &c), 0);
	fclose(f);
	T_CHECK(well_formed(buf));
	T_EQ_INT(count(buf, "class=\"bar\""), 3);
	c.tick = 0;
	T_EQ_INT(pmk__plot_bars(stdout, &c), PMK_EINVAL);
}

/* Panels: two charts in one picture, each inside its box, bars fitted to
 * the width, notes and labelled reference lines shown. */
static void test_bar_panels(void)
{
	static const double v[] = {1, 2, 3, NAN, 5, 6};
	static const char *const gl[] = {"0", "1", "2", "3", "4", "5"};
	static const double mean[] = {3.4};
	static const char *const ml[] = {"mean 3.4"};
	pmk__bar_note note[] = {{5, 0, "max"}, {3, 0, "?"}};
	pmk__bar_chart c = {.title = "p", .ngroups = 6, .nbars = 1,
			    .nseg = 1, .v = v, .group_label = gl, .ymin = 0,
			    .ymax = 8, .tick = 2, .hlines = mean,
			    .nhlines = 1, .hline_label = ml, .xlabel = "rank",
			    .notes = note, .nnotes = 2};
	FILE *f = fmemopen(buf, sizeof buf, "w");
	const char *r;
	T_ASSERT(f != NULL);
	memset(buf, 0, sizeof buf);
	pmk__plot_begin(f, 600, 800, 1);
	T_EQ_INT(pmk__plot_bars_in(f, &c, 0, 0, 600, 400), 0);
	T_EQ_INT(pmk__plot_bars_in(f, &c, 0, 400, 600, 400), 0);
	pmk__plot_end(f);
	fclose(f);
	T_CHECK(well_formed(buf));
	T_EQ_INT(count(buf, "class=\"bar\""), 10);
	T_EQ_INT(count(buf, ">max</text>"), 2);
	T_EQ_INT(count(buf, ">?</text>"), 2);
	T_EQ_INT(count(buf, ">mean 3.4</text>"), 2);
	for (r = buf; (r = strstr(r, "class=\"bar\" x=\"")) != NULL; r++) {
		char *e;
		double x = strtod(r + 15, &e), w;
		const char *wp = strstr(e, "width=\"");
		T_ASSERT(wp != NULL);
		w = strtod(wp + 7, NULL);
		T_CHECK(x >= 70 && x + w <= 600 - 20 + 0.05);
	}
	T_EQ_INT(pmk__plot_bars_in(stdout, &c, 0, 0, 60, 400), PMK_EINVAL);
}

int main(void)
{
	T_RUN(test_checker_rejects_broken_xml);
	T_RUN(test_line_chart_is_well_formed_and_escaped);
	T_RUN(test_log_axes_tick_at_powers);
	T_RUN(test_log_axis_skips_points_it_cannot_show);
	T_RUN(test_line_options);
	T_RUN(test_bars);
	T_RUN(test_bar_panels);
	T_RUN(test_flame_is_well_formed);
	return t_done();
}
