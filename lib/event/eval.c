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
 * perf's operations (min, max, <, >, `a if c else b`, d_ratio) follow the
 * operand they pick: its value, derivative and, where the choice is
 * certain over the intervals, its interval; a comparison is a step, with
 * no derivative, whose interval is [0, 1] where the answer is uncertain.
 * pmk__op_value is the one definition of each operation's value, which
 * the evaluators of lib/derive use too.
 */
#include <math.h>
#include <stdlib.h>
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

int pmk__op_pops(int code)
{
	switch (code) {
	case PMK_OP_LEAF:
	case PMK_OP_CONST:
		return 0;
	case PMK_OP_NEG:
		return 1;
	case PMK_OP_ADD:
	case PMK_OP_SUB:
	case PMK_OP_MUL:
	case PMK_OP_DIV:
	case PMK_OP_MIN:
	case PMK_OP_MAX:
	case PMK_OP_LT:
	case PMK_OP_GT:
	case PMK_OP_DRATIO:
		return 2;
	case PMK_OP_SELECT:
		return 3;
	}
	return -1;
}

double pmk__op_value(int code, const double *x)
{
	double a = x[0], b = code == PMK_OP_NEG ? 0 : x[1];
	switch (code) {
	case PMK_OP_NEG:
		return -a;
	case PMK_OP_ADD:
		return a + b;
	case PMK_OP_SUB:
		return a - b;
	case PMK_OP_MUL:
		return a * b;
	case PMK_OP_DIV:
		return b == 0 ? NAN : a / b;
	case PMK_OP_DRATIO:
		return b == 0 ? 0 : a / b;
	case PMK_OP_MIN:
		return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
	case PMK_OP_MAX:
		return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
	case PMK_OP_LT:
		return isnan(a) || isnan(b) ? NAN : a < b;
	case PMK_OP_GT:
		return isnan(a) || isnan(b) ? NAN : a > b;
	case PMK_OP_SELECT: /* a, c, b */
		return isnan(b) ? NAN : b != 0 ? a : x[2];
	}
	return NAN;
}

/* Whether an interval [lo, hi] holds 0. */
static int holds0(double lo, double hi)
{
	return lo <= 0 && hi >= 0;
}

#define EVAL_STACK_SMALL 32

static int eval_full(const pmk__prog *ev, const double *val,
		     const double *err, const double *lo, const double *hi,
		     pmk_eval_result *out, struct slot *st);

int pmk__prog_eval_full(const pmk__prog *ev, const double *val,
			const double *err, const double *lo, const double *hi,
			pmk_eval_result *out)
{
	/* each slot carries a derivative per leaf: a short program's stack
	 * on the stack, a long one's (perf's metrics) on the heap */
	struct slot small[EVAL_STACK_SMALL], *st = small;
	int rc;

	memset(out, 0, sizeof *out);
	if (ev->nops < 0 || ev->nops > PMK_OPS_MAX)
		return PMK_EINVAL;
	if (ev->nops > EVAL_STACK_SMALL &&
	    !(st = malloc(sizeof *st * (size_t)ev->nops)))
		return PMK_ENOMEM;
	rc = eval_full(ev, val, err, lo, hi, out, st);
	if (st != small)
		free(st);
	return rc;
}

