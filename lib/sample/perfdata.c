/*
 * perfdata.c: read perf.data files (perf's documented "PERFILE2" format:
 * tools/perf/Documentation/perf.data-file-format.txt) by translating them
 * into pmkit's record format in memory, so every report, view and export
 * works on them unchanged. Read: the attributes (sample_type, the ids that
 * tie samples to events, names from the EVENT_DESC feature when present),
 * and the data section's MMAP/MMAP2, COMM, FORK, EXIT, LOST and SAMPLE
 * records (ip, pid/tid, time, addr, cpu, period, call chain, raw
 * record, user registers and stack for DWARF unwinding; a sample carrying
 * a READ group is taken without it, a branch stack is skipped). Everything is bounds-checked; a record that does not parse is
 * skipped and counted, a header that does not is an error naming the
 * offset. Pipe-mode streams (perf record -o -: a 16-byte header, then
 * the attributes as HEADER_ATTR records and names in EVENT_UPDATE records
 * among the data records) are read the same way.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/perfdata.h"
#include "sample/rec_format.h"
#include "sample/tpfmt.h"
#include "sample/zstd.h"

#define PERF_MAGIC2 0x32454c4946524550ull /* "PERFILE2" little-endian */
#define MAXATTR PMK_REC_MAX_EVENTS

enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3,
	S_READ = 1 << 4, S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7,
	S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_RAW = 1 << 10,
	S_BRANCH = 1 << 11, S_REGS_USER = 1 << 12, S_STACK_USER = 1 << 13,
	S_IDENTIFIER = 1 << 16
};
enum {
	R_MMAP = 1, R_LOST = 2, R_COMM = 3, R_EXIT = 4, R_FORK = 7,
	R_SAMPLE = 9, R_MMAP2 = 10,
	/* pipe mode */
	R_HEADER_ATTR = 64, R_TRACING_DATA = 66, R_AUXTRACE = 71,
	R_EVENT_UPDATE = 78, R_COMPRESSED = 81
};
#define ZGROW (1u << 20) /* decompression buffer growth */

struct pattr {
	uint32_t type;
	uint64_t config, period, sample_type, regs_user, branch_type;
	int freq;
	uint64_t *ids;
	size_t nids;
	char name[PMK_EVENT_NAME_MAX];
};

struct pd {
	const uint8_t *b;
	size_t len;
	struct pattr a[MAXATTR];
	int na;
	uint64_t data_off, data_size;
	int pipe; /* pipe mode: attributes among the records */
	uint64_t skipped;
	uint64_t feat[4];
	int count_only; /* pmk__perfdata_info: records counted, not kept */
	pmk_perfdata_info *info;
	/* COMPRESSED records: one zstd stream through all of them, the
	 * records it gives, and an incomplete last one kept for the next */
	pmk__zstd_stream *zs;
	uint8_t *z;
	size_t zlen, zcap;
	int in_z;
	uint64_t chain[PMK_REC_MAX_CHAIN];
	uint64_t uregs[PMK_REC_MAX_UREGS];
};

static int in(const struct pd *p, uint64_t off, uint64_t n)
{
	return off <= p->len && n <= p->len - off;
}

static int fail(pmk_diag *d, uint64_t off, const char *what)
{
	pmk_diag_clear(d);
	if (d) {
		d->code = PMK_EFORMAT;
		snprintf(d->message, sizeof d->message,
			 "perf.data: %s (at byte %llu)", what,
			 (unsigned long long)off);
		snprintf(d->hint, sizeof d->hint,
			 "the file is damaged, from a pipe (perf record -o -), "
			 "or from a perf this reader does not know");
	}
	return PMK_EFORMAT;
}

int pmk__perfdata_is(const void *buf, size_t len)
{
	return len >= 8 && pmk__get64(buf) == PERF_MAGIC2;
}

