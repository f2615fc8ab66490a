/*
 * table.c: the one table writer (cli/table.h): text, CSV or JSON from the
 * same rows, so that every command's --csv and --json carry the columns
 * its text shows.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/table.h"

void cli_table_init(cli_table *t, const char *name, const char *cols)
{
	char *save = NULL;
	memset(t, 0, sizeof *t);
	t->name = name;
	snprintf(t->spec, sizeof t->spec, "%s", cols);
	for (char *tok = strtok_r(t->spec, ",", &save);
	     tok && t->ncol < CLI_TABLE_MAXCOL; tok = strtok_r(NULL, ",", &save)) {
		char *unit = strchr(tok, ':');
		if (unit)
			*unit++ = 0;
		t->units[t->ncol] = unit;
		t->cols[t->ncol++] = tok;
	}
}

static int add_cell(cli_table *t, const char *s, size_t len)
{
	char *c;
	if (t->ncol == 0)
		return -1;
	if (t->ncell == 0 && t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		char **cells = realloc(t->cells, sizeof(char *) * (size_t)cap *
						     (size_t)t->ncol);
		if (!cells)
			return -1;
		t->cells = cells;
		t->cap = cap;
	}
	c = strndup(s, len);
	if (!c)
		return -1;
	t->cells[t->nrows * t->ncol + t->ncell++] = c;
	if (t->ncell == t->ncol) {
		t->ncell = 0;
		t->nrows++;
	}
	return 0;
}

int cli_table_row(cli_table *t, const char *fmt, ...)
{
	char line[2048];
	const char *p = line;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	int fresh = t->ncell == 0, added = 0;
	for (;;) {
		size_t n = strcspn(p, "|");
		if (add_cell(t, p, n))
			return -1;
		added++;
		p += n;
		if (!*p || t->ncell == 0)
			break;
		p++;
	}
	/* a new row given fewer cells than columns: the rest are empty */
	while (fresh && t->ncell != 0 && added++ < t->ncol)
		if (add_cell(t, "", 0))
			return -1;
	return 0;
}

int cli_table_cell(cli_table *t, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return add_cell(t, buf, strlen(buf));
}

void cli_table_free(cli_table *t)
{
	for (int i = 0; i < t->nrows * t->ncol + t->ncell; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = t->ncell = 0;
}

/* A cell JSON takes as a number: what strtod reads whole, not nan, inf or
 * hexadecimal. */
static int is_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	(void)strtod(s, &end);
	return !*end && !strpbrk(s, "nNiIxX");
}

static void print_json(const cli_table *t, FILE *f)
{
	cli_json_str(f, t->name);
	fputs(": [", f);
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n  {" : "\n  {", f);
		for (int c = 0; c < t->ncol; c++) {
			const char *v = t->cells[r * t->ncol + c];
			if (c)
				fputs(", ", f);
			cli_json_str(f, t->cols[c]);
			fputs(": ", f);
			if (is_number(v))
				fputs(v, f);
			else if (!strcmp(v, "nan") || !strcmp(v, "-") ||
				 !strcmp(v, "never"))
				fputs("null", f);
			else
				cli_json_str(f, v);
		}
		fputc('}', f);
	}
	fputs("]", f);
}

static void csv_cell(const char *s, FILE *f)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void print_csv(const cli_table *t, FILE *f)
{
	for (int c = 0; c < t->ncol; c++) {
		if (c)
			fputc(',', f);
		csv_cell(t->cols[c], f);
	}
	fputc('\n', f);
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncol; c++) {
			csv_cell(t->cells[r * t->ncol + c], f);
			fputc(c + 1 < t->ncol ? ',' : '\n', f);
		}
}

static void print_text(const cli_table *t, FILE *f)
{
	char head[CLI_TABLE_MAXCOL][96];
	int w[CLI_TABLE_MAXCOL];
	for (int c = 0; c < t->ncol; c++) {
		if (t->units[c])
			snprintf(head[c], sizeof head[c], "%s (%s)", t->cols[c],
				 t->units[c]);
		else
			snprintf(head[c], sizeof head[c], "%s", t->cols[c]);
		w[c] = (int)strlen(head[c]);
		for (int r = 0; r < t->nrows; r++) {
			int l = (int)strlen(t->cells[r * t->ncol + c]);
			if (l > w[c])
				w[c] = l;
		}
	}
	if (t->title)
		fprintf(f, "%s\n", t->title);
	for (int c = 0; c < t->ncol; c++)
		fprintf(f, "%s%*s", c ? "  " : "", c ? w[c] : -w[c], head[c]);
	fputc('\n', f);
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncol; c++)
			fprintf(f, "%s%*s%s", c ? "  " : "", c ? w[c] : -w[c],
				t->cells[r * t->ncol + c],
				c + 1 < t->ncol ? "" : "\n");
}

void cli_tables_print(const cli_table *ts, int n, int fmt, FILE *out)
{
	if (fmt == CLI_JSON) {
		fputs("{", out);
		for (int i = 0; i < n; i++) {
			fputs(i ? ",\n" : "\n", out);
			print_json(&ts[i], out);
		}
		fputs("\n}\n", out);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			fputc('\n', out);
		if (fmt == CLI_CSV)
			print_csv(&ts[i], out);
		else
			print_text(&ts[i], out);
	}
}
