/*
 * rec_write.c: the record-file writer. Records are built in a buffer and
 * written whole with write(2), so a writer killed at any moment leaves a file
 * whose records are complete up to the last flush (plus at most one partial
 * record, which the reader ignores). Layout: rec_format.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/core/outfile.h"
#include "pmkit/sample.h"
#include "sample/rec_format.h"

#define WBUF_SIZE (256u * 1024u)

struct pmk_rec_writer {
	int fd;
	int err;       /* first write error */
	int err_errno; /* its errno */
	pmk__outfile *of; /* the new file of pmk_rec_writer_open, or NULL */
	size_t used;
	uint64_t samples;
	uint8_t buf[WBUF_SIZE];
};

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int pmk_rec_writer_flush(pmk_rec_writer *w)
{
	if (!w)
		return PMK_EINVAL;
	if (w->used && !w->err && write_all(w->fd, w->buf, w->used) != 0) {
		w->err = PMK_EIO;
		w->err_errno = errno;
	}
	w->used = 0;
	return w->err;
}

/* Room for a record of `size` bytes (a multiple of 8), zeroed. */
static uint8_t *reserve(pmk_rec_writer *w, uint32_t kind, size_t size)
{
	uint8_t *p;
	if (w->err || size > PMK__REC_MAX_SIZE)
		return NULL;
	if (w->used + size > WBUF_SIZE && pmk_rec_writer_flush(w) != 0)
		return NULL;
	p = w->buf + w->used;
	memset(p, 0, size);
	pmk__put32(p, kind);
	pmk__put32(p + 4, (uint32_t)size);
	w->used += size;
	return p + 8;
}

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static int start(pmk_rec_writer *w, const char *producer, pmk_diag *d)
{
	uint8_t hdr[PMK__REC_HDR_MIN + 64];
	size_t plen = producer ? strnlen(producer, 63) : 0;
	size_t hsize = round8(PMK__REC_HDR_MIN + plen + 1);
	struct timespec ts;
	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, PMK__REC_MAGIC, 8);
	pmk__put32(hdr + 8, PMK_REC_VERSION);
	pmk__put32(hdr + 12, (uint32_t)hsize);
	pmk__put32(hdr + 16, PMK__REC_BOM);
	clock_gettime(CLOCK_REALTIME, &ts);
	pmk__put64(hdr + 24,
		   (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	if (plen)
		memcpy(hdr + PMK__REC_HDR_MIN, producer, plen);
	memcpy(w->buf, hdr, hsize);
	w->used = hsize;
	if (pmk_rec_writer_flush(w) != 0) {
		pmk_diag_clear(d);
		if (d) {
			d->code = PMK_EIO;
			d->sys_errno = errno;
			snprintf(d->message, sizeof d->message,
				 "could not write the record file header: %s",
				 strerror(errno));
		}
		return PMK_EIO;
	}
	return 0;
}

int pmk_rec_writer_fdopen(pmk_rec_writer **wp, int fd, const char *producer,
			  pmk_diag *d)
{
	pmk_rec_writer *w = calloc(1, sizeof *w);
	int rc;
	*wp = NULL;
	if (!w)
		return PMK_ENOMEM;
	w->fd = fd;
	rc = start(w, producer, d);
	if (rc) {
		free(w);
		return rc;
	}
	*wp = w;
	return 0;
}

int pmk_rec_writer_open_ex(pmk_rec_writer **wp, const char *path,
			   const char *producer, unsigned flags, pmk_diag *d)
{
	pmk__outfile *of = calloc(1, sizeof *of);
	unsigned of_flags = PMK__OUT_SYNC | PMK__OUT_DASH | PMK__OUT_PRIVATE;
	int rc;
	*wp = NULL;
	if (!of)
		return PMK_ENOMEM;
	if (flags & PMK_REC_NO_BACKUP)
		of_flags |= PMK__OUT_NO_BACKUP;
	rc = pmk__outfile_open(of, path, of_flags, d);
	if (rc < 0) {
		free(of);
		return rc;
	}
	rc = pmk_rec_writer_fdopen(wp, of->fd, producer, d);
	if (rc) {
		if (d)
			snprintf(d->file, sizeof d->file, "%s", path);
		pmk__outfile_abort(of);
		free(of);
		return rc;
	}
	(*wp)->of = of;
	return 0;
}

int pmk_rec_writer_open(pmk_rec_writer **wp, const char *path,
			const char *producer, pmk_diag *d)
{
	return pmk_rec_writer_open_ex(wp, path, producer, 0, d);
}

int pmk_rec_writer_close(pmk_rec_writer *w)
{
	int rc;
	if (!w)
		return 0;
	rc = pmk_rec_writer_flush(w);
	if (w->of) {
		pmk_diag d;
		/* kept even after a write error: its records up to the error
		 * are whole and readable */
		if (pmk__outfile_commit(w->of, &d) < 0 && !rc) {
			rc = d.code < 0 ? d.code : PMK_EIO;
			w->err_errno = d.sys_errno;
		}
		free(w->of);
	}
	errno = w->err_errno;
	free(w);
	return rc;
}

void pmk_rec_writer_abort(pmk_rec_writer *w)
{
	if (!w)
		return;
	if (w->of) {
		pmk__outfile_abort(w->of);
		free(w->of);
	}
	free(w);
}

int pmk_rec_writer_publish(pmk_rec_writer *w, pmk_diag *d)
{
	if (!w)
		return PMK_EINVAL;
	return w->of ? pmk__outfile_publish(w->of, d) : 0;
}

int pmk_rec_writer_errno(const pmk_rec_writer *w)
{
	return w ? w->err_errno : 0;
}

uint64_t pmk_rec_writer_samples(const pmk_rec_writer *w)
{
	return w ? w->samples : 0;
}

int pmk_rec_write_event(pmk_rec_writer *w, const pmk_rec_event *e)
{
	size_t nl = strnlen(e->name, sizeof e->name - 1);
	uint8_t *p;
	if (e->index >= PMK_REC_MAX_EVENTS)
		return PMK_ERANGE;
	p = reserve(w, PMK_REC_EVENT, 8 + round8(PMK__EVENT_FIXED + nl + 1));
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, e->index);
	pmk__put32(p + 4, e->type);
	pmk__put64(p + 8, e->config);
	pmk__put64(p + 16, e->period);
	pmk__put32(p + 24, e->freq);
	pmk__put32(p + 28, e->precise);
	memcpy(p + PMK__EVENT_FIXED, e->name, nl);
	return 0;
}

