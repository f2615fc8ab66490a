/*
 * jread.c: reading pmkit-mpi/1 JSON back into a job (job.h).
 *
 * A small JSON parser builds a tree in one array (depth bounded, every
 * string and number checked), then the tree is walked for the fields of
 * the schema. Unknown fields are skipped, so later versions can add some;
 * a field of the wrong type is an error naming it. The text comes from
 * files and from other ranks, so nothing in it is trusted: sizes, ranks
 * and names are bounded before use (tests/fuzz/fuzz_mpijson.c).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "mpi/job.h"
#include "pmkit.h"

enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };
#define MAX_DEPTH 16

struct jnode {
	int type;
	int child, next; /* first child, next sibling: indexes, -1 none */
	const char *key; /* in an object */
	const char *str; /* decoded, NUL-terminated */
	double num;
	unsigned long long u; /* exact when the number is a whole one */
	int is_uint;
};

struct jp {
	const char *s, *end, *base;
	struct jnode *n;
	int nn, cn;
	char *sbuf; /* decoded strings */
	size_t sused, scap;
	char *err;
	unsigned long errsize;
	int failed;
};

static int fail(struct jp *p, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (p->failed)
		return -1;
	p->failed = 1;
	k = snprintf(p->err, p->errsize, "offset %ld: ", (long)(p->s - p->base));
	if (k < 0 || (unsigned long)k >= p->errsize)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + k, p->errsize - (unsigned long)k, fmt, ap);
	va_end(ap);
	return -1;
}

static void ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int node(struct jp *p, int type)
{
	if (p->nn == p->cn) {
		int nc = p->cn ? p->cn * 2 : 64;
		struct jnode *nn = realloc(p->n, sizeof *nn * (size_t)nc);
		if (!nn)
			return fail(p, "out of memory");
		p->n = nn;
		p->cn = nc;
	}
	memset(&p->n[p->nn], 0, sizeof p->n[0]);
	p->n[p->nn].type = type;
	p->n[p->nn].child = p->n[p->nn].next = -1;
	return p->nn++;
}

static void put_utf8(char *o, size_t *k, unsigned cp)
{
	if (cp < 0x80)
		o[(*k)++] = (char)cp;
	else if (cp < 0x800) {
		o[(*k)++] = (char)(0xc0 | cp >> 6);
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		o[(*k)++] = (char)(0xe0 | cp >> 12);
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		o[(*k)++] = (char)(0xf0 | cp >> 18);
		o[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*k)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A string at p->s (the opening quote); returns its offset in sbuf. The
 * buffer holds the whole input's size, and a decoded string is never
 * longer than its encoding, so it never moves. */
static const char *string(struct jp *p)
{
	char *o = p->sbuf + p->sused;
	size_t k = 0;
	p->s++;
	while (p->s < p->end && *p->s != '"') {
		unsigned char c = (unsigned char)*p->s;
		if (c < 0x20) {
			fail(p, "control character in a string");
			return NULL;
		}
		if (c != '\\') {
			o[k++] = (char)c;
			p->s++;
			continue;
		}
		if (p->end - p->s < 2)
			break;
		c = (unsigned char)p->s[1];
		p->s += 2;
		switch (c) {
		case '"': case '\\': case '/': o[k++] = (char)c; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (p->end - p->s < 4 || hex4(p->s, &cp)) {
				fail(p, "bad \\u escape");
				return NULL;
			}
			p->s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && p->end - p->s >= 6 &&
			    p->s[0] == '\\' && p->s[1] == 'u' &&
			    !hex4(p->s + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p->s += 6;
			} else if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			if (cp == 0)
				cp = 0xfffd; /* no NUL inside names */
			put_utf8(o, &k, cp);
			break;
		}
		default:
			fail(p, "bad escape '\\%c'", c >= 0x20 && c < 0x7f ? c : '?');
			return NULL;
		}
	}
	if (p->s >= p->end) {
		fail(p, "unterminated string");
		return NULL;
	}
	p->s++;
	o[k++] = 0;
	p->sused += k;
	return o;
}

static int value(struct jp *p, int depth);

static int number(struct jp *p)
{
	char buf[64];
	size_t k = 0;
	const char *st = p->s;
	int whole = 1, id;
	while (p->s < p->end && k < sizeof buf - 1 &&
	       strchr("+-0123456789.eE", *p->s)) {
		if (*p->s == '.' || *p->s == 'e' || *p->s == 'E' || *p->s == '-')
			whole = 0;
		buf[k++] = *p->s++;
	}
	buf[k] = 0;
	if (k == 0 || k == sizeof buf - 1) {
		p->s = st;
		return fail(p, "bad number");
	}
	{
		char *e;
		double v = strtod(buf, &e);
		if (*e || !isfinite(v)) {
			p->s = st;
			return fail(p, "bad number");
		}
		id = node(p, J_NUM);
		if (id < 0)
			return -1;
		p->n[id].num = v;
		if (whole && buf[0] != '+') {
			errno = 0;
			p->n[id].u = strtoull(buf, &e, 10);
			p->n[id].is_uint = !*e && errno == 0;
		}
	}
	return id;
}

static int literal(struct jp *p, const char *word, int type)
{
	size_t n = strlen(word);
	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return fail(p, "unexpected character");
	p->s += n;
	return node(p, type);
}

static int container(struct jp *p, int depth, int obj)
{
	int id = node(p, obj ? J_OBJ : J_ARR), last = -1;
	if (id < 0)
		return -1;
	if (depth >= MAX_DEPTH)
		return fail(p, "nested deeper than %d", MAX_DEPTH);
	p->s++;
	ws(p);
	if (p->s < p->end && *p->s == (obj ? '}' : ']')) {
		p->s++;
		return id;
	}
	for (;;) {
		const char *key = NULL;
		int v;
		ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return fail(p, "expected a name in quotes");
			key = string(p);
			if (!key)
				return -1;
			ws(p);
			if (p->s >= p->end || *p->s != ':')
				return fail(p, "expected ':'");
			p->s++;
		}
		v = value(p, depth + 1);
		if (v < 0)
			return -1;
		p->n[v].key = key;
		if (last < 0)
			p->n[id].child = v;
		else
			p->n[last].next = v;
		last = v;
		ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == (obj ? '}' : ']')) {
			p->s++;
			return id;
		}
		return fail(p, "expected ',' or '%c'", obj ? '}' : ']');
	}
}

