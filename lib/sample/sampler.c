/*
 * sampler.c: kernel sampling. One perf_event_open per event and CPU (the
 * followed task's events on every CPU, with inherit, as perf does), each
 * with its own mmap ring. Side-band records (maps, comm, fork, exit) are
 * requested on the first event only, so each appears once. poll() wakes us
 * when a ring is a quarter full; every complete record is then copied out
 * (records that wrap are reassembled) and translated into record-file items.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/backend/kernel.h"
#include "lib/backend/perf_errors.h"
#include "lib/backend/task.h"
#include "lib/sample/rec_format.h"
#include "lib/sample/sampler.h"
#include "pmkit/sample.h"

#define MAX_RINGS  1024
#define DEFAULT_HZ 4000

struct ring {
	int fd;
	uint32_t event;
	struct perf_event_mmap_page *page;
	uint8_t *data;
	size_t size; /* data bytes, a power of two */
};

struct pmk_sampler {
	pmk_rec_writer *w;
	int nring;
	struct ring ring[MAX_RINGS];
	struct pollfd pfd[MAX_RINGS];
	uint64_t lost, samples;
	int want_addr;
	uint64_t stype[PMK_REC_MAX_EVENTS]; /* each event's sample_type */
	uint8_t tmp[65536]; /* a wrapped record, reassembled */
	uint64_t chain[PMK_REC_MAX_CHAIN];
	uint64_t uregs[PMK_REC_MAX_UREGS];
};

/* The user registers a DWARF unwinder starts from, as a perf_regs mask
 * (the kernel's arch/<arch>/include/uapi/asm/perf_regs.h numbering), and
 * this machine's ELF e_machine. 0 where pmkit does not unwind. */
#if defined(__x86_64__)
#define UREGS_MASK PMK__UREGS_X86_64
#define UREGS_MACH PMK__EM_X86_64
#elif defined(__aarch64__)
#define UREGS_MASK PMK__UREGS_AARCH64
#define UREGS_MACH PMK__EM_AARCH64
#else
#define UREGS_MASK 0ull
#define UREGS_MACH 0u
#endif

int pmk_sampler_can_unwind(void)
{
	return UREGS_MASK != 0;
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 && n < 4096 ? (int)n : 1;
}

void pmk__sampler_attr(struct perf_event_attr *pa, const pmk_attr *a,
		       const pmk_sample_opts *o, int first, size_t ring_bytes)
{
	pmk__attr_to_perf(a, pa); /* period or frequency included */
	if (a->sample == 0 && a->type == PERF_TYPE_TRACEPOINT) {
		pa->sample_period = 1; /* every hit, as perf samples them */
	} else if (a->sample == 0) {
		pa->freq = 1;
		pa->sample_freq = DEFAULT_HZ;
	}
	pa->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (o->callchain || o->callchain_dwarf || a->max_stack)
		pa->sample_type |= PERF_SAMPLE_CALLCHAIN;
	/* a tracepoint's record (its fields, as its format file lays them
	 * out) */
	if (a->type == PERF_TYPE_TRACEPOINT)
		pa->sample_type |= PERF_SAMPLE_RAW;
	if (o->callchain_dwarf) {
		/* the kernel's chain for kernel frames only; user frames come
		 * from unwinding the copied stack */
		pa->exclude_callchain_user = 1;
		pa->sample_type |=
		    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		pa->sample_regs_user = UREGS_MASK;
		pa->sample_stack_user = o->stack_bytes ? o->stack_bytes : 8192;
	}
	if (o->data_addr)
		pa->sample_type |= PERF_SAMPLE_ADDR;
	pa->disabled = 1;
	pa->inherit = o->inherit;
	pa->enable_on_exec = o->enable_on_exec;
	pa->watermark = 1;
	pa->wakeup_watermark = (uint32_t)(ring_bytes / 4);
	if (first) {
		pa->mmap = 1;
		pa->mmap2 = 1;
		pa->comm = 1;
		pa->comm_exec = 1;
		pa->task = 1;
		/* with data addresses, the data mappings too (anonymous
		 * ones name heap allocations in the data report) */
		pa->mmap_data = o->data_addr;
	}
}

