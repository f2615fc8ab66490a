/*
 * perfwrite.c: a pmkit record file written out as a perf.data file that
 * perf reads (perf's documented "PERFILE2" format: tools/perf/Documentation/
 * perf.data-file-format.txt), in file mode or in pipe mode (perf record
 * -o -).
 *
 * The record file is read twice. The first pass learns the events and what
 * the samples carry (a data address, a call chain, user registers and
 * stack), which fixes one sample_type for every event, and each record's
 * time. Records pmkit keeps without a time (memory maps, command names
 * read from /proc, lost counts) take the earliest time of the records after
 * them in the file, so that perf, which orders everything by time, sees
 * them before the samples that follow them, as pmkit's own reader does.
 * The second pass translates every record into perf's layout (COMM, MMAP2,
 * FORK, EXIT, LOST, SAMPLE, each non-sample record with the sample_id
 * trailer of sample_id_all), and the records are written sorted by time
 * (ties in file order), with a FINISHED_ROUND at the end.
 *
 * A file carries the header, one attribute with one id per event, the data
 * section and the features HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS,
 * CMDLINE, EVENT_DESC (the events' names) and SAMPLE_TIME; with a zstd
 * level (record -z), the records go in runs of up to 32 KiB, each run one
 * zstd frame in a COMPRESSED record, and HEADER_COMPRESSED says so (zstd
 * through libzstd.so.1, loaded at run time: lib/sample/zstd.c). A pipe carries
 * the short header and one HEADER_ATTR record per event before the data.
 * Call chains get perf's context markers back (kernel and user halves);
 * a user stack copy is written as perf's REGS_USER and STACK_USER, and
 * then each executable file's other loadable segments as data maps, where
 * perf's unwinder reads the unwind tables. Not
 * written: build ids (perf finds each file by its path), branch stacks,
 * kernel-map records (perf reads /proc/kallsyms).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/core/diag.h"
#include "lib/core/outfile.h"
#include "lib/sample/rec_format.h"
#include "lib/sample/zstd.h"
#include "pmkit.h"
#include "pmkit/sample.h"

enum { /* perf_event_attr.sample_type bits */
       S_IP = 1 << 0,
       S_TID = 1 << 1,
       S_TIME = 1 << 2,
       S_ADDR = 1 << 3,
       S_CALLCHAIN = 1 << 5,
       S_ID = 1 << 6,
       S_CPU = 1 << 7,
       S_PERIOD = 1 << 8,
       S_RAW = 1 << 10,
       S_REGS_USER = 1 << 12,
       S_STACK_USER = 1 << 13,
};
enum { /* record types */
       R_MMAP = 1,
       R_LOST = 2,
       R_COMM = 3,
       R_EXIT = 4,
       R_FORK = 7,
       R_SAMPLE = 9,
       R_MMAP2 = 10,
       R_HEADER_ATTR = 64,
       R_TRACING_DATA = 66,
       R_FINISHED_ROUND = 68,
       R_COMPRESSED = 81,
};
enum { /* header.misc */
       M_KERNEL = 1,
       M_USER = 2,
       M_MMAP_DATA = 1 << 13,
       M_COMM_EXEC = 1 << 13,
};
enum { /* feature bits */
       F_TRACING_DATA = 1,
       F_HOSTNAME = 3,
       F_OSRELEASE = 4,
       F_VERSION = 5,
       F_ARCH = 6,
       F_NRCPUS = 7,
       F_CMDLINE = 11,
       F_EVENT_DESC = 12,
       F_SAMPLE_TIME = 21,
       F_COMPRESSED = 27,
       F_NFEAT = 28,
};
#define ATTR_SIZE  128u /* perf_event_attr as perf 6.1 knows it */
#define HDR_SIZE   104u
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER   ((uint64_t)-512)
#define ZCHUNK	   32768u /* record bytes compressed together, at most */
/* the decompressed bytes perf is told to expect per COMPRESSED record
 * (HEADER_COMPRESSED) */
#define ZMMAP_LEN 1048576u

#define REC_MAX 65528u /* a record's size is 16 bits */

/* a growing byte buffer; `oom` once an allocation failed */
struct buf {
	uint8_t *p;
	size_t n, cap;
	int oom;
};

static uint8_t *grow(struct buf *b, size_t n)
{
	if (b->oom)
		return NULL;
	if (b->n + n > b->cap) {
		size_t c = b->cap ? b->cap : 4096;
		uint8_t *q;
		while (c < b->n + n)
			c *= 2;
		if (!(q = realloc(b->p, c))) {
			b->oom = 1;
			return NULL;
		}
		b->p = q;
		b->cap = c;
	}
	b->n += n;
	memset(b->p + b->n - n, 0, n);
	return b->p + b->n - n;
}
static void put64(struct buf *b, uint64_t v)
{
	uint8_t *q = grow(b, 8);
	if (q)
		pmk__put64(q, v);
}
static void put2x32(struct buf *b, uint32_t lo, uint32_t hi)
{
	put64(b, (uint64_t)hi << 32 | lo);
}
/* a NUL-terminated string padded with zeros to a multiple of `align` */
static void put_str(struct buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1, pad = (n + align - 1) / align * align;
	uint8_t *q = grow(b, pad);
	if (q)
		memcpy(q, s, n);
}
/* perf's header string: u32 length (padded to 64), then the string */
static void put_hstr(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 63) / 64 * 64;
	uint8_t *q = grow(b, 4);
	if (q)
		pmk__put32(q, (uint32_t)pad);
	put_str(b, s, 64);
}

