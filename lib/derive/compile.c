/*
 * compile.c: from token lists to programs.
 *
 * Each definition of the file's active sections is compiled once, depth
 * first: a name is a constant of the file (its value), another user event
 * of the file (its program inlined; meeting a definition still being
 * compiled is a cycle), or a base event (asked of the resolver once per
 * distinct name). Constant operands are folded as the program is built, so
 * a division by a constant zero is found here, at its column; divisions by
 * counted zeros give NaN at evaluation. Names are found through hash
 * tables so that large metric libraries load in milliseconds.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/derive/defs.h"
#include "lib/event/eval.h"

#define PROG_MAX  4096 /* steps of one definition after inlining */
#define STACK_MAX 256  /* evaluation stack depth */
#define NEST_MAX  256  /* definitions inlined within each other */
/* Inlining copies a definition into every one that names it: a chain of
 * definitions each naming the one before grows as the square of the file
 * (0.93 MB took 2.6 GB). The steps of all programs together are held to
 * PROG_PER_BYTE per byte of text (plus PROG_MAX x 16 for small files);
 * shipped metric files load with one per byte. */
#define PROG_PER_BYTE 2

/* ---- a small string -> index hash table ---- */

struct htab {
	int *slot; /* index + 1, 0 = empty */
	unsigned mask;
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int ht_init(struct htab *h, int n)
{
	unsigned sz = 16;
	while (sz < (unsigned)n * 2 + 1)
		sz *= 2;
	h->slot = calloc(sz, sizeof *h->slot);
	h->mask = sz - 1;
	return h->slot ? 0 : PMK_ENOMEM;
}

/* Find `name`; `get(i)` gives entry i's name. Returns the slot index. */
static unsigned ht_probe(const struct htab *h, const char *name,
			 const char *(*get)(const void *, int), const void *ctx)
{
	unsigned i = hash(name) & h->mask;
	while (h->slot[i] && strcmp(get(ctx, h->slot[i] - 1), name) != 0)
		i = (i + 1) & h->mask;
	return i;
}

struct cc {
	pmk_defs *defs;
	pmk_diag *d;
	struct htab names; /* active definitions */
	struct htab bases; /* base events seen */
	pmk_defs_resolver resolve;
	void *arg;
	int nest;
};

static const char *def_name(const void *ctx, int i)
{
	return ((const pmk_defs *)ctx)->defs[i].name;
}
static const char *base_name(const void *ctx, int i)
{
	return ((const pmk_defs *)ctx)->bases[i].name;
}

static int tok_error(struct cc *c, const struct ddef *x, const struct dtok *t,
		     int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int tok_error(struct cc *c, const struct ddef *x, const struct dtok *t,
		     int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pmk__defs_error(c->d, code, c->defs, t->file, t->line, x->input, t->col,
			t->len, "%s", msg);
	return code;
}

/* ---- building programs ---- */

struct prog {
	struct dop *op;
	int n, cap;
};

static int emit(struct prog *p, int code, int arg, double value)
{
	if (p->n == p->cap) {
		int nc = p->cap ? p->cap * 2 : 16;
		struct dop *no;
		if (nc > PROG_MAX + 2)
			nc = PROG_MAX + 2;
		if (p->n >= nc)
			return PMK_ERANGE;
		no = realloc(p->op, sizeof *no * (size_t)nc);
		if (!no)
			return PMK_ENOMEM;
		p->op = no;
		p->cap = nc;
	}
	p->op[p->n].code = code;
	p->op[p->n].arg = arg;
	p->op[p->n].value = value;
	p->n++;
	return 0;
}

/* Where the operand that ends just before step `end` starts. */
static int operand_start(const struct dop *o, int end)
{
	int need = 1, k = end;
	while (need > 0 && k > 0) {
		k--;
		need += pmk__op_pops(o[k].code) - 1;
	}
	return need > 0 ? -1 : k;
}

/* Emit an operator, folding constant operands: an operation of constants
 * becomes its value, and `a if c else b` with a constant c becomes the
 * branch c picks, so the events of the other branch are not counted (as
 * perf drops them). Returns 1 for a division by a constant zero (nothing
 * emitted). */
static int emit_op(struct prog *p, int code)
{
	struct dop *o = p->op;
	int n = p->n, pops = pmk__op_pops(code), all_const = 1;
	if (code == PMK_OP_DIV && n >= 1 && o[n - 1].code == PMK_OP_CONST &&
	    o[n - 1].value == 0)
		return 1;
	if (pops < 1 || n < pops)
		return emit(p, code, 0, 0);
	for (int k = 1; k <= pops; k++)
		all_const &= o[n - k].code == PMK_OP_CONST;
	if (all_const) {
		double x[3];
		for (int k = 0; k < pops; k++)
			x[k] = o[n - pops + k].value;
		o[n - pops].value = pmk__op_value(code, x);
		p->n -= pops - 1;
		return 0;
	}
	if (code == PMK_OP_SELECT) {
		int bs = operand_start(o, n),
		    cs = bs > 0 ? operand_start(o, bs) : -1;
		int as = cs > 0 ? operand_start(o, cs) : -1;
		if (as >= 0 && cs == bs - 1 && o[cs].code == PMK_OP_CONST &&
		    !isnan(o[cs].value)) {
			if (o[cs].value != 0) { /* a: drop c and b */
				p->n = cs;
			} else { /* b: move it over a and c */
				memmove(&o[as], &o[bs],
					sizeof *o * (size_t)(n - bs));
				p->n = as + (n - bs);
			}
			return 0;
		}
	}
	return emit(p, code, 0, 0);
}

/* After folding, x's bases are those its program still reads, in
 * first-use order (a branch dropped by a constant condition drops its
 * events). */
static int keep_used_bases(struct ddef *x, struct prog *p)
{
	int *nb, n = 0;
	if (!x->nbases)
		return 0;
	nb = malloc(sizeof *nb * (size_t)x->nbases);
	if (!nb)
		return PMK_ENOMEM;
	int *map = malloc(sizeof *map * (size_t)x->nbases);
	if (!map) {
		free(nb);
		return PMK_ENOMEM;
	}
	for (int k = 0; k < x->nbases; k++)
		map[k] = -1;
	for (int k = 0; k < p->n; k++) {
		struct dop *o = &p->op[k];
		if (o->code != PMK_OP_LEAF)
			continue;
		if (map[o->arg] < 0) {
			map[o->arg] = n;
			nb[n++] = x->bases[o->arg];
		}
		o->arg = map[o->arg];
	}
	free(map);
	free(x->bases);
	x->bases = nb;
	x->nbases = n;
	return 0;
}

/* Index of global base `g` among x's bases, added when new. */
static int local_base(struct ddef *x, int g)
{
	int *nb;
	for (int k = 0; k < x->nbases; k++)
		if (x->bases[k] == g)
			return k;
	nb = realloc(x->bases, sizeof *nb * (size_t)(x->nbases + 1));
	if (!nb)
		return PMK_ENOMEM;
	x->bases = nb;
	nb[x->nbases] = g;
	return x->nbases++;
}

/* The global index of base event `name`, resolving it the first time. */
static int get_base(struct cc *c, const struct ddef *x, const struct dtok *t)
{
	pmk_defs *defs = c->defs;
	unsigned s = ht_probe(&c->bases, t->name, base_name, defs);
	struct dbase *b;
	pmk_diag rd;
	int rc;

	if (c->bases.slot[s])
		return c->bases.slot[s] - 1;
	if (defs->nbases == defs->capbases) {
		int nc = defs->capbases ? defs->capbases * 2 : 16;
		struct dbase *nb =
		    realloc(defs->bases, sizeof *nb * (size_t)nc);
		if (!nb)
			return PMK_ENOMEM;
		defs->bases = nb;
		defs->capbases = nc;
	}
	if ((unsigned)defs->nbases * 2 + 2 > c->bases.mask) {
		/* Grow the table: rebuild from the base list. */
		struct htab nh;
		if (ht_init(&nh, defs->nbases * 2 + 2))
			return PMK_ENOMEM;
		free(c->bases.slot);
		c->bases = nh;
		for (int i = 0; i < defs->nbases; i++)
			c->bases.slot[ht_probe(&c->bases, defs->bases[i].name,
					       base_name, defs)] = i + 1;
		s = ht_probe(&c->bases, t->name, base_name, defs);
	}
	b = &defs->bases[defs->nbases];
	memset(b, 0, sizeof *b);
	pmk_diag_clear(&rd);
	if (defs->opts.symbolic || !c->resolve)
		rc = 1;
	else
		rc = c->resolve(t->name, &b->ev, &rd, c->arg);
	if (rc < 0 && rc != PMK_ENOTSUP) {
		int n = tok_error(c, x, t, PMK_ENOEVENT, "unknown event '%s'",
				  t->name);
		if (c->d) {
			/* Say why, and what was meant when we can guess. */
			for (int i = 0; i < defs->ndefs; i++)
				if (!strcasecmp(defs->defs[i].name, t->name)) {
					snprintf(c->d->hint, sizeof c->d->hint,
						 defs->defs[i].active
						     ? "did you mean '%s' "
						       "(line %d)?"
						     : "'%s' (line %d) is "
						       "defined for "
						       "another CPU only",
						 defs->defs[i].name,
						 defs->defs[i].line);
					break;
				}
			if (!c->d->hint[0] && rd.message[0])
				snprintf(c->d->hint, sizeof c->d->hint,
					 "the event parser says: %.200s",
					 rd.message);
			if (!c->d->hint[0])
				snprintf(c->d->hint, sizeof c->d->hint,
					 "not a constant, a definition of this "
					 "file or an event; `pmkit list` shows "
					 "the events");
		}
		return n;
	}
	b->rc = rc;
	b->name = strdup(t->name);
	if (!b->name)
		return PMK_ENOMEM;
	c->bases.slot[s] = defs->nbases + 1;
	return defs->nbases++;
}

static int compile_def(struct cc *c, struct ddef *x)
{
	struct prog p = {0};
	int rc = 0, depth = 0, maxdepth = 0;

	if (x->state == 2)
		return 0;
	x->state = 1;
	if (++c->nest > NEST_MAX) {
		pmk__defs_error(c->d, PMK_ERANGE, c->defs, x->file, x->line,
				x->input, x->col, (int)strlen(x->name),
				"definitions nested more than %d deep",
				NEST_MAX);
		return PMK_ERANGE;
	}
	for (int i = 0; i < x->ntok && rc == 0; i++) {
		const struct dtok *t = &x->toks[i];
		if (t->kind == TOK_NUM) {
			rc = emit(&p, PMK_OP_CONST, 0, t->num);
			depth++;
		} else if (t->kind == TOK_OP) {
			rc = emit_op(&p, t->op);
			if (rc == 1)
				rc = tok_error(c, x, t, PMK_ERANGE,
					       "division by zero: the "
					       "divisor is a constant 0");
			depth -= pmk__op_pops(t->op) - 1;
		} else {
			unsigned s =
			    ht_probe(&c->names, t->name, def_name, c->defs);
			struct ddef *y =
			    c->names.slot[s]
				? &c->defs->defs[c->names.slot[s] - 1]
				: NULL;
			if (y == x || (y && y->state == 1)) {
				rc = tok_error(c, x, t, PMK_ECYCLE,
					       "cycle: '%s' depends on itself",
					       t->name);
				if (c->d && y != x)
					snprintf(c->d->hint, sizeof c->d->hint,
						 "'%s' (line %d) is being "
						 "defined in terms of this "
						 "line",
						 y->name, y->line);
				break;
			}
			if (y) {
				rc = compile_def(c, y);
				if (rc)
					break;
			}
			if (y && y->is_const) {
				rc = emit(&p, PMK_OP_CONST, 0, y->value);
			} else if (x->is_const) {
				rc = tok_error(c, x, t, PMK_ESYNTAX,
					       y ? "'%s' is an event; a "
						   "constant may use numbers "
						   "and constants only"
						 : "unknown constant '%s'",
					       t->name);
			} else if (y) {
				for (int k = 0; k < y->nprog && rc == 0; k++) {
					struct dop o = y->prog[k];
					if (o.code == PMK_OP_LEAF) {
						int l = local_base(
						    x, y->bases[o.arg]);
						if (l < 0)
							rc = l;
						else
							rc = emit(&p, o.code, l,
								  0);
					} else if (o.code == PMK_OP_CONST) {
						rc = emit(&p, o.code, 0,
							  o.value);
					} else {
						rc = emit_op(&p, o.code);
						if (rc == 1)
							rc = tok_error(
							    c, x, t, PMK_ERANGE,
							    "division by "
							    "zero in '%s'",
							    t->name);
					}
				}
			} else {
				int g = get_base(c, x, t);
				int l = g < 0 ? g : local_base(x, g);
				rc = l < 0 ? l : emit(&p, PMK_OP_LEAF, l, 0);
			}
			depth++;
		}
		if (depth > maxdepth)
			maxdepth = depth;
		if (rc == PMK_ERANGE && c->d && !c->d->message[0])
			pmk__defs_error(c->d, rc, c->defs, x->file, x->line,
					x->input, x->col, (int)strlen(x->name),
					"'%s' expands to more than %d steps",
					x->name, PROG_MAX);
	}
	/* The real depth, inlined programs included. */
	depth = maxdepth = 0;
	for (int k = 0; rc == 0 && k < p.n; k++) {
		int c2 = p.op[k].code;
		depth += 1 - pmk__op_pops(c2);
		if (depth > maxdepth)
			maxdepth = depth;
	}
	if (rc == 0 && maxdepth > STACK_MAX) {
		pmk__defs_error(c->d, PMK_ERANGE, c->defs, x->file, x->line,
				x->input, x->col, (int)strlen(x->name),
				"'%s' needs a stack deeper than %d", x->name,
				STACK_MAX);
		rc = PMK_ERANGE;
	}
	if (rc == 0)
		rc = keep_used_bases(x, &p);
	if (rc == 0 && x->is_const) {
		/* Only numbers and constants: folded to one value. */
		x->value = p.n == 1 ? p.op[0].value : 0;
	}
	if (rc == 0) {
		size_t budget =
		    (size_t)PROG_MAX * 16 + c->defs->text_bytes * PROG_PER_BYTE;
		c->defs->total_steps += (size_t)p.n + (size_t)x->nbases;
		if (c->defs->total_steps > budget) {
			pmk__defs_error(
			    c->d, PMK_ERANGE, c->defs, x->file, x->line,
			    x->input, x->col, (int)strlen(x->name),
			    "the definitions expand to more than %zu steps in "
			    "all (%d per byte of the file): '%s' is where the "
			    "limit was reached",
			    budget, PROG_PER_BYTE, x->name);
			rc = PMK_ERANGE;
		}
	}
	if (rc == 0 && p.n > 0 && p.n < p.cap) { /* no spare capacity kept */
		struct dop *sh = realloc(p.op, sizeof *sh * (size_t)p.n);
		if (sh)
			p.op = sh;
	}
	c->nest--;
	x->prog = p.op;
	x->nprog = p.n;
	x->state = rc ? x->state : 2;
	return rc;
}

int pmk__defs_compile(pmk_defs *defs, pmk_diag *d)
{
	struct cc c = {.defs = defs, .d = d};
	int rc = 0, nev = 0;

	if (defs->opts.resolve) {
		c.resolve = defs->opts.resolve;
		c.arg = defs->opts.arg;
	}
	if (ht_init(&c.names, defs->ndefs) || ht_init(&c.bases, 64)) {
		free(c.names.slot);
		return PMK_ENOMEM;
	}
	/* Names: one active definition each. */
	for (int i = 0; i < defs->ndefs && rc == 0; i++) {
		struct ddef *x = &defs->defs[i];
		unsigned s;
		if (!x->active)
			continue;
		s = ht_probe(&c.names, x->name, def_name, defs);
		if (c.names.slot[s]) {
			const struct ddef *y = &defs->defs[c.names.slot[s] - 1];
			pmk__defs_error(d, PMK_EEXIST, defs, x->file, x->line,
					x->input, x->col, (int)strlen(x->name),
					"'%s' is already defined at %s:%d",
					x->name, defs->files[y->file], y->line);
			rc = PMK_EEXIST;
			break;
		}
		c.names.slot[s] = i + 1;
		if (!x->is_const)
			nev++;
	}
	/* A user event may not take the name of an existing event. */
	for (int i = 0; i < defs->ndefs && rc == 0 && c.resolve; i++) {
		struct ddef *x = &defs->defs[i];
		pmk_event ev;
		pmk_diag rd;
		if (!x->active || defs->opts.symbolic)
			continue;
		int taken;
		if (c.resolve == pmk__defs_default_resolve)
			taken = pmk__defs_default_is_event(x->name, c.arg);
		else
			taken = c.resolve(x->name, &ev, &rd, c.arg) == 0 &&
				ev.kind != PMK_KIND_USER;
		if (taken) {
			pmk__defs_error(d, PMK_EEXIST, defs, x->file, x->line,
					x->input, x->col, (int)strlen(x->name),
					"'%s' is already the name of an event",
					x->name);
			if (d)
				snprintf(d->hint, sizeof d->hint,
					 "choose another name");
			rc = PMK_EEXIST;
		}
	}
	if (rc == 0) {
		defs->events = malloc(sizeof *defs->events * (size_t)(nev + 1));
		if (!defs->events)
			rc = PMK_ENOMEM;
	}
	for (int i = 0; i < defs->ndefs && rc == 0; i++) {
		struct ddef *x = &defs->defs[i];
		if (!x->active)
			continue;
		rc = compile_def(&c, x);
		if (rc == 0 && !x->is_const)
			defs->events[defs->nevents++] = i;
	}
	free(c.names.slot);
	free(c.bases.slot);
	return rc;
}
