/*
 * error.c: messages for PMK_E* codes and formatting of diagnostics.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/diag.h"

const char *pmk_strerror(int err)
{
	switch (err) {
#define PMK__ERR_MSG(name, val, msg)                                           \
	case val:                                                              \
		return msg;
		PMK_ERRNO_MAP(PMK__ERR_MSG)
#undef PMK__ERR_MSG
	}
	return "unknown error";
}

const char *pmk_errname(int err)
{
	switch (err) {
#define PMK__ERR_NAME(name, val, msg)                                          \
	case val:                                                              \
		return "PMK_" #name;
		PMK_ERRNO_MAP(PMK__ERR_NAME)
#undef PMK__ERR_NAME
	}
	return "PMK_E?";
}

void pmk_diag_clear(pmk_diag *d)
{
	if (d)
		memset(d, 0, sizeof *d);
}

/* Clear `d` and set what every diagnostic has: code, file, hint and
 * message. */
static void diag_fill(pmk_diag *d, int code, const char *file,
		      const char *hint, const char *fmt, va_list ap)
{
	pmk_diag_clear(d);
	d->code = code;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "");
	snprintf(d->hint, sizeof d->hint, "%s", hint ? hint : "");
	vsnprintf(d->message, sizeof d->message, fmt, ap);
}

int pmk__diag_at(pmk_diag *d, int code, const char *file, int line,
		 const char *input, int col, int len, const char *hint,
		 const char *fmt, ...)
{
	va_list ap;
	if (!d)
		return code;
	va_start(ap, fmt);
	diag_fill(d, code, file, hint, fmt, ap);
	va_end(ap);
	d->line = line;
	d->column = col;
	d->length = len > 0 ? len : 1;
	snprintf(d->input, sizeof d->input, "%s", input ? input : "");
	for (char *p = d->input; *p; p++)
		if ((unsigned char)*p < 32)
			*p = ' ';
	return code;
}

int pmk__diag_file(pmk_diag *d, int code, int e, const char *path,
		   const char *hint, const char *fmt, ...)
{
	va_list ap;
	if (!d)
		return code;
	va_start(ap, fmt);
	diag_fill(d, code, path, hint, fmt, ap);
	va_end(ap);
	d->sys_errno = e;
	return code;
}

int pmk_diag_format(const pmk_diag *d, char *buf, unsigned long size)
{
	size_t n = 0;
	char where[300] = "";

	if (!buf || size == 0)
		return 0;
	buf[0] = 0;
	if (d->file[0] && d->line)
		snprintf(where, sizeof where, "%s:%d:%d: ", d->file, d->line,
			 d->column);
	else if (d->file[0])
		snprintf(where, sizeof where, "%s: ", d->file);
#define APPEND(...)                                                            \
	do {                                                                   \
		if (n < size)                                                  \
			n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__); \
	} while (0)
	APPEND("%s%s", where,
	       d->message[0] ? d->message : pmk_strerror(d->code));
	if (d->input[0]) {
		APPEND("\n    %s", d->input);
		if (d->column > 0) {
			APPEND("\n    %*s^", d->column - 1, "");
			for (int i = 1; i < d->length; i++)
				APPEND("~");
		}
	}
	if (d->hint[0])
		APPEND("\nhint: %s", d->hint);
#undef APPEND
	return (int)(n < size ? n : size - 1);
}
