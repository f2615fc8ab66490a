/*
 * papi/opts.c: PAPI_get_opt/PAPI_set_opt and their shortcuts (domain,
 * granularity, counters). Counting is user-only by default, as PAPI's
 * perf_event component counts; a set's domain becomes the privilege bits
 * of each of its natives (events.c).
 */
#include <stdio.h>
#include <unistd.h>

#include "papi/papi_int.h"

static int domain_ok(int d)
{
	return d >= PAPI_DOM_MIN && d <= PAPI_DOM_ALL;
}

static int granularity_ok(int g)
{
	return g == PAPI_GRN_THR || g == PAPI_GRN_PROC || g == PAPI_GRN_SYS;
}

int PAPI_num_cmp_hwctrs(int cidx)
{
	PAPI__CHECK_INIT();
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	return papi__num_cntrs();
}

int PAPI_num_hwctrs(void)
{
	if (!papi__inited)
		return 0;
	return papi__num_cntrs();
}

static int cmp_opt(int option, PAPI_option_t *ptr, int cidx)
{
	switch (option) {
	case PAPI_MAX_HWCTRS: return papi__num_cntrs();
	case PAPI_MAX_MPX_CTRS: return PAPI__SET_EVENTS;
	case PAPI_DEFDOM: return papi__def_domain;
	case PAPI_DEFGRN: return papi__def_granularity;
	case PAPI_SHLIBINFO:
		if (!ptr)
			return PAPI_EINVAL;
		ptr->shlib_info = (PAPI_shlib_info_t *)PAPI_get_shared_lib_info();
		return PAPI_OK;
	case PAPI_COMPONENTINFO:
		if (!ptr)
			return PAPI_EINVAL;
		ptr->cmp_info = (PAPI_component_info_t *)PAPI_get_component_info(cidx);
		return PAPI_OK;
	default: return PAPI_EINVAL;
	}
}

int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx)
{
	PAPI__CHECK_INIT();
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	return papi__ret(cmp_opt(option, ptr, cidx));
}