/* A tracepoint's format file (tracefs' events/SUB/NAME/format: its fields
 * and how perf prints them) into the recording after its event, when it
 * is the event's (its ID line names the recorded config). */
static void tp_format(pmk_rec_writer *w, const pmk_rec_event *re)
{
	static const char *const dirs[] = {"/sys/kernel/tracing/events",
					   "/sys/kernel/debug/tracing/events"};
	const char *colon = strchr(re->name, ':');
	char path[512], *text;
	for (size_t i = 0; colon && i < 2; i++) {
		FILE *f;
		size_t n;
		const char *id;
		snprintf(path, sizeof path, "%s/%.*s/%s/format", dirs[i],
			 (int)(colon - re->name), re->name, colon + 1);
		if (!(f = fopen(path, "re")))
			continue;
		text = malloc(65536);
		n = text ? fread(text, 1, 65535, f) : 0;
		fclose(f);
		if (!text)
			return;
		text[n] = 0;
		id = strstr(text, "\nID: ");
		if (id && strtoull(id + 5, NULL, 10) == re->config)
			pmk_rec_write_format(w, re->index, text);
		free(text);
		return;
	}
}

/* The tasks to open: -1 (every task, with all_cpus), the pid alone, or
 * with `threads` every thread of the process now (the pid first). */
static int task_list(const pmk_sample_opts *o, int *tids, int max)
{
	int n;
	if (o->ntids > 0 && !o->all_cpus) {
		for (n = 0; n < o->ntids && n < max; n++)
			tids[n] = o->tids[n];
		return n;
	}
	tids[0] = o->all_cpus ? -1 : o->pid;
	if (o->all_cpus || !o->threads)
		return 1;
	n = pmk_task_threads(o->pid, tids, max);
	return n < 0 ? -1 : n;
}

