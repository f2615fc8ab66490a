/*
 * trace.c: pmkit's instruction trace format (docs/trace-format.md), read and
 * written as a stream. The reader never trusts a byte: every count, length
 * and varint is checked before use, so a malformed file gives PMK_EFORMAT
 * with the byte offset, never a crash.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/core/infile.h"
#include "lib/core/outfile.h"
#include "sim/trace/trace_int.h"

static const char *op_names[PMK_SIM_OP_COUNT] = {
    "other", "int",   "imul", "fadd", "fdiv", "load",
    "store", "bcond", "jump", "jind", "call", "ret"};

const char *pmk_sim_op_name(int op)
{
	return op >= 0 && op < PMK_SIM_OP_COUNT ? op_names[op] : "?";
}

int pmk_sim_op_is_branch(int op)
{
	return op >= PMK_SIM_OP_BCOND && op <= PMK_SIM_OP_RET;
}

int pmk__trace_fail(pmk_trace_reader *r, int code, const char *fmt, ...)
{
	va_list ap;
	r->diag.code = code;
	va_start(ap, fmt);
	vsnprintf(r->diag.message, sizeof r->diag.message, fmt, ap);
	va_end(ap);
	return code;
}

/* ---------------------------------------------------------------- input */

size_t pmk__trace_fill(pmk_trace_reader *r, size_t want)
{
	if (r->mem)
		return r->len - r->pos;
	if (r->len - r->pos >= want || r->eof)
		return r->len - r->pos;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < want && !r->eof) {
		size_t n = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
		if (n == 0) {
			/* a read error is not the end of the trace */
			if (ferror(r->f) && r->diag.code == 0)
				pmk__trace_fail(r, PMK_EIO, "cannot read: %s",
						strerror(errno));
			r->eof = 1;
		}
		r->len += n;
	}
	return r->len - r->pos;
}

const uint8_t *pmk__trace_ptr(pmk_trace_reader *r)
{
	return (r->mem ? r->mem : r->buf) + r->pos;
}

static int reader_start(pmk_trace_reader *r, int kind, pmk_diag *d)
{
	size_t n = pmk__trace_fill(r, PMK__TRACE_HDR);
	const uint8_t *p = pmk__trace_ptr(r);
	int is_pmkit = n >= 8 && !memcmp(p, PMK__TRACE_MAGIC, 8);
	if (kind == PMK_TRACE_AUTO)
		kind = is_pmkit ? PMK_TRACE_PMKIT : -1;
	if (kind == PMK_TRACE_PMKIT) {
		unsigned ver;
		if (!is_pmkit || n < PMK__TRACE_HDR) {
			pmk__trace_fail(
			    r, PMK_EFORMAT,
			    "not a pmkit trace (no PMKTRACE header)");
			goto fail;
		}
		ver = p[8] | (unsigned)p[9] << 8;
		if (ver != PMK_TRACE_VERSION) {
			pmk__trace_fail(r, PMK_EVERSION,
					"trace format version %u, this pmkit "
					"reads version %d",
					ver, PMK_TRACE_VERSION);
			goto fail;
		}
		r->pos += PMK__TRACE_HDR;
		r->offset = PMK__TRACE_HDR;
	} else if (kind == PMK_TRACE_CHAMPSIM) {
		/* no header; records are validated one by one */
	} else {
		pmk__trace_fail(r, PMK_EFORMAT,
				"unknown trace format (no PMKTRACE header)");
		snprintf(r->diag.hint, sizeof r->diag.hint,
			 "ChampSim traces need --champsim (decompress "
			 ".xz files first)");
		goto fail;
	}
	r->kind = kind;
	return 0;
fail:
	if (d)
		*d = r->diag;
	return r->diag.code;
}

