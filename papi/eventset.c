/*
 * papi/eventset.c: event sets. A PAPI event set is an int handle on a
 * list of event codes and its options (domain, multiplexing, inheritance,
 * attachment); the pmk_eventset behind it is opened again from that list
 * whenever the list or an option changes while stopped, so an event that
 * cannot be counted with the others is refused when it is added, as PAPI
 * refuses it (PAPI_ECNFLCT without multiplexing, PAPI_ENOEVNT when it
 * cannot be counted here at all).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "papi/papi_int.h"

#define SET_MAX 4096
static papi__set *sets[SET_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int papi__def_domain = PAPI_DOM_USER;
int papi__def_granularity = PAPI_GRN_THR;

papi__set *papi__set_get(int id)
{
	if (id < 0 || id >= SET_MAX)
		return NULL;
	return __atomic_load_n(&sets[id], __ATOMIC_ACQUIRE);
}

#define GET_SET(s, id)                                                         \
	PAPI__CHECK_INIT();                                                    \
	papi__set *s = papi__set_get(id);                                      \
	if (!s)                                                                \
		return papi__ret(PAPI_ENOEVST)

int papi__set_rebuild(papi__set *s)
{
	pmk_eventset_free(s->es);
	s->es = NULL;
	if (s->ncode == 0)
		return PAPI_OK;
	unsigned flags = (s->multiplex ? PMK_ES_MULTIPLEX : 0) |
			 (s->inherit ? PMK_ES_INHERIT : 0);
	pmk_eventset *es;
	pmk_diag d;
	int r = pmk_eventset_new(&es, flags);
	if (r < 0)
		return papi__from_pmk(r);
	if (s->attached || s->cpu >= 0) {
		pmk_scope sc = {.pid = s->attached ? (pid_t)s->tid : 0,
				.cpu = s->cpu};
		if (!s->attached && s->cpu >= 0)
			sc.pid = -1;
		if ((r = pmk_eventset_set_scope(es, sc)) < 0)
			goto fail;
	}
	for (int i = 0; i < s->ncode; i++) {
		pmk_event ev;
		int pr = papi__event_encode(s->codes[i], s->domain, &ev, &d);
		if (pr != PAPI_OK) {
			pmk_eventset_free(es);
			return pr;
		}
		if ((r = pmk_eventset_add_event(es, &ev, &d)) < 0)
			goto fail;
	}
	if ((r = pmk_eventset_open(es, &d)) < 0)
		goto fail;
	for (int i = 0; i < s->ncode; i++) {
		const pmk_diag *ed = pmk_eventset_event_diag(es, i);
		if (ed) {
			r = i == s->ncode - 1 && s->ncode > 1 ? PMK_ECONFLICT
							      : ed->code;
			if (r >= 0)
				r = PMK_ENOTSUP;
			goto fail;
		}
	}
	s->es = es;
	return PAPI_OK;
fail:
	pmk_eventset_free(es);
	return papi__from_pmk(r);
}

int PAPI_create_eventset(int *id)
{
	PAPI__CHECK_INIT();
	if (!id || *id != PAPI_NULL)
		return papi__ret(PAPI_EINVAL);
	papi__set *s = calloc(1, sizeof *s);
	if (!s)
		return papi__ret(PAPI_ENOMEM);
	s->state = PAPI_STOPPED;
	s->domain = papi__def_domain;
	s->granularity = papi__def_granularity;
	s->cidx = -1;
	s->cpu = -1;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < SET_MAX; i++)
		if (!sets[i]) {
			s->id = i;
			__atomic_store_n(&sets[i], s, __ATOMIC_RELEASE);
			*id = i;
			pthread_mutex_unlock(&lock);
			return PAPI_OK;
		}
	pthread_mutex_unlock(&lock);
	free(s);
	return papi__ret(PAPI_ENOMEM);
}

int PAPI_cleanup_eventset(int id)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	papi__ovf_forget(s, 0);
	pmk_eventset_free(s->es);
	s->es = NULL;
	s->ncode = 0;
	s->multiplex = 0;
	return PAPI_OK;
}

int PAPI_destroy_eventset(int *id)
{
	PAPI__CHECK_INIT();
	if (!id)
		return papi__ret(PAPI_EINVAL);
	papi__set *s = papi__set_get(*id);
	if (!s)
		return papi__ret(PAPI_ENOEVST);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	if (s->ncode)
		return papi__ret(PAPI_EINVAL);
	pthread_mutex_lock(&lock);
	sets[*id] = NULL;
	pthread_mutex_unlock(&lock);
	pmk_eventset_free(s->es);
	free(s);
	*id = PAPI_NULL;
	return PAPI_OK;
}

void papi__sets_release(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < SET_MAX; i++)
		if (sets[i]) {
			if (sets[i]->es && (sets[i]->state & PAPI_RUNNING)) {
				papi__ovf_stop(sets[i]);
				pmk_eventset_stop(sets[i]->es);
			}
			papi__ovf_forget(sets[i], 0);
			pmk_eventset_free(sets[i]->es);
			free(sets[i]);
			sets[i] = NULL;
		}
	pthread_mutex_unlock(&lock);
}

int PAPI_add_event(int id, int code)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	if (!papi__event_get(code))
		return papi__ret(IS_PRESET(code) ? PAPI_ENOTPRESET : PAPI_ENOEVNT);
	for (int i = 0; i < s->ncode; i++)
		if (s->codes[i] == code)
			return papi__ret(PAPI_ECNFLCT);
	if (s->ncode >= PAPI__SET_EVENTS)
		return papi__ret(PAPI_ECOUNT);
	if (papi__disabled)
		return papi__ret(PAPI_ECMP_DISABLED);
	if (!papi__event_avail(code))
		return papi__ret(PAPI_ENOEVNT);
	s->codes[s->ncode++] = code;
	if (s->cidx < 0)
		s->cidx = 0;
	int r = papi__set_rebuild(s);
	if (r != PAPI_OK) {
		s->ncode--;
		papi__set_rebuild(s);
		return papi__ret(r);
	}
	return PAPI_OK;
}

int PAPI_add_named_event(int id, const char *name)
{
	int code;
	PAPI__CHECK_INIT();
	if (!name)
		return papi__ret(PAPI_EINVAL);
	int r = papi__event_lookup(name, &code);
	if (r != PAPI_OK)
		return papi__ret(r);
	return PAPI_add_event(id, code);
}

int PAPI_add_events(int id, int *codes, int n)
{
	PAPI__CHECK_INIT();
	if (!codes || n <= 0)
		return papi__ret(PAPI_EINVAL);
	for (int i = 0; i < n; i++) {
		int r = PAPI_add_event(id, codes[i]);
		if (r != PAPI_OK)
			return i > 0 ? i : r; /* how many went in, as PAPI */
	}
	return PAPI_OK;
}