static void default_name(struct pattr *a)
{
	static const char *hw[] = {"cycles", "instructions",
				   "cache-references", "cache-misses",
				   "branches", "branch-misses"};
	static const char *sw[] = {"cpu-clock",	       "task-clock",
				   "page-faults",      "context-switches",
				   "cpu-migrations",   "minor-faults",
				   "major-faults"};
	if (a->type == 0 && a->config < 6)
		snprintf(a->name, sizeof a->name, "%s", hw[a->config]);
	else if (a->type == 1 && a->config < 7)
		snprintf(a->name, sizeof a->name, "%s", sw[a->config]);
	else
		snprintf(a->name, sizeof a->name, "r%llx:type%u",
			 (unsigned long long)a->config, a->type);
}

/* EVENT_DESC (feature bit 12): the events' names, in attr order. */
static void read_event_desc(struct pd *p, uint64_t feat_bits[4])
{
	uint64_t sec;
	if (!(feat_bits[0] & (1ull << 12)))
		return;
	sec = pmk__perf_feat_entry(p->data_off + p->data_size, feat_bits[0],
				   12);
	if (!in(p, sec, 16))
		return;
	{
		uint64_t off = pmk__get64(p->b + sec),
			 size = pmk__get64(p->b + sec + 8), end;
		uint32_t nr, asz;
		if (!in(p, off, size) || size < 8)
			return;
		end = off + size;
		nr = pmk__get32(p->b + off);
		asz = pmk__get32(p->b + off + 4);
		off += 8;
		for (uint32_t i = 0; i < nr && (int)i < p->na; i++) {
			uint32_t nids, slen;
			if (off + asz + 8 > end)
				return;
			off += asz;
			nids = pmk__get32(p->b + off);
			slen = pmk__get32(p->b + off + 4);
			off += 8;
			if (slen > end - off)
				return;
			if (slen)
				snprintf(p->a[i].name, sizeof p->a[i].name,
					 "%.*s", (int)slen,
					 (const char *)p->b + off);
			off += slen;
			if ((uint64_t)nids * 8 > end - off)
				return;
			off += 8ull * nids;
		}
	}
}

static int attr_of_id(const struct pd *p, uint64_t id)
{
	for (int i = 0; i < p->na; i++)
		for (size_t k = 0; k < p->a[i].nids; k++)
			if (p->a[i].ids[k] == id)
				return i;
	return -1;
}

/* Bytes that follow a pipe-mode record outside its size: the tracing
 * data and the AUX area data. */
static uint64_t trailing(uint32_t type, const uint8_t *h, uint16_t size)
{
	if (type == R_TRACING_DATA && size >= 12)
		return pmk__get32(h + 8);
	if (type == R_AUXTRACE && size >= 16)
		return pmk__get64(h + 8);
	return 0;
}

/* One HEADER_ATTR record: the attribute, then its ids. */
static int pipe_attr(struct pd *p, const uint8_t *h, uint16_t size)
{
	struct pattr *a;
	uint32_t asz;
	const uint8_t *e = h + 8;
	uint64_t flags;
	if (p->na >= MAXATTR || size < 8 + 64)
		return -1;
	asz = pmk__get32(e + 4);
	if (!asz)
		asz = 64;
	if (asz < 64 || asz > (uint32_t)size - 8)
		return -1;
	a = &p->a[p->na];
	memset(a, 0, sizeof *a);
	a->type = pmk__get32(e);
	a->config = pmk__get64(e + 8);
	a->period = pmk__get64(e + 16);
	a->sample_type = pmk__get64(e + 24);
	flags = pmk__get64(e + 40);
	a->freq = (flags >> 10) & 1;
	a->regs_user = asz >= 88 ? pmk__get64(e + 80) : 0;
	a->branch_type = asz >= 80 ? pmk__get64(e + 72) : 0;
	a->nids = ((uint32_t)size - 8 - asz) / 8;
	a->ids = malloc((a->nids ? a->nids : 1) * sizeof *a->ids);
	if (!a->ids)
		return -2;
	for (size_t k = 0; k < a->nids; k++)
		a->ids[k] = pmk__get64(e + asz + 8 * k);
	default_name(a);
	p->na++;
	return 0;
}

