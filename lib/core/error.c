/*
 * error.c: messages for PMK_E* codes and formatting of diagnostics.
 */
#include <stdio.h>
#include <string.h>

#include "pmkit/error.h"

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
