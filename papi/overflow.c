/*
 * papi/overflow.c: PAPI_overflow, PAPI_profil, PAPI_sprofil and
 * PAPI_get_overflow_event_index.
 *
 * An overflowing event gets a sampling descriptor of its own besides the
 * set's counting one: the event as pmkit encodes it (papi__event_encode,
 * the set's domain), with a period of `threshold` events, on the thread
 * that starts the set (or the attached task). pmk_sampler_probe() decides
 * whether the event can be sampled here at all, with pmkit's diagnosis
 * and its user-only fallback where perf_event_paranoid refuses the kernel.
 *
 * The descriptor is opened here through lib/backend's one attr builder
 * and open helper (kernel.h), not by pmk_sampler_open(): PAPI
 * calls the handler in the thread at every overflow, which takes a signal
 * per overflow (F_SETSIG on the descriptor, owned by that thread), and the
 * sampler has no signal mode and opens one ring per CPU, whose separate
 * periods would break PAPI's contract that a count of V gives V/threshold
 * calls (overflow_allcounters checks it exactly). The signal is PAPI's own
 * (SIGRTMIN+2): a real-time signal queues, so no overflow is merged into
 * another. The address handed to the handler, and binned by profil, is
 * the user PC the signal interrupted: for a software clock that is the
 * place the timer fired, the kernel's sample IP.
 *
 * The overflowing event's value (PAPI_read, PAPI_stop) is its sampling
 * descriptor's count, so that value / threshold is the number of calls.
 *
 * Not done: PAPI_OVERFLOW_FORCE_SW and PAPI_PROFIL_FORCE_SW take the same
 * kernel path (there is no itimer emulation); the EAR profiling flags are
 * PAPI_ENOSUPP; overflow on a CPU-attached set is PAPI_ECMP.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "lib/backend/kernel.h"
#include "papi/papi_int.h"

#define FD_MAX 65536 /* descriptors the signal handler can map to a set */

/* descriptor -> set id + 1 (0: none), read by the signal handler */
static int fd_set_id[FD_MAX];
static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static int sig_installed;

static int ovf_signal(void)
{
	return SIGRTMIN + 2; /* PAPI_INT_SIGNAL of PAPI's Linux components */
}

static void *context_pc(void *uc)
{
	const ucontext_t *u = uc;
#if defined(__x86_64__)
	return (void *)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (void *)u->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (void *)u->uc_mcontext.pc;
#else
	(void)u;
	return NULL;
#endif
}

/* One sample into the profile buffers: the first region whose buckets
 * hold the PC. Bucket index = (pc - offset) / 2 * scale / 65536, as
 * profil(3): scale 65536 gives one bucket per 2 bytes of text. Buckets
 * saturate rather than wrap. */
static void prof_add(papi__ovf *o, unsigned long pc)
{
	if (o->prof_flags & PAPI_PROFIL_RANDOM) {
		o->rnd = o->rnd * 1103515245u + 12345u;
		if (((o->rnd >> 16) & 3) == 0)
			return; /* a quarter of the samples dropped */
	}
	int bytes = o->prof_flags & PAPI_PROFIL_BUCKET_64   ? 8
		    : o->prof_flags & PAPI_PROFIL_BUCKET_32 ? 4
							    : 2;
	for (int r = 0; r < o->nprof; r++) {
		const PAPI_sprofil_t *p = &o->prof[r];
		if (pc < (unsigned long)p->pr_off)
			continue;
		unsigned long long idx =
		    ((unsigned long long)(pc - (unsigned long)p->pr_off) *
		     p->pr_scale) >>
		    17;
		if (idx >= p->pr_size / (unsigned)bytes)
			continue;
		if (bytes == 2) {
			unsigned short *b = (unsigned short *)p->pr_base + idx;
			if (*b != 0xffff)
				(*b)++;
		} else if (bytes == 4) {
			unsigned int *b = (unsigned int *)p->pr_base + idx;
			if (*b != 0xffffffffu)
				(*b)++;
		} else {
			((unsigned long long *)p->pr_base)[idx]++;
		}
		return;
	}
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, fd = si->si_fd;
	if (fd < 0 || fd >= FD_MAX)
		goto out;
	int id = __atomic_load_n(&fd_set_id[fd], __ATOMIC_ACQUIRE) - 1;
	papi__set *s = id >= 0 ? papi__set_get(id) : NULL;
	if (!s)
		goto out;
	for (int i = 0; i < s->novf; i++) {
		papi__ovf *o = &s->ovf[i];
		if (o->fd != fd)
			continue;
		void *pc = context_pc(uc);
		if (o->handler)
			o->handler(s->id, pc, 1LL << o->pos, uc);
		else
			prof_add(o, (unsigned long)pc);
		break;
	}
out:
	errno = saved;
}