static void event_update(struct pd *p, const uint8_t *h, uint16_t size);

/* Pipe mode: the attributes (and the events' names) are records of the
 * stream; read them all first, since samples may refer to any. */
static int read_pipe_attrs(struct pd *p, pmk_diag *d)
{
	uint64_t off = 16;
	p->pipe = 1;
	p->data_off = 16;
	p->data_size = p->len - 16;
	while (off + 8 <= p->len) {
		const uint8_t *h = p->b + off;
		uint32_t type = pmk__get32(h);
		uint16_t size = (uint16_t)(h[6] | h[7] << 8);
		uint64_t more;
		if (size < 8 || size > p->len - off)
			break;
		if (type == R_HEADER_ATTR) {
			int r = pipe_attr(p, h, size);
			if (r == -2)
				return PMK_ENOMEM;
			if (r < 0)
				p->skipped++;
		} else if (type == R_EVENT_UPDATE) {
			event_update(p, h, size);
		}
		more = trailing(type, h, size);
		if (more > p->len - off - size)
			break;
		off += size + more;
	}
	if (p->na < 1)
		return fail(d, 16, "a pipe with no event");
	return 0;
}

/* EVENT_UPDATE of type NAME (2): an event's name, by one of its ids. */
static void event_update(struct pd *p, const uint8_t *h, uint16_t size)
{
	int ai;
	size_t room;
	if (size < 8 + 16 + 1 || pmk__get64(h + 8) != 2)
		return;
	ai = attr_of_id(p, pmk__get64(h + 16));
	room = (size_t)size - 24;
	if (ai >= 0 && memchr(h + 24, 0, room))
		snprintf(p->a[ai].name, sizeof p->a[ai].name, "%s",
			 (const char *)h + 24);
}

static int read_header(struct pd *p, pmk_diag *d)
{
	uint64_t hsize, attr_size, aoff, asize, feat[4];
	if (p->len < 16 || (p->len < 104 && pmk__get64(p->b + 8) != 16))
		return fail(d, p->len, "header truncated");
	hsize = pmk__get64(p->b + 8);
	if (hsize == 16)
		return read_pipe_attrs(p, d);
	if (hsize < 104 || hsize > p->len)
		return fail(d, 8, "bad header size");
	attr_size = pmk__get64(p->b + 16);
	aoff = pmk__get64(p->b + 24);
	asize = pmk__get64(p->b + 32);
	p->data_off = pmk__get64(p->b + 40);
	p->data_size = pmk__get64(p->b + 48);
	for (int i = 0; i < 4; i++)
		p->feat[i] = feat[i] = pmk__get64(p->b + 72 + 8 * i);
	if (attr_size < 64 + 16 || attr_size > 4096 || !in(p, aoff, asize))
		return fail(d, 16, "bad attribute section");
	if (!in(p, p->data_off, p->data_size))
		return fail(d, 40, "data section outside the file");
	p->na = (int)(asize / attr_size);
	if (p->na < 1)
		return fail(d, 24, "no events");
	if (p->na > MAXATTR)
		p->na = MAXATTR;
	for (int i = 0; i < p->na; i++) {
		const uint8_t *e = p->b + aoff + (uint64_t)i * attr_size;
		struct pattr *a = &p->a[i];
		uint32_t esz = pmk__get32(e + 4);
		uint64_t ioff, isz, flags;
		a->type = pmk__get32(e);
		a->config = pmk__get64(e + 8);
		a->period = pmk__get64(e + 16);
		a->sample_type = pmk__get64(e + 24);
		flags = pmk__get64(e + 40);
		a->freq = (flags >> 10) & 1;
		a->regs_user = esz >= 88 ? pmk__get64(e + 80) : 0;
		a->branch_type = esz >= 80 ? pmk__get64(e + 72) : 0;
		ioff = pmk__get64(e + attr_size - 16);
		isz = pmk__get64(e + attr_size - 8);
		if (in(p, ioff, isz) && isz / 8 < (1u << 20)) {
			a->nids = isz / 8;
			a->ids = malloc((a->nids ? a->nids : 1) * sizeof *a->ids);
			if (!a->ids)
				return PMK_ENOMEM;
			for (size_t k = 0; k < a->nids; k++)
				a->ids[k] = pmk__get64(p->b + ioff + 8 * k);
		}
		default_name(a);
	}
	read_event_desc(p, feat);
	return 0;
}

