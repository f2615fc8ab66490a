/*
 * penalty.c: small kernels for the probe: the branch-misprediction penalty
 * and floating-point latencies, each as ns per operation (the probe turns
 * them into cycles with the measured core clock).
 */
#include <math.h>
#include <stdlib.h>

#include "bench/penalty.h"

/* ---- branch misprediction ---------------------------------------------- */

#define BR_N 65536 /* outcomes: far more than any predictor can learn */

struct br {
	unsigned char *bits;
	size_t pos;
	uint64_t sink;
};

/* One data-dependent branch per element. The volatile asm in both arms
 * keeps the compiler from turning the branch into a conditional move. */
static uint64_t br_fn(void *arg, uint64_t n)
{
	struct br *b = arg;
	uint64_t acc = b->sink;
	size_t i = b->pos;
	for (uint64_t k = 0; k < n; k++) {
		if (b->bits[i]) {
			__asm__ volatile("" : "+r"(acc));
			acc += 3;
		} else {
			__asm__ volatile("" : "+r"(acc));
			acc ^= k;
		}
		i = (i + 1) & (BR_N - 1);
	}
	b->pos = i;
	b->sink = acc;
	return n;
}

int pmk__bench_branch(const pmk_bench_cfg *cfg, double *rand_ns,
		      double *sorted_ns)
{
	struct br b = {0};
	pmk_bench_stat st;
	uint64_t s = 0x243f6a8885a308d3ull;
	int rc;
	b.bits = malloc(BR_N);
	if (!b.bits)
		return PMK_ENOMEM;
	/* sorted: the same number of taken and not-taken, in two runs */
	for (size_t i = 0; i < BR_N; i++)
		b.bits[i] = i < BR_N / 2;
	rc = pmk_bench_run(br_fn, &b, cfg, &st);
	*sorted_ns = st.min_ns;
	for (size_t i = 0; i < BR_N; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		b.bits[i] = (unsigned char)(s >> 63);
	}
	if (rc == 0)
		rc = pmk_bench_run(br_fn, &b, cfg, &st);
	*rand_ns = st.min_ns;
	free(b.bits);
	return rc;
}

/* ---- floating point ---------------------------------------------------- */

struct fp {
	int op;
	double x, y;
};

#define R10(e)                                                                 \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e;                                                                     \
	e
static uint64_t fp_fn(void *arg, uint64_t n)
{
	struct fp *f = arg;
	double x = f->x, y = f->y;
	for (uint64_t k = 0; k < n; k++) {
		switch (f->op) {
		case 0:
			R10(x = x + y);
			break;
		case 1:
			R10(x = x * y);
			break;
		case 2:
			R10(x = y / x);
			break;
		default:
			R10(x = sqrt(x));
			break;
		}
	}
	f->x = x;
	return n * 10;
}

int pmk__bench_fp(const pmk_bench_cfg *cfg, double ns[4])
{
	for (int op = 0; op < 4; op++) {
		volatile double y = op == 0   ? 1e-300
				    : op == 1 ? 1.0000000001
					      : 3.0;
		struct fp f = {op, op == 3 ? 2.0 : 1.0, y};
		pmk_bench_stat st;
		int rc = pmk_bench_run(fp_fn, &f, cfg, &st);
		if (rc)
			return rc;
		ns[op] = st.min_ns;
	}
	return 0;
}

/* ---- line size --------------------------------------------------------- */

struct pair {
	void **pos;
};

static uint64_t pair_fn(void *arg, uint64_t n)
{
	struct pair *p = arg;
	void **q = p->pos;
	uint64_t loops = (n + 7) / 8;
	for (uint64_t i = 0; i < loops; i++) {
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
	}
	p->pos = q;
	return loops * 8;
}

int pmk__bench_pair(size_t block, size_t range, const pmk_bench_cfg *cfg,
		    double *ns)
{
	size_t nb = range / block;
	char *buf;
	uint32_t *perm;
	uint64_t s = 0x9e3779b97f4a7c15ull ^ block;
	struct pair p;
	pmk_bench_stat st;
	int rc;
	if (block < 2 * sizeof(void *) || nb < 2 || nb > UINT32_MAX)
		return PMK_EINVAL;
	buf = aligned_alloc(4096, nb * block);
	perm = malloc(nb * sizeof *perm);
	if (!buf || !perm) {
		free(buf);
		free(perm);
		return PMK_ENOMEM;
	}
	for (size_t i = 0; i < nb; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = nb; i > 1; i--) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		size_t j = (size_t)(s % i);
		uint32_t t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	/* block k: word 0 -> word at block/2 -> next block's word 0 */
	for (size_t i = 0; i < nb; i++) {
		char *b = buf + (size_t)perm[i] * block;
		char *nx = buf + (size_t)perm[(i + 1) % nb] * block;
		*(void **)b = b + block / 2;
		*(void **)(b + block / 2) = nx;
	}
	p.pos = (void **)(buf + (size_t)perm[0] * block);
	rc = pmk_bench_run(pair_fn, &p, cfg, &st);
	*ns = st.min_ns;
	free(buf);
	free(perm);
	return rc;
}