static int install_handler(void)
{
	int r = PAPI_OK;
	pthread_mutex_lock(&sig_lock);
	if (!sig_installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(ovf_signal(), &sa, NULL) == 0)
			sig_installed = 1;
		else
			r = PAPI_ESYS;
	}
	pthread_mutex_unlock(&sig_lock);
	return r;
}

/* The event's one native as a perf attr sampling every `threshold`. */
static int sample_attr(papi__set *s, int code, int threshold,
		       struct perf_event_attr *pa, pmk_attr *out)
{
	pmk_event ev;
	pmk_diag d;
	int r = papi__event_encode(code, s->domain, &ev, &d);
	if (r != PAPI_OK)
		return r;
	if (ev.nleaf != 1 || ev.nops > 0)
		return PAPI_EINVAL; /* PAPI does not overflow derived events */
	pmk_attr a = ev.leaf[0];
	if (a.type == PMK_TYPE_TOOL || a.type == PMK_TYPE_SIM ||
	    a.type == PMK_TYPE_UNRESOLVED)
		return PAPI_ECMP;
	a.sample = (uint64_t)threshold;
	a.freq = 0;
	pmk_sample_opts so;
	memset(&so, 0, sizeof so);
	so.pid = (int)getpid();
	r = pmk_sampler_probe(&a, &so, &d);
	if (r < 0)
		return r == PMK_EPERM ? PAPI_EPERM : PAPI_ECMP;
	/* the one attr builder (lib/backend): every field of the event,
	 * the period of `threshold`; then what a signal per overflow needs */
	pmk__attr_to_perf(&a, pa);
	pa->sample_type = PERF_SAMPLE_IP;
	pa->wakeup_events = 1;
	pa->disabled = 1;
	*out = a;
	return PAPI_OK;
}

static int set_pos(const papi__set *s, int code)
{
	for (int i = 0; i < s->ncode; i++)
		if (s->codes[i] == code)
			return i;
	return -1;
}

static void ovf_close(papi__ovf *o)
{
	if (o->fd < 0)
		return;
	if (o->fd < FD_MAX)
		__atomic_store_n(&fd_set_id[o->fd], 0, __ATOMIC_RELEASE);
	close(o->fd);
	o->fd = -1;
}

