/*
 * rec_read.c: the record-file reader. Maps the file (or takes a buffer) and
 * walks its records with every length checked before use: a truncated tail
 * ends the stream (its size is reported), anything else malformed is an
 * error naming the offset. Never trusts a count or a string in the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmkit/sample.h"
#include "sample/rec_format.h"

struct pmk_rec_reader {
	const uint8_t *base;
	size_t len, pos;
	void *map; /* mmap of the file, or NULL */
	size_t map_len;
	uint64_t truncated;
	uint32_t skip_kind; /* 0: none */
	int tolerant;	    /* skip damaged records instead of failing */
	uint64_t damaged, damaged_bytes, first_damage;
	size_t last_off; /* of the record next_strict looked at last */
	char first_why[96];
	char producer[64];
	uint64_t chain[PMK_REC_MAX_CHAIN];
	uint64_t uregs[PMK_REC_MAX_UREGS];
};

static int bad(pmk_diag *d, int code, uint64_t off, const char *what)
{
	pmk_diag_clear(d);
	if (d) {
		d->code = code;
		snprintf(d->message, sizeof d->message, "%s (at byte %llu)",
			 what, (unsigned long long)off);
		snprintf(d->hint, sizeof d->hint,
			 "the file is damaged or was not written by pmkit "
			 "record; record it again");
	}
	return code;
}

static int check_header(pmk_rec_reader *r, pmk_diag *d)
{
	uint32_t ver, hsize;
	if (r->len < PMK__REC_HDR_MIN ||
	    memcmp(r->base, PMK__REC_MAGIC, 8) != 0) {
		if (r->len == 0)
			return bad(d, PMK_EFORMAT, 0,
				   "the record file is empty");
		if (r->len < 8 ||
		    memcmp(r->base, PMK__REC_MAGIC, r->len < 8 ? r->len : 8))
			return bad(d, PMK_EFORMAT, 0,
				   "not a pmkit record file (bad magic)");
		return bad(d, PMK_EFORMAT, r->len,
			   "the record file header is truncated");
	}
	ver = pmk__get32(r->base + 8);
	hsize = pmk__get32(r->base + 12);
	if (pmk__get32(r->base + 16) != PMK__REC_BOM)
		return bad(d, PMK_EFORMAT, 16, "bad byte-order mark");
	if (ver == 0 || ver > PMK_REC_VERSION) {
		pmk_diag_clear(d);
		if (d) {
			d->code = PMK_EVERSION;
			snprintf(d->message, sizeof d->message,
				 "record file version %u; this pmkit reads "
				 "versions 1 to %d",
				 ver, PMK_REC_VERSION);
			snprintf(d->hint, sizeof d->hint,
				 "use a newer pmkit to read it");
		}
		return PMK_EVERSION;
	}
	if (hsize < PMK__REC_HDR_MIN || hsize > PMK__REC_HDR_MAX || hsize % 8)
		return bad(d, PMK_EFORMAT, 12, "bad header size");
	if (hsize > r->len)
		return bad(d, PMK_EFORMAT, r->len,
			   "the record file header is truncated");
	{
		size_t n = hsize - PMK__REC_HDR_MIN;
		if (n >= sizeof r->producer)
			n = sizeof r->producer - 1;
		memcpy(r->producer, r->base + PMK__REC_HDR_MIN, n);
		r->producer[n] = 0;
		r->producer[strnlen(r->producer, n)] = 0;
	}
	r->pos = hsize;
	return 0;
}

int pmk_rec_reader_open_mem(pmk_rec_reader **rp, const void *buf, size_t len,
			    pmk_diag *d)
{
	pmk_rec_reader *r = calloc(1, sizeof *r);
	int rc;
	*rp = NULL;
	if (!r)
		return PMK_ENOMEM;
	r->base = buf;
	r->len = buf ? len : 0;
	rc = check_header(r, d);
	if (rc) {
		free(r);
		return rc;
	}
	*rp = r;
	return 0;
}

