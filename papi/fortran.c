/*
 * papi/fortran.c: PAPI's Fortran interface (the PAPIF_* subroutines that
 * fpapi.h and f90papi.h document), written for pmkit over the C functions
 * of this library.
 *
 * Calling convention: every argument by reference; a CHARACTER argument
 * is a pointer to blank-padded text without a terminator, its length
 * passed by value after all the other arguments (size_t, as gfortran 8 and
 * later pass it; the low half is the same register on the 64-bit ABIs, so
 * older compilers that pass an int work too). The status comes back in the
 * last INTEGER argument (`check`), PAPI's C return value.
 *
 * Each subroutine is defined once as papif_NAME and exported under the
 * four spellings Fortran compilers use: papif_name, papif_name_ (gfortran,
 * ifort), papif_name__ (g77/f2c for names with an underscore) and
 * PAPIF_NAME (compilers that upper-case).
 *
 * Not here: the three sysdetect calls (papif_enum_dev_type and the two
 * get_dev calls), which pmkit's C library does not support either.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "papi/papi_int.h"

typedef size_t flen; /* hidden CHARACTER length */

#define F_ALIASES(lname, UNAME)                                                \
	extern __typeof__(papif_##lname) papif_##lname##_                      \
	    __attribute__((alias("papif_" #lname)));                           \
	extern __typeof__(papif_##lname) papif_##lname##__                     \
	    __attribute__((alias("papif_" #lname)));                           \
	extern __typeof__(papif_##lname) PAPIF_##UNAME                         \
	    __attribute__((alias("papif_" #lname)))

/* Fortran text -> C string in `buf` (trailing blanks dropped). */
static char *c_str(char *buf, size_t size, const char *f, flen len)
{
	size_t n = len < size - 1 ? len : size - 1;
	memcpy(buf, f, n);
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	return buf;
}

/* C string -> Fortran text of `len`, blank-padded (cut when longer). */
static void f_str(char *f, flen len, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > len)
		n = len;
	memcpy(f, s, n);
	memset(f + n, ' ', len - n);
}

/* ---- init, errors, threads ----------------------------------------- */

void papif_library_init(int *check);
void papif_library_init(int *check)
{
	*check = PAPI_library_init(*check);
}
F_ALIASES(library_init, LIBRARY_INIT);

void papif_is_initialized(int *level);
void papif_is_initialized(int *level)
{
	*level = PAPI_is_initialized();
}
F_ALIASES(is_initialized, IS_INITIALIZED);

void papif_shutdown(void);
void papif_shutdown(void)
{
	PAPI_shutdown();
}
F_ALIASES(shutdown, SHUTDOWN);

void papif_set_debug(int *level, int *check);
void papif_set_debug(int *level, int *check)
{
	*check = PAPI_set_debug(*level);
}
F_ALIASES(set_debug, SET_DEBUG);

void papif_perror(char *msg, flen len);
void papif_perror(char *msg, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	PAPI_perror(c_str(buf, sizeof buf, msg, len));
}
F_ALIASES(perror, PERROR);

void papif_thread_init(unsigned long (*fn)(void), int *check);
void papif_thread_init(unsigned long (*fn)(void), int *check)
{
	*check = PAPI_thread_init(fn);
}
F_ALIASES(thread_init, THREAD_INIT);

void papif_thread_id(unsigned long *id);
void papif_thread_id(unsigned long *id)
{
	*id = PAPI_thread_id();
}
F_ALIASES(thread_id, THREAD_ID);

void papif_register_thread(int *check);
void papif_register_thread(int *check)
{
	*check = PAPI_register_thread();
}
F_ALIASES(register_thread, REGISTER_THREAD);

void papif_unregister_thread(int *check);
void papif_unregister_thread(int *check)
{
	*check = PAPI_unregister_thread();
}
F_ALIASES(unregister_thread, UNREGISTER_THREAD);
/* PAPI's library exports this misspelling too; programs may call it */
void papif_unregster_thread(int *check);
void papif_unregster_thread(int *check)
{
	*check = PAPI_unregister_thread();
}
F_ALIASES(unregster_thread, UNREGSTER_THREAD);

void papif_lock(int *lock, int *check);
void papif_lock(int *lock, int *check)
{
	*check = PAPI_lock(*lock);
}
F_ALIASES(lock, LOCK);

void papif_unlock(int *lock, int *check);
void papif_unlock(int *lock, int *check)
{
	*check = PAPI_unlock(*lock);
}
F_ALIASES(unlock, UNLOCK);

/* ---- event sets ------------------------------------------------------ */

void papif_create_eventset(int *es, int *check);
void papif_create_eventset(int *es, int *check)
{
	*check = PAPI_create_eventset(es);
}
F_ALIASES(create_eventset, CREATE_EVENTSET);

void papif_cleanup_eventset(int *es, int *check);
void papif_cleanup_eventset(int *es, int *check)
{
	*check = PAPI_cleanup_eventset(*es);
}
F_ALIASES(cleanup_eventset, CLEANUP_EVENTSET);

void papif_destroy_eventset(int *es, int *check);
void papif_destroy_eventset(int *es, int *check)
{
	*check = PAPI_destroy_eventset(es);
}
F_ALIASES(destroy_eventset, DESTROY_EVENTSET);

void papif_add_event(int *es, int *code, int *check);
void papif_add_event(int *es, int *code, int *check)
{
	*check = PAPI_add_event(*es, *code);
}
F_ALIASES(add_event, ADD_EVENT);

void papif_add_events(int *es, int *codes, int *n, int *check);
void papif_add_events(int *es, int *codes, int *n, int *check)
{
	*check = PAPI_add_events(*es, codes, *n);
}
F_ALIASES(add_events, ADD_EVENTS);

void papif_add_named_event(int *es, char *name, int *check, flen len);
void papif_add_named_event(int *es, char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_add_named_event(*es, c_str(buf, sizeof buf, name, len));
}
F_ALIASES(add_named_event, ADD_NAMED_EVENT);

void papif_remove_event(int *es, int *code, int *check);
void papif_remove_event(int *es, int *code, int *check)
{
	*check = PAPI_remove_event(*es, *code);
}
F_ALIASES(remove_event, REMOVE_EVENT);

void papif_remove_events(int *es, int *codes, int *n, int *check);
void papif_remove_events(int *es, int *codes, int *n, int *check)
{
	*check = PAPI_remove_events(*es, codes, *n);
}
F_ALIASES(remove_events, REMOVE_EVENTS);

void papif_remove_named_event(int *es, char *name, int *check, flen len);
void papif_remove_named_event(int *es, char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check =
	    PAPI_remove_named_event(*es, c_str(buf, sizeof buf, name, len));
}
F_ALIASES(remove_named_event, REMOVE_NAMED_EVENT);

void papif_list_events(int *es, int *codes, int *n, int *check);
void papif_list_events(int *es, int *codes, int *n, int *check)
{
	*check = PAPI_list_events(*es, codes, n);
}
F_ALIASES(list_events, LIST_EVENTS);

void papif_num_events(int *es, int *count);
void papif_num_events(int *es, int *count)
{
	*count = PAPI_num_events(*es);
}
F_ALIASES(num_events, NUM_EVENTS);

void papif_state(int *es, int *status, int *check);
void papif_state(int *es, int *status, int *check)
{
	*check = PAPI_state(*es, status);
}
F_ALIASES(state, STATE);

void papif_assign_eventset_component(int *es, int *cidx, int *check);
void papif_assign_eventset_component(int *es, int *cidx, int *check)
{
	*check = PAPI_assign_eventset_component(*es, *cidx);
}
F_ALIASES(assign_eventset_component, ASSIGN_EVENTSET_COMPONENT);

void papif_multiplex_init(int *check);
void papif_multiplex_init(int *check)
{
	*check = PAPI_multiplex_init();
}
F_ALIASES(multiplex_init, MULTIPLEX_INIT);

void papif_set_multiplex(int *es, int *check);
void papif_set_multiplex(int *es, int *check)
{
	*check = PAPI_set_multiplex(*es);
}
F_ALIASES(set_multiplex, SET_MULTIPLEX);

void papif_get_multiplex(int *es, int *check);
void papif_get_multiplex(int *es, int *check)
{
	*check = PAPI_get_multiplex(*es);
}
F_ALIASES(get_multiplex, GET_MULTIPLEX);

/* ---- counting ------------------------------------------------------- */

void papif_start(int *es, int *check);
void papif_start(int *es, int *check)
{
	*check = PAPI_start(*es);
}
F_ALIASES(start, START);

void papif_stop(int *es, long long *values, int *check);
void papif_stop(int *es, long long *values, int *check)
{
	*check = PAPI_stop(*es, values);
}
F_ALIASES(stop, STOP);

void papif_read(int *es, long long *values, int *check);
void papif_read(int *es, long long *values, int *check)
{
	*check = PAPI_read(*es, values);
}
F_ALIASES(read, READ);

void papif_read_ts(int *es, long long *values, long long *cyc, int *check);
void papif_read_ts(int *es, long long *values, long long *cyc, int *check)
{
	*check = PAPI_read_ts(*es, values, cyc);
}
F_ALIASES(read_ts, READ_TS);

void papif_accum(int *es, long long *values, int *check);
void papif_accum(int *es, long long *values, int *check)
{
	*check = PAPI_accum(*es, values);
}
F_ALIASES(accum, ACCUM);

void papif_reset(int *es, int *check);
void papif_reset(int *es, int *check)
{
	*check = PAPI_reset(*es);
}
F_ALIASES(reset, RESET);

void papif_write(int *es, long long *values, int *check);
void papif_write(int *es, long long *values, int *check)
{
	*check = PAPI_write(*es, values);
}
F_ALIASES(write, WRITE);

/* ---- events ------------------------------------------------------------ */

void papif_query_event(int *code, int *check);
void papif_query_event(int *code, int *check)
{
	*check = PAPI_query_event(*code);
}
F_ALIASES(query_event, QUERY_EVENT);

void papif_query_named_event(char *name, int *check, flen len);
void papif_query_named_event(char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_query_named_event(c_str(buf, sizeof buf, name, len));
}
F_ALIASES(query_named_event, QUERY_NAMED_EVENT);

void papif_event_code_to_name(int *code, char *name, int *check, flen len);
void papif_event_code_to_name(int *code, char *name, int *check, flen len)
{
	char buf[PAPI_MAX_STR_LEN];
	*check = PAPI_event_code_to_name(*code, buf);
	if (*check != PAPI_OK)
		return;
	f_str(name, len, buf);
	if (strlen(buf) > len)
		*check = PAPI_EBUF; /* the name was cut: it would name another */
}
F_ALIASES(event_code_to_name, EVENT_CODE_TO_NAME);

void papif_event_name_to_code(char *name, int *code, int *check, flen len);
void papif_event_name_to_code(char *name, int *code, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check =
	    PAPI_event_name_to_code(c_str(buf, sizeof buf, name, len), code);
}
F_ALIASES(event_name_to_code, EVENT_NAME_TO_CODE);

void papif_enum_event(int *code, int *modifier, int *check);
void papif_enum_event(int *code, int *modifier, int *check)
{
	*check = PAPI_enum_event(code, *modifier);
}
F_ALIASES(enum_event, ENUM_EVENT);

/* count: the event's natives (0: not available here); flags: 1 when the
 * event is derived from more than one */
void papif_get_event_info(int *code, char *symbol, char *long_descr,
			  char *short_descr, int *count, char *note, int *flags,
			  int *check, flen l_symbol, flen l_long, flen l_short,
			  flen l_note);
void papif_get_event_info(int *code, char *symbol, char *long_descr,
			  char *short_descr, int *count, char *note, int *flags,
			  int *check, flen l_symbol, flen l_long, flen l_short,
			  flen l_note)
{
	PAPI_event_info_t *info = malloc(sizeof *info);
	if (!info) {
		*check = PAPI_ENOMEM;
		return;
	}
	*check = PAPI_get_event_info(*code, info);
	if (*check == PAPI_OK) {
		f_str(symbol, l_symbol, info->symbol);
		f_str(long_descr, l_long, info->long_descr);
		f_str(short_descr, l_short, info->short_descr);
		f_str(note, l_note, info->note);
		*count = (int)info->count;
		*flags = info->count > 1 ||
			 (info->derived[0] &&
			  strcmp(info->derived, "NOT_DERIVED") != 0);
	}
	free(info);
}
F_ALIASES(get_event_info, GET_EVENT_INFO);

/* ---- options ------------------------------------------------------------ */

/* mode PAPI_DEFDOM: the default domain; PAPI_DOMAIN: the set's */
void papif_get_domain(int *es, int *domain, int *mode, int *check);
void papif_get_domain(int *es, int *domain, int *mode, int *check)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	if (*mode == PAPI_DEFDOM) {
		*domain = PAPI_get_opt(PAPI_DEFDOM, NULL);
		*check = PAPI_OK;
	} else if (*mode == PAPI_DOMAIN) {
		o.domain.eventset = *es;
		*check = PAPI_get_opt(PAPI_DOMAIN, &o);
		if (*check >= 0) {
			*domain = o.domain.domain;
			*check = PAPI_OK;
		}
	} else {
		*check = PAPI_EINVAL;
	}
}
F_ALIASES(get_domain, GET_DOMAIN);

/* mode PAPI_DEFGRN: the default granularity; PAPI_GRANUL: the set's */
void papif_get_granularity(int *es, int *gran, int *mode, int *check);
void papif_get_granularity(int *es, int *gran, int *mode, int *check)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	if (*mode == PAPI_DEFGRN) {
		*gran = PAPI_get_opt(PAPI_DEFGRN, NULL);
		*check = PAPI_OK;
	} else if (*mode == PAPI_GRANUL) {
		o.granularity.eventset = *es;
		*check = PAPI_get_opt(PAPI_GRANUL, &o);
		if (*check >= 0) {
			*gran = o.granularity.granularity;
			*check = PAPI_OK;
		}
	} else {
		*check = PAPI_EINVAL;
	}
}
F_ALIASES(get_granularity, GET_GRANULARITY);

void papif_set_domain(int *domain, int *check);
void papif_set_domain(int *domain, int *check)
{
	*check = PAPI_set_domain(*domain);
}
F_ALIASES(set_domain, SET_DOMAIN);

void papif_set_cmp_domain(int *domain, int *cidx, int *check);
void papif_set_cmp_domain(int *domain, int *cidx, int *check)
{
	*check = PAPI_set_cmp_domain(*domain, *cidx);
}
F_ALIASES(set_cmp_domain, SET_CMP_DOMAIN);

void papif_set_event_domain(int *es, int *domain, int *check);
void papif_set_event_domain(int *es, int *domain, int *check)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.domain.eventset = *es;
	o.domain.domain = *domain;
	*check = PAPI_set_opt(PAPI_DOMAIN, &o);
}
F_ALIASES(set_event_domain, SET_EVENT_DOMAIN);

void papif_set_granularity(int *gran, int *check);
void papif_set_granularity(int *gran, int *check)
{
	*check = PAPI_set_granularity(*gran);
}
F_ALIASES(set_granularity, SET_GRANULARITY);

void papif_set_cmp_granularity(int *gran, int *cidx, int *check);
void papif_set_cmp_granularity(int *gran, int *cidx, int *check)
{
	*check = PAPI_set_cmp_granularity(*gran, *cidx);
}
F_ALIASES(set_cmp_granularity, SET_CMP_GRANULARITY);

void papif_set_inherit(int *inherit, int *check);
void papif_set_inherit(int *inherit, int *check)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.inherit.inherit = *inherit;
	*check = PAPI_set_opt(PAPI_INHERIT, &o);
}
F_ALIASES(set_inherit, SET_INHERIT);

void papif_num_hwctrs(int *num);
void papif_num_hwctrs(int *num)
{
	*num = PAPI_num_hwctrs();
}
F_ALIASES(num_hwctrs, NUM_HWCTRS);

void papif_num_cmp_hwctrs(int *cidx, int *num);
void papif_num_cmp_hwctrs(int *cidx, int *num)
{
	*num = PAPI_num_cmp_hwctrs(*cidx);
}
F_ALIASES(num_cmp_hwctrs, NUM_CMP_HWCTRS);

void papif_get_clockrate(int *mhz);
void papif_get_clockrate(int *mhz)
{
	*mhz = PAPI_get_opt(PAPI_CLOCKRATE, NULL);
}
F_ALIASES(get_clockrate, GET_CLOCKRATE);

void papif_get_preload(char *preload, int *check, flen len);
void papif_get_preload(char *preload, int *check, flen len)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	*check = PAPI_get_opt(PAPI_PRELOAD, &o);
	if (*check == PAPI_OK)
		f_str(preload, len, o.preload.lib_preload_env);
}
F_ALIASES(get_preload, GET_PRELOAD);

/* ---- system ------------------------------------------------------------ */

void papif_get_hardware_info(int *ncpu, int *nnodes, int *totalcpus,
			     int *vendor, char *vendor_str, int *model,
			     char *model_str, float *revision, float *mhz,
			     flen l_vendor, flen l_model);
void papif_get_hardware_info(int *ncpu, int *nnodes, int *totalcpus,
			     int *vendor, char *vendor_str, int *model,
			     char *model_str, float *revision, float *mhz,
			     flen l_vendor, flen l_model)
{
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	if (!hw) {
		*ncpu = *nnodes = *totalcpus = *vendor = *model = 0;
		*revision = *mhz = 0;
		f_str(vendor_str, l_vendor, "");
		f_str(model_str, l_model, "");
		return;
	}
	*ncpu = hw->ncpu;
	*nnodes = hw->nnodes;
	*totalcpus = hw->totalcpus;
	*vendor = hw->vendor;
	f_str(vendor_str, l_vendor, hw->vendor_string);
	*model = hw->model;
	f_str(model_str, l_model, hw->model_string);
	*revision = hw->revision;
	*mhz = (float)hw->cpu_max_mhz;
}
F_ALIASES(get_hardware_info, GET_HARDWARE_INFO);

void papif_get_exe_info(char *fullname, char *name, long long *text_start,
			long long *text_end, long long *data_start,
			long long *data_end, long long *bss_start,
			long long *bss_end, int *check, flen l_full,
			flen l_name);
void papif_get_exe_info(char *fullname, char *name, long long *text_start,
			long long *text_end, long long *data_start,
			long long *data_end, long long *bss_start,
			long long *bss_end, int *check, flen l_full,
			flen l_name)
{
	const PAPI_exe_info_t *e = PAPI_get_executable_info();
	if (!e) {
		*check = PAPI_EINVAL;
		return;
	}
	f_str(fullname, l_full, e->fullname);
	f_str(name, l_name, e->address_info.name);
	*text_start = (long long)(size_t)e->address_info.text_start;
	*text_end = (long long)(size_t)e->address_info.text_end;
	*data_start = (long long)(size_t)e->address_info.data_start;
	*data_end = (long long)(size_t)e->address_info.data_end;
	*bss_start = (long long)(size_t)e->address_info.bss_start;
	*bss_end = (long long)(size_t)e->address_info.bss_end;
	*check = PAPI_OK;
}
F_ALIASES(get_exe_info, GET_EXE_INFO);

/* INTEGER*8 dmem(PAPIF_DMEM_MAXVAL): PAPI_dmem_info_t's fields in order,
 * so that dmem(PAPIF_DMEM_VMSIZE) is `size` and so on (fpapi.h) */
void papif_get_dmem_info(long long *dmem, int *check);
void papif_get_dmem_info(long long *dmem, int *check)
{
	PAPI_dmem_info_t d;
	*check = PAPI_get_dmem_info(&d);
	if (*check != PAPI_OK)
		return;
	const long long f[] = {d.peak,	 d.size,  d.resident, d.high_water_mark,
			       d.shared, d.text,  d.library,  d.heap,
			       d.locked, d.stack, d.pagesize, d.pte};
	memcpy(dmem, f, sizeof f);
}
F_ALIASES(get_dmem_info, GET_DMEM_INFO);

/* ---- time ------------------------------------------------------------ */

#define F_TIME(lname, UNAME, fn)                                               \
	void papif_##lname(long long *t);                                      \
	void papif_##lname(long long *t)                                       \
	{                                                                      \
		*t = fn();                                                     \
	}                                                                      \
	F_ALIASES(lname, UNAME)
F_TIME(get_real_cyc, GET_REAL_CYC, PAPI_get_real_cyc);
F_TIME(get_real_usec, GET_REAL_USEC, PAPI_get_real_usec);
F_TIME(get_real_nsec, GET_REAL_NSEC, PAPI_get_real_nsec);
F_TIME(get_virt_cyc, GET_VIRT_CYC, PAPI_get_virt_cyc);
F_TIME(get_virt_usec, GET_VIRT_USEC, PAPI_get_virt_usec);

/* ---- high level -------------------------------------------------------- */

void papif_hl_region_begin(char *name, int *check, flen len);
void papif_hl_region_begin(char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_hl_region_begin(c_str(buf, sizeof buf, name, len));
}
F_ALIASES(hl_region_begin, HL_REGION_BEGIN);

void papif_hl_region_end(char *name, int *check, flen len);
void papif_hl_region_end(char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_hl_region_end(c_str(buf, sizeof buf, name, len));
}
F_ALIASES(hl_region_end, HL_REGION_END);

void papif_hl_read(char *name, int *check, flen len);
void papif_hl_read(char *name, int *check, flen len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_hl_read(c_str(buf, sizeof buf, name, len));
}
F_ALIASES(hl_read, HL_READ);

void papif_hl_stop(int *check);
void papif_hl_stop(int *check)
{
	*check = PAPI_hl_stop();
}
F_ALIASES(hl_stop, HL_STOP);

/* ---- rates (PAPI_ENOSUPP in this library, as their C calls) ---------- */

void papif_flips_rate(int *event, float *rtime, float *ptime, long long *flpins,
		      float *mflips, int *check);
void papif_flips_rate(int *event, float *rtime, float *ptime, long long *flpins,
		      float *mflips, int *check)
{
	*check = PAPI_flips_rate(*event, rtime, ptime, flpins, mflips);
}
F_ALIASES(flips_rate, FLIPS_RATE);

void papif_flops_rate(int *event, float *rtime, float *ptime, long long *flpops,
		      float *mflops, int *check);
void papif_flops_rate(int *event, float *rtime, float *ptime, long long *flpops,
		      float *mflops, int *check)
{
	*check = PAPI_flops_rate(*event, rtime, ptime, flpops, mflops);
}
F_ALIASES(flops_rate, FLOPS_RATE);

void papif_ipc(float *rtime, float *ptime, long long *ins, float *ipc,
	       int *check);
void papif_ipc(float *rtime, float *ptime, long long *ins, float *ipc,
	       int *check)
{
	*check = PAPI_ipc(rtime, ptime, ins, ipc);
}
F_ALIASES(ipc, IPC);

void papif_epc(int *event, float *rtime, float *ptime, long long *ref,
	       long long *core, long long *evt, float *epc, int *check);
void papif_epc(int *event, float *rtime, float *ptime, long long *ref,
	       long long *core, long long *evt, float *epc, int *check)
{
	*check = PAPI_epc(*event, rtime, ptime, ref, core, evt, epc);
}
F_ALIASES(epc, EPC);

void papif_rate_stop(int *check);
void papif_rate_stop(int *check)
{
	*check = PAPI_rate_stop();
}
F_ALIASES(rate_stop, RATE_STOP);
