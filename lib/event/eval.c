/*
 * eval.c: evaluation of derived events' reverse-Polish programs, with the
 * uncertainty of each leaf carried through (docs/counting.md).
 *
 * Two answers are computed together:
 *  - a standard error by first-order propagation: each stack slot carries
 *    its value and its derivative with respect to every leaf (forward-mode
 *    differentiation), and err = sqrt(sum_i (df/dx_i * err_i)^2), leaves
 *    taken as independent;
 *  - a guaranteed interval by interval arithmetic over each leaf's
 *    [lo_i, hi_i], so that a division by an interval holding zero gives
 *    (-inf, +inf) rather than a false precision.
 */
#include <math.h>
#include <string.h>

#include "lib/event/eval.h"

struct slot {
	double v, lo, hi;
	double dv[PMK_LEAF_MAX];
};

static void interval_mul(double a, double b, double c, double d, double *lo,
			 double *hi)
{
	double p[4] = {a * c, a * d, b * c, b * d};
	*lo = *hi = p[0];
	for (int i = 1; i < 4; i++) {
		if (p[i] < *lo)
			*lo = p[i];
		if (p[i] > *hi)
			*hi = p[i];
	}
}

int pmk__event_eval_full(const pmk_event *ev, const double *val,
			 const double *err, const double *lo, const double *hi,
			 pmk_eval_result *out)
{
	struct slot st[PMK_OPS_MAX];
	int sp = 0, nan = 0;
	int nl = ev->nleaf;

	memset(out, 0, sizeof *out);
	if (ev->nops == 0) {
		out->value = nl > 0 ? val[0] : NAN;
		out->err = nl > 0 && err ? err[0] : 0;
		out->lo = nl > 0 && lo ? lo[0] : out->value;
		out->hi = nl > 0 && hi ? hi[0] : out->value;
		return 0;
	}
	for (int i = 0; i < ev->nops; i++) {
		const pmk_op *op = &ev->ops[i];
		struct slot r, *a, *b;
		memset(&r, 0, sizeof r);
		switch (op->code) {
		case PMK_OP_LEAF:
			if (op->arg >= nl || sp == PMK_OPS_MAX)
				return PMK_EINVAL;
			r.v = val[op->arg];
			r.lo = lo ? lo[op->arg] : r.v;
			r.hi = hi ? hi[op->arg] : r.v;
			r.dv[op->arg] = 1;
			st[sp++] = r;
			continue;
		case PMK_OP_CONST:
			if (sp == PMK_OPS_MAX)
				return PMK_EINVAL;
			r.v = r.lo = r.hi = op->value;
			st[sp++] = r;
			continue;
		case PMK_OP_NEG:
			if (sp < 1)
				return PMK_EINVAL;
			a = &st[sp - 1];
			r.v = -a->v;
			r.lo = -a->hi;
			r.hi = -a->lo;
			for (int k = 0; k < nl; k++)
				r.dv[k] = -a->dv[k];
			*a = r;
			continue;
		}
		if (sp < 2)
			return PMK_EINVAL;
		a = &st[sp - 2];
		b = &st[sp - 1];
		switch (op->code) {
		case PMK_OP_ADD:
			r.v = a->v + b->v;
			r.lo = a->lo + b->lo;
			r.hi = a->hi + b->hi;
			for (int k = 0; k < nl; k++)
				r.dv[k] = a->dv[k] + b->dv[k];
			break;
		case PMK_OP_SUB:
			r.v = a->v - b->v;
			r.lo = a->lo - b->hi;
			r.hi = a->hi - b->lo;
			for (int k = 0; k < nl; k++)
				r.dv[k] = a->dv[k] - b->dv[k];
			break;
		case PMK_OP_MUL:
			r.v = a->v * b->v;
			interval_mul(a->lo, a->hi, b->lo, b->hi, &r.lo, &r.hi);
			for (int k = 0; k < nl; k++)
				r.dv[k] = a->dv[k] * b->v + a->v * b->dv[k];
			break;
		case PMK_OP_DIV:
			if (b->v == 0) {
				nan = 1;
				r.v = r.lo = r.hi = NAN;
				break;
			}
			r.v = a->v / b->v;
			if (b->lo <= 0 && b->hi >= 0) {
				r.lo = -INFINITY;
				r.hi = INFINITY;
			} else {
				interval_mul(a->lo, a->hi, 1 / b->hi,
					     1 / b->lo, &r.lo, &r.hi);
			}
			for (int k = 0; k < nl; k++)
				r.dv[k] = (a->dv[k] * b->v - a->v * b->dv[k]) /
					  (b->v * b->v);
			break;
		default:
			return PMK_EINVAL;
		}
		sp--;
		st[sp - 1] = r;
	}
	if (sp != 1)
		return PMK_EINVAL;
	out->value = st[0].v;
	out->lo = st[0].lo;
	out->hi = st[0].hi;
	out->nan = nan || isnan(st[0].v);
	{
		double s = 0;
		for (int k = 0; k < nl && err; k++)
			s += (st[0].dv[k] * err[k]) * (st[0].dv[k] * err[k]);
		out->err = out->nan ? NAN : sqrt(s);
	}
	return 0;
}

double pmk_event_eval(const pmk_event *ev, const double *leaf_values)
{
	/* values only: a plain stack, no derivatives or intervals */
	double st[PMK_OPS_MAX];
	int sp = 0;
	if (ev->nops == 0)
		return ev->nleaf > 0 ? leaf_values[0] : NAN;
	for (int i = 0; i < ev->nops; i++) {
		const pmk_op *op = &ev->ops[i];
		switch (op->code) {
		case PMK_OP_LEAF:
			if (op->arg >= ev->nleaf || sp == PMK_OPS_MAX)
				return NAN;
			st[sp++] = leaf_values[op->arg];
			continue;
		case PMK_OP_CONST:
			if (sp == PMK_OPS_MAX)
				return NAN;
			st[sp++] = op->value;
			continue;
		case PMK_OP_NEG:
			if (sp < 1)
				return NAN;
			st[sp - 1] = -st[sp - 1];
			continue;
		}
		if (sp < 2)
			return NAN;
		sp--;
		switch (op->code) {
		case PMK_OP_ADD: st[sp - 1] += st[sp]; break;
		case PMK_OP_SUB: st[sp - 1] -= st[sp]; break;
		case PMK_OP_MUL: st[sp - 1] *= st[sp]; break;
		case PMK_OP_DIV:
			st[sp - 1] = st[sp] == 0 ? NAN : st[sp - 1] / st[sp];
			break;
		default: return NAN;
		}
	}
	return sp == 1 ? st[0] : NAN;
}