/* one translated record in the data buffer */
struct ent {
	uint64_t time, off;
	uint32_t seq, len;
};

struct pw {
	pmk_rec_event ev[PMK_REC_MAX_EVENTS];
	int nev;
	uint64_t sample_type, regs_mask, stack_user;
	uint32_t uarch;
	int kernel_chain_only;
	uint64_t *times; /* per record, after the first pass */
	size_t nrec;
	struct buf data;
	struct ent *ent;
	size_t nent, cap_ent;
	uint64_t first_sample, last_sample;
	char *format[PMK_REC_MAX_EVENTS]; /* tracepoints' formats, or NULL */
	struct buf tracing;		  /* perf's tracing data, or empty */
	int zlevel;		   /* zstd level, 0: not compressed */
	uint64_t zin, zout, nzrec; /* bytes in and out, COMPRESSED records */
};

/* the user registers perf's REGS_USER carries for `uarch`: pmkit's
 * sampler takes these masks (lib/sample/sampler.c) */
static uint64_t regs_mask_of(uint32_t uarch)
{
	if (uarch == 62) /* EM_X86_64: ax..ip, r8..r15 */
		return 0x1ffull | 0xffull << 16;
	if (uarch == 183) /* EM_AARCH64: x0..x30, sp, pc */
		return (1ull << 33) - 1;
	return 0;
}

static uint64_t item_time(const pmk_rec_item *it)
{
	switch (it->kind) {
	case PMK_REC_SAMPLE:
		return it->u.sample.time_ns;
	case PMK_REC_COMM:
		return it->u.comm.time_ns;
	case PMK_REC_FORK:
	case PMK_REC_EXIT:
		return it->u.task.time_ns;
	default:
		return 0;
	}
}

static int emits(pmk_rec_kind k)
{
	return k == PMK_REC_SAMPLE || k == PMK_REC_MAP || k == PMK_REC_COMM ||
	       k == PMK_REC_FORK || k == PMK_REC_EXIT || k == PMK_REC_LOST;
}

/* First pass: the events, the sample_type, every record's time. */
static int scan(struct pw *w, const void *rec, size_t len, pmk_diag *d)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	size_t cap = 0;
	int rc;
	w->sample_type = S_IP | S_TID | S_TIME | S_ID | S_CPU | S_PERIOD;
	if ((rc = pmk_rec_reader_open_mem(&r, rec, len, d)) < 0)
		return rc;
	w->kernel_chain_only = 1;
	while ((rc = pmk_rec_next(r, &it, d)) > 0) {
		if (it.kind == PMK_REC_EVENT && w->nev < PMK_REC_MAX_EVENTS)
			w->ev[w->nev++] = it.u.event;
		if (it.kind == PMK_REC_FORMAT && !w->format[it.u.format.event])
			w->format[it.u.format.event] =
			    strdup(it.u.format.text);
		if (it.kind == PMK_REC_SAMPLE) {
			const pmk_sample *s = &it.u.sample;
			if (s->flags & PMK_SAMPLE_HAS_ADDR)
				w->sample_type |= S_ADDR;
			if (s->nchain)
				w->sample_type |= S_CALLCHAIN;
			if (s->flags & PMK_SAMPLE_HAS_RAW)
				w->sample_type |= S_RAW;
			if (s->flags & PMK_SAMPLE_HAS_USTACK) {
				/* perf unwinds only files with call chains */
				w->sample_type |=
				    S_CALLCHAIN | S_REGS_USER | S_STACK_USER;
				if (!w->uarch)
					w->uarch = s->uarch;
				if (s->ustack_len > w->stack_user)
					w->stack_user = s->ustack_len;
			}
			if (!w->first_sample || s->time_ns < w->first_sample)
				w->first_sample = s->time_ns;
			if (s->time_ns > w->last_sample)
				w->last_sample = s->time_ns;
		}
		if (!emits(it.kind))
			continue;
		if (w->nrec == cap) {
			uint64_t *t;
			cap = cap ? cap * 2 : 1024;
			if (!(t = realloc(w->times, cap * sizeof *t))) {
				rc = PMK_ENOMEM;
				break;
			}
			w->times = t;
		}
		w->times[w->nrec++] = item_time(&it);
	}
	pmk_rec_reader_close(r);
	if (rc < 0)
		return rc;
	if (!w->nev)
		return pmk__diag_at(d, PMK_EFORMAT, NULL, 0, NULL, 0, 0, NULL,
				    "the record file names no event");
	w->regs_mask = regs_mask_of(w->uarch);
	w->stack_user = (w->stack_user + 7) / 8 * 8;
	/* a record without a time takes the earliest time after it */
	{
		uint64_t next = UINT64_MAX;
		for (size_t i = w->nrec; i-- > 0;) {
			if (w->times[i])
				next = w->times[i] < next ? w->times[i] : next;
			else
				w->times[i] = next == UINT64_MAX ? 0 : next;
		}
	}
	return 0;
}

