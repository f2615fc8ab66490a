/*
 * defs.c: the pmk_defs object: parsing a file or text, the accessors, and
 * symbolic evaluation. See pmkit/derive.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/derive/defs.h"
#include "lib/event/eval.h"

void pmk_defs_free(pmk_defs *defs)
{
	if (!defs)
		return;
	for (int i = 0; i < defs->ndefs; i++) {
		struct ddef *x = &defs->defs[i];
		for (int k = 0; k < x->ntok; k++)
			free(x->toks[k].name);
		free(x->toks);
		free(x->name);
		free(x->text);
		free(x->desc);
		free(x->input);
		free(x->prog);
		free(x->bases);
	}
	for (int i = 0; i < defs->nbases; i++)
		free(defs->bases[i].name);
	for (int i = 0; i < defs->nfiles; i++)
		free(defs->files[i]);
	free(defs->files);
	free(defs->defs);
	free(defs->bases);
	free(defs->events);
	free(defs);
}

static int parse(pmk_defs **out, const char *name, const char *text,
		 const pmk_defs_opts *opts, pmk_diag *d)
{
	pmk_defs *defs = calloc(1, sizeof *defs);
	void *rarg = NULL;
	int rc = 0, fi;

	*out = NULL;
	pmk_diag_clear(d);
	if (!defs)
		return PMK_ENOMEM;
	if (opts)
		defs->opts = *opts;
	if (!defs->opts.resolve && !defs->opts.symbolic) {
		rarg = pmk__defs_resolver_new(defs->opts.model, defs->model,
					      sizeof defs->model, d, &rc);
		if (rc) {
			pmk_defs_free(defs);
			return rc;
		}
		defs->opts.resolve = pmk__defs_default_resolve;
		defs->opts.arg = rarg;
	}
	if (defs->opts.model)
		snprintf(defs->model, sizeof defs->model, "%s",
			 defs->opts.model);
	fi = pmk__defs_add_file(defs, name);
	if (fi < 0)
		rc = fi;
	if (rc == 0)
		rc = pmk__defs_read(defs, fi, text, 0, 1, d);
	if (rc == 0)
		rc = pmk__defs_compile(defs, d);
	if (rarg) {
		/* The resolver's target is not kept: resolved bases hold
		 * their encodings. */
		pmk__defs_resolver_free(rarg);
		defs->opts.resolve = NULL;
		defs->opts.arg = NULL;
	}
	if (rc) {
		if (d && !d->code)
			d->code = rc;
		pmk_defs_free(defs);
		return rc;
	}
	*out = defs;
	return 0;
}

int pmk_defs_parse_string(pmk_defs **out, const char *name, const char *text,
			  const pmk_defs_opts *opts, pmk_diag *d)
{
	if (!out || !text)
		return PMK_EINVAL;
	return parse(out, name ? name : "<string>", text, opts, d);
}

int pmk_defs_parse_file(pmk_defs **out, const char *path,
			const pmk_defs_opts *opts, pmk_diag *d)
{
	char *text;
	int rc;
	if (!out || !path)
		return PMK_EINVAL;
	*out = NULL;
	pmk_diag_clear(d);
	rc = pmk__read_whole(path, &text, NULL, d);
	if (rc)
		return rc;
	rc = parse(out, path, text, opts, d);
	free(text);
	return rc;
}

int pmk_defs_count(const pmk_defs *defs)
{
	return defs ? defs->nevents : 0;
}

static const struct ddef *ev_at(const pmk_defs *defs, int i)
{
	if (!defs || i < 0 || i >= defs->nevents)
		return NULL;
	return &defs->defs[defs->events[i]];
}

const char *pmk_defs_name(const pmk_defs *defs, int i)
{
	const struct ddef *x = ev_at(defs, i);
	return x ? x->name : NULL;
}

const char *pmk_defs_text(const pmk_defs *defs, int i)
{
	const struct ddef *x = ev_at(defs, i);
	return x ? x->text : NULL;
}

const char *pmk_defs_desc(const pmk_defs *defs, int i)
{
	const struct ddef *x = ev_at(defs, i);
	return x ? x->desc : NULL;
}

const char *pmk_defs_where(const pmk_defs *defs, int i, int *line)
{
	const struct ddef *x = ev_at(defs, i);
	if (!x)
		return NULL;
	if (line)
		*line = x->line;
	return defs->files[x->file];
}