/* pmk__prog_eval_full's work on a stack of ev->nops slots at least. */
static int eval_full(const pmk__prog *ev, const double *val,
		     const double *err, const double *lo, const double *hi,
		     pmk_eval_result *out, struct slot *st)
{
	int sp = 0, nan = 0, nl = ev->nleaf;
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
			if (op->arg >= nl || sp >= ev->nops)
				return PMK_EINVAL;
			r.v = val[op->arg];
			r.lo = lo ? lo[op->arg] : r.v;
			r.hi = hi ? hi[op->arg] : r.v;
			r.dv[op->arg] = 1;
			st[sp++] = r;
			continue;
		case PMK_OP_CONST:
			if (sp >= ev->nops)
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
		if (op->code == PMK_OP_SELECT) {
			struct slot *c, *pick;
			if (sp < 3)
				return PMK_EINVAL;
			a = &st[sp - 3];
			c = &st[sp - 2];
			b = &st[sp - 1];
			if (isnan(c->v)) {
				r.v = r.lo = r.hi = NAN;
			} else {
				pick = c->v != 0 ? a : b;
				r = *pick;
				if (holds0(c->lo, c->hi) &&
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
		if (sp < 2)
			return PMK_EINVAL;
		a = &st[sp - 2];
		b = &st[sp - 1];
		switch (op->code) {
		case PMK_OP_MIN:
		case PMK_OP_MAX: {
			int amin = a->v < b->v;
			struct slot *pick = op->code == PMK_OP_MIN
						? (amin ? a : b)
						: (amin ? b : a);
			if (isnan(a->v) || isnan(b->v)) {
				r.v = r.lo = r.hi = NAN;
				break;
			}
			r = *pick;
			r.lo = op->code == PMK_OP_MIN ? fmin(a->lo, b->lo)
						      : fmax(a->lo, b->lo);
			r.hi = op->code == PMK_OP_MIN ? fmin(a->hi, b->hi)
						      : fmax(a->hi, b->hi);
			break;
		}
		case PMK_OP_LT:
		case PMK_OP_GT: {
			/* a step: no derivative; the interval says whether
			 * the answer is certain */
			struct slot *x = op->code == PMK_OP_LT ? a : b;
			struct slot *y = op->code == PMK_OP_LT ? b : a;
			double xv[2] = {a->v, b->v};
			r.v = pmk__op_value(op->code, xv);
			r.lo = x->hi < y->lo ? 1 : 0;
			r.hi = x->lo >= y->hi ? 0 : 1;
			if (isnan(r.v))
				r.lo = r.hi = NAN;
			break;
		}
		case PMK_OP_DIV:
		case PMK_OP_DRATIO:
			if (b->v == 0 && op->code == PMK_OP_DIV) {
				nan = 1;
				r.v = r.lo = r.hi = NAN;
				break;
			}
			if (b->v == 0) {
				/* perf's d_ratio: 0 where the divisor is */
				r.v = 0;
				r.lo = holds0(b->lo, b->hi) ? -INFINITY : 0;
				r.hi = holds0(b->lo, b->hi) ? INFINITY : 0;
				break;
			}
			r.v = a->v / b->v;
			if (b->lo <= 0 && b->hi >= 0) {
				r.lo = -INFINITY;
				r.hi = INFINITY;
			} else {
				interval_mul(a->lo, a->hi, 1 / b->hi, 1 / b->lo,
					     &r.lo, &r.hi);
			}
			for (int k = 0; k < nl; k++)
				r.dv[k] = (a->dv[k] * b->v - a->v * b->dv[k]) /
					  (b->v * b->v);
			break;
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
	pmk__prog p = pmk__prog_of(ev);
	return pmk__prog_eval(&p, leaf_values);
}

double pmk__prog_eval(const pmk__prog *ev, const double *leaf_values)
{
	/* values only: a plain stack, no derivatives or intervals */
	double st[PMK_OPS_MAX];
	int sp = 0;
	if (ev->nops == 0)
		return ev->nleaf > 0 ? leaf_values[0] : NAN;
	for (int i = 0; i < ev->nops; i++) {
		const pmk_op *op = &ev->ops[i];
		int pops = pmk__op_pops(op->code);
		if (op->code == PMK_OP_LEAF) {
			if (op->arg >= ev->nleaf || sp == PMK_OPS_MAX)
				return NAN;
			st[sp++] = leaf_values[op->arg];
			continue;
		}
		if (op->code == PMK_OP_CONST) {
			if (sp == PMK_OPS_MAX)
				return NAN;
			st[sp++] = op->value;
			continue;
		}
		if (pops < 1 || sp < pops)
			return NAN;
		sp -= pops;
		st[sp] = pmk__op_value(op->code, &st[sp]);
		sp++;
	}
	return sp == 1 ? st[0] : NAN;
}