/* pid,tid time id cpu: the sample_id trailer of a non-sample record */
static void put_sample_id(struct buf *b, uint32_t pid, uint32_t tid,
			  uint64_t time, uint32_t cpu)
{
	put2x32(b, pid, tid);
	put64(b, time);
	put64(b, 1); /* the first event's id */
	put2x32(b, cpu, 0);
}

/* a sample's body; its record starts at `at` in `b` */
static void put_sample(struct pw *w, struct buf *b, const pmk_sample *s,
		       size_t at)
{
	uint64_t st = w->sample_type;
	put64(b, s->ip);
	put2x32(b, s->pid, s->tid);
	put64(b, s->time_ns);
	if (st & S_ADDR)
		put64(b, s->flags & PMK_SAMPLE_HAS_ADDR ? s->addr : 0);
	put64(b, (uint64_t)s->event + 1);
	put2x32(b, s->cpu == UINT32_MAX ? 0 : s->cpu, 0);
	put64(b, s->period);
	if (st & S_CALLCHAIN) {
		size_t nr_at = b->n;
		uint64_t nr = 0, ctx = 0;
		const uint64_t *chain = s->chain;
		uint32_t n = s->nchain;
		put64(b, 0);
		/* a sample without a chain (and without a stack to unwind)
		 * still shows where it landed */
		if (!n && !(s->flags & PMK_SAMPLE_HAS_USTACK)) {
			chain = &s->ip;
			n = 1;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t ip = chain[i];
			uint64_t c = ip >> 63 ? CTX_KERNEL : CTX_USER;
			if (c != ctx) {
				put64(b, c);
				ctx = c;
				nr++;
			}
			put64(b, ip);
			nr++;
		}
		if (!b->oom)
			pmk__put64(b->p + nr_at, nr);
	}
	if (st & S_RAW) {
		/* u32 size, the bytes, zeros up to a multiple of 8 with the
		 * size, as the kernel pads them */
		uint32_t n = s->flags & PMK_SAMPLE_HAS_RAW ? s->raw_len : 0;
		uint32_t sz = ((n + 4 + 7) & ~7u) - 4;
		uint8_t *q = grow(b, 4 + (size_t)sz);
		if (q) {
			pmk__put32(q, sz);
			if (n)
				memcpy(q + 4, s->raw, n);
		}
	}
	if (st & S_REGS_USER) {
		int ok =
		    (s->flags & PMK_SAMPLE_HAS_USTACK) &&
		    s->uarch == w->uarch && w->regs_mask &&
		    s->nuregs == (uint32_t)__builtin_popcountll(w->regs_mask);
		if (ok) {
			/* what is left of a 16-bit record for the stack */
			size_t used = b->n - at + (s->nuregs + 3) * 8u;
			uint32_t room = used < REC_MAX
					    ? (uint32_t)(REC_MAX - used) & ~7u
					    : 0;
			uint32_t n = s->ustack_len, sz;
			uint8_t *q;
			put64(b, 2); /* PERF_SAMPLE_REGS_ABI_64 */
			for (uint32_t i = 0; i < s->nuregs; i++)
				put64(b, s->uregs[i]);
			if (n > room)
				n = room;
			sz = (n + 7) / 8 * 8;
			put64(b, sz);
			if ((q = grow(b, sz)) != NULL && n)
				memcpy(q, s->ustack, n);
			if (sz)
				put64(b, n);
		} else {
			put64(b, 0); /* no registers */
			put64(b, 0); /* no stack */
		}
	}
}

/* For a file perf unwinds with DWARF: perf reads the unwind tables
 * (.eh_frame_hdr, .eh_frame) through the process's maps, which pmkit's
 * executable maps do not cover. Append an MMAP2 (data) record for each of
 * the file's other loadable segments, placed by the executable map's load
 * bias, from the file's ELF program headers (64-bit little-endian ELF). */