int pmk_trace_open(pmk_trace_reader **out, const char *path, int kind,
		   pmk_diag *d)
{
	pmk_trace_reader *r = calloc(1, sizeof *r);
	int rc;
	*out = NULL;
	if (!r)
		return PMK_ENOMEM;
	snprintf(r->diag.file, sizeof r->diag.file, "%s", path);
	if (!strcmp(path, "-")) {
		r->f = stdin;
	} else {
		/* a regular file or a FIFO (traces stream); never a
		 * directory or a device */
		int fd = pmk__infile_open(path, PMK__IN_STREAM, d);
		if (fd < 0) {
			free(r);
			return fd;
		}
		r->f = fdopen(fd, "rb");
		r->own_f = 1;
		if (!r->f) {
			close(fd);
			free(r);
			return PMK_ENOMEM;
		}
	}
	r->cap = 1 << 16;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		pmk_trace_close(r);
		return PMK_ENOMEM;
	}
	rc = reader_start(r, kind, d);
	if (rc < 0) {
		pmk_trace_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int pmk_trace_open_mem(pmk_trace_reader **out, const void *buf, uint64_t size,
		       int kind, pmk_diag *d)
{
	pmk_trace_reader *r = calloc(1, sizeof *r);
	int rc;
	*out = NULL;
	if (!r)
		return PMK_ENOMEM;
	r->mem = buf ? buf : (const uint8_t *)"";
	r->mem_size = size;
	r->len = size;
	snprintf(r->diag.file, sizeof r->diag.file, "<memory>");
	rc = reader_start(r, kind, d);
	if (rc < 0) {
		pmk_trace_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

void pmk_trace_close(pmk_trace_reader *r)
{
	if (!r)
		return;
	if (r->own_f && r->f)
		fclose(r->f);
	free(r->buf);
	free(r);
}

const pmk_diag *pmk_trace_diag(const pmk_trace_reader *r)
{
	return &r->diag;
}

uint64_t pmk_trace_count(const pmk_trace_reader *r)
{
	return r->count;
}

int pmk_trace_next(void *reader, pmk_sim_insn *out)
{
	return pmk_trace_read(reader, out);
}

/* Varints: 7 bits a byte, low first, at most 10 bytes. */
static int get_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	uint64_t x = 0;
	for (int k = 0; k < 10; k++) {
		uint8_t b;
		if (*i >= n)
			return -1;
		b = p[(*i)++];
		if (k == 9 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

static int64_t unzig(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static int read_pmkit(pmk_trace_reader *r, pmk_sim_insn *o)
{
	size_t n = pmk__trace_fill(r, PMK__TRACE_REC_MAX), i = 0;
	const uint8_t *p = pmk__trace_ptr(r);
	uint64_t v;
	uint8_t b0, b1, b2;
	if (n == 0)
		return 0;
	memset(o, 0, sizeof *o);
#define NEED(k)                                                                \
	do {                                                                   \
		if (i + (k) > n)                                               \
			goto trunc;                                            \
	} while (0)
	NEED(1);
	b0 = p[i++];
	if (b0 & 0x80)
		goto bad;
	o->op = b0 & 15;
	if (o->op >= PMK_SIM_OP_COUNT)
		goto bad;
	o->taken = (b0 >> 4) & 1;
	o->kernel = (b0 >> 5) & 1;
	if (b0 & 0x40) {
		o->pc = r->next_pc;
	} else {
		if (get_varint(p, n, &i, &v))
			goto varint;
		o->pc = r->next_pc + (uint64_t)unzig(v);
	}
	NEED(2);
	b1 = p[i++];
	b2 = p[i++];
	o->len = b1 & 15;
	o->nmem = (b1 >> 4) & 3;
	o->nsrc = b2 & 7;
	o->ndst = (b2 >> 3) & 3;
	if (!o->len || (b1 & 0xc0) || (b2 & 0xe0) ||
	    o->nmem > PMK_SIM_MAX_MEM || o->nsrc > PMK_SIM_MAX_SRC ||
	    o->ndst > PMK_SIM_MAX_DST)
		goto bad;
	NEED((size_t)o->nsrc + o->ndst);
	for (int k = 0; k < o->nsrc; k++)
		if (!(o->src[k] = p[i++]))
			goto bad;
	for (int k = 0; k < o->ndst; k++)
		if (!(o->dst[k] = p[i++]))
			goto bad;
	for (int k = 0; k < o->nmem; k++) {
		NEED(1);
		b1 = p[i++];
		o->mem[k].size = (b1 & 0x7f) + 1;
		o->mem[k].store = b1 >> 7;
		if (get_varint(p, n, &i, &v))
			goto varint;
		o->mem[k].addr = r->last_addr + (uint64_t)unzig(v);
		r->last_addr = o->mem[k].addr;
	}
	if (pmk_sim_op_is_branch(o->op)) {
		if (get_varint(p, n, &i, &v))
			goto varint;
		o->target = o->pc + (uint64_t)unzig(v);
	} else if (o->taken) {
		goto bad;
	}
#undef NEED
	r->next_pc = o->pc + o->len;
	r->pos += i;
	r->offset += i;
	r->count++;
	return 1;
trunc:
	return pmk__trace_fail(
	    r, PMK_EFORMAT, "truncated record %llu at byte %llu",
	    (unsigned long long)r->count, (unsigned long long)r->offset);
varint:
	if (i >= n)
		goto trunc;
	return pmk__trace_fail(
	    r, PMK_EFORMAT, "bad number in record %llu at byte %llu",
	    (unsigned long long)r->count, (unsigned long long)(r->offset + i));
bad:
	return pmk__trace_fail(
	    r, PMK_EFORMAT, "malformed record %llu at byte %llu",
	    (unsigned long long)r->count, (unsigned long long)r->offset);
}

int pmk_trace_read(pmk_trace_reader *r, pmk_sim_insn *out)
{
	if (r->diag.code < 0)
		return r->diag.code;
	if (r->kind == PMK_TRACE_CHAMPSIM)
		return pmk__champsim_read(r, out);
	return read_pmkit(r, out);
}

/* --------------------------------------------------------------- output */

struct pmk_trace_writer {
	FILE *f;
	int own_f, err;
	uint64_t nrec; /* records written: none, and an existing file stays */
	uint8_t *buf;
	size_t len, cap;
	int mem;
	uint64_t next_pc, last_addr;
};

static int w_reserve(pmk_trace_writer *w, size_t k)
{
	if (w->len + k <= w->cap)
		return 0;
	if (!w->mem) {
		if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
			w->err = 1;
		w->len = 0;
		return 0;
	}
	size_t nc = w->cap ? w->cap * 2 : 4096;
	while (nc < w->len + k)
		nc *= 2;
	uint8_t *nb = realloc(w->buf, nc);
	if (!nb)
		return PMK_ENOMEM;
	w->buf = nb;
	w->cap = nc;
	return 0;
}

static int writer_init(pmk_trace_writer *w)
{
	w->cap = w->mem ? 4096 : 1 << 16;
	w->buf = malloc(w->cap);
	if (!w->buf)
		return PMK_ENOMEM;
	memcpy(w->buf, PMK__TRACE_MAGIC, 8);
	memset(w->buf + 8, 0, 8);
	w->buf[8] = PMK_TRACE_VERSION & 0xff;
	w->buf[9] = PMK_TRACE_VERSION >> 8;
	w->len = PMK__TRACE_HDR;
	return 0;
}

int pmk_trace_create(pmk_trace_writer **out, const char *path, pmk_diag *d)
{
	pmk_trace_writer *w = calloc(1, sizeof *w);
	*out = NULL;
	if (!w)
		return PMK_ENOMEM;
	if (!strcmp(path, "-")) {
		w->f = stdout;
	} else {
		/* a new file beside `path`, renamed into place by
		 * pmk_trace_finish (lib/core/outfile.h) */
		w->f = pmk__out_fopen(path, PMK__OUT_SYNC, d);
		w->own_f = 1;
		if (!w->f) {
			free(w);
			return d && d->code < 0 ? d->code : PMK_EIO;
		}
	}
	if (writer_init(w) < 0) {
		pmk_trace_finish(w);
		return PMK_ENOMEM;
	}
	*out = w;
	return 0;
}

int pmk_trace_create_mem(pmk_trace_writer **out)
{
	pmk_trace_writer *w = calloc(1, sizeof *w);
	*out = NULL;
	if (!w)
		return PMK_ENOMEM;
	w->mem = 1;
	if (writer_init(w) < 0) {
		free(w);
		return PMK_ENOMEM;
	}
	*out = w;
	return 0;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t i = 0;
	while (v >= 0x80) {
		p[i++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[i++] = (uint8_t)v;
	return i;
}

static uint64_t zig(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

int pmk_trace_write(pmk_trace_writer *w, const pmk_sim_insn *in)
{
	uint8_t *p;
	size_t i = 0;
	int seq = in->pc == w->next_pc;
	if (in->op >= PMK_SIM_OP_COUNT || !in->len || in->len > 15 ||
	    in->nsrc > PMK_SIM_MAX_SRC || in->ndst > PMK_SIM_MAX_DST ||
	    in->nmem > PMK_SIM_MAX_MEM || in->taken > 1 || in->kernel > 1 ||
	    (in->taken && !pmk_sim_op_is_branch(in->op)))
		return PMK_EINVAL;
	for (int k = 0; k < in->nsrc; k++)
		if (!in->src[k])
			return PMK_EINVAL;
	for (int k = 0; k < in->ndst; k++)
		if (!in->dst[k])
			return PMK_EINVAL;
	for (int k = 0; k < in->nmem; k++)
		if (!in->mem[k].size || in->mem[k].size > 128 ||
		    in->mem[k].store > 1)
			return PMK_EINVAL;
	if (w_reserve(w, PMK__TRACE_REC_MAX) < 0)
		return PMK_ENOMEM;
	p = w->buf + w->len;
	p[i++] =
	    (uint8_t)(in->op | in->taken << 4 | in->kernel << 5 | seq << 6);
	if (!seq)
		i += put_varint(p + i, zig((int64_t)(in->pc - w->next_pc)));
	p[i++] = (uint8_t)(in->len | in->nmem << 4);
	p[i++] = (uint8_t)(in->nsrc | in->ndst << 3);
	for (int k = 0; k < in->nsrc; k++)
		p[i++] = in->src[k];
	for (int k = 0; k < in->ndst; k++)
		p[i++] = in->dst[k];
	for (int k = 0; k < in->nmem; k++) {
		p[i++] =
		    (uint8_t)((in->mem[k].size - 1) | in->mem[k].store << 7);
		i += put_varint(p + i,
				zig((int64_t)(in->mem[k].addr - w->last_addr)));
		w->last_addr = in->mem[k].addr;
	}
	if (pmk_sim_op_is_branch(in->op))
		i += put_varint(p + i, zig((int64_t)(in->target - in->pc)));
	w->len += i;
	w->next_pc = in->pc + in->len;
	w->nrec++;
	return 0;
}

const void *pmk_trace_writer_buffer(const pmk_trace_writer *w, uint64_t *size)
{
	*size = w->len;
	return w->buf;
}

int pmk_trace_finish(pmk_trace_writer *w)
{
	int rc = 0;
	if (!w)
		return 0;
	if (w->f) {
		if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
			w->err = 1;
		if (fflush(w->f))
			w->err = 1;
		if (w->own_f &&
		    pmk__out_fclose(w->f, !w->err && w->nrec > 0, NULL) &&
		    w->nrec > 0)
			w->err = 1;
	}
	rc = w->err ? PMK_EIO : 0;
	free(w->buf);
	free(w);
	return rc;
}
