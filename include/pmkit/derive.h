/*
 * pmkit/derive.h: user-defined events, definition files and metrics.
 *
 * A definition file (docs/derive.md has the grammar) names constants and
 * user events:
 *   #define L1_lat 3                              constant
 *   #include "machine.h"                          constants from another file
 *   Branch_cat, PAPI_BR_INS|BR_lat|*|PAPI_TOT_INS|/     reverse Polish
 *   IPC = instructions / cycles                   infix
 *   CPU,amd64_fam1ah_zen5                         PAPI 7 section
 *   EVENT,USER_IPC,DERIVED_POSTFIX,N0|N1|/|,PAPI_TOT_INS,PAPI_TOT_CYC
 * A user event may use base events (anything pmk_event_parse accepts),
 * constants and other user events of the file (in any order; cycles are
 * rejected). Values are doubles. A file is checked whole: any error (with
 * file:line:column in the pmk_diag) rejects the whole file.
 *
 * Two levels:
 *  - pmk_defs: a parsed file, symbolic. Each user event is a program over
 *    its base events by name (constants and other user events inlined).
 *    This is all `pmkit metric needs/eval` requires; no machine is needed.
 *  - pmk_defs_event(): one user event compiled into a pmk_event (the
 *    natives of all its base events as leaves, one reverse-Polish program),
 *    as the event parser and event sets use it. pmk_defs_load() registers
 *    every user event of a file this way, so that its name works wherever
 *    an event name does.
 * The environment variable PMK_USER_EVENTS_FILE is loaded when libpmkit is
 * loaded (a failure there is kept: pmk_defs_env_status()).
 */
#ifndef PMKIT_DERIVE_H
#define PMKIT_DERIVE_H

#include <stddef.h>

#include "pmkit/error.h"
#include "pmkit/event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmk_defs pmk_defs;

/*
 * How a definition file's base event names are checked. Return 0 and fill
 * `ev` (its natives) when `name` is an event; PMK_ENOTSUP when it is a known
 * event that has no encoding on the target (the user event then loads but
 * cannot be counted here); any other negative code when it is no event
 * (`d` may carry a message).
 */
typedef int (*pmk_defs_resolver)(const char *name, pmk_event *ev, pmk_diag *d,
				 void *arg);

typedef struct pmk_defs_opts {
	/* NULL: pmk_event_parse() on the host's target, or on a target for
	 * `model` when one is given. */
	pmk_defs_resolver resolve;
	void *arg;
	/* The PMU model selecting `CPU,<pmu>` sections. NULL: the model of
	 * the resolver's target (the host's by default). */
	const char *model;
	/* Accept any well-formed base event name without resolving it (for
	 * files read on another machine than the one they are meant for). */
	int symbolic;
	/* Refuse `#include` (text from an untrusted source). */
	int no_include;
} pmk_defs_opts;

/* Parse a file, or text named `name` (used in diagnostics; includes are
 * resolved relative to the current directory then). `opts` may be NULL. */
int pmk_defs_parse_file(pmk_defs **out, const char *path,
			const pmk_defs_opts *opts, pmk_diag *d);
int pmk_defs_parse_string(pmk_defs **out, const char *name, const char *text,
			  const pmk_defs_opts *opts, pmk_diag *d);
void pmk_defs_free(pmk_defs *defs);

/* The user events of the file's active sections, in file order. */
int pmk_defs_count(const pmk_defs *defs);
const char *pmk_defs_name(const pmk_defs *defs, int i);
/* The definition as written (one line), and the comment line just above
 * it ("" when none). */
const char *pmk_defs_text(const pmk_defs *defs, int i);
const char *pmk_defs_desc(const pmk_defs *defs, int i);
/* Where it is defined. */
const char *pmk_defs_where(const pmk_defs *defs, int i, int *line);
/* Index of the user event `name`, or PMK_ENOENT. */
int pmk_defs_find(const pmk_defs *defs, const char *name);
/* The value of constant `name`: 0, or PMK_ENOENT. */
int pmk_defs_constant(const pmk_defs *defs, const char *name, double *value);