struct cur {
	const uint8_t *p, *end;
	int bad;
};
static uint64_t g64(struct cur *c)
{
	uint64_t v;
	if (c->end - c->p < 8) {
		c->bad = 1;
		return 0;
	}
	v = pmk__get64(c->p);
	c->p += 8;
	return v;
}
static void skip(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
	} else {
		c->p += n;
	}
}

/* Which attribute a sample belongs to: by its id when the attributes
 * record one (all of them share the layout up to the id: perf requires
 * it), else the first. */
static int sample_attr(const struct pd *p, const uint8_t *body,
		       const uint8_t *end)
{
	uint64_t st = p->a[0].sample_type;
	struct cur c = {body, end, 0};
	if (p->na == 1)
		return 0;
	if (st & S_IDENTIFIER)
		return attr_of_id(p, g64(&c));
	if (!(st & S_ID))
		return 0;
	if (st & S_IP)
		g64(&c);
	if (st & S_TID)
		g64(&c);
	if (st & S_TIME)
		g64(&c);
	if (st & S_ADDR)
		g64(&c);
	return c.bad ? -1 : attr_of_id(p, g64(&c));
}

/* A sample's user registers and stack (perf record --call-graph dwarf)
 * as pmkit's record keeps its own (include/pmkit/sample.h): the registers
 * the unwinder reads, in the kernel's order, picked out of those the
 * attribute's mask recorded (x86-64: ax..ip and r8..r15; arm64: x0..x30,
 * sp, pc, which perf's arm64 mask alone has), and the stack bytes in use
 * (its dyn_size). A sample without them, or with fewer registers, stays
 * as it is. */
static void user_stack(struct pd *p, const struct pattr *a, struct cur *c,
		       uint64_t st, pmk_sample *s)
{
	uint64_t abi = g64(c), full[64] = {0}, mask = a->regs_user;
	uint64_t need, size, dyn;
	uint32_t nr = 0, mach;
	const uint8_t *stack;
	if (abi)
		for (int b = 0; b < 64; b++)
			if (mask >> b & 1)
				full[b] = g64(c);
	if (!(st & S_STACK_USER) || c->bad)
		return;
	size = g64(c);
	if (!size || c->bad || size > (uint64_t)(c->end - c->p))
		return;
	stack = c->p;
	skip(c, (size_t)size);
	dyn = g64(c);
	if (c->bad || !abi || dyn > size || dyn > PMK_REC_MAX_USTACK)
		return;
	/* arm64's mask alone has register 32 (the pc) */
	mach = mask >> 32 & 1 ? PMK__EM_AARCH64 : PMK__EM_X86_64;
	need = mach == PMK__EM_AARCH64 ? PMK__UREGS_AARCH64 : PMK__UREGS_X86_64;
	if ((mask & need) != need)
		return;
	for (int b = 0; b < 64; b++)
		if (need >> b & 1)
			p->uregs[nr++] = full[b];
	s->flags |= PMK_SAMPLE_HAS_USTACK;
	s->uarch = mach;
	s->nuregs = nr;
	s->uregs = p->uregs;
	s->ustack_len = (uint32_t)dyn;
	s->ustack = stack;
}

