/*
 * stat_metric_only.c: `pmkit stat --metric-only`, perf 6.1's metric-only
 * layout: no counts, a column per metric headed by the metric's unit (a -M
 * metric: its name), one line per interval and aggregation unit, in text,
 * -x SEP and -j. A column's metric that cannot be computed is left blank.
 * perf leaves the "CPUs utilized" and "/sec" metrics out of this layout; so
 * does pmkit. The layout's facts come from running perf 6.1
 * (tests/count/metric_only.t compares them); docs/counting.md lists where
 * pmkit differs on purpose.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/stat_output.h"

#define MO_WIDTH 20 /* perf's narrowest text column */
#define MO_MAXCOL 256

struct mo_col {
	const char *event; /* the row's name: the column's identity */
	char head[160];    /* the heading */
	const char *unit;  /* the metric unit a raw event's column shows */
};

/* Whether event name `name` is `base`, with or without modifiers. */
static int is(const char *name, const char *base)
{
	size_t n = strlen(base);
	return !strncmp(name, base, n) && (name[n] == 0 || name[n] == ':');
}

static int listed(const struct stat_result *r, const char *base)
{
	for (int i = 0; i < r->nrows; i++)
		if (is(r->rows[i].name, base))
			return 1;
	return 0;
}

/* The column of a row, from the events listed (not their counts, so that
 * every interval has the same columns): 1, or 0 when it has none. */
static int column_of(const struct stat_result *r, const struct stat_row *w,
		     struct mo_col *c)
{
	c->event = w->name;
	c->unit = NULL;
	if (w->derived) {
		snprintf(c->head, sizeof c->head, "%s", w->name);
		return 1;
	}
	if (w->unit[0])
		return 0; /* clocks: CPUs utilized, left out as perf does */
	if (is(w->name, "cycles") &&
	    (listed(r, "task-clock") || listed(r, "cpu-clock")))
		c->unit = "GHz";
	else if (is(w->name, "instructions") && listed(r, "cycles"))
		c->unit = "insn per cycle";
	else if (is(w->name, "branch-misses") && listed(r, "branches"))
		c->unit = "of all branches";
	if (!c->unit)
		return 0; /* none, or a rate per second: left out */
	/* perf names whose branches a share is of */
	if (!strncmp(c->unit, "of all", 6))
		snprintf(c->head, sizeof c->head, "%s %s", w->name, c->unit);
	else
		snprintf(c->head, sizeof c->head, "%s", c->unit);
	return 1;
}

static int columns(const struct stat_result *r, struct mo_col *col)
{
	int n = 0;
	for (int i = 0; i < r->nrows && n < MO_MAXCOL; i++) {
		int seen = 0;
		for (int k = 0; k < n && !seen; k++)
			seen = !strcmp(col[k].event, r->rows[i].name);
		if (!seen && column_of(r, &r->rows[i], &col[n]))
			n++;
	}
	return n;
}