static void file_segments(struct pw *w, const pmk_rec_map *m, uint64_t time)
{
	uint8_t eh[64], ph[56];
	struct stat st;
	uint64_t phoff, bias = 0, page = 4096;
	uint16_t phnum, phsz;
	int fd, found = 0;
	if (m->path[0] != '/' || !(m->prot & 4) ||
	    (fd = open(m->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || /* no FIFO, device */
	    pread(fd, eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh, "\177ELF", 4) || eh[4] != 2 || eh[5] != 1)
		goto out;
	phoff = pmk__get64(eh + 32);
	phsz = (uint16_t)(eh[54] | eh[55] << 8);
	phnum = (uint16_t)(eh[56] | eh[57] << 8);
	if (phsz < sizeof ph || phnum > 256)
		goto out;
	/* the load bias, from the executable segment holding m->pgoff */
	for (int pass = 0; pass < 2; pass++) {
		for (uint16_t i = 0; i < phnum; i++) {
			uint64_t off, va, fsz;
			if (pread(fd, ph, sizeof ph,
				  (off_t)(phoff + (uint64_t)i * phsz)) !=
				(ssize_t)sizeof ph ||
			    pmk__get32(ph) != 1 /* PT_LOAD */)
				continue;
			off = pmk__get64(ph + 8);
			va = pmk__get64(ph + 16);
			fsz = pmk__get64(ph + 32);
			if (pass == 0) {
				if ((pmk__get32(ph + 4) & 1) && !found &&
				    m->pgoff >= (off & ~(page - 1)) &&
				    m->pgoff < off + fsz) {
					bias = m->start - m->pgoff - (va - off);
					found = 1;
				}
				continue;
			}
			if (pmk__get32(ph + 4) & 1) /* PF_X: recorded */
				continue;
			{
				struct buf *b = &w->data;
				size_t at = b->n;
				uint64_t s0 = (va & ~(page - 1)),
					 s1 = (va + fsz + page - 1) &
					      ~(page - 1);
				if (!fsz)
					continue;
				put64(b, 0);
				put2x32(b, m->pid, m->pid);
				put64(b, bias + s0);
				put64(b, s1 - s0);
				put64(b, off & ~(page - 1));
				put2x32(b, (uint32_t)(m->dev >> 32),
					(uint32_t)m->dev);
				put64(b, m->ino);
				put64(b, 0);
				put2x32(b, 1 /* PROT_READ */, 2);
				put_str(b, m->path, 8);
				put_sample_id(b, m->pid, m->pid, time, 0);
				if (b->oom || b->n - at > REC_MAX) {
					b->n = at;
					continue;
				}
				pmk__put32(b->p + at, R_MMAP2);
				b->p[at + 4] = M_USER;
				b->p[at + 5] = M_MMAP_DATA >> 8;
				b->p[at + 6] = (uint8_t)(b->n - at);
				b->p[at + 7] = (uint8_t)((b->n - at) >> 8);
			}
		}
		if (!found)
			break;
	}
out:
	close(fd);
}

/* One record in perf's layout, appended to the data buffer. Returns 0, or
 * 1 when the item has no perf counterpart. */
static int translate(struct pw *w, const pmk_rec_item *it, uint64_t time)
{
	struct buf *b = &w->data;
	size_t at = b->n;
	uint32_t type;
	uint16_t misc = 0;
	put64(b, 0); /* the header, filled in below */
	switch (it->kind) {
	case PMK_REC_SAMPLE:
		type = R_SAMPLE;
		misc =
		    it->u.sample.flags & PMK_SAMPLE_KERNEL ? M_KERNEL : M_USER;
		put_sample(w, b, &it->u.sample, at);
		break;
	case PMK_REC_MAP: {
		const pmk_rec_map *m = &it->u.map;
		type = R_MMAP2;
		misc = M_USER | (m->prot & 4 ? 0 : M_MMAP_DATA);
		put2x32(b, m->pid, m->pid);
		put64(b, m->start);
		put64(b, m->len);
		put64(b, m->pgoff);
		put2x32(b, (uint32_t)(m->dev >> 32), (uint32_t)m->dev);
		put64(b, m->ino);
		put64(b, 0); /* inode generation */
		put2x32(b, m->prot, 2 /* MAP_PRIVATE */);
		put_str(b, m->path, 8);
		put_sample_id(b, m->pid, m->pid, time, 0);
		break;
	}
	case PMK_REC_COMM:
		type = R_COMM;
		misc = it->u.comm.exec ? M_COMM_EXEC : 0;
		put2x32(b, it->u.comm.pid, it->u.comm.tid);
		put_str(b, it->u.comm.comm, 8);
		put_sample_id(b, it->u.comm.pid, it->u.comm.tid, time, 0);
		break;
	case PMK_REC_FORK:
	case PMK_REC_EXIT: {
		const pmk_rec_task *t = &it->u.task;
		type = it->kind == PMK_REC_FORK ? R_FORK : R_EXIT;
		put2x32(b, t->pid, t->ppid);
		put2x32(b, t->tid, t->ptid);
		put64(b, time);
		put_sample_id(b, t->pid, t->tid, time, 0);
		break;
	}
	case PMK_REC_LOST:
		type = R_LOST;
		put64(b, (uint64_t)it->u.lost.event + 1);
		put64(b, it->u.lost.count);
		put_sample_id(b, 0, 0, time, 0);
		break;
	default:
		b->n = at;
		return 1;
	}
	if (b->oom)
		return PMK_ENOMEM;
	if (b->n - at > REC_MAX) { /* cannot happen but for a huge path */
		b->n = at;
		return 1;
	}
	pmk__put32(b->p + at, type);
	b->p[at + 4] = (uint8_t)misc;
	b->p[at + 5] = (uint8_t)(misc >> 8);
	b->p[at + 6] = (uint8_t)(b->n - at);
	b->p[at + 7] = (uint8_t)((b->n - at) >> 8);
	return 0;
}

/* perf's kernel map: MMAP of "[kernel.kallsyms]_text" for pid -1, from
 * _text to _etext, its pgoff _text's address (perf's reference symbol
 * for relocation). Nothing when /proc/kallsyms hides the addresses. */
static uint64_t k_text, k_etext;
/* _text and _etext, read once per process: they hold until a reboot, and
 * finding _etext reads most of /proc/kallsyms (about 10 ms). */
static void kernel_text_read(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	if (!f)
		return;
	while (fgets(line, sizeof line, f) && (!k_text || !k_etext)) {
		unsigned long long a;
		char t, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			k_text = a;
		else if (!strcmp(name, "_etext"))
			k_etext = a;
	}
	fclose(f);
}

static void kernel_map(struct pw *w)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	uint64_t text, etext;
	size_t at = w->data.n;
	struct buf *b = &w->data;
	pthread_once(&once, kernel_text_read);
	text = k_text;
	etext = k_etext;
	if (!text)
		return;
	if (etext <= text)
		etext = UINT64_MAX;
	put64(b, 0);
	put2x32(b, UINT32_MAX, 0);
	put64(b, text);
	put64(b, etext - text);
	put64(b, text);
	put_str(b, "[kernel.kallsyms]_text", 8);
	put_sample_id(b, UINT32_MAX, 0, 0, 0);
	if (b->oom || w->nent >= w->cap_ent)
		return;
	pmk__put32(b->p + at, R_MMAP);
	b->p[at + 4] = M_KERNEL;
	b->p[at + 6] = (uint8_t)(b->n - at);
	b->p[at + 7] = (uint8_t)((b->n - at) >> 8);
	w->ent[w->nent].time = 0;
	w->ent[w->nent].seq = 0;
	w->ent[w->nent].off = at;
	w->ent[w->nent].len = (uint32_t)(b->n - at);
	w->nent++;
}

/* Second pass: every record translated, then sorted by time. */
static int translate_all(struct pw *w, const void *rec, size_t len, pmk_diag *d)
{
	pmk_rec_reader *r;
	pmk_rec_item it;
	size_t i = 0;
	int rc;
	if ((rc = pmk_rec_reader_open_mem(&r, rec, len, d)) < 0)
		return rc;
	w->cap_ent = w->nrec + 1;
	w->ent = calloc(w->cap_ent, sizeof *w->ent);
	if (!w->ent)
		rc = PMK_ENOMEM;
	else
		kernel_map(w);
	while (w->ent && (rc = pmk_rec_next(r, &it, d)) > 0) {
		size_t at = w->data.n;
		int t;
		if (!emits(it.kind))
			continue;
		if (i >= w->nrec)
			break;
		if (it.kind == PMK_REC_SAMPLE &&
		    it.u.sample.event >= (uint32_t)w->nev) {
			i++;
			continue;
		}
		if (it.kind == PMK_REC_MAP && (w->sample_type & S_STACK_USER))
			file_segments(w, &it.u.map, w->times[i]);
		t = translate(w, &it, w->times[i]);
		if (t < 0) {
			rc = t;
			break;
		}
		if (t == 1 && w->data.n > at)
			t = 0; /* the segments alone */
		if (t == 0) {
			struct ent *e = &w->ent[w->nent++];
			e->time = w->times[i];
			e->seq = (uint32_t)i + 1;
			e->off = at;
			e->len = (uint32_t)(w->data.n - at);
		}
		i++;
	}
	pmk_rec_reader_close(r);
	return rc < 0 ? rc : 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A file of tracefs (header_page), read whole into `b` after its u64
 * size; size 0 when it cannot be read (perf then takes the kernel's old
 * page layout, which it does not need for samples). */
static void put_tracefs_file(struct buf *b, const char *name)
{
	static const char *const dirs[] = {"/sys/kernel/tracing/events",
					   "/sys/kernel/debug/tracing/events"};
	size_t at = b->n, n = 0;
	uint8_t *q;
	put64(b, 0);
	for (size_t i = 0; i < 2; i++) {
		char path[128];
		FILE *f;
		snprintf(path, sizeof path, "%s/%s", dirs[i], name);
		if (!(f = fopen(path, "re")))
			continue;
		if ((q = grow(b, 65536)) != NULL)
			n = fread(q, 1, 65536, f);
		fclose(f);
		b->n -= 65536 - n;
		break;
	}
	if (!b->oom)
		pmk__put64(b->p + at, n);
}

/* perf's tracing data (HEADER_TRACING_DATA, or the pipe's TRACING_DATA
 * record: tools/perf/util/trace-event-info.c), version 0.6, with the
 * format of each tracepoint event of the file grouped by subsystem (the
 * part of its name before ':'), so that perf reads their raw records:
 * no ftrace formats, kernel symbols, printk formats or command names. */
static void tracing_data(struct pw *w)
{
	static const uint8_t magic[] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n',
					'g', '0', '.', '6', 0};
	struct buf *b = &w->tracing;
	uint8_t *q;
	int done[PMK_REC_MAX_EVENTS] = {0}, nsys = 0, any = 0;
	size_t nsys_at;
	for (int i = 0; i < w->nev; i++)
		any |= w->format[i] != NULL && strchr(w->ev[i].name, ':');
	if (!any)
		return;
	if ((q = grow(b, sizeof magic + 6)) == NULL)
		return;
	memcpy(q, magic, sizeof magic);
	q[sizeof magic] = 0; /* little-endian */
	q[sizeof magic + 1] = (uint8_t)sizeof(long);
	pmk__put32(q + sizeof magic + 2, (uint32_t)sysconf(_SC_PAGESIZE));
	if ((q = grow(b, 12)) != NULL)
		memcpy(q, "header_page", 12);
	put_tracefs_file(b, "header_page");
	if ((q = grow(b, 13)) != NULL)
		memcpy(q, "header_event", 13);
	put64(b, 0);
	grow(b, 4); /* no ftrace formats */
	nsys_at = b->n;
	grow(b, 4);
	for (int i = 0; i < w->nev; i++) {
		const char *c = strchr(w->ev[i].name, ':');
		size_t sl, cnt_at;
		uint32_t cnt = 0;
		if (done[i] || !w->format[i] || !c)
			continue;
		sl = (size_t)(c - w->ev[i].name);
		if ((q = grow(b, sl + 1)) != NULL)
			memcpy(q, w->ev[i].name, sl);
		cnt_at = b->n;
		grow(b, 4);
		for (int j = i; j < w->nev; j++) {
			size_t n;
			if (done[j] || !w->format[j] ||
			    strncmp(w->ev[j].name, w->ev[i].name, sl + 1))
				continue;
			done[j] = 1;
			n = strlen(w->format[j]);
			put64(b, n);
			if ((q = grow(b, n)) != NULL)
				memcpy(q, w->format[j], n);
			cnt++;
		}
		if (!b->oom)
			pmk__put32(b->p + cnt_at, cnt);
		nsys++;
	}
	if (!b->oom)
		pmk__put32(b->p + nsys_at, (uint32_t)nsys);
	grow(b, 8); /* no kernel symbols, no printk formats */
	put64(b, 0); /* no saved command names */
}

/* perf_event_attr for event `e` */
static void put_attr(const struct pw *w, struct buf *b, const pmk_rec_event *e)
{
	uint8_t *a = grow(b, ATTR_SIZE);
	uint64_t flags = 0;
	size_t nl;
	if (!a)
		return;
	pmk__put32(a, e->type);
	pmk__put32(a + 4, ATTR_SIZE);
	pmk__put64(a + 8, e->config);
	pmk__put64(a + 16, e->period);
	pmk__put64(a + 24, w->sample_type);
	flags |= 1ull << 0 | 1ull << 1; /* disabled, inherit */
	nl = strlen(e->name);
	if (nl > 2 && !strcmp(e->name + nl - 2, ":u"))
		flags |= 1ull << 5 | 1ull << 6; /* exclude_kernel, _hv */
	if (e == &w->ev[0])
		flags |= 1ull << 8 | 1ull << 9 | 1ull << 13 | 1ull << 23 |
			 1ull << 24; /* mmap, comm, task, mmap2, comm_exec */
	if (e->freq)
		flags |= 1ull << 10;
	flags |= (uint64_t)(e->precise & 3) << 15;
	flags |= 1ull << 18; /* sample_id_all */
	if (w->sample_type & S_STACK_USER)
		flags |= 1ull << 22; /* exclude_callchain_user */
	pmk__put64(a + 40, flags);
	pmk__put64(a + 80, w->regs_mask);
	pmk__put32(a + 88, (uint32_t)w->stack_user);
}

/* the feature sections, each appended to `f` with its offset and size
 * (relative to `f`) in `sec` */
static void put_features(const struct pw *w, struct buf *f, uint64_t sec[][2],
			 uint64_t *bits, const pmk_perfdata_opts *o)
{
	struct utsname u;
	char host[256] = "";
	long ncpu = sysconf(_SC_NPROCESSORS_CONF),
	     nonl = sysconf(_SC_NPROCESSORS_ONLN);
	if (uname(&u))
		memset(&u, 0, sizeof u);
	gethostname(host, sizeof host - 1);
	for (int bit = 0; bit < F_NFEAT; bit++) {
		size_t at = f->n;
		switch (bit) {
		case F_TRACING_DATA: {
			uint8_t *q;
			if (!w->tracing.n || !(q = grow(f, w->tracing.n)))
				continue;
			memcpy(q, w->tracing.p, w->tracing.n);
			break;
		}
		case F_HOSTNAME:
			put_hstr(f, host);
			break;
		case F_OSRELEASE:
			put_hstr(f, u.release);
			break;
		case F_VERSION:
			put_hstr(f, "pmkit " PMK_VERSION_STRING);
			break;
		case F_ARCH:
			put_hstr(f, u.machine);
			break;
		case F_NRCPUS: {
			uint8_t *q = grow(f, 8);
			if (q) {
				pmk__put32(q, (uint32_t)(ncpu > 0 ? ncpu : 1));
				pmk__put32(q + 4,
					   (uint32_t)(nonl > 0 ? nonl : 1));
			}
			break;
		}
		case F_CMDLINE: {
			uint8_t *q = grow(f, 4);
			int n = o && o->argv ? o->argc : 0;
			if (q)
				pmk__put32(q, (uint32_t)(n ? n : 1));
			if (!n)
				put_hstr(f, "pmkit");
			for (int i = 0; i < n; i++)
				put_hstr(f, o->argv[i]);
			break;
		}
		case F_EVENT_DESC: {
			uint8_t *q = grow(f, 8);
			if (q) {
				pmk__put32(q, (uint32_t)w->nev);
				pmk__put32(q + 4, ATTR_SIZE);
			}
			for (int i = 0; i < w->nev; i++) {
				put_attr(w, f, &w->ev[i]);
				q = grow(f, 4);
				if (q)
					pmk__put32(q, 1); /* ids */
				put_hstr(f, w->ev[i].name);
				put64(f, (uint64_t)i + 1);
			}
			break;
		}
		case F_SAMPLE_TIME:
			put64(f, w->first_sample);
			put64(f, w->last_sample);
			break;
		case F_COMPRESSED: {
			/* version, type (1: zstd), level, ratio, mmap_len */
			uint8_t *q;
			if (!w->nzrec || !(q = grow(f, 20)))
				continue;
			pmk__put32(q + 4, 1);
			pmk__put32(q + 8, (uint32_t)w->zlevel);
			pmk__put32(q + 12, (uint32_t)(w->zin /
						      (w->zout ? w->zout : 1)));
			pmk__put32(q + 16, ZMMAP_LEN);
			break;
		}
		default:
			continue;
		}
		bits[bit / 64] |= 1ull << (bit % 64);
		sec[bit][0] = at;
		sec[bit][1] = f->n - at;
	}
}

/* The data section: the records in order, then a FINISHED_ROUND; with a
 * zstd level, runs of records of at most ZCHUNK bytes each compressed into
 * one COMPRESSED record (a run whose frame would not fit in a record is
 * written as it is: perf reads both kinds in one file). */
static int data_section(struct pw *w, struct buf *ds)
{
	static const uint8_t fr[8] = {R_FINISHED_ROUND, 0, 0, 0, 0, 0, 8, 0};
	struct buf run = {0};
	size_t i = 0;
	uint8_t *q;
	while (i < w->nent) {
		size_t zn = 0;
		if (!w->zlevel) {
			q = grow(ds, w->ent[i].len);
			if (q)
				memcpy(q, w->data.p + w->ent[i].off,
				       w->ent[i].len);
			i++;
			continue;
		}
		run.n = 0;
		while (i < w->nent &&
		       (!run.n || run.n + w->ent[i].len <= ZCHUNK)) {
			q = grow(&run, w->ent[i].len);
			if (q)
				memcpy(q, w->data.p + w->ent[i].off,
				       w->ent[i].len);
			i++;
		}
		if (run.oom || !(q = grow(ds, REC_MAX)))
			break;
		zn = pmk__zstd_compress(q + 8, REC_MAX - 8, run.p, run.n,
					w->zlevel);
		ds->n -= REC_MAX;
		if (zn) {
			/* the frame is in place: head it (not padded to 8
			 * bytes, as perf writes it: zstd would take the
			 * padding for the next frame) */
			size_t len = 8 + zn;
			ds->n += len;
			pmk__put32(q, R_COMPRESSED);
			q[4] = q[5] = 0;
			q[6] = (uint8_t)len;
			q[7] = (uint8_t)(len >> 8);
			w->zin += run.n;
			w->zout += len;
			w->nzrec++;
		} else if ((q = grow(ds, run.n)) != NULL) {
			memcpy(q, run.p, run.n);
		}
	}
	free(run.p);
	if ((q = grow(ds, sizeof fr)) != NULL)
		memcpy(q, fr, sizeof fr);
	return ds->oom || run.oom ? PMK_ENOMEM : 0;
}

static int put_all(FILE *fp, const void *p, size_t n)
{
	return n && fwrite(p, 1, n, fp) != n ? PMK_EIO : 0;
}

/* file mode: header, ids, attrs, data, feature table, features */
static int write_file(struct pw *w, FILE *fp, const pmk_perfdata_opts *o)
{
	struct buf h = {0}, f = {0}, ds = {0};
	uint64_t sec[F_NFEAT][2], bits[4] = {0};
	uint64_t ids_off = HDR_SIZE, attr_off, data_off, data_size, feat_off;
	int nfeat = 0, rc;
	memset(sec, 0, sizeof sec);
	if ((rc = data_section(w, &ds)) < 0)
		goto out;
	data_size = ds.n;
	put_features(w, &f, sec, bits, o);
	attr_off = ids_off + 8u * (uint64_t)w->nev;
	data_off = attr_off + (ATTR_SIZE + 16u) * (uint64_t)w->nev;
	feat_off = data_off + data_size;
	for (int bit = 0; bit < F_NFEAT; bit++)
		nfeat += (bits[0] >> bit) & 1;
	/* header */
	{
		uint8_t *q = grow(&h, HDR_SIZE);
		if (q) {
			memcpy(q, "PERFILE2", 8);
			pmk__put64(q + 8, HDR_SIZE);
			pmk__put64(q + 16, ATTR_SIZE + 16u);
			pmk__put64(q + 24, attr_off);
			pmk__put64(q + 32,
				   (ATTR_SIZE + 16u) * (uint64_t)w->nev);
			pmk__put64(q + 40, data_off);
			pmk__put64(q + 48, data_size);
			for (int i = 0; i < 4; i++)
				pmk__put64(q + 72 + 8 * i, bits[i]);
		}
	}
	for (int i = 0; i < w->nev; i++)
		put64(&h, (uint64_t)i + 1);
	for (int i = 0; i < w->nev; i++) {
		put_attr(w, &h, &w->ev[i]);
		put64(&h, ids_off + 8u * (uint64_t)i);
		put64(&h, 8);
	}
	if (h.oom || f.oom) {
		rc = PMK_ENOMEM;
		goto out;
	}
	rc = put_all(fp, h.p, h.n);
	if (!rc)
		rc = put_all(fp, ds.p, ds.n);
	/* the feature table: each present feature's section, in bit order */
	for (int bit = 0; !rc && bit < F_NFEAT; bit++) {
		uint8_t s[16];
		if (!((bits[0] >> bit) & 1))
			continue;
		pmk__put64(s, feat_off + 16u * (uint64_t)nfeat + sec[bit][0]);
		pmk__put64(s + 8, sec[bit][1]);
		rc = put_all(fp, s, sizeof s);
	}
	if (!rc)
		rc = put_all(fp, f.p, f.n);
out:
	free(h.p);
	free(f.p);
	free(ds.p);
	return rc;
}

/* pipe mode: the short header, a HEADER_ATTR record per event, the data */
static int write_pipe(struct pw *w, FILE *fp)
{
	struct buf h = {0};
	int rc;
	uint8_t *q = grow(&h, 16);
	if (q) {
		memcpy(q, "PERFILE2", 8);
		pmk__put64(q + 8, 16);
	}
	for (int i = 0; i < w->nev; i++) {
		size_t at = h.n;
		put64(&h, 0);
		put_attr(w, &h, &w->ev[i]);
		put64(&h, (uint64_t)i + 1);
		if (!h.oom) {
			pmk__put32(h.p + at, R_HEADER_ATTR);
			pmk__put32(h.p + at + 4, (uint32_t)(h.n - at) << 16);
		}
	}
	if (w->tracing.n) {
		/* the record, then the data outside its size, padded to 8 */
		size_t pad = (w->tracing.n + 7) & ~(size_t)7;
		uint8_t *t = grow(&h, 12 + pad);
		if (t) {
			pmk__put32(t, R_TRACING_DATA);
			pmk__put32(t + 4, 12u << 16);
			pmk__put32(t + 8, (uint32_t)pad);
			memcpy(t + 12, w->tracing.p, w->tracing.n);
		}
	}
	rc = h.oom ? PMK_ENOMEM : put_all(fp, h.p, h.n);
	for (size_t i = 0; !rc && i < w->nent; i++)
		rc = put_all(fp, w->data.p + w->ent[i].off, w->ent[i].len);
	if (!rc) {
		uint8_t fr[8] = {R_FINISHED_ROUND, 0, 0, 0, 0, 0, 8, 0};
		rc = put_all(fp, fr, sizeof fr);
	}
	free(h.p);
	return rc;
}

int pmk_perfdata_write_mem(const void *rec, size_t len, const char *out,
			   const pmk_perfdata_opts *o, pmk_diag *d)
{
	struct pw *w = calloc(1, sizeof *w);
	pmk__outfile of;
	unsigned flags = o ? o->flags : 0;
	int pipe = (flags & PMK_PERFDATA_PIPE) || !strcmp(out, "-");
	FILE *fp = NULL;
	int rc;
	pmk_diag_clear(d);
	if (!w)
		return PMK_ENOMEM;
	memset(&of, 0, sizeof of);
	of.fd = -1;
	w->zlevel = o && !pipe ? o->zstd_level : 0;
	if (w->zlevel && !pmk__zstd_available()) {
		free(w);
		return pmk__diag_at(d, PMK_ENOTSUP, NULL, 0, NULL, 0, 0,
				    "install libzstd1, or record without -z",
				    "zstd compression needs libzstd.so.1, "
				    "which cannot be loaded");
	}
	rc = scan(w, rec, len, d);
	if (!rc)
		tracing_data(w);
	if (!rc)
		rc = translate_all(w, rec, len, d);
	if (!rc) {
		qsort(w->ent, w->nent, sizeof *w->ent, ent_cmp);
		fp = pmk__outfile_fopen(&of, out,
					PMK__OUT_PRIVATE |
					    (flags & PMK_PERFDATA_NO_BACKUP
						 ? PMK__OUT_NO_BACKUP
						 : 0),
					d);
		if (!fp)
			rc = d && d->code ? d->code : PMK_EIO;
	}
	if (!rc)
		rc = pipe ? write_pipe(w, fp) : write_file(w, fp, o);
	if (!rc && fflush(fp))
		rc = PMK_EIO;
	if (rc == PMK_EIO)
		pmk__diag_file(d, rc, errno, out, NULL, "cannot write '%s'",
			       out);
	else if (rc == PMK_ENOMEM)
		pmk__diag_at(d, rc, NULL, 0, NULL, 0, 0, NULL,
			     "out of memory writing '%s'", out);
	if (fp && !rc)
		rc = pmk__outfile_commit(&of, d);
	else if (fp)
		pmk__outfile_abort(&of);
	free(w->times);
	free(w->ent);
	free(w->data.p);
	free(w->tracing.p);
	for (int i = 0; i < PMK_REC_MAX_EVENTS; i++)
		free(w->format[i]);
	free(w);
	return rc;
}

int pmk_perfdata_write_fd(int fd, const char *out, const pmk_perfdata_opts *o,
			  pmk_diag *d)
{
	struct stat st;
	void *m;
	int rc;
	if (fstat(fd, &st) || st.st_size <= 0)
		return pmk__diag_file(d, PMK_EIO, errno, NULL, NULL,
				      "cannot read the record file");
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return pmk__diag_file(d, PMK_EIO, errno, NULL, NULL,
				      "cannot read the record file");
	rc = pmk_perfdata_write_mem(m, (size_t)st.st_size, out, o, d);
	munmap(m, (size_t)st.st_size);
	return rc;
}

int pmk_perfdata_write(const char *rec_path, const char *out,
		       const pmk_perfdata_opts *o, pmk_diag *d)
{
	int fd = open(rec_path, O_RDONLY | O_CLOEXEC), rc;
	if (fd < 0)
		return pmk__diag_file(d, PMK_EIO, errno, rec_path, NULL,
				      "cannot read '%s'", rec_path);
	rc = pmk_perfdata_write_fd(fd, out, o, d);
	close(fd);
	return rc;
}