int pmk_sampler_open(pmk_sampler **sp, const pmk_attr *attrs, int nattr,
		     const pmk_sample_opts *o, pmk_rec_writer *w, pmk_diag *d)
{
	int tids[MAX_RINGS];
	int ntid;
	pmk_sampler *s;
	unsigned pages = o->ring_pages ? o->ring_pages : 128;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	int n = ncpus();
	*sp = NULL;
	if (nattr <= 0 || nattr > PMK_REC_MAX_EVENTS || (pages & (pages - 1)) ||
	    (!o->all_cpus && o->pid <= 0))
		return PMK_EINVAL;
	if ((size_t)nattr * (size_t)n > MAX_RINGS)
		return PMK_ETOOMANY;
	s = calloc(1, sizeof *s);
	if (!s)
		return PMK_ENOMEM;
	s->w = w;
	s->want_addr = o->data_addr;
	if (o->callchain_dwarf && (!UREGS_MASK || (o->stack_bytes & 7) ||
				   o->stack_bytes > PMK_REC_MAX_USTACK)) {
		free(s);
		return PMK_EINVAL;
	}
	ntid = task_list(o, tids, MAX_RINGS);
	if (ntid < 0 || (size_t)nattr * (size_t)n * (size_t)ntid > MAX_RINGS) {
		free(s);
		return ntid < 0 ? PMK_ENOENT : PMK_ETOOMANY;
	}
	for (int e = 0; e < nattr; e++) {
		struct perf_event_attr pa;
		int opened = 0, last_err = 0;
		pmk_rec_event re;
		pmk__sampler_attr(&pa, &attrs[e], o, e == 0, pages * psz);
		s->stype[e] = pa.sample_type;
		for (int t = 0; t < ntid; t++)
		for (int c = 0; c < n; c++) {
			struct ring *r = &s->ring[s->nring];
			pmk_diag od;
			int fd = pmk__perf_open(&pa, &attrs[e], tids[t], c, -1,
						0, &od);
			void *m;
			if (t > 0 && pmk__perf_task_ended(fd, &od))
				continue; /* that thread ended meanwhile */
			if (fd < 0) {
				last_err = od.sys_errno;
				/* offline CPU: skip it, unless no CPU takes
				 * the event at all */
				if (last_err == ENODEV)
					continue;
				pmk_sampler_close(s);
				if (d)
					*d = od;
				return fd;
			}
			m = mmap(NULL, (pages + 1) * psz,
				 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (m == MAP_FAILED) {
				int err = errno;
				close(fd);
				pmk_sampler_close(s);
				pmk_diag_clear(d);
				if (d) {
					d->code = PMK_ESYS;
					d->sys_errno = err;
					snprintf(d->message, sizeof d->message,
						 "cannot map the sample ring "
						 "buffer: %s",
						 strerror(err));
					snprintf(d->hint, sizeof d->hint,
						 "raise 'ulimit -l' or "
						 "kernel.perf_event_mlock_kb");
				}
				return PMK_ESYS;
			}
			r->fd = fd;
			r->event = (uint32_t)e;
			r->page = m;
			r->data = (uint8_t *)m + psz;
			r->size = pages * psz;
			s->pfd[s->nring].fd = fd;
			s->pfd[s->nring].events = POLLIN;
			s->nring++;
			opened++;
		}
		if (!opened) {
			pmk_sampler_close(s);
			return pmk__perf_sample_error(
			    last_err ? last_err : ENODEV, &attrs[e],
			    o->all_cpus ? -1 : o->pid, o->all_cpus, d);
		}
		memset(&re, 0, sizeof re);
		re.index = (uint32_t)e;
		re.type = attrs[e].type;
		re.config = attrs[e].config;
		re.freq = pa.freq;
		re.period = pa.sample_period;
		re.precise = attrs[e].precise_ip;
		snprintf(re.name, sizeof re.name, "%s", attrs[e].name);
		if (attrs[e].type == PERF_TYPE_TRACEPOINT) {
			/* named SUB:NAME as perf names it, without terms
			 * or modifiers */
			char *c = strchr(re.name, ':');
			re.name[strcspn(re.name, "/")] = 0;
			if (c)
				c[1 + strcspn(c + 1, ":")] = 0;
			pmk_rec_write_event(w, &re);
			tp_format(w, &re);
		} else {
			pmk_rec_write_event(w, &re);
		}
	}
	*sp = s;
	return 0;
}

/* Why `a` cannot be sampled: the sampler's own open, the way record
 * would open it (every CPU), into a writer that keeps nothing. 0 when
 * that open works after all. */
static int probe_explain(const pmk_attr *a, const pmk_sample_opts *o,
			 pmk_diag *d)
{
	pmk_sample_opts so;
	pmk_sampler *s = NULL;
	pmk_rec_writer *w = NULL;
	int rc = PMK_ENOTSUP, dn = open("/dev/null", O_WRONLY | O_CLOEXEC);
	memset(&so, 0, sizeof so);
	so.pid = (int)getpid();
	so.all_cpus = o->all_cpus;
	pmk_diag_clear(d);
	if (dn >= 0 && pmk_rec_writer_fdopen(&w, dn, "probe", d) == 0) {
		rc = pmk_sampler_open(&s, a, 1, &so, w, d);
		if (rc == 0)
			pmk_sampler_close(s);
		pmk_rec_writer_close(w);
	}
	if (dn >= 0)
		close(dn);
	if (rc == 0)
		return 0;
	if (!d->message[0])
		snprintf(d->message, sizeof d->message,
			 "cannot sample this event");
	if (!d->code) /* no reason found: not a refusal of privilege */
		d->code = PMK_ENOTSUP;
	return d->code;
}

int pmk_sampler_probe(pmk_attr *a, const pmk_sample_opts *o, pmk_diag *d)
{
	struct perf_event_attr pa;
	pmk_diag od;
	int fd, user_only = 0;
	pmk_diag_clear(d);
	pmk__attr_to_perf(a, &pa);
	pa.freq = 0;
	pa.sample_period = 1000000;
	pa.sample_type = PERF_SAMPLE_IP;
	pa.disabled = 1;
	fd = pmk__perf_open(&pa, a, 0, -1, -1, 0, &od);
	if (fd < 0 && (od.sys_errno == EACCES || od.sys_errno == EPERM) &&
	    !pa.exclude_kernel && !o->all_cpus) {
		/* kernel space refused (perf_event_paranoid 2): sample user
		 * space only, as pmkit stat counts it, and say so */
		pa.exclude_kernel = 1;
		fd = pmk__perf_open(&pa, a, 0, -1, -1, 0, &od);
		if (fd >= 0) {
			a->exclude_kernel = 1;
			user_only = 1;
			if (d) {
				snprintf(d->input, sizeof d->input, "%s",
					 a->name);
				snprintf(d->message, sizeof d->message,
					 "'%s': kernel space is not allowed "
					 "here (perf_event_paranoid is %d): "
					 "sampling user space only, as with "
					 "':u'",
					 a->name, pmk__paranoid_level());
			}
		}
	}
	if (fd >= 0) {
		close(fd);
		return user_only;
	}
	if (!d) {
		pmk_diag scratch;
		return probe_explain(a, o, &scratch);
	}
	return probe_explain(a, o, d);
}

static int ioctl_all(pmk_sampler *s, unsigned long req)
{
	for (int i = 0; i < s->nring; i++)
		if (ioctl(s->ring[i].fd, req, 0) != 0)
			return PMK_ESYS;
	return 0;
}

int pmk_sampler_enable(pmk_sampler *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_ENABLE);
}

