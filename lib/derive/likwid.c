/*
 * likwid.c: the reader of LIKWID's performance-group files (likwid.h).
 *
 * A group file, as LIKWID 5.2 writes them:
 *
 *     SHORT  one line saying what the group measures
 *     EVENTSET
 *     COUNTER[:OPTION[=VALUE]...]  EVENT        one per line
 *     METRICS
 *     metric name words  FORMULA                 one per line
 *     LONG
 *     free text to the end of the file
 *
 * The formula of a metric line is its last blank-separated word; where
 * that word closes more parentheses than it opens (a formula written with
 * blanks in it, as a few old groups do), earlier words join it until its
 * parentheses balance. A REQUIRE_WHAT line before EVENTSET is kept
 * (REQUIRE_NOHT: SMT off). Lines starting with '#' and blank lines are
 * skipped outside LONG. Nothing here maps or evaluates (likwid_map.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/diag.h"
#include "lib/core/infile.h"
#include "lib/derive/likwid.h"

enum { SEC_NONE, SEC_EVENTSET, SEC_METRICS, SEC_LONG };

/* The group's name from its path: the basename without ".txt". */
static void name_from_path(const char *path, char *out, size_t size)
{
	const char *b = strrchr(path, '/');
	size_t n;
	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".txt"))
		n -= 4;
	if (n >= size)
		n = size - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

/* Whether the line starts with keyword `kw` followed by a blank or its end. */
static int keyword(const char *s, const char *kw)
{
	size_t n = strlen(kw);
	return !strncmp(s, kw, n) &&
	       (s[n] == 0 || isspace((unsigned char)s[n]));
}

static int bad(pmk_diag *d, const pmk__lw_group *g, int line, const char *input,
	       int col, const char *msg, const char *arg)
{
	return pmk__diag_at(d, PMK_EFORMAT, g->path, line, input, col, 1, NULL,
			    "%s%s%s%s", msg, arg ? " '" : "", arg ? arg : "",
			    arg ? "'" : "");
}

/* `COUNTER[:OPTS] EVENT` */
static int parse_event(pmk__lw_group *g, char *s, int line, const char *input,
		       pmk_diag *d)
{
	char *tok[3] = {0}, *save = NULL, *c;
	int n = 0;
	pmk__lw_event *e;
	for (char *t = strtok_r(s, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (n == 3)
			break;
		tok[n++] = t;
	}
	if (n != 2)
		return bad(d, g, line, input, 1,
			   "an EVENTSET line is 'COUNTER EVENT'", NULL);
	if (g->nevent == PMK__LW_EVENTS_MAX)
		return bad(d, g, line, input, 1, "more than 128 events", NULL);
	e = &g->event[g->nevent];
	memset(e, 0, sizeof *e);
	if ((c = strchr(tok[0], ':')) != NULL) {
		*c++ = 0;
		if (!*c || strlen(c) >= sizeof e->opts)
			return bad(d, g, line, input, 1,
				   "bad counter options of", tok[0]);
		snprintf(e->opts, sizeof e->opts, "%s", c);
	}
	if (!isupper((unsigned char)tok[0][0]) ||
	    strlen(tok[0]) >= sizeof e->counter)
		return bad(d, g, line, input, 1, "bad counter name", tok[0]);
	for (const char *p = tok[0]; *p; p++)
		if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p))
			return bad(d, g, line, input, 1, "bad counter name",
				   tok[0]);
	if (strlen(tok[1]) >= sizeof e->name)
		return bad(d, g, line, input, 1, "event name too long", NULL);
	for (const char *p = tok[1]; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			return bad(d, g, line, input, 1, "bad event name",
				   tok[1]);
	for (int i = 0; i < g->nevent; i++)
		if (!strcmp(g->event[i].counter, tok[0]))
			return bad(d, g, line, input, 1,
				   "counter named twice:", tok[0]);
	snprintf(e->counter, sizeof e->counter, "%s", tok[0]);
	snprintf(e->name, sizeof e->name, "%s", tok[1]);
	e->line = line;
	g->nevent++;
	return 0;
}

