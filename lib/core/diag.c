/*
 * diag.c: filling a pmk_diag for a string the caller holds (diag.h): the
 * event parsers and the native-event sources, which leave the input line
 * to the caller that knows the whole string.
 */
#include <stdarg.h>
#include <stdio.h>

#include "lib/core/diag.h"

int pmk__diag_set(pmk_diag *d, int code, int column, int length,
		  const char *hint, const char *fmt, ...)
{
	va_list ap;
	if (!d)
		return code;
	d->code = code;
	d->column = column;
	d->length = length > 0 ? length : 1;
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof d->message, fmt, ap);
	va_end(ap);
	snprintf(d->hint, sizeof d->hint, "%s", hint ? hint : "");
	return code;
}
