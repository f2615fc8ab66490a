/*
 * event.c: user events compiled into pmk_events, the registry, and the
 * PMK_USER_EVENTS_FILE loaded when libpmkit is loaded.
 *
 * A compiled user event's leaves are the natives of all its base events
 * (equal encodings shared), so an event set sees exactly which counters it
 * needs and can return PMK_ENEEDMPX when they do not fit together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/derive/defs.h"
#include "lib/event/attr.h"
#include "lib/event/user.h"

/* Leaves are shared by encoding; unresolved ones (no encoding yet) by
 * name too. */
static int attr_same(const pmk_attr *a, const pmk_attr *b)
{
	return pmk__attr_same_encoding(a, b) &&
	       (a->type != PMK_TYPE_UNRESOLVED || !strcmp(a->name, b->name));
}

static int add_leaf(pmk_event *ev, const pmk_attr *a)
{
	for (int i = 0; i < ev->nleaf; i++)
		if (attr_same(&ev->leaf[i], a))
			return i;
	if (ev->nleaf == PMK_LEAF_MAX)
		return PMK_ERANGE;
	ev->leaf[ev->nleaf] = *a;
	return ev->nleaf++;
}

static int add_op(pmk_event *ev, int code, int arg, double value)
{
	if (ev->nops == PMK_OPS_MAX)
		return PMK_ERANGE;
	ev->ops[ev->nops].code = (uint8_t)code;
	ev->ops[ev->nops].arg = (uint8_t)arg;
	ev->ops[ev->nops].value = value;
	ev->nops++;
	return 0;
}

int pmk_defs_event(const pmk_defs *defs, int i, pmk_event *ev, pmk_diag *d)
{
	const struct ddef *x;
	int map[PMK_LEAF_MAX * 8], rc = 0;
	const struct dbase *b;

	if (!defs || i < 0 || i >= defs->nevents || !ev)
		return PMK_EINVAL;
	x = &defs->defs[defs->events[i]];
	memset(ev, 0, sizeof *ev);
	snprintf(ev->name, sizeof ev->name, "%s", x->name);
	ev->kind = PMK_KIND_USER;
	for (int k = 0; k < x->nprog && rc == 0; k++) {
		const struct dop *o = &x->prog[k];
		if (o->code == PMK_OP_CONST) {
			rc = add_op(ev, o->code, 0, o->value);
			continue;
		}
		if (o->code != PMK_OP_LEAF) {
			rc = add_op(ev, o->code, 0, 0);
			continue;
		}
		b = &defs->bases[x->bases[o->arg]];
		if (b->rc != 0) {
			pmk_attr a;
			memset(&a, 0, sizeof a);
			a.type = PMK_TYPE_UNRESOLVED;
			snprintf(a.name, sizeof a.name, "%s", b->name);
			rc = add_leaf(ev, &a);
			if (rc >= 0)
				rc = add_op(ev, PMK_OP_LEAF, rc, 0);
			continue;
		}
		/* The base's own natives, and its program (presets may be
		 * derived) with its leaves renumbered. */
		for (int l = 0; l < b->ev.nleaf && l < PMK_LEAF_MAX * 8; l++) {
			map[l] = add_leaf(ev, &b->ev.leaf[l]);
			if (map[l] < 0) {
				rc = map[l];
				break;
			}
		}
		if (rc < 0)
			break;
		if (b->ev.nops == 0) {
			rc = add_op(ev, PMK_OP_LEAF, map[0], 0);
			continue;
		}
		for (int j = 0; j < b->ev.nops && rc == 0; j++) {
			pmk_op o2 = b->ev.ops[j];
			rc = add_op(ev, o2.code,
				    o2.code == PMK_OP_LEAF ? map[o2.arg] : 0,
				    o2.value);
		}
	}
	if (rc < 0) {
		pmk__defs_error(d, PMK_ERANGE, defs, x->file, x->line, x->input,
				x->col, (int)strlen(x->name),
				"'%s' needs more than %d natives or %d steps "
				"to count",
				x->name, PMK_LEAF_MAX, PMK_OPS_MAX);
		if (d)
			snprintf(d->hint, sizeof d->hint,
				 "`pmkit metric eval` can still compute it "
				 "from recorded counts");
		return PMK_ERANGE;
	}
	return 0;
}