static int convert_sample(struct pd *p, pmk_rec_writer *w,
			  const uint8_t *body, const uint8_t *end,
			  uint16_t misc)
{
	int ai = sample_attr(p, body, end);
	const struct pattr *a;
	struct cur c = {body, end, 0};
	pmk_sample s;
	uint64_t st;
	if (ai < 0)
		return -1;
	a = &p->a[ai];
	st = a->sample_type;
	memset(&s, 0, sizeof s);
	s.event = (uint32_t)ai;
	s.period = a->freq ? 1 : a->period;
	if (st & S_IDENTIFIER)
		g64(&c);
	if (st & S_IP)
		s.ip = g64(&c);
	if (st & S_TID) {
		uint64_t v = g64(&c);
		s.pid = (uint32_t)v;
		s.tid = (uint32_t)(v >> 32);
	}
	if (st & S_TIME)
		s.time_ns = g64(&c);
	if (st & S_ADDR) {
		s.addr = g64(&c);
		s.flags |= PMK_SAMPLE_HAS_ADDR;
	}
	if (st & S_ID)
		g64(&c);
	if (st & S_STREAM_ID)
		g64(&c);
	s.cpu = UINT32_MAX; /* not recorded: perf script leaves it out */
	if (st & S_CPU)
		s.cpu = (uint32_t)g64(&c);
	if (st & S_PERIOD)
		s.period = g64(&c);
	if (st & S_READ)
		return c.bad ? -1 : 1; /* layout depends on read_format */
	if (st & S_CALLCHAIN) {
		uint64_t nr = g64(&c);
		if (nr > (uint64_t)(c.end - c.p) / 8)
			return -1;
		for (uint64_t i = 0; i < nr; i++) {
			uint64_t ip = g64(&c);
			if (ip >= (uint64_t)-4095) /* PERF_CONTEXT_* markers */
				continue;
			if (s.nchain < PMK_REC_MAX_CHAIN)
				p->chain[s.nchain++] = ip;
		}
		s.chain = p->chain;
	}
	if (st & S_RAW) {
		uint32_t n = 0;
		if (c.end - c.p >= 4)
			n = pmk__get32(c.p);
		skip(&c, 4);
		if (!c.bad && n <= PMK_REC_MAX_RAW &&
		    (uint64_t)(c.end - c.p) >= n) {
			s.flags |= PMK_SAMPLE_HAS_RAW;
			s.raw = c.p;
			s.raw_len = n;
		}
		skip(&c, n);
	}
	if (st & S_BRANCH) { /* not kept: skipped to reach the stack */
		uint64_t bnr = g64(&c);
		if (a->branch_type & (1u << 17)) /* ..._BRANCH_HW_INDEX */
			g64(&c);
		if (bnr > (uint64_t)(c.end - c.p) / 24)
			return -1;
		skip(&c, (size_t)bnr * 24);
	}
	if ((st & S_REGS_USER) && !c.bad)
		user_stack(p, a, &c, st, &s);
	if (c.bad)
		return -1;
	if ((misc & 7) == 1) /* PERF_RECORD_MISC_KERNEL */
		s.flags |= PMK_SAMPLE_KERNEL;
	return pmk_rec_write_sample(w, &s) ? -2 : 0;
}