int pmk_defs_find(const pmk_defs *defs, const char *name)
{
	for (int i = 0; defs && name && i < defs->nevents; i++)
		if (!strcmp(defs->defs[defs->events[i]].name, name))
			return i;
	return PMK_ENOENT;
}

int pmk_defs_constant(const pmk_defs *defs, const char *name, double *value)
{
	for (int i = 0; defs && name && i < defs->ndefs; i++) {
		const struct ddef *x = &defs->defs[i];
		if (x->is_const && x->active && !strcmp(x->name, name)) {
			if (value)
				*value = x->value;
			return 0;
		}
	}
	return PMK_ENOENT;
}

int pmk_defs_base_count(const pmk_defs *defs, int i)
{
	const struct ddef *x = ev_at(defs, i);
	return x ? x->nbases : PMK_EINVAL;
}

static const struct dbase *base_at(const pmk_defs *defs, int i, int k)
{
	const struct ddef *x = ev_at(defs, i);
	if (!x || k < 0 || k >= x->nbases)
		return NULL;
	return &defs->bases[x->bases[k]];
}

const char *pmk_defs_base(const pmk_defs *defs, int i, int k)
{
	const struct dbase *b = base_at(defs, i, k);
	return b ? b->name : NULL;
}

int pmk_defs_base_resolved(const pmk_defs *defs, int i, int k)
{
	const struct dbase *b = base_at(defs, i, k);
	return b && b->rc == 0;
}

const pmk_event *pmk_defs_base_event(const pmk_defs *defs, int i, int k)
{
	const struct dbase *b = base_at(defs, i, k);
	return b && b->rc == 0 ? &b->ev : NULL;
}

double pmk_defs_eval(const pmk_defs *defs, int i, const double *base_values,
		     unsigned *flags)
{
	const struct ddef *x = ev_at(defs, i);
	double st[256];
	int sp = 0;
	unsigned f = 0;

	if (flags)
		*flags = 0;
	if (!x)
		return NAN;
	for (int k = 0; k < x->nprog; k++) {
		const struct dop *o = &x->prog[k];
		double a;
		switch (o->code) {
		case PMK_OP_LEAF:
			a = base_values[o->arg];
			if (isnan(a))
				f |= PMK_EVAL_MISSING;
			st[sp++] = a;
			break;
		case PMK_OP_CONST:
			st[sp++] = o->value;
			break;
		case PMK_OP_NEG:
			st[sp - 1] = -st[sp - 1];
			break;
		default: {
			int pops = pmk__op_pops(o->code);
			if (pops < 2 || sp < pops)
				return NAN;
			sp -= pops;
			if (o->code == PMK_OP_DIV && st[sp + 1] == 0)
				f |= PMK_EVAL_DIV0;
			st[sp] = pmk__op_value(o->code, &st[sp]);
			sp++;
		}
		}
	}
	if (flags)
		*flags = f;
	return sp == 1 ? st[0] : NAN;
}

struct slot {
	double v, e, lo, hi;
};

static void imul(double a, double b, double c, double d, double *lo, double *hi)
{
	double p[4] = {a * c, a * d, b * c, b * d};
	*lo = *hi = p[0];
	for (int k = 1; k < 4; k++) {
		if (p[k] < *lo)
			*lo = p[k];
		if (p[k] > *hi)
			*hi = p[k];
	}
}