int PAPI_remove_event(int id, int code)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	for (int i = 0; i < s->ncode; i++)
		if (s->codes[i] == code) {
			papi__ovf_forget(s, code);
			memmove(&s->codes[i], &s->codes[i + 1],
				(size_t)(s->ncode - i - 1) * sizeof s->codes[0]);
			s->ncode--;
			return papi__ret(papi__set_rebuild(s));
		}
	return papi__ret(PAPI_EINVAL);
}

int PAPI_remove_named_event(int id, const char *name)
{
	int code;
	PAPI__CHECK_INIT();
	if (!name || papi__event_lookup(name, &code) != PAPI_OK)
		return papi__ret(PAPI_ENOEVNT);
	return PAPI_remove_event(id, code);
}

int PAPI_remove_events(int id, int *codes, int n)
{
	PAPI__CHECK_INIT();
	if (!codes || n <= 0)
		return papi__ret(PAPI_EINVAL);
	for (int i = 0; i < n; i++) {
		int r = PAPI_remove_event(id, codes[i]);
		if (r != PAPI_OK)
			return i > 0 ? i : r;
	}
	return PAPI_OK;
}

int PAPI_list_events(int id, int *codes, int *number)
{
	GET_SET(s, id);
	if (!number || *number < 0 || (*number > 0 && !codes))
		return papi__ret(PAPI_EINVAL);
	for (int i = 0; i < s->ncode && i < *number; i++)
		codes[i] = s->codes[i];
	*number = s->ncode;
	return PAPI_OK;
}

int PAPI_num_events(int id)
{
	GET_SET(s, id);
	return s->ncode;
}

int PAPI_state(int id, int *status)
{
	GET_SET(s, id);
	if (!status)
		return papi__ret(PAPI_EINVAL);
	*status = s->state | (s->multiplex ? PAPI_MULTIPLEXING : 0) |
		  (s->attached ? PAPI_ATTACHED : 0) |
		  (s->cpu >= 0 ? PAPI_CPU_ATTACHED : 0);
	for (int i = 0; i < s->novf; i++)
		*status |= s->ovf[i].handler ? PAPI_OVERFLOWING : PAPI_PROFILING;
	return PAPI_OK;
}