static int value(struct jp *p, int depth)
{
	ws(p);
	if (p->s >= p->end)
		return fail(p, "unexpected end of input");
	switch (*p->s) {
	case '{': return container(p, depth, 1);
	case '[': return container(p, depth, 0);
	case '"': {
		const char *s = string(p);
		int id;
		if (!s)
			return -1;
		id = node(p, J_STR);
		if (id >= 0)
			p->n[id].str = s;
		return id;
	}
	case 't': return literal(p, "true", J_TRUE);
	case 'f': return literal(p, "false", J_FALSE);
	case 'n': return literal(p, "null", J_NULL);
	default:
		if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
			return number(p);
		return fail(p, "unexpected character");
	}
}

/* ---- the schema -------------------------------------------------------- */

static const struct jnode *member(const struct jp *p, const struct jnode *o,
				  const char *key)
{
	if (!o || o->type != J_OBJ)
		return NULL;
	for (int i = o->child; i >= 0; i = p->n[i].next)
		if (!strcmp(p->n[i].key, key))
			return &p->n[i];
	return NULL;
}

static int get_u64(struct jp *p, const struct jnode *o, const char *key,
		   uint64_t *out, int required)
{
	const struct jnode *v = member(p, o, key);
	if (!v) {
		if (required)
			return fail(p, "missing \"%s\"", key);
		return 0;
	}
	if (v->type != J_NUM || !v->is_uint)
		return fail(p, "\"%s\" is not a whole non-negative number", key);
	*out = v->u;
	return 0;
}

static int get_str(struct jp *p, const struct jnode *o, const char *key,
		   char *out, size_t size)
{
	const struct jnode *v = member(p, o, key);
	if (!v)
		return 0;
	if (v->type != J_STR)
		return fail(p, "\"%s\" is not a string", key);
	snprintf(out, size, "%s", v->str);
	return 0;
}