double pmk_defs_eval_err(const pmk_defs *defs, int i, const double *base_values,
			 const double *base_errs, double *err, double *lo,
			 double *hi, unsigned *flags)
{
	const struct ddef *x = ev_at(defs, i);
	struct slot st[256], r;
	int sp = 0;
	unsigned f = 0;

	if (flags)
		*flags = 0;
	if (err)
		*err = NAN;
	if (lo)
		*lo = NAN;
	if (hi)
		*hi = NAN;
	if (!x)
		return NAN;
	for (int k = 0; k < x->nprog; k++) {
		const struct dop *o = &x->prog[k];
		struct slot *a, *b;
		switch (o->code) {
		case PMK_OP_LEAF:
			r.v = base_values[o->arg];
			r.e = base_errs && base_errs[o->arg] > 0
				  ? base_errs[o->arg]
				  : 0;
			r.lo = r.v - 2 * r.e;
			r.hi = r.v + 2 * r.e;
			if (isnan(r.v))
				f |= PMK_EVAL_MISSING;
			st[sp++] = r;
			continue;
		case PMK_OP_CONST:
			r.v = r.lo = r.hi = o->value;
			r.e = 0;
			st[sp++] = r;
			continue;
		case PMK_OP_NEG:
			a = &st[sp - 1];
			r.v = -a->v;
			r.e = a->e;
			r.lo = -a->hi;
			r.hi = -a->lo;
			*a = r;
			continue;
		}
		if (o->code == PMK_OP_SELECT) {
			struct slot *c = &st[sp - 2], *pick;
			a = &st[sp - 3];
			b = &st[sp - 1];
			if (isnan(c->v)) {
				r.v = r.e = r.lo = r.hi = NAN;
			} else {
				pick = c->v != 0 ? a : b;
				r = *pick;
				if (c->lo <= 0 && c->hi >= 0 &&
				    !(c->lo == 0 && c->hi == 0)) {
					/* the condition may go either way */
					r.lo = fmin(a->lo, b->lo);
					r.hi = fmax(a->hi, b->hi);
				}
			}
			sp -= 2;
			st[sp - 1] = r;
			continue;
		}
		b = &st[--sp];
		a = &st[sp - 1];
		switch (o->code) {
		case PMK_OP_MIN:
		case PMK_OP_MAX: {
			int amin = a->v < b->v;
			const struct slot *pick = o->code == PMK_OP_MIN
						      ? (amin ? a : b)
						      : (amin ? b : a);
			if (isnan(a->v) || isnan(b->v)) {
				r.v = r.e = r.lo = r.hi = NAN;
				break;
			}
			r = *pick;
			r.lo = o->code == PMK_OP_MIN ? fmin(a->lo, b->lo)
						     : fmax(a->lo, b->lo);
			r.hi = o->code == PMK_OP_MIN ? fmin(a->hi, b->hi)
						     : fmax(a->hi, b->hi);
			break;
		}
		case PMK_OP_LT:
		case PMK_OP_GT: {
			const struct slot *l = o->code == PMK_OP_LT ? a : b;
			const struct slot *g = o->code == PMK_OP_LT ? b : a;
			double xv[2] = {a->v, b->v};
			r.v = pmk__op_value(o->code, xv);
			r.e = 0;
			r.lo = l->hi < g->lo ? 1 : 0;
			r.hi = l->lo >= g->hi ? 0 : 1;
			if (isnan(r.v))
				r.e = r.lo = r.hi = NAN;
			break;
		}
		case PMK_OP_DRATIO:
			if (b->v == 0) {
				/* perf's d_ratio: 0 where the divisor is */
				int open = b->lo <= 0 && b->hi >= 0;
				r.v = r.e = 0;
				r.lo = open ? -INFINITY : 0;
				r.hi = open ? INFINITY : 0;
				break;
			}
			r.v = a->v / b->v;
			r.e = hypot(a->e / b->v, a->v * b->e / (b->v * b->v));
			if (b->lo <= 0 && b->hi >= 0) {
				r.lo = -INFINITY;
				r.hi = INFINITY;
			} else {
				imul(a->lo, a->hi, 1 / b->hi, 1 / b->lo, &r.lo,
				     &r.hi);
			}
			break;
		case PMK_OP_ADD:
			r.v = a->v + b->v;
			r.e = hypot(a->e, b->e);
			r.lo = a->lo + b->lo;
			r.hi = a->hi + b->hi;
			break;
		case PMK_OP_SUB:
			r.v = a->v - b->v;
			r.e = hypot(a->e, b->e);
			r.lo = a->lo - b->hi;
			r.hi = a->hi - b->lo;
			break;
		case PMK_OP_MUL:
			r.v = a->v * b->v;
			r.e = hypot(b->v * a->e, a->v * b->e);
			imul(a->lo, a->hi, b->lo, b->hi, &r.lo, &r.hi);
			break;
		default:
			if (b->v == 0) {
				f |= PMK_EVAL_DIV0;
				r.v = r.e = r.lo = r.hi = NAN;
				break;
			}
			r.v = a->v / b->v;
			r.e = hypot(a->e / b->v, a->v * b->e / (b->v * b->v));
			if (b->lo <= 0 && b->hi >= 0) {
				r.lo = -INFINITY;
				r.hi = INFINITY;
			} else {
				imul(a->lo, a->hi, 1 / b->hi, 1 / b->lo, &r.lo,
				     &r.hi);
			}
		}
		*a = r;
	}
	if (sp != 1)
		return NAN;
	if (flags)
		*flags = f;
	if (err)
		*err = st[0].e;
	if (lo)
		*lo = st[0].lo;
	if (hi)
		*hi = st[0].hi;
	return st[0].v;
}

