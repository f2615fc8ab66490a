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