/* `name words FORMULA` */
static int parse_metric(pmk__lw_group *g, char *s, int line, const char *input,
			pmk_diag *d)
{
	char *end = s + strlen(s), *f;
	int depth = 0;
	pmk__lw_metric *m;
	if (g->nmetric == PMK__LW_METRICS_MAX)
		return bad(d, g, line, input, 1, "more than 64 metrics", NULL);
	m = &g->metric[g->nmetric];
	memset(m, 0, sizeof *m);
	/* the formula: the last word, widened while its parentheses do
	 * not balance */
	f = end;
	for (;;) {
		char *w = f;
		while (w > s && isspace((unsigned char)w[-1]))
			w--;
		while (w > s && !isspace((unsigned char)w[-1]))
			w--;
		if (w == f)
			break;
		for (char *p = w; p < f; p++)
			depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
		f = w;
		if (depth <= 0)
			break;
	}
	if (f == s)
		return bad(d, g, line, input, 1,
			   "a METRICS line is 'NAME FORMULA'", NULL);
	if (depth != 0)
		return bad(d, g, line, input, (int)(f - s) + 1,
			   "unbalanced parentheses in the formula", NULL);
	/* the formula without blanks */
	{
		size_t n = 0;
		for (char *p = f; *p; p++) {
			if (isspace((unsigned char)*p))
				continue;
			if (n + 1 >= sizeof m->formula)
				return bad(d, g, line, input, 1,
					   "formula too long", NULL);
			m->formula[n++] = *p;
		}
	}
	/* the name, blanks collapsed */
	{
		size_t n = 0;
		int blank = 0;
		for (char *p = s; p < f; p++) {
			if (isspace((unsigned char)*p)) {
				blank = n > 0;
				continue;
			}
			if (n + 2 >= sizeof m->name)
				return bad(d, g, line, input, 1,
					   "metric name too long", NULL);
			if (blank)
				m->name[n++] = ' ';
			blank = 0;
			m->name[n++] = *p;
		}
	}
	m->line = line;
	g->nmetric++;
	return 0;
}

int pmk__lw_parse(const char *text, size_t len, const char *path,
		  pmk__lw_group *g, pmk_diag *d)
{
	int sec = SEC_NONE, line = 0, seen_events = 0, seen_metrics = 0;
	size_t pos = 0;
	memset(g, 0, sizeof *g);
	snprintf(g->path, sizeof g->path, "%s", path ? path : "<group>");
	name_from_path(g->path, g->name, sizeof g->name);
	while (pos < len && sec != SEC_LONG) {
		char buf[2048], input[2048], *s, *e;
		size_t n = 0;
		line++;
		while (pos < len && text[pos] != '\n') {
			if (n + 1 >= sizeof buf)
				return pmk__diag_at(d, PMK_EFORMAT, g->path,
						    line, NULL, 0, 1, NULL,
						    "line longer than %zu "
						    "bytes",
						    sizeof buf - 1);
			if (text[pos] == 0)
				return pmk__diag_at(d, PMK_EFORMAT, g->path,
						    line, NULL, 0, 1, NULL,
						    "NUL byte in the file");
			buf[n++] = text[pos++];
		}
		pos++;
		buf[n] = 0;
		for (s = buf; *s && isspace((unsigned char)*s); s++)
			;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = 0;
		snprintf(input, sizeof input, "%s", s);
		if (!*s || *s == '#')
			continue;
		if (keyword(s, "SHORT")) {
			for (s += 5; isspace((unsigned char)*s); s++)
				;
			snprintf(g->short_, sizeof g->short_, "%s", s);
			continue;
		}
		if (sec == SEC_NONE && !strncmp(s, "REQUIRE_", 8)) {
			/* REQUIRE_NOHT: the group wants SMT off */
			snprintf(g->require, sizeof g->require, "%s", s + 8);
			continue;
		}
		if (keyword(s, "EVENTSET")) {
			sec = SEC_EVENTSET;
			seen_events = 1;
			continue;
		}
		if (keyword(s, "METRICS")) {
			sec = SEC_METRICS;
			seen_metrics = 1;
			continue;
		}
		if (keyword(s, "LONG")) {
			sec = SEC_LONG;
			continue;
		}
		if (sec == SEC_EVENTSET) {
			if (parse_event(g, s, line, input, d) < 0)
				return PMK_EFORMAT;
		} else if (sec == SEC_METRICS) {
			if (parse_metric(g, s, line, input, d) < 0)
				return PMK_EFORMAT;
		} else {
			return bad(d, g, line, input, 1,
				   "text outside SHORT, EVENTSET, METRICS and "
				   "LONG",
				   NULL);
		}
	}
	if (!seen_events || !g->nevent)
		return pmk__diag_at(d, PMK_EFORMAT, g->path, line, NULL, 0, 1,
				    NULL, "no EVENTSET with events");
	if (!seen_metrics)
		return pmk__diag_at(d, PMK_EFORMAT, g->path, line, NULL, 0, 1,
				    NULL, "no METRICS section");
	return 0;
}

int pmk__lw_read(const char *path, pmk__lw_group *g, pmk_diag *d)
{
	char *text;
	size_t len;
	int rc = pmk__infile_read(path, 0, 1 << 20, &text, &len, d);
	if (rc < 0)
		return rc;
	rc = pmk__lw_parse(text, len, path, g, d);
	free(text);
	return rc;
}