int pmk_rec_reader_open(pmk_rec_reader **rp, const char *path, pmk_diag *d)
{
	struct stat st;
	void *m = NULL;
	/* O_NONBLOCK: a FIFO is refused below instead of blocking here */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
	*rp = NULL;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		pmk_diag_clear(d);
		if (d) {
			d->code = e == ENOENT ? PMK_ENOENT : PMK_EIO;
			d->sys_errno = e;
			snprintf(d->file, sizeof d->file, "%s", path);
			snprintf(d->message, sizeof d->message,
				 "cannot open '%s': %s", path, strerror(e));
			if (e == ENOENT)
				snprintf(d->hint, sizeof d->hint,
					 "'pmkit record -- COMMAND' writes %s",
					 PMK_REC_DEFAULT_FILE);
		}
		return e == ENOENT ? PMK_ENOENT : PMK_EIO;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		pmk_diag_clear(d);
		if (d) {
			d->code = PMK_EFORMAT;
			snprintf(d->file, sizeof d->file, "%s", path);
			snprintf(d->message, sizeof d->message,
				 "cannot read: it is %s, not a record file",
				 S_ISDIR(st.st_mode)    ? "a directory"
				 : S_ISFIFO(st.st_mode) ? "a FIFO"
				 : S_ISCHR(st.st_mode)  ? "a character device"
							: "a special file");
			snprintf(d->hint, sizeof d->hint,
				 "give the regular file pmkit record -o wrote");
		}
		rc = PMK_EFORMAT;
		return rc;
	}
	if (st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ,
			 MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m == MAP_FAILED) {
			close(fd);
			return bad(d, PMK_EIO, 0, "cannot map the record file");
		}
	}
	close(fd);
	rc = pmk_rec_reader_open_mem(rp, m, (size_t)st.st_size, d);
	if (rc) {
		if (m)
			munmap(m, (size_t)st.st_size);
		if (d)
			snprintf(d->file, sizeof d->file, "%s", path);
		return rc;
	}
	(*rp)->map = m;
	(*rp)->map_len = (size_t)st.st_size;
	return 0;
}

void pmk_rec_reader_close(pmk_rec_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->map_len);
	free(r);
}

void pmk__rec_reader_skip(struct pmk_rec_reader *r, uint32_t kind)
{
	r->skip_kind = kind;
}

void pmk__rec_reader_data(const struct pmk_rec_reader *r, const void **buf,
			  size_t *len)
{
	*buf = r->base;
	*len = r->len;
}

uint64_t pmk_rec_reader_truncated(const pmk_rec_reader *r)
{
	return r ? r->truncated : 0;
}

const char *pmk_rec_reader_producer(const pmk_rec_reader *r)
{
	return r ? r->producer : "";
}

/* Copy a NUL-terminated string that must end inside [p, p+n). */
static int get_str(char *dst, size_t dsize, const uint8_t *p, size_t n)
{
	size_t l = strnlen((const char *)p, n);
	if (l == n || l >= dsize)
		return -1;
	memcpy(dst, p, l);
	dst[l] = 0;
	return 0;
}

static int next_strict(pmk_rec_reader *r, pmk_rec_item *it, pmk_diag *d);

/* Whether a record could start at `off`: a known kind, a sane size that
 * fits, and for samples a consistent event index and chain length. */
static int plausible(const pmk_rec_reader *r, size_t off)
{
	const uint8_t *h = r->base + off;
	uint32_t kind, size;
	if (r->len - off < 8)
		return 0;
	kind = pmk__get32(h);
	size = pmk__get32(h + 4);
	if (kind < PMK_REC_EVENT || kind > PMK_REC_FORMAT || size < 16 ||
	    size % 8 || size > PMK__REC_MAX_SIZE || size > r->len - off)
		return 0;
	if (kind == PMK_REC_SAMPLE) {
		if (size < 8 + PMK__SAMPLE_FIXED)
			return 0;
		if (pmk__get32(h + 8) >= PMK_REC_MAX_EVENTS ||
		    pmk__get32(h + 8 + 44) > PMK_REC_MAX_CHAIN ||
		    8 + PMK__SAMPLE_FIXED + 8ull * pmk__get32(h + 8 + 44) > size)
			return 0;
	}
	return 1;
}

/* The next offset after `from` where two plausible records follow each
 * other (or one ends the file); the file's length when there is none. */
static size_t resync(const pmk_rec_reader *r, size_t from)
{
	for (size_t off = from; off + 8 <= r->len; off += 8) {
		size_t next;
		if (!plausible(r, off))
			continue;
		next = off + pmk__get32(r->base + off + 4);
		if (next == r->len || plausible(r, next))
			return off;
	}
	return r->len;
}

void pmk__rec_reader_tolerant(struct pmk_rec_reader *r)
{
	r->tolerant = 1;
}

uint64_t pmk__rec_reader_damage(const struct pmk_rec_reader *r,
				uint64_t *bytes, uint64_t *first,
				const char **why)
{
	*bytes = r->damaged_bytes;
	*first = r->first_damage;
	*why = r->first_why;
	return r->damaged;
}