int pmk_sampler_disable(pmk_sampler *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE);
}

void pmk_sampler_close(pmk_sampler *s)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	if (!s)
		return;
	for (int i = 0; i < s->nring; i++) {
		munmap(s->ring[i].page, s->ring[i].size + psz);
		close(s->ring[i].fd);
	}
	free(s);
}

uint64_t pmk_sampler_lost(const pmk_sampler *s)
{
	return s ? s->lost : 0;
}

uint64_t pmk_sampler_samples(const pmk_sampler *s)
{
	return s ? s->samples : 0;
}

/* Bounds-checked reads from a kernel record. */
struct cur {
	const uint8_t *p, *end;
};
static uint64_t take64(struct cur *c)
{
	uint64_t v = 0;
	if (c->end - c->p >= 8)
		memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}
static uint32_t take32(struct cur *c)
{
	uint32_t v = 0;
	if (c->end - c->p >= 4)
		memcpy(&v, c->p, 4);
	c->p += 4;
	return v;
}

static void emit_sample(pmk_sampler *s, const struct ring *r,
			const struct perf_event_header *h, const uint8_t *body,
			const uint8_t *end)
{
	struct cur c = {body, end};
	uint64_t st = s->stype[r->event];
	pmk_sample sm;
	memset(&sm, 0, sizeof sm);
	sm.event = r->event;
	sm.ip = take64(&c);
	sm.pid = take32(&c);
	sm.tid = take32(&c);
	sm.time_ns = take64(&c);
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
	    PERF_RECORD_MISC_KERNEL)
		sm.flags |= PMK_SAMPLE_KERNEL;
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		PERF_RECORD_MISC_GUEST_KERNEL ||
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		PERF_RECORD_MISC_GUEST_USER)
		sm.flags |= PMK_SAMPLE_GUEST;
	/* order fixed by the kernel: ip tid time addr cpu period callchain */
	if (s->want_addr) {
		sm.addr = take64(&c);
		sm.flags |= PMK_SAMPLE_HAS_ADDR;
	}
	sm.cpu = take32(&c);
	take32(&c);
	sm.period = take64(&c);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = take64(&c);
		for (uint64_t i = 0; i < nr && c.end - c.p >= 8; i++) {
			uint64_t ip = take64(&c);
			if (ip >= (uint64_t)PERF_CONTEXT_MAX)
				continue; /* context marker */
			if (sm.nchain < PMK_REC_MAX_CHAIN)
				s->chain[sm.nchain++] = ip;
		}
		sm.chain = s->chain;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n = take32(&c);
		if (c.end - c.p >= (ptrdiff_t)n) {
			sm.flags |= PMK_SAMPLE_HAS_RAW;
			sm.raw = c.p;
			sm.raw_len = n;
		}
		c.p += n;
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		/* REGS_USER: abi, then the masked registers when abi != 0;
		 * STACK_USER: size, the bytes, and how many are valid */
		uint64_t abi = take64(&c), size;
		uint32_t nr = (uint32_t)__builtin_popcountll(UREGS_MASK);
		if (abi) {
			for (uint32_t i = 0; i < nr && i < PMK_REC_MAX_UREGS;
			     i++)
				s->uregs[i] = take64(&c);
		}
		size = take64(&c);
		if (size && c.end - c.p >= (ptrdiff_t)(size + 8)) {
			const uint8_t *stack = c.p;
			uint64_t dyn;
			c.p += size;
			dyn = take64(&c);
			if (abi && nr <= PMK_REC_MAX_UREGS && dyn <= size &&
			    dyn <= PMK_REC_MAX_USTACK) {
				sm.flags |= PMK_SAMPLE_HAS_USTACK;
				sm.uarch = UREGS_MACH;
				sm.nuregs = nr;
				sm.uregs = s->uregs;
				sm.ustack_len = (uint32_t)dyn;
				sm.ustack = stack;
			}
		}
	}
	if (c.p > c.end)
		return; /* short record: drop it */
	pmk_rec_write_sample(s->w, &sm);
	s->samples++;
}

