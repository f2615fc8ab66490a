/*
 * stat_file.c: the counts of a stat run in a file, and back (stat_file.h
 * has the format).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/stat_file.h"

/* ---- writing ---- */

static void put_str(FILE *f, const char *s)
{
	fputc('\t', f);
	if (!s) {
		fputs("\\N", f);
		return;
	}
	for (; *s; s++)
		switch (*s) {
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\\': fputs("\\\\", f); break;
		default: fputc(*s, f);
		}
}

static void put_num(FILE *f, double v) { fprintf(f, "\t%.17g", v); }
static void put_u64(FILE *f, unsigned long long v) { fprintf(f, "\t%llu", v); }
static void put_int(FILE *f, long long v) { fprintf(f, "\t%lld", v); }

int stat_file_write_header(FILE *f)
{
	fprintf(f, "%s\n", STAT_FILE_MAGIC);
	return ferror(f) ? -1 : 0;
}

int stat_file_write(FILE *f, const struct stat_result *r)
{
	fputs("result", f);
	put_str(f, r->target);
	put_str(f, r->command);
	put_int(f, r->exit_status);
	put_int(f, r->repeats);
	put_num(f, r->elapsed_s);
	put_num(f, r->elapsed_sem_s);
	put_num(f, r->user_s);
	put_num(f, r->sys_s);
	put_num(f, r->interval_s);
	put_num(f, r->span_s);
	put_int(f, r->aggr);
	put_int(f, r->null_run);
	put_str(f, r->note);
	put_str(f, r->cgroup);
	fputc('\n', f);
	for (int i = 0; i < r->nrows; i++) {
		const struct stat_row *w = &r->rows[i];
		fputs("row", f);
		put_str(f, w->name);
		put_str(f, w->unit);
		put_num(f, w->value);
		put_num(f, w->err);
		put_num(f, w->lo);
		put_num(f, w->hi);
		put_num(f, w->stddev);
		put_num(f, w->sem);
		put_num(f, w->counted);
		put_u64(f, w->raw);
		put_u64(f, w->enabled_ns);
		put_u64(f, w->running_ns);
		put_u64(f, w->flags);
		put_int(f, w->status);
		put_str(f, w->reason);
		put_int(f, w->bare);
		put_int(f, w->user_only);
		put_int(f, w->derived);
		put_str(f, w->aggr);
		put_int(f, w->aggr_n);
		fputc('\n', f);
	}
	fputs("end\n", f);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* ---- reading ---- */

#define MAXF 24

struct rd {
	struct stat_file *sf;
	const char *file;
	int line;
	char *f[MAXF]; /* the fields of the line, unescaped in place */
	const char *ls; /* where the line starts (for columns) */
	int nf;
	pmk_diag *d;
};

static int bad(struct rd *r, int field, const char *what)
{
	pmk_diag_clear(r->d);
	r->d->code = PMK_EFORMAT;
	r->d->line = r->line;
	snprintf(r->d->file, sizeof r->d->file, "%s", r->file);
	if (field > 0) {
		r->d->column = (int)(r->f[field] - r->ls) + 1;
		snprintf(r->d->message, sizeof r->d->message,
			 "field %d: %s", field + 1, what);
	}
	else
		snprintf(r->d->message, sizeof r->d->message, "%s", what);
	snprintf(r->d->hint, sizeof r->d->hint,
		 "a file written by `pmkit stat record` is expected (a "
		 "recording of samples is read by `pmkit report`)");
	return PMK_EFORMAT;
}

/* Split line `s` (NUL-terminated, no newline) at tabs. */
static int split(struct rd *r, char *s)
{
	r->nf = 0;
	for (;;) {
		if (r->nf == MAXF)
			return bad(r, 0, "too many fields");
		r->f[r->nf++] = s;
		s = strchr(s, '\t');
		if (!s)
			return 0;
		*s++ = 0;
	}
}

/* Field i as a string (unescaped, kept by the file), NULL for \N. */
static int get_str(struct rd *r, int i, const char **out)
{
	struct stat_file *sf = r->sf;
	char *s = r->f[i], *o, *copy;
	if (!strcmp(s, "\\N")) {
		*out = NULL;
		return 0;
	}
	for (o = s; *s; s++) {
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 't')
			*o++ = '\t';
		else if (*s == 'n')
			*o++ = '\n';
		else if (*s == '\\')
			*o++ = '\\';
		else
			return bad(r, i, "a '\\' not followed by t, n or \\");
	}
	*o = 0;
	if (sf->nstr == sf->capstr) {
		int cap = sf->capstr ? 2 * sf->capstr : 16;
		char **n = realloc(sf->strs, (size_t)cap * sizeof *n);
		if (!n)
			return bad(r, i, "out of memory");
		sf->strs = n;
		sf->capstr = cap;
	}
	copy = strdup(r->f[i]);
	if (!copy)
		return bad(r, i, "out of memory");
	sf->strs[sf->nstr++] = copy;
	*out = copy;
	return 0;
}