int pmk_rec_write_sample(pmk_rec_writer *w, const pmk_sample *s)
{
	uint32_t n =
	    s->nchain > PMK_REC_MAX_CHAIN ? PMK_REC_MAX_CHAIN : s->nchain;
	int us = (s->flags & PMK_SAMPLE_HAS_USTACK) != 0;
	int raw = (s->flags & PMK_SAMPLE_HAS_RAW) != 0;
	uint32_t nr = us ? s->nuregs : 0, sl = us ? s->ustack_len : 0;
	uint32_t rl = raw ? s->raw_len : 0;
	size_t ext = us ? PMK__USTACK_FIXED + 8u * nr + round8(sl) : 0;
	size_t rext = raw ? PMK__RAW_FIXED + round8(rl) : 0;
	uint8_t *p, *x;
	if (s->event >= PMK_REC_MAX_EVENTS || nr > PMK_REC_MAX_UREGS ||
	    sl > PMK_REC_MAX_USTACK || rl > PMK_REC_MAX_RAW)
		return PMK_ERANGE;
	p = reserve(w, PMK_REC_SAMPLE,
		    8 + PMK__SAMPLE_FIXED + 8u * n + ext + rext);
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, s->event);
	pmk__put32(p + 4, s->flags);
	pmk__put64(p + 8, s->ip);
	pmk__put32(p + 16, s->pid);
	pmk__put32(p + 20, s->tid);
	pmk__put64(p + 24, s->time_ns);
	pmk__put64(p + 32, s->period);
	pmk__put32(p + 40, s->cpu);
	pmk__put32(p + 44, n);
	pmk__put64(p + 48, s->addr);
	for (uint32_t i = 0; i < n; i++)
		pmk__put64(p + PMK__SAMPLE_FIXED + 8u * i, s->chain[i]);
	if (us) {
		x = p + PMK__SAMPLE_FIXED + 8u * n;
		pmk__put32(x, s->uarch);
		pmk__put32(x + 4, nr);
		pmk__put32(x + 8, sl);
		for (uint32_t i = 0; i < nr; i++)
			pmk__put64(x + PMK__USTACK_FIXED + 8u * i, s->uregs[i]);
		if (sl)
			memcpy(x + PMK__USTACK_FIXED + 8u * nr, s->ustack, sl);
	}
	if (raw) {
		x = p + PMK__SAMPLE_FIXED + 8u * n + ext;
		pmk__put32(x, rl);
		if (rl)
			memcpy(x + PMK__RAW_FIXED, s->raw, rl);
	}
	w->samples++;
	return 0;
}