static int same_unit(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The rows' aggregation units in order (one, NULL, when aggregated). */
#define MO_MAXUNIT 1024

static int units(const struct stat_result *r, const struct stat_row **first)
{
	int n = 0;
	for (int i = 0; i < r->nrows && n < MO_MAXUNIT; i++) {
		int seen = 0;
		for (int k = 0; k < n && !seen; k++)
			seen = same_unit(first[k]->aggr, r->rows[i].aggr);
		if (!seen)
			first[n++] = &r->rows[i];
	}
	return n;
}

enum mo_form { MO_TEXT, MO_CSV, MO_JSON };

/* Column c's value in unit `u` as the normal layout's metric column shows
 * it in that form, into buf; "" when it cannot be computed. */
static void cell(const struct stat_result *r, const struct stat_row *u,
		 const struct mo_col *c, enum mo_form form, char *buf,
		 size_t size)
{
	const struct stat_row *w = NULL;
	double v;
	char mu[32];
	buf[0] = 0;
	for (int i = 0; i < r->nrows && !w; i++)
		if (!strcmp(r->rows[i].name, c->event) &&
		    same_unit(r->rows[i].aggr, u->aggr))
			w = &r->rows[i];
	if (!w || w->status || (w->flags & (PMK_VALUE_NOT_COUNTED |
					     PMK_VALUE_NAN)))
		return;
	if (!c->unit) { /* a -M or derived metric: its value */
		if (!isfinite(w->value))
			return;
		if (form == MO_JSON)
			snprintf(buf, size, "%f", w->value);
		else if (w->unit[0])
			snprintf(buf, size, "%.2f", w->value);
		else
			snprintf(buf, size, form == MO_CSV ? "%.15g" : "%.4g",
				 w->value);
		return;
	}
	if (!stat_row_metric(r, w, &v, mu, sizeof mu) || strcmp(mu, c->unit) ||
	    !isfinite(v))
		return;
	snprintf(buf, size, form == MO_JSON ? "%f" : "%.3f", v);
}

static int col_width(const struct mo_col *c)
{
	int n = (int)strlen(c->head);
	return n > MO_WIDTH ? n : MO_WIDTH;
}

/* whether this print opens with the headings: once, before the first
 * interval or the totals */
static int headings(const struct stat_result *r)
{
	return r->interval_s < 0 || r->first_interval;
}

/* perf's text prefix of an aggregation unit: "CPU0", "S0-D0-C0    1" */
static void text_unit(FILE *out, const struct stat_result *r,
		      const struct stat_row *u)
{
	const char *l = u->aggr, *num;
	int pad;
	if (!l)
		return;
	if (!STAT_AGGR_COUNTS(r->aggr)) {
		fprintf(out, "%-10s ", l);
		return;
	}
	num = l + strlen(l);
	while (num > l && num[-1] >= '0' && num[-1] <= '9')
		num--;
	pad = r->aggr == STAT_AGGR_CORE || r->aggr == STAT_AGGR_DIE ||
		      r->aggr == STAT_AGGR_CACHE
		  ? 8
		  : 5;
	fprintf(out, "%.*s%-*s %4d ", (int)(num - l), l, pad, num, u->aggr_n);
}

void stat_mo_text(FILE *out, const struct stat_result *r)
{
	static struct mo_col col[MO_MAXCOL];
	const struct stat_row *u[MO_MAXUNIT];
	int nc = columns(r, col), nu = units(r, u);
	char buf[64];
	if (headings(r)) {
		const char *ivl = "", *pad = "";
		switch (r->aggr) { /* perf's, spaces and all */
		case STAT_AGGR_CPU:
			ivl = "CPU     ", pad = "      ";
			break;
		case STAT_AGGR_CORE:
			ivl = "core            cpus ";
			pad = "                        ";
			break;
		case STAT_AGGR_SOCKET:
			ivl = "socket cpus ", pad = "            ";
			break;
		case STAT_AGGR_DIE:
			ivl = "die          cpus ", pad = "                  ";
			break;
		case STAT_AGGR_CACHE:
			ivl = "cache        cpus ", pad = "                  ";
			break;
		case STAT_AGGR_NODE:
			ivl = "node   cpus ", pad = "      ";
			break;
		}
		if (r->interval_s >= 0)
			fprintf(out, "#           time %s", ivl);
		else
			fputs(pad, out);
		for (int k = 0; k < nc; k++)
			fprintf(out, "%*s ", col_width(&col[k]), col[k].head);
		fputc('\n', out);
	}
	for (int i = 0; i < nu; i++) {
		if (r->interval_s >= 0)
			fprintf(out, "%16.9f ", r->interval_s);
		text_unit(out, r, u[i]);
		for (int k = 0; k < nc; k++) {
			cell(r, u[i], &col[k], MO_TEXT, buf, sizeof buf);
			fprintf(out, "%*s ", col_width(&col[k]), buf);
		}
		fputc('\n', out);
	}
}

void stat_mo_csv(FILE *out, const char *sep, const struct stat_result *r)
{
	static struct mo_col col[MO_MAXCOL];
	const struct stat_row *u[MO_MAXUNIT];
	int nc = columns(r, col), nu = units(r, u);
	char buf[64];
	if (headings(r)) {
		if (r->interval_s >= 0)
			fprintf(out, " time%s", sep);
		if (r->aggr)
			fprintf(out, "%s%s", stat_aggr_key(r->aggr), sep);
		if (STAT_AGGR_COUNTS(r->aggr))
			fprintf(out, "cpus%s", sep);
		for (int k = 0; k < nc; k++)
			fprintf(out, "%s%s", col[k].head, sep);
		fputc('\n', out);
	}
	for (int i = 0; i < nu; i++) {
		if (r->interval_s >= 0)
			fprintf(out, "%16.9f%s", r->interval_s, sep);
		if (u[i]->aggr) {
			fprintf(out, "%s%s", u[i]->aggr, sep);
			if (STAT_AGGR_COUNTS(r->aggr))
				fprintf(out, "%d%s", u[i]->aggr_n, sep);
		}
		for (int k = 0; k < nc; k++) {
			cell(r, u[i], &col[k], MO_CSV, buf, sizeof buf);
			fprintf(out, "%s%s", buf, sep);
		}
		fputc('\n', out);
	}
}

void stat_mo_perf_json(FILE *out, const struct stat_result *r)
{
	static struct mo_col col[MO_MAXCOL];
	const struct stat_row *u[MO_MAXUNIT];
	int nc = columns(r, col), nu = units(r, u);
	char buf[64];
	if (headings(r)) {
		fputc('{', out);
		for (int k = 0; k < nc; k++) {
			fprintf(out, "%s\"unit\" : ", k ? ", " : "");
			cli_json_str(out, col[k].head);
		}
		fputs("}\n", out);
	}
	for (int i = 0; i < nu; i++) {
		int n = 0;
		fputc('{', out);
		if (r->interval_s >= 0)
			fprintf(out, "\"interval\" : %.9f", r->interval_s), n++;
		if (u[i]->aggr) {
			const char *v = u[i]->aggr;
			if (r->aggr == STAT_AGGR_CPU && !strncmp(v, "CPU", 3))
				v += 3;
			fprintf(out, "%s\"%s\" : ", n++ ? ", " : "",
				stat_aggr_key(r->aggr));
			cli_json_str(out, v);
			if (STAT_AGGR_COUNTS(r->aggr))
				fprintf(out, ", \"aggregate-number\" : %d",
					u[i]->aggr_n);
		}
		for (int k = 0; k < nc; k++) {
			cell(r, u[i], &col[k], MO_JSON, buf, sizeof buf);
			fputs(n++ ? ", " : "", out);
			cli_json_str(out, col[k].head);
			fputs(" : ", out);
			cli_json_str(out, buf);
		}
		fputs("}\n", out);
	}
}
