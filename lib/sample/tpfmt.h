/*
 * tpfmt.h: a tracepoint's format (the text of tracefs'
 * events/SUB/NAME/format: its fields and its "print fmt") and the
 * rendering of one raw record (PERF_SAMPLE_RAW) by it, as perf script
 * prints a tracepoint's fields (tpfmt.c). Internal to lib/sample.
 */
#ifndef PMK_SAMPLE_TPFMT_H
#define PMK_SAMPLE_TPFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct pmk__tpfmt pmk__tpfmt;

/* The number of the "ID:" line of a format's text, or UINT64_MAX. */
uint64_t pmk__tpfmt_id(const char *text);
/* The fields and print format of `text`; NULL when memory is short. A
 * text that does not parse gives a format that prints nothing. */
pmk__tpfmt *pmk__tpfmt_parse(const char *text);
void pmk__tpfmt_free(pmk__tpfmt *f);
/* `raw` printed by the print format: its string with each argument that
 * names a field (REC->f, __get_str(f), under casts and parentheses) by
 * its conversion. A print format with other arguments (__print_flags,
 * conditions) prints the record's own fields as "name=value" instead. */
void pmk__tpfmt_print(const pmk__tpfmt *f, const uint8_t *raw, size_t len,
		      FILE *out);

#endif