int papi__ovf_start(papi__set *s)
{
	if (!s->novf)
		return PAPI_OK;
	int r = install_handler();
	if (r != PAPI_OK)
		return r;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	pid_t target = s->attached ? (pid_t)s->tid : 0;
	for (int i = 0; i < s->novf; i++) {
		papi__ovf *o = &s->ovf[i];
		struct perf_event_attr pa;
		pmk_attr a;
		pmk_diag d;
		o->pos = set_pos(s, o->code);
		o->last = 0;
		if ((r = sample_attr(s, o->code, o->threshold, &pa, &a)) !=
		    PAPI_OK)
			goto fail;
		/* the one open helper (lib/backend): its retries and its
		 * explanation of a refusal */
		int fd = pmk__perf_open(&pa, &a, target, -1, -1,
					PERF_FLAG_FD_CLOEXEC, &d);
		if (fd < 0) {
			r = d.sys_errno == EACCES || d.sys_errno == EPERM
				? PAPI_EPERM
				: PAPI_ESYS;
			goto fail;
		}
		o->fd = fd;
		struct f_owner_ex own = {.type = F_OWNER_TID, .pid = tid};
		if (fd >= FD_MAX || fcntl(fd, F_SETOWN_EX, &own) < 0 ||
		    fcntl(fd, F_SETSIG, ovf_signal()) < 0 ||
		    fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) < 0) {
			r = PAPI_ESYS;
			goto fail;
		}
		__atomic_store_n(&fd_set_id[fd], s->id + 1, __ATOMIC_RELEASE);
	}
	for (int i = 0; i < s->novf; i++)
		ioctl(s->ovf[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return PAPI_OK;
fail:
	for (int i = 0; i < s->novf; i++)
		ovf_close(&s->ovf[i]);
	return r;
}

static long long fd_count(int fd)
{
	unsigned long long v = 0;
	if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return 0;
	return (long long)v;
}

void papi__ovf_stop(papi__set *s)
{
	for (int i = 0; i < s->novf; i++)
		if (s->ovf[i].fd >= 0)
			ioctl(s->ovf[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	for (int i = 0; i < s->novf; i++) {
		papi__ovf *o = &s->ovf[i];
		if (o->fd < 0)
			continue;
		o->last = fd_count(o->fd);
		ovf_close(o);
	}
}

void papi__ovf_value(const papi__set *s, int i, long long *v)
{
	for (int k = 0; k < s->novf; k++) {
		const papi__ovf *o = &s->ovf[k];
		if (o->code != s->codes[i])
			continue;
		if (o->fd >= 0)
			*v = fd_count(o->fd);
		else if (o->pos == i)
			*v = o->last;
		return;
	}
}

void papi__ovf_reset(papi__set *s)
{
	for (int i = 0; i < s->novf; i++) {
		papi__ovf *o = &s->ovf[i];
		if (o->fd >= 0)
			ioctl(o->fd, PERF_EVENT_IOC_RESET, 0);
		o->last = 0;
	}
}

void papi__ovf_forget(papi__set *s, int code)
{
	for (int i = 0; i < s->novf;) {
		papi__ovf *o = &s->ovf[i];
		if (code && o->code != code) {
			i++;
			continue;
		}
		ovf_close(o);
		free(o->prof);
		s->ovf[i] = s->ovf[--s->novf];
	}
}

/* Turn overflow on, change it, or (threshold 0) turn it off for `code`:
 * with `handler`, or profiling into `prof` when handler is NULL. */
static int ovf_set(int id, int code, int threshold, int flags,
		   PAPI_overflow_handler_t handler, const PAPI_sprofil_t *prof,
		   int nprof)
{
	PAPI__CHECK_INIT();
	papi__set *s = papi__set_get(id);
	if (!s)
		return PAPI_ENOEVST;
	if (s->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	if (threshold < 0)
		return PAPI_EINVAL;
	if (!papi__event_get(code) || set_pos(s, code) < 0)
		return PAPI_ENOEVNT;
	int k;
	for (k = 0; k < s->novf && s->ovf[k].code != code; k++)
		;
	if (threshold == 0) {
		if (k < s->novf)
			papi__ovf_forget(s, code);
		return PAPI_OK;
	}
	if (s->cpu >= 0)
		return PAPI_ECMP;
	if (s->multiplex)
		return PAPI_ECNFLCT;
	struct perf_event_attr pa;
	pmk_attr a;
	int r = sample_attr(s, code, threshold, &pa, &a);
	if (r != PAPI_OK)
		return r;
	if (k == s->novf) {
		if (s->novf >= PAPI__OVF_MAX)
			return PAPI_ECOUNT;
		s->novf++;
	} else {
		free(s->ovf[k].prof);
	}
	papi__ovf *o = &s->ovf[k];
	memset(o, 0, sizeof *o);
	o->code = code;
	o->pos = set_pos(s, code);
	o->threshold = threshold;
	o->fd = -1;
	o->handler = handler;
	o->prof_flags = flags;
	o->rnd = 0x2545f491u;
	if (!handler) {
		o->prof = malloc((size_t)nprof * sizeof *prof);
		if (!o->prof) {
			papi__ovf_forget(s, code);
			return PAPI_ENOMEM;
		}
		memcpy(o->prof, prof, (size_t)nprof * sizeof *prof);
		o->nprof = nprof;
	}
	return PAPI_OK;
}

int PAPI_overflow(int id, int code, int threshold, int flags,
		  PAPI_overflow_handler_t handler)
{
	if (threshold > 0 && !handler)
		return papi__ret(PAPI_EINVAL);
	return papi__ret(ovf_set(id, code, threshold, flags, handler, NULL, 0));
}

int PAPI_get_overflow_event_index(int id, long long vector, int *array,
				  int *number)
{
	PAPI__CHECK_INIT();
	papi__set *s = papi__set_get(id);
	if (!s)
		return papi__ret(PAPI_ENOEVST);
	if (!vector || !array || !number || *number <= 0)
		return papi__ret(PAPI_EINVAL);
	int n = 0;
	for (int bit = 0; bit < 64 && n < *number; bit++)
		if ((unsigned long long)vector & (1ull << bit))
			array[n++] = bit; /* the bit is the event's index */
	*number = n;
	return PAPI_OK;
}

int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int id, int code,
		 int threshold, int flags)
{
	int buckets = flags & PAPI_PROFIL_BUCKETS;
	if (flags & (PAPI_PROFIL_DATA_EAR | PAPI_PROFIL_INST_EAR))
		return papi__ret(PAPI_ENOSUPP);
	if (buckets != 0 && buckets != PAPI_PROFIL_BUCKET_16 &&
	    buckets != PAPI_PROFIL_BUCKET_32 &&
	    buckets != PAPI_PROFIL_BUCKET_64)
		return papi__ret(PAPI_EINVAL);
	if (threshold > 0) {
		if (!prof || profcnt <= 0)
			return papi__ret(PAPI_EINVAL);
		for (int i = 0; i < profcnt; i++)
			if (!prof[i].pr_base || prof[i].pr_scale == 0)
				return papi__ret(PAPI_EINVAL);
	}
	return papi__ret(
	    ovf_set(id, code, threshold, flags, NULL, prof, profcnt));
}

int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale,
		int id, int code, int threshold, int flags)
{
	PAPI_sprofil_t p = {.pr_base = buf,
			    .pr_size = bufsiz,
			    .pr_off = offset,
			    .pr_scale = scale};
	return PAPI_sprofil(&p, 1, id, code, threshold, flags);
}