static void emit(pmk_sampler *s, const struct ring *r, const uint8_t *rec,
		 size_t len)
{
	const struct perf_event_header *h = (const void *)rec;
	const uint8_t *body = rec + sizeof *h, *end = rec + len;
	struct cur c = {body, end};
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		emit_sample(s, r, h, body, end);
		break;
	case PERF_RECORD_MMAP2: {
		pmk_rec_map m;
		size_t fl;
		memset(&m, 0, sizeof m);
		m.pid = take32(&c);
		take32(&c);
		m.start = take64(&c);
		m.len = take64(&c);
		m.pgoff = take64(&c);
		{
			uint32_t maj = take32(&c), min = take32(&c);
			m.dev = ((uint64_t)maj << 32) | min;
		}
		m.ino = take64(&c);
		take64(&c); /* inode generation */
		m.prot = take32(&c);
		take32(&c); /* flags */
		if (c.p >= end)
			break;
		fl = strnlen((const char *)c.p, (size_t)(end - c.p));
		if (fl >= sizeof m.path)
			fl = sizeof m.path - 1;
		memcpy(m.path, c.p, fl);
		pmk_rec_map_identify(&m);
		pmk_rec_write_map(s->w, &m);
		break;
	}
	case PERF_RECORD_COMM: {
		pmk_rec_comm cm;
		size_t fl;
		memset(&cm, 0, sizeof cm);
		cm.pid = take32(&c);
		cm.tid = take32(&c);
		cm.exec = (h->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		if (c.p >= end)
			break;
		fl = strnlen((const char *)c.p, (size_t)(end - c.p));
		if (fl >= sizeof cm.comm)
			fl = sizeof cm.comm - 1;
		memcpy(cm.comm, c.p, fl);
		pmk_rec_write_comm(s->w, &cm);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		pmk_rec_task t;
		t.pid = take32(&c);
		t.ppid = take32(&c);
		t.tid = take32(&c);
		t.ptid = take32(&c);
		t.time_ns = take64(&c);
		if (h->type == PERF_RECORD_FORK)
			pmk_rec_write_fork(s->w, &t);
		else
			pmk_rec_write_exit(s->w, &t);
		break;
	}
	case PERF_RECORD_LOST: {
		uint64_t n;
		take64(&c);
		n = take64(&c);
		s->lost += n;
		pmk_rec_write_lost(s->w, r->event, n);
		break;
	}
	default:
		break; /* throttling and the like */
	}
}