int pmk_rec_write_format(pmk_rec_writer *w, uint32_t event, const char *text)
{
	size_t n = strlen(text);
	uint8_t *p;
	if (event >= PMK_REC_MAX_EVENTS ||
	    n + 1 + PMK__FORMAT_FIXED + 8 > PMK__REC_MAX_SIZE)
		return PMK_ERANGE;
	p = reserve(w, PMK_REC_FORMAT, 8 + round8(PMK__FORMAT_FIXED + n + 1));
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, event);
	memcpy(p + PMK__FORMAT_FIXED, text, n);
	return 0;
}

int pmk_rec_write_map(pmk_rec_writer *w, const pmk_rec_map *m)
{
	size_t nl = strnlen(m->path, sizeof m->path - 1);
	uint32_t bl = m->build_id_len > 20 ? 20 : m->build_id_len;
	uint8_t *p =
	    reserve(w, PMK_REC_MAP, 8 + round8(PMK__MAP_FIXED + nl + 1));
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, m->pid);
	pmk__put32(p + 4, m->prot);
	pmk__put64(p + 8, m->start);
	pmk__put64(p + 16, m->len);
	pmk__put64(p + 24, m->pgoff);
	pmk__put64(p + 32, m->dev);
	pmk__put64(p + 40, m->ino);
	pmk__put64(p + 48, m->size);
	pmk__put64(p + 56, m->mtime_ns);
	pmk__put32(p + 64, bl);
	memcpy(p + 68, m->build_id, bl);
	memcpy(p + PMK__MAP_FIXED, m->path, nl);
	return 0;
}

int pmk_rec_write_comm(pmk_rec_writer *w, const pmk_rec_comm *c)
{
	uint8_t *p = reserve(w, PMK_REC_COMM, 8 + PMK__COMM_FIXED);
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, c->pid);
	pmk__put32(p + 4, c->tid);
	pmk__put32(p + 8, c->exec);
	pmk__put64(p + 16, c->time_ns);
	memcpy(p + 24, c->comm, strnlen(c->comm, sizeof c->comm - 1));
	return 0;
}

static int write_task(pmk_rec_writer *w, uint32_t kind, const pmk_rec_task *t)
{
	uint8_t *p = reserve(w, kind, 8 + PMK__TASK_FIXED);
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, t->pid);
	pmk__put32(p + 4, t->tid);
	pmk__put32(p + 8, t->ppid);
	pmk__put32(p + 12, t->ptid);
	pmk__put64(p + 16, t->time_ns);
	return 0;
}

int pmk_rec_write_fork(pmk_rec_writer *w, const pmk_rec_task *t)
{
	return write_task(w, PMK_REC_FORK, t);
}

int pmk_rec_write_exit(pmk_rec_writer *w, const pmk_rec_task *t)
{
	return write_task(w, PMK_REC_EXIT, t);
}

int pmk_rec_write_lost(pmk_rec_writer *w, uint32_t event, uint64_t count)
{
	uint8_t *p = reserve(w, PMK_REC_LOST, 8 + PMK__LOST_FIXED);
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, event);
	pmk__put64(p + 8, count);
	return 0;
}

int pmk_rec_write_finish(pmk_rec_writer *w, const pmk_rec_finish *f)
{
	uint8_t *p = reserve(w, PMK_REC_FINISH, 8 + PMK__FINISH_FIXED);
	if (!p)
		return w->err ? w->err : PMK_ERANGE;
	pmk__put32(p, (uint32_t)f->status);
	pmk__put64(p + 8, f->samples);
	pmk__put64(p + 16, f->lost);
	pmk__put64(p + 24, f->duration_ns);
	return 0;
}