static int convert_record(struct pd *p, pmk_rec_writer *w, uint32_t type,
			  uint16_t misc, const uint8_t *body,
			  const uint8_t *end)
{
	struct cur c = {body, end, 0};
	switch (type) {
	case R_SAMPLE:
		return convert_sample(p, w, body, end, misc);
	case R_MMAP:
	case R_MMAP2: {
		pmk_rec_map m;
		uint64_t v;
		size_t room;
		memset(&m, 0, sizeof m);
		v = g64(&c);
		m.pid = (uint32_t)v;
		m.start = g64(&c);
		m.len = g64(&c);
		m.pgoff = g64(&c);
		m.prot = 5; /* executable unless MMAP2 says otherwise */
		if (type == R_MMAP2) {
			const uint8_t *u = c.p;
			skip(&c, 24);
			if (!c.bad && (misc & (1 << 14))) { /* build id */
				m.build_id_len = u[0] > 20 ? 20 : u[0];
				memcpy(m.build_id, u + 4, m.build_id_len);
			}
			v = g64(&c);
			m.prot = (uint32_t)v;
		}
		if (c.bad || (uint32_t)v == UINT32_MAX)
			return c.bad ? -1 : 1;
		if ((int32_t)m.pid == -1)
			return 1; /* the kernel's own map: kallsyms covers it */
		room = (size_t)(c.end - c.p);
		if (!room || !memchr(c.p, 0, room))
			return -1;
		snprintf(m.path, sizeof m.path, "%s", (const char *)c.p);
		if (m.start + m.len < m.start)
			return -1;
		return pmk_rec_write_map(w, &m) ? -2 : 0;
	}
	case R_COMM: {
		pmk_rec_comm cm;
		size_t room;
		uint64_t v = g64(&c);
		memset(&cm, 0, sizeof cm);
		cm.pid = (uint32_t)v;
		cm.tid = (uint32_t)(v >> 32);
		cm.exec = (misc & (1 << 13)) != 0;
		room = (size_t)(c.end - c.p);
		if (c.bad || !room || !memchr(c.p, 0, room))
			return -1;
		snprintf(cm.comm, sizeof cm.comm, "%s", (const char *)c.p);
		return pmk_rec_write_comm(w, &cm) ? -2 : 0;
	}
	case R_FORK:
	case R_EXIT: {
		pmk_rec_task t;
		uint64_t a = g64(&c), b = g64(&c);
		memset(&t, 0, sizeof t);
		t.pid = (uint32_t)a;
		t.ppid = (uint32_t)(a >> 32);
		t.tid = (uint32_t)b;
		t.ptid = (uint32_t)(b >> 32);
		t.time_ns = g64(&c);
		if (c.bad)
			return -1;
		return (type == R_FORK ? pmk_rec_write_fork(w, &t)
				       : pmk_rec_write_exit(w, &t))
			   ? -2
			   : 0;
	}
	case R_LOST: {
		uint64_t id = g64(&c), n = g64(&c);
		int ai = attr_of_id(p, id);
		if (c.bad)
			return -1;
		return pmk_rec_write_lost(w, ai < 0 ? 0u : (uint32_t)ai, n)
			   ? -2
			   : 0;
	}
	default:
		return 1; /* not needed for a profile */
	}
}

static int one_record(struct pd *p, pmk_rec_writer *w, uint32_t type,
		      uint16_t misc, const uint8_t *body, const uint8_t *end);

/* A COMPRESSED record: its bytes through the zstd stream, then every
 * whole record they complete. -1 when libzstd is absent or the stream
 * is corrupt (the record is skipped), -2 on a write error. */
static int decompress(struct pd *p, pmk_rec_writer *w, const uint8_t *src,
		      size_t n)
{
	size_t used = 0, off = 0;
	if (p->in_z)
		return -1; /* COMPRESSED inside COMPRESSED */
	if (!p->zs && !(p->zs = pmk__zstd_stream_new()))
		return -1;
	while (used < n) {
		if (p->zcap - p->zlen < ZGROW / 2) {
			uint8_t *m;
			if (p->zcap > (64u << 20) ||
			    !(m = realloc(p->z, p->zcap + ZGROW)))
				return -1;
			p->z = m;
			p->zcap += ZGROW;
		}
		if (pmk__zstd_stream_run(p->zs, src, n, &used, p->z, p->zcap,
					 &p->zlen))
			return -1;
	}
	p->in_z = 1;
	while (p->zlen - off >= 8) {
		const uint8_t *h = p->z + off;
		uint16_t size = (uint16_t)(h[6] | h[7] << 8);
		int r;
		if (size < 8) {
			p->zlen = off = 0; /* lost: start afresh */
			p->skipped++;
			break;
		}
		if (size > p->zlen - off)
			break;
		r = one_record(p, w, pmk__get32(h),
			       (uint16_t)(h[4] | h[5] << 8), h + 8, h + size);
		if (r == -2) {
			p->in_z = 0;
			return -2;
		}
		if (r < 0)
			p->skipped++;
		off += size;
	}
	p->in_z = 0;
	memmove(p->z, p->z + off, p->zlen - off);
	p->zlen -= off;
	return 0;
}