static int drain(pmk_sampler *s, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail;
	int n = 0;
	while (tail < head) {
		size_t off = (size_t)(tail & (r->size - 1));
		struct perf_event_header h;
		const uint8_t *rec;
		if (off + sizeof h <= r->size) {
			memcpy(&h, r->data + off, sizeof h);
		} else {
			size_t a = r->size - off;
			memcpy(&h, r->data + off, a);
			memcpy((uint8_t *)&h + a, r->data, sizeof h - a);
		}
		if (h.size < sizeof h || h.size > head - tail)
			break; /* cannot happen with a sane kernel */
		if (off + h.size <= r->size) {
			rec = r->data + off;
		} else {
			size_t a = r->size - off;
			memcpy(s->tmp, r->data + off, a);
			memcpy(s->tmp + a, r->data, h.size - a);
			rec = s->tmp;
		}
		emit(s, r, rec, h.size);
		tail += h.size;
		n++;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

int pmk_sampler_poll(pmk_sampler *s, int timeout_ms)
{
	int total = 0;
	if (timeout_ms != 0) {
		int rc = poll(s->pfd, (nfds_t)s->nring, timeout_ms);
		if (rc < 0 && errno != EINTR)
			return PMK_ESYS;
	}
	for (int i = 0; i < s->nring; i++)
		total += drain(s, &s->ring[i]);
	if (pmk_rec_writer_flush(s->w) != 0)
		return PMK_EIO;
	return total;
}

/* /proc/PID/maps: "start-end perms offset dev inode path". */
static void synth_maps(pmk_sampler *s, int pid)
{
	char path[64], line[4352];
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long long a, b, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		pmk_rec_map m;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &a, &b,
			   perms, &off, &maj, &min, &ino, &pos) < 7)
			continue;
		/* executable maps; with data addresses, data maps too */
		if (perms[2] != 'x' &&
		    (!s->want_addr || (perms[0] != 'r' && perms[1] != 'w')))
			continue;
		memset(&m, 0, sizeof m);
		m.pid = (uint32_t)pid;
		m.start = a;
		m.len = b - a;
		m.pgoff = off;
		m.prot = (perms[2] == 'x') << 2 | (perms[0] == 'r') |
			 (perms[1] == 'w') << 1;
		m.dev = ((uint64_t)maj << 32) | min;
		m.ino = ino;
		line[strcspn(line, "\n")] = 0;
		snprintf(m.path, sizeof m.path, "%s", pos ? line + pos : "");
		if (!m.path[0])
			snprintf(m.path, sizeof m.path, "//anon");
		pmk_rec_map_identify(&m);
		pmk_rec_write_map(s->w, &m);
	}
	fclose(f);
}

int pmk_sampler_synthesize(pmk_sampler *s, int pid)
{
	char path[64];
	pmk_rec_comm c;
	FILE *f;
	if (pid <= 0) { /* every process */
		DIR *dir = opendir("/proc");
		struct dirent *de;
		if (!dir)
			return PMK_ESYS;
		while ((de = readdir(dir)))
			if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
				pmk_sampler_synthesize(s, atoi(de->d_name));
		closedir(dir);
		return 0;
	}
	memset(&c, 0, sizeof c);
	c.pid = c.tid = (uint32_t)pid;
	snprintf(path, sizeof path, "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(c.comm, sizeof c.comm, f))
			c.comm[strcspn(c.comm, "\n")] = 0;
		fclose(f);
		pmk_rec_write_comm(s->w, &c);
	}
	synth_maps(s, pid);
	return 0;
}