/* The checked evaluation: flags, and NaN for malformed programs. */
static double ops_eval_checked(const pmk_op *ops, int nops,
			       const double *leaf_values, unsigned *flags)
{
	double st[PMK_OPS_MAX];
	int sp = 0;
	unsigned f = 0;

	for (int k = 0; k < nops; k++) {
		const pmk_op *o = &ops[k];
		double a;
		switch (o->code) {
		case PMK_OP_LEAF:
			if (o->arg >= PMK_LEAF_MAX)
				return NAN;
			a = leaf_values[o->arg];
			if (isnan(a))
				f |= PMK_EVAL_MISSING;
			st[sp++] = a;
			break;
		case PMK_OP_CONST:
			st[sp++] = o->value;
			break;
		case PMK_OP_NEG:
			if (sp < 1)
				return NAN;
			st[sp - 1] = -st[sp - 1];
			break;
		default: {
			int pops = pmk__op_pops(o->code);
			if (pops < 2 || sp < pops)
				return NAN;
			sp -= pops;
			if (o->code == PMK_OP_DIV && st[sp + 1] == 0)
				f |= PMK_EVAL_DIV0;
			st[sp] = pmk__op_value(o->code, &st[sp]);
			sp++;
		}
		}
	}
	if (flags)
		*flags = f;
	return sp == 1 ? st[0] : NAN;
}

/*
 * The fast path: no per-step flag bookkeeping. A missing input (NaN) or a
 * division by zero (NaN by definition here) always makes the result NaN,
 * so only a NaN result is evaluated again, checked, to say why. The stack
 * bounds are still checked at every step: programs may come from users.
 * Dispatch is direct threading (GNU C's labels as values), which halves
 * the time of a switch here (bench/compare/derive_speed.c).
 */
double pmk_ops_eval(const pmk_op *ops, int nops, const double *leaf_values,
		    unsigned *flags)
{
	static const void *const tab[16] = {
	    &&bad, &&leaf, &&cnst, &&add, &&sub, &&mul, &&dv,  &&neg,
	    &&gen, &&gen,  &&gen,  &&gen, &&gen, &&gen, &&bad, &&bad};
	/* The top of the stack lives in `tos`; st[1..sp-1] hold the values
	 * below it (a push saves the old top, so st[0] is never read). `sp`
	 * counts the values, the top included. */
	double st[PMK_OPS_MAX + 1], tos = 0;
	const pmk_op *o = ops, *end = ops + nops;
	int sp = 0;

	if (flags)
		*flags = 0;
	if (nops <= 0)
		return leaf_values[0];
	if (nops > PMK_OPS_MAX)
		return NAN;
#define NEXT                                                                   \
	do {                                                                   \
		if (++o == end)                                                \
			goto done;                                             \
		goto *tab[o->code < 16 ? o->code : 0];                         \
	} while (0)
	goto *tab[o->code < 16 ? o->code : 0];
leaf:
	if (o->arg >= PMK_LEAF_MAX)
		return NAN;
	st[sp++] = tos;
	tos = leaf_values[o->arg];
	NEXT;
cnst:
	st[sp++] = tos;
	tos = o->value;
	NEXT;
add:
	if (sp < 2)
		return NAN;
	tos = st[--sp] + tos;
	NEXT;
sub:
	if (sp < 2)
		return NAN;
	tos = st[--sp] - tos;
	NEXT;
mul:
	if (sp < 2)
		return NAN;
	tos = st[--sp] * tos;
	NEXT;
dv:
	if (sp < 2)
		return NAN;
	sp--;
	tos = tos == 0 ? NAN : st[sp] / tos;
	NEXT;
neg:
	if (sp < 1)
		return NAN;
	tos = -tos;
	NEXT;
gen : /* perf's operations: two or three operands */
{
	int pops = pmk__op_pops(o->code);
	double x[3];
	if (pops < 2 || sp < pops)
		return NAN;
	for (int k = 0; k < pops - 1; k++)
		x[k] = st[sp - pops + 1 + k];
	x[pops - 1] = tos;
	sp -= pops - 1;
	tos = pmk__op_value(o->code, x);
}
	NEXT;
bad:
	return NAN;
#undef NEXT
done:
	if (sp != 1)
		return NAN;
	if (isnan(tos) && flags)
		return ops_eval_checked(ops, nops, leaf_values, flags);
	return tos;
}