static int one_record(struct pd *p, pmk_rec_writer *w, uint32_t type,
		      uint16_t misc, const uint8_t *body, const uint8_t *end)
{
	if (p->info && type < PMK_PERFDATA_NTYPES)
		p->info->records[type]++;
	if (type == R_COMPRESSED)
		return decompress(p, w, body, (size_t)(end - body));
	if (p->count_only)
		return 0;
	return convert_record(p, w, type, misc, body, end);
}

static void read_tracing(const struct pd *p, pmk_rec_writer *w,
			 const uint8_t *b, uint64_t len);

/* Every record of the data section through one_record. */
static int walk(struct pd *p, pmk_rec_writer *w)
{
	uint64_t off = p->data_off, end = p->data_off + p->data_size;
	int rc = 0;
	while (!rc && off + 8 <= end) {
		const uint8_t *h = p->b + off;
		uint32_t type = pmk__get32(h);
		uint16_t misc = (uint16_t)(h[4] | h[5] << 8),
			 size = (uint16_t)(h[6] | h[7] << 8);
		uint64_t more = p->pipe ? trailing(type, h, size) : 0;
		int r;
		if (size < 8 || off + size > end || more > end - off - size) {
			p->skipped++; /* unusable size: nothing after it is
					 reachable */
			break;
		}
		r = one_record(p, w, type, misc, h + 8, h + size);
		if (type == R_TRACING_DATA && w)
			read_tracing(p, w, h + size, more);
		if (r == -2)
			rc = PMK_EIO;
		else if (r < 0)
			p->skipped++;
		off += size + more;
	}
	return rc;
}

/* perf's tracing data (trace-event-info.c): its magic and version, the
 * header files, ftrace's formats, then each subsystem's event formats.
 * The format of each tracepoint attribute (type 2: its config is the
 * format's ID) goes into the recording after the events. The kernel
 * symbols, printk formats and command names after them are not needed. */
static void read_tracing(const struct pd *p, pmk_rec_writer *w,
			 const uint8_t *b, uint64_t len)
{
	struct cur c = {b, b + len, 0};
	uint32_t n;
	char *text;
	if (len < 10 || memcmp(b, "\027\010\104tracing", 10))
		return;
	c.p += 10;
	while (c.p < c.end && *c.p) /* the version */
		c.p++;
	skip(&c, 1 + 2 + 4);  /* NUL, endianness, long size, page size */
	skip(&c, 12);	       /* "header_page" */
	skip(&c, g64(&c));
	skip(&c, 13); /* "header_event" */
	skip(&c, g64(&c));
	if (c.bad || c.end - c.p < 4)
		return;
	n = pmk__get32(c.p);
	c.p += 4;
	for (uint32_t i = 0; i < n && !c.bad; i++) /* ftrace's */
		skip(&c, g64(&c));
	if (c.bad || c.end - c.p < 4)
		return;
	n = pmk__get32(c.p);
	c.p += 4;
	for (uint32_t s = 0; s < n && !c.bad; s++) {
		uint32_t k;
		const uint8_t *z = memchr(c.p, 0, (size_t)(c.end - c.p));
		if (!z || c.end - z < 5)
			return;
		c.p = z + 1;
		k = pmk__get32(c.p);
		c.p += 4;
		for (uint32_t e = 0; e < k && !c.bad; e++) {
			uint64_t sz = g64(&c);
			const uint8_t *t = c.p;
			uint64_t id;
			skip(&c, sz);
			if (c.bad || !(text = malloc(sz + 1)))
				return;
			memcpy(text, t, sz);
			text[sz] = 0;
			id = pmk__tpfmt_id(text);
			for (int a = 0; a < p->na; a++)
				if (p->a[a].type == 2 && p->a[a].config == id)
					pmk_rec_write_format(w, (uint32_t)a,
							     text);
			free(text);
		}
	}
}