/* An "events" object of a rank or region into ev[], by the job's names. */
static int get_events(struct jp *p, struct pmk__mpi_job *job,
		      const struct jnode *o, double *ev)
{
	const struct jnode *evs = member(p, o, "events");
	for (int e = 0; e < PMK__MPI_MAX_EVENTS; e++)
		ev[e] = NAN;
	if (!evs)
		return 0;
	if (evs->type != J_OBJ)
		return fail(p, "\"events\" of a rank is not an object");
	for (int i = evs->child; i >= 0; i = p->n[i].next) {
		const struct jnode *v = &p->n[i];
		int e = pmk__mpi_job_event(job, v->key, NULL);
		if (e < 0)
			return fail(p, "more than %d events", PMK__MPI_MAX_EVENTS);
		if (v->type == J_NUM)
			ev[e] = v->num;
		else if (v->type != J_NULL)
			return fail(p, "event \"%s\" is not a number", v->key);
	}
	return 0;
}

/* A pair [a, b] or triple [a, b, c] of whole numbers into out[]. */
static int get_tuple(struct jp *p, const struct jnode *a, uint64_t *out,
		     int n, const char *what)
{
	int k = 0;
	if (a->type != J_ARR)
		return fail(p, "%s is not an array", what);
	for (int i = a->child; i >= 0; i = p->n[i].next, k++)
		if (k >= n || p->n[i].type != J_NUM || !p->n[i].is_uint)
			return fail(p, "%s: not %d whole numbers", what, n);
		else
			out[k] = p->n[i].u;
	return k == n ? 0 : fail(p, "%s: not %d whole numbers", what, n);
}

/* A rank's "comm" (mpi/comm.h); absent in older files. */
static int read_comm(struct jp *p, const struct jnode *o,
		     struct pmk__mpi_rank *r, int size)
{
	const struct jnode *c = member(p, o, "comm"), *v;
	struct pmk__mpi_comm *m;
	uint64_t t[3];
	if (!c)
		return 0;
	if (c->type != J_OBJ)
		return fail(p, "\"comm\" is not an object");
	if (!(m = r->comm = pmk__mpi_comm_new()))
		return fail(p, "out of memory");
	v = member(p, c, "to");
	for (int i = v && v->type == J_ARR ? v->child : -1; i >= 0;
	     i = p->n[i].next) {
		struct pmk__mpi_peer *e;
		if (get_tuple(p, &p->n[i], t, 3, "\"comm\".\"to\""))
			return -1;
		if (t[0] >= (uint64_t)size)
			return fail(p, "\"comm\": destination %llu outside "
				       "the job",
				    (unsigned long long)t[0]);
		if (!(e = pmk__mpi_comm_peer(m, (int)t[0])))
			return fail(p, "out of memory");
		e->calls += t[1];
		e->bytes += t[2];
	}
	v = member(p, c, "coll");
	if (v) {
		if (get_tuple(p, v, t, 2, "\"comm\".\"coll\""))
			return -1;
		m->coll_calls = t[0];
		m->coll_bytes = t[1];
	}
	v = member(p, c, "fn");
	for (int i = v && v->type == J_ARR ? v->child : -1; i >= 0;
	     i = p->n[i].next) {
		const struct jnode *g = &p->n[i], *h;
		char name[32] = "";
		struct pmk__mpi_fsize *e;
		if (g->type != J_OBJ || get_str(p, g, "name", name, sizeof name) ||
		    !name[0])
			return fail(p, "\"comm\": a function without a name");
		if (!(e = pmk__mpi_comm_fsize(m, name)))
			return fail(p, "out of memory");
		if (get_u64(p, g, "min_ns", &e->min_ns, 0) ||
		    get_u64(p, g, "max_ns", &e->max_ns, 0))
			return -1;
		h = member(p, g, "hist");
		for (int k = h && h->type == J_ARR ? h->child : -1; k >= 0;
		     k = p->n[k].next) {
			if (get_tuple(p, &p->n[k], t, 2, "\"hist\""))
				return -1;
			if (t[0] >= PMK__MPI_HBUCKETS)
				return fail(p, "\"hist\": bucket %llu",
					    (unsigned long long)t[0]);
			e->hist[t[0]] += t[1];
		}
	}
	v = member(p, c, "sites");
	for (int i = v && v->type == J_ARR ? v->child : -1; i >= 0;
	     i = p->n[i].next) {
		const struct jnode *g = &p->n[i];
		char fn[32] = "", at[160] = "";
		struct pmk__mpi_site *e;
		uint64_t calls = 0, ns = 0;
		if (g->type != J_OBJ || get_str(p, g, "fn", fn, sizeof fn) ||
		    get_str(p, g, "at", at, sizeof at) || !fn[0] ||
		    get_u64(p, g, "calls", &calls, 0) ||
		    get_u64(p, g, "ns", &ns, 0))
			return fail(p, "\"comm\": a call site without a "
				       "function");
		if (!(e = pmk__mpi_comm_site(m, fn, at)))
			return fail(p, "out of memory");
		e->calls += calls;
		e->ns += ns;
	}
	return 0;
}

