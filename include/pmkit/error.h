/*
 * pmkit/error.h: error codes and diagnostics shared by every part of libpmkit.
 *
 * Library calls return 0 (or a count) on success and a negative PMK_E* code on
 * failure; they never print and never exit. Calls that parse text also fill a
 * pmk_diag saying where the problem is and what to try, which the CLI turns
 * into a message.
 */
#ifndef PMKIT_ERROR_H
#define PMKIT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, value, message): the one list of error codes. */
#define PMK_ERRNO_MAP(X)                                                       \
	X(OK, 0, "success")                                                    \
	X(EINVAL, -1, "invalid argument")                                      \
	X(ENOMEM, -2, "out of memory")                                         \
	X(ESYNTAX, -3, "syntax error")                                         \
	X(ENOEVENT, -4, "no such event")                                       \
	X(ENOPMU, -5, "no such PMU")                                           \
	X(ENOTSUP, -6, "not supported on this machine")                        \
	X(EPERM, -7, "permission denied")                                      \
	X(ECONFLICT, -8, "events cannot be counted together")                  \
	X(ENEEDMPX, -9, "events do not fit on the counters without multiplexing") \
	X(ESYS, -10, "system call failed")                                     \
	X(ESTATE, -11, "operation not valid in this state")                    \
	X(EIO, -12, "input/output error")                                      \
	X(EFORMAT, -13, "malformed file")                                      \
	X(ECYCLE, -14, "definition refers to itself")                          \
	X(ERANGE, -15, "value out of range")                                   \
	X(EEXIST, -16, "already exists")                                       \
	X(ENOENT, -17, "not found")                                            \
	X(EBUSY, -18, "resource busy")                                         \
	X(ETOOMANY, -19, "too many events or files")                           \
	X(EVERSION, -20, "unsupported file version")

enum pmk_errno {
#define PMK__ERR_ENUM(name, val, msg) PMK_##name = (val),
	PMK_ERRNO_MAP(PMK__ERR_ENUM)
#undef PMK__ERR_ENUM
};

/* The message of an error code ("no such event"); never NULL. */
const char *pmk_strerror(int err);
/* The symbolic name of an error code ("PMK_ENOEVENT"); never NULL. */
const char *pmk_errname(int err);

/*
 * Where a parse or an open failed and what to try. Columns and lines count
 * from 1; 0 means "not applicable". `sys_errno` holds the errno of a failed
 * system call, or 0.
 */
typedef struct pmk_diag {
	int code;          /* the PMK_E* code returned with it */
	int line;          /* 1-based line in `file`, or 0 */
	int column;        /* 1-based column in `input` (or the line), or 0 */
	int length;        /* length of the offending token, for the marker */
	int sys_errno;     /* errno of a failed system call, or 0 */
	char file[256];    /* file being parsed, or "" */
	char input[512];   /* the string or line being parsed, or "" */
	char message[256]; /* what is wrong, lowercase, no trailing period */
	char hint[256];    /* what to try, or "" */
} pmk_diag;

/* Reset a diagnostic to "no error". */
void pmk_diag_clear(pmk_diag *d);
/*
 * Format a diagnostic for people: "message", the input with a ^~~~ marker
 * under the column, and "hint: ..." when there is one. Returns the length
 * written (truncated to `size`).
 */
int pmk_diag_format(const pmk_diag *d, char *buf, unsigned long size);

#ifdef __cplusplus
}
#endif
#endif