static int get_num(struct rd *r, int i, double *out)
{
	char *e;
	errno = 0;
	*out = strtod(r->f[i], &e);
	if (e == r->f[i] || *e)
		return bad(r, i, "not a number");
	return 0;
}

static int get_u64(struct rd *r, int i, unsigned long long *out)
{
	char *e;
	if (r->f[i][0] < '0' || r->f[i][0] > '9')
		return bad(r, i, "not a whole number");
	errno = 0;
	*out = strtoull(r->f[i], &e, 10);
	if (*e || errno)
		return bad(r, i, "not a whole number (or too large)");
	return 0;
}

static int get_int(struct rd *r, int i, long long lo, long long hi, int *out)
{
	char *e;
	long long v;
	errno = 0;
	v = strtoll(r->f[i], &e, 10);
	if (e == r->f[i] || *e || errno || v < lo || v > hi)
		return bad(r, i, "not a whole number in range");
	*out = (int)v;
	return 0;
}

static int read_result(struct rd *r, struct stat_result *res)
{
	int rc = 0;
	if (r->nf != 15)
		return bad(r, 0, "a result line has 15 fields");
	memset(res, 0, sizeof *res);
	rc |= get_str(r, 1, &res->target);
	rc |= rc ? rc : get_str(r, 2, &res->command);
	rc |= rc ? rc : get_int(r, 3, -1000000, 1000000, &res->exit_status);
	rc |= rc ? rc : get_int(r, 4, 0, 1 << 30, &res->repeats);
	rc |= rc ? rc : get_num(r, 5, &res->elapsed_s);
	rc |= rc ? rc : get_num(r, 6, &res->elapsed_sem_s);
	rc |= rc ? rc : get_num(r, 7, &res->user_s);
	rc |= rc ? rc : get_num(r, 8, &res->sys_s);
	rc |= rc ? rc : get_num(r, 9, &res->interval_s);
	rc |= rc ? rc : get_num(r, 10, &res->span_s);
	rc |= rc ? rc : get_int(r, 11, 0, STAT_AGGR_CACHE, &res->aggr);
	rc |= rc ? rc : get_int(r, 12, 0, 1, &res->null_run);
	rc |= rc ? rc : get_str(r, 13, &res->note);
	rc |= rc ? rc : get_str(r, 14, &res->cgroup);
	return rc ? PMK_EFORMAT : 0;
}

static int read_row(struct rd *r, struct stat_row *w)
{
	int rc = 0, st;
	unsigned long long flags;
	if (r->nf != 21)
		return bad(r, 0, "a row line has 21 fields");
	memset(w, 0, sizeof *w);
	rc |= get_str(r, 1, &w->name);
	rc |= rc ? rc : get_str(r, 2, &w->unit);
	rc |= rc ? rc : get_num(r, 3, &w->value);
	rc |= rc ? rc : get_num(r, 4, &w->err);
	rc |= rc ? rc : get_num(r, 5, &w->lo);
	rc |= rc ? rc : get_num(r, 6, &w->hi);
	rc |= rc ? rc : get_num(r, 7, &w->stddev);
	rc |= rc ? rc : get_num(r, 8, &w->sem);
	rc |= rc ? rc : get_num(r, 9, &w->counted);
	rc |= rc ? rc : get_u64(r, 10, &w->raw);
	rc |= rc ? rc : get_u64(r, 11, &w->enabled_ns);
	rc |= rc ? rc : get_u64(r, 12, &w->running_ns);
	rc |= rc ? rc : get_u64(r, 13, &flags);
	rc |= rc ? rc : get_int(r, 14, -100000, 0, &st);
	rc |= rc ? rc : get_str(r, 15, &w->reason);
	rc |= rc ? rc : get_int(r, 16, 0, 1, &w->bare);
	rc |= rc ? rc : get_int(r, 17, 0, 1, &w->user_only);
	rc |= rc ? rc : get_int(r, 18, 0, 1, &w->derived);
	rc |= rc ? rc : get_str(r, 19, &w->aggr);
	rc |= rc ? rc : get_int(r, 20, 0, 1 << 20, &w->aggr_n);
	if (rc)
		return PMK_EFORMAT;
	if (flags > UINT32_MAX)
		return bad(r, 13, "flags out of range");
	w->flags = (unsigned)flags;
	w->status = st;
	if (!w->name)
		return bad(r, 1, "a row needs an event name");
	if (!w->unit)
		w->unit = "";
	return 0;
}