int pmk_defs_register(const pmk_defs *defs, pmk_diag *d)
{
	int n = pmk_defs_count(defs), rc = 0;
	pmk_event *evs;
	const char **texts;

	if (!defs)
		return PMK_EINVAL;
	if (n == 0)
		return 0;
	evs = malloc(sizeof *evs * (size_t)n);
	texts = malloc(sizeof *texts * (size_t)n);
	if (!evs || !texts) {
		free(evs);
		free(texts);
		return PMK_ENOMEM;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		rc = pmk_defs_event(defs, i, &evs[i], d);
		texts[i] = pmk_defs_text(defs, i);
	}
	if (rc == 0) {
		rc = pmk__user_register(evs, texts, n);
		if (rc == PMK_EEXIST && d) {
			pmk_diag_clear(d);
			d->code = rc;
			snprintf(d->file, sizeof d->file, "%s", defs->files[0]);
			snprintf(d->message, sizeof d->message,
				 "a user event of '%s' is already loaded",
				 defs->files[0]);
			snprintf(d->hint, sizeof d->hint,
				 "load each definition file once (also "
				 "through PMK_USER_EVENTS_FILE)");
		}
	}
	free(evs);
	free(texts);
	return rc;
}

int pmk_defs_load(const char *path, pmk_diag *d)
{
	pmk_defs *defs;
	int rc = pmk_defs_parse_file(&defs, path, NULL, d);
	if (rc)
		return rc;
	rc = pmk_defs_register(defs, d);
	pmk_defs_free(defs);
	return rc;
}

int pmk_defs_load_string(const char *name, const char *text, pmk_diag *d)
{
	pmk_defs *defs;
	int rc = pmk_defs_parse_string(&defs, name, text, NULL, d);
	if (rc)
		return rc;
	rc = pmk_defs_register(defs, d);
	pmk_defs_free(defs);
	return rc;
}

/* Whether `msg` holds a quoted span of more than 2 characters. */
static int quotes_text(const char *msg)
{
	const char *q = strchr(msg, '\''), *e;
	while (q && (e = strchr(q + 1, '\'')) != NULL) {
		if (e - q - 1 > 2)
			return 1;
		q = strchr(e + 1, '\'');
	}
	return 0;
}

static int env_rc;
static pmk_diag env_diag;

/* PMK_USER_EVENTS_FILE: loaded when libpmkit is loaded (seed 002 loads it
 * at library init). A failure is kept for pmk_defs_env_status(), never
 * printed: the library does not print. */
__attribute__((constructor)) static void load_env(void)
{
	/* secure_getenv: not in a set-user-ID or capability-raised process */
	const char *p = secure_getenv("PMK_USER_EVENTS_FILE");
	if (!p || !*p)
		return;
	env_rc = pmk_defs_load(p, &env_diag);
	/* The file is named by the environment, maybe not by the user who
	 * reads the warning (PMK_USER_EVENTS_FILE=/etc/shadow): its text is
	 * never shown. Where it went wrong (file:line:column) is. */
	if (env_rc < 0) {
		env_diag.input[0] = 0; /* the source line */
		env_diag.length = 0;
		/* a message that quotes a name of the file goes too (an
		 * operator, '+', says nothing) */
		if (quotes_text(env_diag.message)) {
			snprintf(env_diag.message, sizeof env_diag.message,
				 "not a valid definition file (its text is "
				 "not shown)");
			snprintf(env_diag.hint, sizeof env_diag.hint,
				 "pmkit metric check FILE says what is wrong");
		}
	}
}

int pmk_defs_env_status(pmk_diag *d)
{
	if (d)
		*d = env_diag;
	return env_rc;
}