static int read_rank(struct jp *p, struct pmk__mpi_job *job,
		     const struct jnode *o)
{
	struct pmk__mpi_job one;
	struct pmk__mpi_rank *r;
	const struct jnode *calls, *regs;
	uint64_t rank = 0, pid = 0;
	int rc;
	if (o->type != J_OBJ)
		return fail(p, "a rank is not an object");
	if (get_u64(p, o, "rank", &rank, 1))
		return -1;
	if (rank >= (uint64_t)job->size)
		return fail(p, "rank %llu outside a job of %d",
			    (unsigned long long)rank, job->size);
	/* read into a one-rank job with the same events, then put it */
	if (pmk__mpi_job_init(&one, 1))
		return fail(p, "out of memory");
	one.nev = job->nev;
	memcpy(one.evname, job->evname, sizeof one.evname);
	memcpy(one.evunit, job->evunit, sizeof one.evunit);
	r = &one.ranks[0];
	r->rank = (int)rank;
	r->present = 1;
	rc = get_str(p, o, "host", r->host, sizeof r->host) ||
	     get_u64(p, o, "pid", &pid, 0) ||
	     get_u64(p, o, "wall_ns", &r->wall_ns, 1) ||
	     get_u64(p, o, "mpi_ns", &r->mpi_ns, 1) ||
	     get_u64(p, o, "mpi_err_ns", &r->mpi_err_ns, 0) ||
	     get_u64(p, o, "mpi_ambiguous_ns", &r->mpi_amb_ns, 0) ||
	     get_str(p, o, "end", r->end, sizeof r->end) ||
	     get_events(p, &one, o, r->ev);
	r->pid = (long)(pid & 0x7fffffff);
	if (!rc && r->mpi_ns > r->wall_ns)
		rc = fail(p, "rank %d: \"mpi_ns\" larger than \"wall_ns\"",
			  r->rank);
	calls = member(p, o, "calls");
	if (!rc && calls && calls->type != J_ARR)
		rc = fail(p, "\"calls\" is not an array");
	for (int i = calls && !rc ? calls->child : -1; i >= 0 && !rc;
	     i = p->n[i].next) {
		const struct jnode *c = &p->n[i];
		char name[PMK__MPI_NAME] = "";
		struct pmk__mpi_call *k;
		if (c->type != J_OBJ || get_str(p, c, "name", name, sizeof name) ||
		    !name[0]) {
			rc = fail(p, "a call without a name");
			break;
		}
		k = pmk__mpi_rank_call(r, name);
		if (!k) {
			rc = fail(p, "out of memory");
			break;
		}
		k->timed = UINT64_MAX; /* absent: every call timed */
		rc = get_u64(p, c, "calls", &k->calls, 0) ||
		     get_u64(p, c, "ns", &k->ns, 0) ||
		     get_u64(p, c, "timed", &k->timed, 0) ||
		     get_u64(p, c, "bytes_sent", &k->bytes_sent, 0) ||
		     get_u64(p, c, "bytes_recv", &k->bytes_recv, 0);
		if (!rc && k->timed == UINT64_MAX)
			k->timed = k->calls;
		else if (!rc && k->timed > k->calls)
			rc = fail(p, "rank %d, %s: \"timed\" larger than "
				     "\"calls\"",
				  r->rank, name);
	}
	regs = member(p, o, "regions");
	if (!rc && regs && regs->type != J_ARR)
		rc = fail(p, "\"regions\" is not an array");
	for (int i = regs && !rc ? regs->child : -1; i >= 0 && !rc;
	     i = p->n[i].next) {
		const struct jnode *g = &p->n[i], *open;
		char name[PMK__MPI_NAME] = "", source[16] = "pcontrol";
		struct pmk__mpi_region *k;
		if (g->type != J_OBJ || get_str(p, g, "name", name, sizeof name) ||
		    get_str(p, g, "source", source, sizeof source) || !name[0]) {
			rc = fail(p, "a region without a name");
			break;
		}
		k = pmk__mpi_rank_region(r, name, source);
		if (!k) {
			rc = fail(p, "out of memory");
			break;
		}
		open = member(p, g, "open_at_finalize");
		if (open && open->type == J_TRUE)
			k->flags |= PMK__MPI_REGION_OPEN;
		rc = get_str(p, g, "parent", k->parent, sizeof k->parent) ||
		     get_u64(p, g, "calls", &k->calls, 0) ||
		     get_u64(p, g, "wall_ns", &k->wall_ns, 0) ||
		     get_u64(p, g, "mpi_ns", &k->mpi_ns, 0) ||
		     get_events(p, &one, g, k->ev);
	}
	if (!rc)
		rc = read_comm(p, o, r, job->size);
	if (!rc) {
		rc = pmk__mpi_job_put(job, &one, r);
		if (rc == PMK_EEXIST) {
			fail(p, "rank %d appears twice", r->rank);
			pmk__mpi_job_release(&one);
			return PMK_EEXIST;
		}
		if (rc)
			fail(p, "%s", pmk_strerror(rc));
	}
	pmk__mpi_job_release(&one);
	return rc ? -1 : 0;
}