int PAPI_assign_eventset_component(int id, int cidx)
{
	GET_SET(s, id);
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	s->cidx = cidx;
	return PAPI_OK;
}

int PAPI_get_eventset_component(int id)
{
	GET_SET(s, id);
	return s->cidx < 0 ? papi__ret(PAPI_ENOCMP) : s->cidx;
}

static int values_out(papi__set *s, long long *values, int accum)
{
	pmk_value v[PAPI__SET_EVENTS];
	int n = s->es ? pmk_eventset_read(s->es, v, PAPI__SET_EVENTS) : 0;
	if (n < 0)
		return papi__from_pmk(n);
	if (!values)
		return PAPI_OK;
	for (int i = 0; i < s->ncode; i++) {
		long long x = 0;
		if (i < n && !(v[i].flags & (PMK_VALUE_UNSUPPORTED |
					     PMK_VALUE_NAN)) && isfinite(v[i].value))
			x = llround(v[i].value);
		papi__ovf_value(s, i, &x);
		values[i] = accum ? values[i] + x : x;
	}
	return PAPI_OK;
}

int PAPI_start(int id)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	if (s->ncode == 0)
		return papi__ret(PAPI_EINVAL);
	if (!s->es) {
		int r = papi__set_rebuild(s);
		if (r != PAPI_OK)
			return papi__ret(r);
	}
	int r = pmk_eventset_reset(s->es);
	if (r >= 0)
		r = pmk_eventset_start(s->es);
	if (r < 0)
		return papi__ret(papi__from_pmk(r));
	if ((r = papi__ovf_start(s)) != PAPI_OK) {
		pmk_eventset_stop(s->es);
		return papi__ret(r);
	}
	s->state = PAPI_RUNNING;
	return PAPI_OK;
}

int PAPI_stop(int id, long long *values)
{
	GET_SET(s, id);
	if (!(s->state & PAPI_RUNNING))
		return papi__ret(PAPI_ENOTRUN);
	papi__ovf_stop(s);
	int r = pmk_eventset_stop(s->es);
	if (r < 0)
		return papi__ret(papi__from_pmk(r));
	s->state = PAPI_STOPPED;
	return papi__ret(values_out(s, values, 0));
}

int PAPI_read(int id, long long *values)
{
	GET_SET(s, id);
	if (!values)
		return papi__ret(PAPI_EINVAL);
	return papi__ret(values_out(s, values, 0));
}

int PAPI_read_ts(int id, long long *values, long long *cyc)
{
	int r = PAPI_read(id, values);
	if (r == PAPI_OK && cyc)
		*cyc = PAPI_get_real_cyc();
	return r;
}

int PAPI_accum(int id, long long *values)
{
	GET_SET(s, id);
	if (!values)
		return papi__ret(PAPI_EINVAL);
	int r = values_out(s, values, 1);
	if (r == PAPI_OK && s->es)
		r = papi__from_pmk(pmk_eventset_reset(s->es));
	papi__ovf_reset(s);
	return papi__ret(r);
}

int PAPI_reset(int id)
{
	GET_SET(s, id);
	papi__ovf_reset(s);
	if (s->es)
		return papi__ret(papi__from_pmk(pmk_eventset_reset(s->es)));
	return PAPI_OK;
}

int PAPI_multiplex_init(void)
{
	PAPI__CHECK_INIT();
	return PAPI_OK; /* the kernel multiplexes; nothing to set up */
}

int PAPI_set_multiplex(int id)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	if (s->multiplex)
		return papi__ret(PAPI_EINVAL);
	if (s->cidx < 0)
		s->cidx = 0; /* PAPI wants a component first; 0 is the one */
	s->multiplex = 1;
	return papi__ret(papi__set_rebuild(s));
}

int PAPI_get_multiplex(int id)
{
	GET_SET(s, id);
	return s->multiplex;
}

int PAPI_attach(int id, unsigned long tid)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	s->attached = 1;
	s->tid = tid;
	return papi__ret(papi__set_rebuild(s));
}

int PAPI_detach(int id)
{
	GET_SET(s, id);
	if (s->state & PAPI_RUNNING)
		return papi__ret(PAPI_EISRUN);
	if (!s->attached)
		return papi__ret(PAPI_EINVAL);
	s->attached = 0;
	return papi__ret(papi__set_rebuild(s));
}