int pmk_rec_next(pmk_rec_reader *r, pmk_rec_item *it, pmk_diag *d)
{
	for (;;) {
		size_t off;
		int rc = next_strict(r, it, d);
		if (rc >= 0 || !r->tolerant || rc != PMK_EFORMAT)
			return rc;
		/* a damaged record: note it, then go on from the next place a
		 * record plausibly starts */
		off = r->last_off;
		if (!r->damaged++) {
			r->first_damage = off;
			snprintf(r->first_why, sizeof r->first_why, "%.95s",
				 d ? d->message : "damaged record");
		}
		if (r->pos == off) /* its size is unusable */
			r->pos = resync(r, off + 8);
		else if (!plausible(r, r->pos) && r->pos < r->len)
			r->pos = resync(r, r->pos); /* its size was wrong too */
		r->damaged_bytes += r->pos - off;
		pmk_diag_clear(d);
	}
}

static int next_strict(pmk_rec_reader *r, pmk_rec_item *it, pmk_diag *d)
{
	for (;;) {
		size_t left = r->len - r->pos;
		const uint8_t *h = r->base + r->pos, *p;
		uint32_t kind, size, n;
		uint64_t off = r->pos;
		r->last_off = r->pos;
		if (left == 0)
			return 0;
		if (left < 8) {
			r->truncated = left;
			r->pos = r->len;
			return 0;
		}
		kind = pmk__get32(h);
		size = pmk__get32(h + 4);
		if (size < 8 || size % 8 || size > PMK__REC_MAX_SIZE)
			return bad(d, PMK_EFORMAT, off, "bad record size");
		if (size > left) {
			if (r->tolerant && resync(r, off + 8) < r->len)
				return bad(d, PMK_EFORMAT, off,
					   "record size beyond the end, with "
					   "records after it");
			r->truncated = left;
			r->pos = r->len;
			return 0;
		}
		r->pos += size;
		if (kind == r->skip_kind)
			continue;
		p = h + 8;
		n = size - 8;
		memset(it, 0, sizeof *it);
		it->kind = (pmk_rec_kind)kind;
		it->offset = off;
		switch (kind) {
		case PMK_REC_EVENT: {
			pmk_rec_event *e = &it->u.event;
			if (n < PMK__EVENT_FIXED + 1)
				goto short_rec;
			e->index = pmk__get32(p);
			e->type = pmk__get32(p + 4);
			e->config = pmk__get64(p + 8);
			e->period = pmk__get64(p + 16);
			e->freq = pmk__get32(p + 24);
			e->precise = pmk__get32(p + 28);
			if (e->index >= PMK_REC_MAX_EVENTS)
				return bad(d, PMK_EFORMAT, off,
					   "event index out of range");
			if (get_str(e->name, sizeof e->name,
				    p + PMK__EVENT_FIXED, n - PMK__EVENT_FIXED))
				return bad(d, PMK_EFORMAT, off,
					   "bad event name");
			return 1;
		}
		case PMK_REC_SAMPLE: {
			pmk_sample *s = &it->u.sample;
			if (n < PMK__SAMPLE_FIXED)
				goto short_rec;
			s->event = pmk__get32(p);
			s->flags = pmk__get32(p + 4);
			s->ip = pmk__get64(p + 8);
			s->pid = pmk__get32(p + 16);
			s->tid = pmk__get32(p + 20);
			s->time_ns = pmk__get64(p + 24);
			s->period = pmk__get64(p + 32);
			s->cpu = pmk__get32(p + 40);
			s->nchain = pmk__get32(p + 44);
			s->addr = pmk__get64(p + 48);
			if (s->event >= PMK_REC_MAX_EVENTS)
				return bad(d, PMK_EFORMAT, off,
					   "sample of an unknown event");
			if (s->nchain > PMK_REC_MAX_CHAIN ||
			    (uint64_t)s->nchain * 8 > n - PMK__SAMPLE_FIXED)
				return bad(d, PMK_EFORMAT, off,
					   "bad call-chain length");
			for (uint32_t i = 0; i < s->nchain; i++)
				r->chain[i] =
				    pmk__get64(p + PMK__SAMPLE_FIXED + 8u * i);
			s->chain = r->chain;
			if (s->flags & PMK_SAMPLE_HAS_USTACK) {
				const uint8_t *x =
				    p + PMK__SAMPLE_FIXED + 8u * s->nchain;
				uint64_t room = n - PMK__SAMPLE_FIXED -
						8u * (uint64_t)s->nchain;
				if (room < PMK__USTACK_FIXED)
					return bad(d, PMK_EFORMAT, off,
						   "sample without its stack");
				s->uarch = pmk__get32(x);
				s->nuregs = pmk__get32(x + 4);
				s->ustack_len = pmk__get32(x + 8);
				if (s->nuregs > PMK_REC_MAX_UREGS ||
				    s->ustack_len > PMK_REC_MAX_USTACK ||
				    PMK__USTACK_FIXED +
					    8u * (uint64_t)s->nuregs +
					    s->ustack_len >
					room)
					return bad(d, PMK_EFORMAT, off,
						   "bad user stack length");
				for (uint32_t i = 0; i < s->nuregs; i++)
					r->uregs[i] = pmk__get64(
					    x + PMK__USTACK_FIXED + 8u * i);
				s->uregs = r->uregs;
				s->ustack =
				    x + PMK__USTACK_FIXED + 8u * s->nuregs;
			}
			if (s->flags & PMK_SAMPLE_HAS_RAW) {
				uint64_t at = PMK__SAMPLE_FIXED +
					      8u * (uint64_t)s->nchain;
				if (s->flags & PMK_SAMPLE_HAS_USTACK)
					at += PMK__USTACK_FIXED +
					      8u * (uint64_t)s->nuregs +
					      ((s->ustack_len + 7u) & ~7u);
				if (at + PMK__RAW_FIXED > n ||
				    (s->raw_len = pmk__get32(p + at)) >
					PMK_REC_MAX_RAW ||
				    at + PMK__RAW_FIXED + s->raw_len > n)
					return bad(d, PMK_EFORMAT, off,
						   "bad raw record length");
				s->raw = p + at + PMK__RAW_FIXED;
			}
			return 1;
		}
		case PMK_REC_MAP: {
			pmk_rec_map *m = &it->u.map;
			if (n < PMK__MAP_FIXED + 1)
				goto short_rec;
			m->pid = pmk__get32(p);
			m->prot = pmk__get32(p + 4);
			m->start = pmk__get64(p + 8);
			m->len = pmk__get64(p + 16);
			m->pgoff = pmk__get64(p + 24);
			m->dev = pmk__get64(p + 32);
			m->ino = pmk__get64(p + 40);
			m->size = pmk__get64(p + 48);
			m->mtime_ns = pmk__get64(p + 56);
			m->build_id_len = pmk__get32(p + 64);
			if (m->build_id_len > 20)
				return bad(d, PMK_EFORMAT, off,
					   "bad build-id length");
			memcpy(m->build_id, p + 68, m->build_id_len);
			if (m->start + m->len < m->start)
				return bad(
				    d, PMK_EFORMAT, off,
				    "map wraps around the address space");
			if (get_str(m->path, sizeof m->path, p + PMK__MAP_FIXED,
				    n - PMK__MAP_FIXED))
				return bad(d, PMK_EFORMAT, off, "bad map path");
			return 1;
		}
		case PMK_REC_COMM: {
			pmk_rec_comm *c = &it->u.comm;
			if (n < PMK__COMM_FIXED)
				goto short_rec;
			c->pid = pmk__get32(p);
			c->tid = pmk__get32(p + 4);
			c->exec = pmk__get32(p + 8);
			c->time_ns = pmk__get64(p + 16);
			if (get_str(c->comm, sizeof c->comm, p + 24, 32))
				return bad(d, PMK_EFORMAT, off,
					   "bad command name");
			return 1;
		}
		case PMK_REC_FORK:
		case PMK_REC_EXIT: {
			pmk_rec_task *t = &it->u.task;
			if (n < PMK__TASK_FIXED)
				goto short_rec;
			t->pid = pmk__get32(p);
			t->tid = pmk__get32(p + 4);
			t->ppid = pmk__get32(p + 8);
			t->ptid = pmk__get32(p + 12);
			t->time_ns = pmk__get64(p + 16);
			return 1;
		}
		case PMK_REC_LOST:
			if (n < PMK__LOST_FIXED)
				goto short_rec;
			it->u.lost.event = pmk__get32(p);
			it->u.lost.count = pmk__get64(p + 8);
			return 1;
		case PMK_REC_FORMAT:
			if (n < PMK__FORMAT_FIXED + 1)
				goto short_rec;
			it->u.format.event = pmk__get32(p);
			it->u.format.text = (const char *)p + PMK__FORMAT_FIXED;
			if (it->u.format.event >= PMK_REC_MAX_EVENTS ||
			    !memchr(p + PMK__FORMAT_FIXED, 0,
				    n - PMK__FORMAT_FIXED))
				return bad(d, PMK_EFORMAT, off,
					   "bad tracepoint format");
			return 1;
		case PMK_REC_FINISH:
			if (n < PMK__FINISH_FIXED)
				goto short_rec;
			it->u.finish.status = (int32_t)pmk__get32(p);
			it->u.finish.samples = pmk__get64(p + 8);
			it->u.finish.lost = pmk__get64(p + 16);
			it->u.finish.duration_ns = pmk__get64(p + 24);
			return 1;
		default:
			continue; /* a kind from a later minor revision: skip */
		}
	short_rec:
		return bad(d, PMK_EFORMAT, off,
			   "record too short for its kind");
	}
}
