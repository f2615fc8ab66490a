/*
 * table.h: the one table writer of the pmkit commands: named columns (with
 * an optional unit), rows of cells, printed as aligned text, CSV or JSON,
 * the format chosen by the caller (--csv, --json).
 *
 *     cli_table t;
 *     cli_table_init(&t, "levels", "level,size_bytes,latency_ns");
 *     cli_table_row(&t, "%s|%zu|%.2f", name, size, ns);  // '|' between cells
 *     cli_tables_print(&t, 1, fmt, stdout);
 *     cli_table_free(&t);
 *
 * Text: a title line when the table has one, the column names (with
 * " (unit)" where a unit was given), then the rows; the first column is
 * left-aligned, the others right-aligned, two spaces apart. CSV: the
 * names, then the rows; a cell holding a comma, a quote or a line break is
 * quoted (RFC 4180). Several tables print one after the other, a blank
 * line between them. JSON: one object, each table a member
 * "name": [ {column: value, ...}, ... ]; a cell that reads as a number is
 * a number, "nan", "-" and "never" are null, anything else a string.
 */
#ifndef PMK_CLI_TABLE_H
#define PMK_CLI_TABLE_H

#include <stdio.h>

enum cli_fmt { CLI_TEXT, CLI_CSV, CLI_JSON };

#define CLI_TABLE_MAXCOL 32

typedef struct cli_table {
	const char *name;  /* the JSON member */
	const char *title; /* text only: a line above the table, or NULL */
	int ncol;
	const char *cols[CLI_TABLE_MAXCOL];
	const char *units[CLI_TABLE_MAXCOL]; /* NULL: none */
	char **cells;			     /* nrows * ncol, row-major */
	int nrows, cap, ncell;		     /* ncell: cells of the row open */
	char spec[1024];		     /* the column names, split */
} cli_table;

/* Columns from a comma-separated list; a name may carry its unit after a
 * colon ("latency:ns"), shown in the text header only. */
void cli_table_init(cli_table *t, const char *name, const char *cols);
/* A row: `fmt` gives one cell per column, separated by '|'; a cell may be
 * empty, and missing ones at the end are. After cli_table_cell, the row
 * open goes on with the cells given. 0, or -1 out of memory. */
int cli_table_row(cli_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* One cell (any text, '|' included); a row is complete after ncol cells. */
int cli_table_cell(cli_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cli_table_free(cli_table *t);

/* Print one table, or several as one document (one JSON object). */
void cli_tables_print(const cli_table *ts, int n, int fmt, FILE *out);

#endif
