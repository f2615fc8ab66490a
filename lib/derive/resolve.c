/*
 * resolve.c: the default resolver of base event names: pmk_event_parse()
 * on the host's target, or on a target built for a named PMU model (a core
 * PMU "cpu" of type raw, and the model's tables), as `pmkit metric needs
 * --pmu MODEL` wants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/derive/defs.h"

struct rarg {
	const pmk_target *t;
	pmk_target *own;
	char **names; /* every event name of the target, sorted (lazily) */
	int nnames, cap;
	int built;
};

int pmk__defs_default_resolve(const char *name, pmk_event *ev, pmk_diag *d,
			      void *arg)
{
	struct rarg *r = arg;
	int rc;
	if (!r || !r->t)
		return 1; /* no target: accepted, unresolved */
	rc = pmk_event_parse(r->t, name, ev, d);
	if (rc == PMK_ENOTSUP || rc == PMK_ENOPMU)
		return PMK_ENOTSUP;
	return rc;
}

void *pmk__defs_resolver_new(const char *model, char *model_out,
			     size_t model_size, pmk_diag *d, int *rc)
{
	struct rarg *r = calloc(1, sizeof *r);
	*rc = 0;
	if (!r) {
		*rc = PMK_ENOMEM;
		return NULL;
	}
	if (model && *model) {
		r->own = pmk_target_new();
		if (!r->own) {
			free(r);
			*rc = PMK_ENOMEM;
			return NULL;
		}
		pmk_target_add_pmu(r->own, "cpu", PMK_TYPE_RAW, 1);
		if (pmk_target_set_model(r->own, model) < 0) {
			if (d) {
				pmk_diag_clear(d);
				d->code = PMK_ENOENT;
				snprintf(d->message, sizeof d->message,
					 "unknown PMU model '%s'", model);
				snprintf(d->hint, sizeof d->hint,
					 "`pmkit list --models` shows the "
					 "models with event tables");
			}
			pmk_target_free(r->own);
			free(r);
			*rc = PMK_ENOENT;
			return NULL;
		}
		r->t = r->own;
	} else {
		r->t = pmk_target_host();
	}
	if (model_out && model_size)
		snprintf(model_out, model_size, "%s",
			 r->t ? pmk_target_model(r->t) : "");
	return r;
}

void pmk__defs_resolver_free(void *arg)
{
	struct rarg *r = arg;
	if (!r)
		return;
	if (r->own)
		pmk_target_free(r->own);
	for (int i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r);
}

const char *pmk_defs_host_model(void)
{
	const pmk_target *t;
	t = pmk_target_host();
	if (!t || !pmk_target_core_pmu(t))
		return "";
	return pmk_target_model(t);
}

static int collect(const pmk_event_info *info, void *arg)
{
	struct rarg *r = arg;
	if (info->kind == PMK_KIND_USER || !info->name)
		return 0;
	if (r->nnames == r->cap) {
		int nc = r->cap ? r->cap * 2 : 256;
		char **nn = realloc(r->names, sizeof *nn * (size_t)nc);
		if (!nn)
			return PMK_ENOMEM;
		r->names = nn;
		r->cap = nc;
	}
	r->names[r->nnames] = strdup(info->name);
	if (!r->names[r->nnames])
		return PMK_ENOMEM;
	r->nnames++;
	return 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Whether `name` (a definition's name: no modifiers) is already an event
 * on the target. Asking the parser about every name of a large file would
 * cost a failed lookup each (with its spelling suggestions); the target's
 * names are listed once instead. Raw codes (r1c2) are not listed: parsed.
 */
int pmk__defs_default_is_event(const char *name, void *arg)
{
	struct rarg *r = arg;
	const char *key = name;
	pmk_event ev;
	if (!r || !r->t)
		return 0;
	if (name[0] == 'r' && name[1] &&
	    strspn(name + 1, "0123456789abcdefABCDEFx") == strlen(name + 1))
		return pmk_event_parse(r->t, name, &ev, NULL) == 0;
	if (!r->built) {
		r->built = 1;
		if (pmk_event_foreach(r->t, collect, r) == 0 && r->nnames)
			qsort(r->names, (size_t)r->nnames, sizeof *r->names,
			      cmpstr);
	}
	return r->nnames && bsearch(&key, r->names, (size_t)r->nnames,
				    sizeof *r->names, cmpstr) != NULL;
}