/* The distinct base events user event i needs, in order of first use. */
int pmk_defs_base_count(const pmk_defs *defs, int i);
const char *pmk_defs_base(const pmk_defs *defs, int i, int k);
/* Whether base k of user event i has an encoding on the target (0 when
 * the resolver said PMK_ENOTSUP, or when parsed symbolically). */
int pmk_defs_base_resolved(const pmk_defs *defs, int i, int k);
/* Its resolved event (natives), or NULL when not resolved. */
const pmk_event *pmk_defs_base_event(const pmk_defs *defs, int i, int k);

/* The host's PMU model when it has a core PMU (so that natives of the
 * model can be counted here), else "". */
const char *pmk_defs_host_model(void);

/* Flags set by the evaluators. */
enum {
	PMK_EVAL_DIV0 = 1 << 0,	   /* a division by zero: the value is NaN */
	PMK_EVAL_MISSING = 1 << 1, /* an input was NaN (missing) */
};

/*
 * Evaluate user event i given its base events' values, in the order of
 * pmk_defs_base(). Sets `*flags` (may be NULL) to PMK_EVAL_*. A division by
 * zero gives NaN; never traps.
 */
double pmk_defs_eval(const pmk_defs *defs, int i, const double *base_values,
		     unsigned *flags);

/*
 * The same with uncertainty: each base value has a standard error
 * (`base_errs`, NULL or 0 = exact). Gives the first-order standard error of
 * the result (independent inputs) in *err, and by interval arithmetic over
 * [value - 2 err, value + 2 err] of each input an interval [*lo, *hi]
 * holding the result (infinite when a divisor's interval holds 0).
 */
double pmk_defs_eval_err(const pmk_defs *defs, int i, const double *base_values,
			 const double *base_errs, double *err, double *lo,
			 double *hi, unsigned *flags);

/* The same for any reverse-Polish program over leaf values (pmk_event's
 * `ops`; nops == 0 means leaf 0). Malformed programs give NaN. */
double pmk_ops_eval(const pmk_op *ops, int nops, const double *leaf_values,
		    unsigned *flags);

/*
 * Compile user event i into a pmk_event (kind PMK_KIND_USER): the natives
 * of its base events (equal encodings shared) and one program. A base with
 * no encoding here becomes a leaf of type PMK_TYPE_UNRESOLVED named after
 * it, which an event set reports as not supported. PMK_ERANGE (with `d`
 * naming the definition) when it needs more than PMK_LEAF_MAX natives or
 * PMK_OPS_MAX steps.
 */
int pmk_defs_event(const pmk_defs *defs, int i, pmk_event *ev, pmk_diag *d);

/* Register every user event of `defs` (all or none). PMK_EEXIST when a
 * name is already registered. */
int pmk_defs_register(const pmk_defs *defs, pmk_diag *d);
/* Parse, compile and register a whole file (or text). */
int pmk_defs_load(const char *path, pmk_diag *d);
int pmk_defs_load_string(const char *name, const char *text, pmk_diag *d);
/* What loading PMK_USER_EVENTS_FILE at library load gave: 0 when it was
 * unset or loaded; else the error, with `d` filled (may be NULL). */
int pmk_defs_env_status(pmk_diag *d);

/*
 * Recorded measurements for `pmkit metric eval`: pmkit stat's CSV (-x SEP)
 * and JSON output, and plain text `name value` lines. Values recorded as
 * not counted / not supported are kept as missing (NaN).
 */
typedef struct pmk_measure pmk_measure;
int pmk_measure_read(pmk_measure **out, const char *path, pmk_diag *d);
int pmk_measure_parse(pmk_measure **out, const char *name, const char *text,
		      size_t len, pmk_diag *d);
void pmk_measure_free(pmk_measure *m);
/* 0 and the value of `name` (NaN when recorded as missing); PMK_ENOENT
 * when the name does not appear. */
int pmk_measure_get(const pmk_measure *m, const char *name, double *value);
/* The recorded error estimate (1 sigma, same unit) of `name`: pmkit stat's
 * JSON "error"; 0 when none was recorded. */
double pmk_measure_err(const pmk_measure *m, const char *name);
int pmk_measure_count(const pmk_measure *m);
const char *pmk_measure_name(const pmk_measure *m, int i, double *value);

#ifdef __cplusplus
}
#endif
#endif