int pmk__mpi_json_read(struct pmk__mpi_job *job, const char *text,
		       unsigned long len, char *err, unsigned long errsize)
{
	struct jp p = {text, text + len, text, NULL, 0, 0, NULL, 0, 0,
		       err, errsize, 0};
	const struct jnode *root, *v;
	uint64_t size = 0;
	int rc = PMK_EFORMAT, r;
	if (errsize)
		err[0] = 0;
	p.sbuf = malloc(len + 1);
	if (!p.sbuf)
		return PMK_ENOMEM;
	r = value(&p, 0);
	ws(&p);
	if (r >= 0 && p.s != p.end)
		r = fail(&p, "text after the end of the JSON value");
	if (r < 0)
		goto out;
	root = &p.n[r];
	v = member(&p, root, "schema");
	if (!v || v->type != J_STR || strncmp(v->str, "pmkit-mpi/", 10)) {
		fail(&p, "not a pmkit-mpi file (no \"schema\":\"pmkit-mpi/1\")");
		goto out;
	}
	if (strcmp(v->str, "pmkit-mpi/1")) {
		fail(&p, "schema '%s' is newer than this pmkit reads", v->str);
		rc = PMK_EVERSION;
		goto out;
	}
	if (get_u64(&p, root, "size", &size, 1))
		goto out;
	if (size < 1 || size > PMK__MPI_MAX_RANKS) {
		fail(&p, "\"size\" %llu out of range (1 to %d)",
		     (unsigned long long)size, PMK__MPI_MAX_RANKS);
		goto out;
	}
	if (!job->ranks) {
		rc = pmk__mpi_job_init(job, (int)size);
		if (rc)
			goto out;
		rc = PMK_EFORMAT;
	} else if ((uint64_t)job->size != size) {
		fail(&p, "a job of %llu ranks, not %d like the others",
		     (unsigned long long)size, job->size);
		goto out;
	}
	if (!job->command[0] &&
	    get_str(&p, root, "command", job->command, sizeof job->command))
		goto out;
	v = member(&p, root, "events");
	if (v && v->type == J_ARR)
		for (int i = v->child; i >= 0; i = p.n[i].next) {
			char name[PMK__MPI_NAME] = "", unit[16] = "";
			if (get_str(&p, &p.n[i], "name", name, sizeof name) ||
			    get_str(&p, &p.n[i], "unit", unit, sizeof unit))
				goto out;
			if (name[0] && pmk__mpi_job_event(job, name, unit) < 0) {
				fail(&p, "more than %d events", PMK__MPI_MAX_EVENTS);
				goto out;
			}
		}
	v = member(&p, root, "ranks");
	if (!v || v->type != J_ARR) {
		fail(&p, "missing \"ranks\" array");
		goto out;
	}
	for (int i = v->child; i >= 0; i = p.n[i].next) {
		int k = read_rank(&p, job, &p.n[i]);
		if (k == PMK_EEXIST) {
			rc = PMK_EEXIST;
			goto out;
		}
		if (k)
			goto out;
	}
	rc = 0;
out:
	free(p.n);
	free(p.sbuf);
	return rc;
}