/* The rows of every result, allocated as one array per result. */
static int add_row(struct rd *r, struct stat_result *res, int *cap)
{
	if (res->nrows == *cap) {
		int c = *cap ? 2 * *cap : 8;
		struct stat_row *n;
		if (c > 1 << 20)
			return bad(r, 0, "too many rows in one result");
		n = realloc(res->rows, (size_t)c * sizeof *n);
		if (!n)
			return bad(r, 0, "out of memory");
		res->rows = n;
		*cap = c;
	}
	return read_row(r, &res->rows[res->nrows]) ? PMK_EFORMAT
		   : (res->nrows++, 0);
}

int stat_file_parse(const char *text, size_t len, const char *file,
		    struct stat_file *sf, pmk_diag *d)
{
	struct rd r = {.sf = sf, .file = file, .d = d};
	char *buf = malloc(len + 1), *s, *nl;
	struct stat_result *cur = NULL;
	int cap = 0, rc = 0, resc = 0;

	memset(sf, 0, sizeof *sf);
	if (!buf)
		return bad(&r, 0, "out of memory");
	memcpy(buf, text, len);
	buf[len] = 0;
	for (s = buf; rc == 0 && *s; s = nl ? nl + 1 : s + strlen(s)) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		r.line++;
		if (r.line == 1) {
			if (strcmp(s, STAT_FILE_MAGIC))
				rc = bad(&r, 0, "not a pmkit stat record "
					 "(no '" STAT_FILE_MAGIC "' line)");
			continue;
		}
		r.ls = s;
		if ((rc = split(&r, s)) != 0)
			break;
		if (!strcmp(r.f[0], "result")) {
			if (cur) {
				rc = bad(&r, 0, "a result before the last "
					 "one's 'end'");
				break;
			}
			if (sf->n == resc) {
				int c = resc ? 2 * resc : 4;
				struct stat_result *n;
				if (c > 1 << 20 || !(n = realloc(sf->res,
						 (size_t)c * sizeof *n))) {
					rc = bad(&r, 0, "too many results");
					break;
				}
				sf->res = n;
				resc = c;
			}
			cur = &sf->res[sf->n];
			cap = 0;
			if ((rc = read_result(&r, cur)) == 0)
				sf->n++;
			else
				cur = NULL;
		} else if (!strcmp(r.f[0], "row")) {
			if (!cur)
				rc = bad(&r, 0, "a row outside a result");
			else
				rc = add_row(&r, cur, &cap);
		} else if (!strcmp(r.f[0], "end") && r.nf == 1) {
			if (!cur)
				rc = bad(&r, 0, "'end' outside a result");
			cur = NULL;
		} else
			rc = bad(&r, 0, "a line that is not 'result', 'row' "
				 "or 'end'");
	}
	if (rc == 0 && r.line == 0)
		rc = bad(&r, 0, "empty file");
	else if (rc == 0 && cur) {
		/* a run cut short: the prints before it are whole */
		free(cur->rows);
		sf->n--;
		sf->truncated = 1;
	}
	free(buf);
	if (rc)
		stat_file_free(sf);
	return rc;
}

void stat_file_free(struct stat_file *sf)
{
	for (int i = 0; i < sf->n; i++)
		free(sf->res[i].rows);
	/* a result whose 'result' line failed holds no rows; one cut short
	 * after its rows is counted in n */
	free(sf->res);
	for (int i = 0; i < sf->nstr; i++)
		free(sf->strs[i]);
	free(sf->strs);
	memset(sf, 0, sizeof *sf);
}