int PAPI_get_opt(int option, PAPI_option_t *ptr)
{
	papi__set *s;
	switch (option) {
	case PAPI_DEBUG:
		if (!ptr)
			return papi__ret(PAPI_EINVAL);
		ptr->debug.level = papi__debug;
		ptr->debug.handler = NULL;
		return PAPI_OK;
	case PAPI_LIB_VERSION: return PAPI_VERSION;
	case PAPI_CLOCKRATE: return (int)papi__mhz();
	case PAPI_MAX_CPUS: return (int)sysconf(_SC_NPROCESSORS_ONLN);
	case PAPI_HWINFO:
		if (!ptr)
			return papi__ret(PAPI_EINVAL);
		ptr->hw_info = (PAPI_hw_info_t *)PAPI_get_hardware_info();
		return PAPI_OK;
	case PAPI_EXEINFO:
		if (!ptr)
			return papi__ret(PAPI_EINVAL);
		ptr->exe_info = (PAPI_exe_info_t *)PAPI_get_executable_info();
		return PAPI_OK;
	case PAPI_PRELOAD:
		if (!ptr)
			return papi__ret(PAPI_EINVAL);
		snprintf(ptr->preload.lib_preload_env, PAPI_MAX_STR_LEN, "LD_PRELOAD");
		ptr->preload.lib_preload_sep = ' ';
		snprintf(ptr->preload.lib_dir_env, PAPI_MAX_STR_LEN, "LD_LIBRARY_PATH");
		ptr->preload.lib_dir_sep = ':';
		return PAPI_OK;
	case PAPI_DEF_ITIMER: case PAPI_DEF_ITIMER_NS: case PAPI_DEF_MPX_NS:
		if (!ptr)
			return papi__ret(PAPI_EINVAL);
		ptr->itimer.itimer_num = 0; /* ITIMER_REAL */
		ptr->itimer.itimer_sig = 14; /* SIGALRM */
		ptr->itimer.ns = 10000000;
		ptr->itimer.flags = 0;
		return PAPI_OK;
	}
	PAPI__CHECK_INIT();
	switch (option) {
	case PAPI_DOMAIN:
		if (!ptr || !(s = papi__set_get(ptr->domain.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->domain.domain = s->domain;
		return s->domain;
	case PAPI_GRANUL:
		if (!ptr || !(s = papi__set_get(ptr->granularity.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->granularity.granularity = s->granularity;
		return s->granularity;
	case PAPI_MULTIPLEX:
		if (!ptr || !(s = papi__set_get(ptr->multiplex.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->multiplex.ns = 4000000;
		ptr->multiplex.flags = 0;
		return s->multiplex;
	case PAPI_INHERIT:
		if (!ptr || !(s = papi__set_get(ptr->inherit.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->inherit.inherit = s->inherit;
		return s->inherit;
	case PAPI_ATTACH:
		if (!ptr || !(s = papi__set_get(ptr->attach.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->attach.tid = s->attached ? s->tid : 0;
		return s->attached;
	case PAPI_CPU_ATTACH:
		if (!ptr || !(s = papi__set_get(ptr->cpu.eventset)))
			return papi__ret(ptr ? PAPI_ENOEVST : PAPI_EINVAL);
		ptr->cpu.cpu_num = s->cpu < 0 ? 0 : (unsigned)s->cpu;
		return s->cpu >= 0;
	default:
		return papi__ret(cmp_opt(option, ptr, 0));
	}
}

/* Apply a change to a stopped set, undoing it when the set cannot be
 * opened with it. */
#define SET_FIELD(s, field, val)                                               \
	do {                                                                   \
		if ((s)->state & PAPI_RUNNING)                                 \
			return papi__ret(PAPI_EISRUN);                         \
		__typeof__((s)->field) old_ = (s)->field;                      \
		(s)->field = (val);                                            \
		int r_ = papi__set_rebuild(s);                                 \
		if (r_ != PAPI_OK) {                                           \
			(s)->field = old_;                                     \
			papi__set_rebuild(s);                                  \
			return papi__ret(r_);                                  \
		}                                                              \
		return PAPI_OK;                                                \
	} while (0)

int PAPI_set_opt(int option, PAPI_option_t *ptr)
{
	papi__set *s;
	if (option == PAPI_DEBUG)
		return ptr ? PAPI_set_debug(ptr->debug.level)
			   : papi__ret(PAPI_EINVAL);
	PAPI__CHECK_INIT();
	if (!ptr)
		return papi__ret(PAPI_EINVAL);
	switch (option) {
	case PAPI_DEFDOM:
		if (!domain_ok(ptr->defdomain.domain))
			return papi__ret(PAPI_EINVAL);
		papi__def_domain = ptr->defdomain.domain;
		return PAPI_OK;
	case PAPI_DEFGRN:
		if (!granularity_ok(ptr->defgranularity.granularity))
			return papi__ret(PAPI_EINVAL);
		papi__def_granularity = ptr->defgranularity.granularity;
		return PAPI_OK;
	case PAPI_DOMAIN:
		if (!(s = papi__set_get(ptr->domain.eventset)))
			return papi__ret(PAPI_ENOEVST);
		if (!domain_ok(ptr->domain.domain))
			return papi__ret(PAPI_EINVAL);
		SET_FIELD(s, domain, ptr->domain.domain);
	case PAPI_GRANUL:
		if (!(s = papi__set_get(ptr->granularity.eventset)))
			return papi__ret(PAPI_ENOEVST);
		if (!granularity_ok(ptr->granularity.granularity))
			return papi__ret(PAPI_EINVAL);
		s->granularity = ptr->granularity.granularity;
		return PAPI_OK;
	case PAPI_MULTIPLEX:
		return PAPI_set_multiplex(ptr->multiplex.eventset);
	case PAPI_INHERIT:
		if (!(s = papi__set_get(ptr->inherit.eventset)))
			return papi__ret(PAPI_ENOEVST);
		SET_FIELD(s, inherit, ptr->inherit.inherit != PAPI_INHERIT_NONE);
	case PAPI_ATTACH:
		return PAPI_attach(ptr->attach.eventset, ptr->attach.tid);
	case PAPI_DETACH:
		return PAPI_detach(ptr->attach.eventset);
	case PAPI_CPU_ATTACH:
		if (!(s = papi__set_get(ptr->cpu.eventset)))
			return papi__ret(PAPI_ENOEVST);
		if (ptr->cpu.cpu_num >= (unsigned)sysconf(_SC_NPROCESSORS_CONF))
			return papi__ret(PAPI_EINVAL);
		SET_FIELD(s, cpu, (int)ptr->cpu.cpu_num);
	case PAPI_DEF_MPX_NS: case PAPI_DEF_ITIMER: case PAPI_DEF_ITIMER_NS:
		return PAPI_OK; /* the kernel rotates multiplexed groups */
	case PAPI_USER_EVENTS_FILE: {
		pmk_diag d;
		if (!ptr->events_file)
			return papi__ret(PAPI_EINVAL);
		return papi__ret(papi__from_pmk(pmk_defs_load(ptr->events_file, &d)));
	}
	case PAPI_DATA_ADDRESS: case PAPI_INSTR_ADDRESS:
		return papi__ret(PAPI_ENOSUPP);
	default:
		return papi__ret(PAPI_EINVAL);
	}
}

int PAPI_set_domain(int domain)
{
	PAPI_option_t o = {.defdomain = {.def_cidx = 0, .domain = domain}};
	return PAPI_set_opt(PAPI_DEFDOM, &o);
}

int PAPI_set_cmp_domain(int domain, int cidx)
{
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	return PAPI_set_domain(domain);
}

int PAPI_set_granularity(int granularity)
{
	PAPI_option_t o = {.defgranularity = {.granularity = granularity}};
	return PAPI_set_opt(PAPI_DEFGRN, &o);
}

int PAPI_set_cmp_granularity(int granularity, int cidx)
{
	if (cidx != 0)
		return papi__ret(PAPI_ENOCMP);
	return PAPI_set_granularity(granularity);
}