/* HEADER_TRACING_DATA (feature bit 1) of a file */
static void read_tracing_feature(const struct pd *p, pmk_rec_writer *w)
{
	uint64_t sec, off, size;
	if (p->pipe || !(p->feat[0] & 2))
		return;
	sec = pmk__perf_feat_entry(p->data_off + p->data_size, p->feat[0], 1);
	if (!in(p, sec, 16))
		return;
	off = pmk__get64(p->b + sec);
	size = pmk__get64(p->b + sec + 8);
	if (in(p, off, size))
		read_tracing(p, w, p->b + off, size);
}

static void pd_free(struct pd *p)
{
	for (int i = 0; i < p->na; i++)
		free(p->a[i].ids);
	pmk__zstd_stream_free(p->zs);
	free(p->z);
	free(p);
}

/* HEADER_COMPRESSED (feature bit 27): version, type, level, ratio. */
static void read_compressed(struct pd *p, pmk_perfdata_info *info)
{
	uint64_t sec, off;
	if (p->pipe || !(p->feat[0] & (1ull << 27)))
		return;
	sec = pmk__perf_feat_entry(p->data_off + p->data_size, p->feat[0], 27);
	if (!in(p, sec, 16))
		return;
	off = pmk__get64(p->b + sec);
	if (!in(p, off, 16) || pmk__get64(p->b + sec + 8) < 16)
		return;
	info->comp_type = pmk__get32(p->b + off + 4);
	info->comp_level = pmk__get32(p->b + off + 8);
	info->comp_ratio = pmk__get32(p->b + off + 12);
}

int pmk__perfdata_info(const void *buf, size_t len, pmk_perfdata_info *info,
		       pmk_diag *d)
{
	struct pd *p = calloc(1, sizeof *p);
	int rc;
	memset(info, 0, sizeof *info);
	if (!p)
		return PMK_ENOMEM;
	p->b = buf;
	p->len = len;
	p->count_only = 1;
	p->info = info;
	rc = read_header(p, d);
	if (!rc) {
		info->pipe = p->pipe;
		read_compressed(p, info);
		rc = walk(p, NULL);
		info->skipped = p->skipped;
	}
	pd_free(p);
	return rc;
}

int pmk__perfdata_convert(const void *buf, size_t len, int fd,
			  uint64_t *skipped, pmk_diag *d)
{
	struct pd *p = calloc(1, sizeof *p);
	pmk_rec_writer *w = NULL;
	int rc;
	if (!p)
		return PMK_ENOMEM;
	p->b = buf;
	p->len = len;
	rc = read_header(p, d);
	if (!rc)
		rc = pmk_rec_writer_fdopen(&w, fd, "perf.data (converted)", d);
	for (int i = 0; !rc && i < p->na; i++) {
		pmk_rec_event e;
		memset(&e, 0, sizeof e);
		e.index = (uint32_t)i;
		e.type = p->a[i].type;
		e.config = p->a[i].config;
		e.period = p->a[i].period;
		e.freq = (uint32_t)p->a[i].freq;
		snprintf(e.name, sizeof e.name, "%s", p->a[i].name);
		rc = pmk_rec_write_event(w, &e);
	}
	if (!rc)
		read_tracing_feature(p, w);
	if (!rc)
		rc = walk(p, w);
	if (w) {
		int c = pmk_rec_writer_close(w);
		if (!rc)
			rc = c;
	}
	*skipped = p->skipped;
	pd_free(p);
	return rc;
}
