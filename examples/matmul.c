/*
 * matmul.c: seed 004's case study. Four matrix multiplies (naive loop order
 * of Figure 3, reordered with a temporary as in Figure 4, B transposed, and
 * blocked as in Figure 6), the block size N = floor(sqrt(C / 3 / 8)) from
 * the cache size C the pmkit probe measures (or --cache), a sweep of N
 * (Figure 12) and the speedup over naive versus matrix size (Figure 14),
 * both plotted. Timed with the pmkit clock, counted with a pmkit event set.
 * Built with OpenBLAS (libopenblas-dev, found by scripts/configure), it
 * also times cblas_dgemm, one thread, at the same sizes and prints
 * blocked / BLAS: how far hand blocking is from a tuned library.
 *
 *   matmul [--quick] [--level L | --cache BYTES] [--sizes A,B,..]
 *          [--sweep-sizes A,..] [--blocks A,..] [--svg-sweep F]
 *          [--svg-speedup F] [--csv F] [--check]
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "examples/measure.h"

typedef struct mat {
	int n;
	double *a, *b, *bt, *c;
} mat;

#define IX(m, i, j) ((size_t)(i) * (size_t)(m)->n + (size_t)(j))

/* Figure 3: C[i][j] += B[l][j] * A[i][l], loops j, l, i */
static void mm_naive(mat *m)
{
	int n = m->n;
	memset(m->c, 0, (size_t)n * n * sizeof *m->c);
	for (int j = 0; j < n; j++)
		for (int l = 0; l < n; l++)
			for (int i = 0; i < n; i++)
				m->c[IX(m, i, j)] +=
				    m->b[IX(m, l, j)] * m->a[IX(m, i, l)];
}

/* Figure 4: loops i, j, l with the sum in a temporary */
static void mm_reordered(mat *m)
{
	int n = m->n;
	memset(m->c, 0, (size_t)n * n * sizeof *m->c);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double t = m->c[IX(m, i, j)];
			for (int l = 0; l < n; l++)
				t += m->b[IX(m, l, j)] * m->a[IX(m, i, l)];
			m->c[IX(m, i, j)] = t;
		}
}

/* The same with B given transposed: both operands walk rows */
static void mm_transposed(mat *m)
{
	int n = m->n;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double t = 0;
			for (int l = 0; l < n; l++)
				t += m->a[IX(m, i, l)] * m->bt[IX(m, j, l)];
			m->c[IX(m, i, j)] = t;
		}
}

/* Figure 6: blocked, N x N sub-matrices, B transposed:
 * C[j][i] += sum over k in the block of Bt[i][k] * A[j][k] */
static void mm_blocked(mat *m, int nb)
{
	int n = m->n;
	memset(m->c, 0, (size_t)n * n * sizeof *m->c);
	for (int jj = 0; jj < n; jj += nb)
		for (int kk = 0; kk < n; kk += nb) {
			int je = jj + nb < n ? jj + nb : n;
			int ke = kk + nb < n ? kk + nb : n;
			for (int i = 0; i < n; i++)
				for (int j = jj; j < je; j++) {
					double t = 0;
					for (int k = kk; k < ke; k++)
						t += m->bt[IX(m, i, k)] *
						     m->a[IX(m, j, k)];
					m->c[IX(m, j, i)] += t;
				}
		}
}

#ifdef PMK_HAVE_OPENBLAS
#include <cblas.h>
/* OpenBLAS's own call (declared by its cblas.h; repeated here for the
 * other providers of cblas.h) */
void openblas_set_num_threads(int num_threads);

/* C = A B with a tuned BLAS, row-major, no transposes */
static void mm_blas(mat *m)
{
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m->n, m->n, m->n,
		    1.0, m->a, m->n, m->b, m->n, 0.0, m->c, m->n);
}
#define HAVE_BLAS 1
#else
#define HAVE_BLAS 0
#endif

static int mat_init(mat *m, int n)
{
	uint64_t s = 88172645463325252ull;
	size_t nn = (size_t)n * n;
	m->n = n;
	m->a = malloc(nn * sizeof(double));
	m->b = malloc(nn * sizeof(double));
	m->bt = malloc(nn * sizeof(double));
	m->c = calloc(nn, sizeof(double));
	if (!m->a || !m->b || !m->bt || !m->c)
		return -1;
	for (size_t i = 0; i < nn; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		m->a[i] = (double)(s % 1000) / 500.0 - 1.0;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		m->b[i] = (double)(s % 1000) / 500.0 - 1.0;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			m->bt[IX(m, j, i)] = m->b[IX(m, i, j)];
	return 0;
}

static void mat_free(mat *m)
{
	free(m->a), free(m->b), free(m->bt), free(m->c);
}

enum { NAIVE, REORDERED, TRANSPOSED, BLOCKED, NVAR, BLAS = NVAR };
static const char *const var_name[NVAR] = {"naive", "reordered", "transposed",
					   "blocked"};

/* Seconds for one run of a variant (min over `reps` runs). */
static double run(mat *m, int var, int nb, int reps, ex_counters *cnt)
{
	double best = INFINITY;
	for (int r = 0; r < reps; r++) {
		uint64_t t0;
		if (cnt && r == reps - 1)
			ex_counters_start(cnt);
		t0 = pmk_bench_now_ns();
		switch (var) {
		case NAIVE:
			mm_naive(m);
			break;
		case REORDERED:
			mm_reordered(m);
			break;
		case TRANSPOSED:
			mm_transposed(m);
			break;
#ifdef PMK_HAVE_OPENBLAS
		case BLAS:
			mm_blas(m);
			break;
#endif
		default:
			mm_blocked(m, nb);
		}
		double s = (double)(pmk_bench_now_ns() - t0) / 1e9;
		if (cnt && r == reps - 1)
			ex_counters_stop(cnt);
		if (s < best)
			best = s;
	}
	return best;
}

/* Every variant computes the same product (summation orders differ). */
static int check(int n, int nb)
{
	mat m;
	double *ref;
	int bad = 0;
	if (mat_init(&m, n))
		return -1;
	mm_transposed(&m);
	ref = malloc((size_t)n * n * sizeof *ref);
	if (!ref)
		return -1;
	memcpy(ref, m.c, (size_t)n * n * sizeof *ref);
	for (int v = 0; v < NVAR + HAVE_BLAS; v++) {
		double worst = 0;
		run(&m, v, nb, 1, NULL);
		for (size_t i = 0; i < (size_t)n * n; i++)
			worst = fmax(worst, fabs(m.c[i] - ref[i]) /
						(fabs(ref[i]) + 1));
		if (worst > 1e-9) {
			fprintf(stderr, "matmul: %s differs at n=%d (%g)\n",
				v < NVAR ? var_name[v] : "blas", n, worst);
			bad = 1;
		}
	}
	free(ref);
	mat_free(&m);
	return bad;
}

static int parse_list(const char *s, int *out, int max)
{
	int n = 0;
	char *end;
	while (*s && n < max) {
		long v = strtol(s, &end, 10);
		if (end == s || v < 1 || v > 100000)
			return -1;
		out[n++] = (int)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static void progress(const char *what)
{
	fprintf(stderr, "matmul: %s\n", what);
}

int main(int argc, char **argv)
{
	int quick = 0, level = 1, only_check = 0;
	size_t cache = 0;
	int sizes[32], nsizes = 0, ssizes[8], nss = 0, blocks[64], nblocks = 0;
	const char *svg_sweep = NULL, *svg_speed = NULL, *csv = NULL;
	char cache_src[160] = "";

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--quick"))
			quick = 1;
		else if (!strcmp(a, "--check"))
			only_check = 1;
		else if (!strcmp(a, "--level") && v)
			level = atoi(argv[++i]);
		else if (!strcmp(a, "--cache") && v) {
			if (pmk_bench_parse_size(argv[++i], &cache)) {
				fprintf(stderr, "matmul: bad size '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--sizes") && v)
			nsizes = parse_list(argv[++i], sizes, 32);
		else if (!strcmp(a, "--sweep-sizes") && v)
			nss = parse_list(argv[++i], ssizes, 8);
		else if (!strcmp(a, "--blocks") && v)
			nblocks = parse_list(argv[++i], blocks, 64);
		else if (!strcmp(a, "--svg-sweep") && v)
			svg_sweep = argv[++i];
		else if (!strcmp(a, "--svg-speedup") && v)
			svg_speed = argv[++i];
		else if (!strcmp(a, "--csv") && v)
			csv = argv[++i];
		else {
			fprintf(stderr, "usage: matmul [--quick] [--level L | "
					"--cache BYTES] [--sizes A,B..] "
					"[--sweep-sizes A,..] [--blocks A,..] "
					"[--svg-sweep F] [--svg-speedup F] "
					"[--csv F] [--check]\n");
			return 2;
		}
		if (nsizes < 0 || nss < 0 || nblocks < 0) {
			fprintf(stderr, "matmul: bad list '%s'\n", argv[i]);
			return 2;
		}
	}
	pmk_bench_pin(-1);
	if (check(67, 16) || check(130, 48)) /* odd sizes: partial blocks */
		return 1;
	printf("check: naive, reordered, transposed%s and blocked agree\n",
	       HAVE_BLAS ? ", OpenBLAS cblas_dgemm" : "");
	if (only_check)
		return 0;

	/* the cache size: measured by the probe unless given */
	if (!cache) {
		pmk_probe p;
		progress("probing the cache hierarchy (pmk_probe_run, quick)");
		if (pmk_probe_run(&p, PMK_PROBE_QUICK, -1, 64u << 20, NULL,
				  NULL) == 0) {
			for (int i = 0; i < p.nlevels; i++)
				if (p.lv[i].level == level) {
					cache = p.lv[i].size_bytes;
					snprintf(cache_src, sizeof cache_src,
						 "L%d from the probe (%s; "
						 "declared %zu, measured %zu)",
						 level, p.lv[i].trusted,
						 p.lv[i].declared_bytes,
						 p.lv[i].measured_bytes);
				}
		}
		pmk_probe_release(&p);
		if (!cache) {
			fprintf(stderr,
				"matmul: the probe found no L%d; give "
				"--cache\n",
				level);
			return 1;
		}
	} else {
		snprintf(cache_src, sizeof cache_src, "given with --cache");
	}
	int nb = (int)floor(sqrt((double)cache / 3.0 / 8.0));
	if (nb < 1)
		nb = 1;
	printf("block: C = %zu bytes (%s), N = floor(sqrt(C/3/8)) = %d\n",
	       cache, cache_src, nb);

	if (!nsizes) {
		static const int q[] = {128, 256, 384},
				 f[] = {200, 400, 600, 800, 1000, 1200};
		nsizes = quick ? 3 : 6;
		memcpy(sizes, quick ? q : f, (size_t)nsizes * sizeof *sizes);
	}
	if (!nss) {
		nss = 1;
		ssizes[0] = quick ? 384 : 1000;
	}
	if (!nblocks) {
		static const int b[] = {4,   8,	  16,  24,  32,	 48,  64,  96,
					128, 160, 192, 224, 256, 320, 384, 512};
		nblocks = (int)(sizeof b / sizeof *b);
		memcpy(blocks, b, sizeof b);
		int have = 0;
		for (int i = 0; i < nblocks; i++)
			have |= blocks[i] == nb;
		if (!have && nblocks < 64)
			blocks[nblocks++] = nb;
		for (int i = 1; i < nblocks; i++) /* keep sorted */
			for (int k = i; k > 0 && blocks[k] < blocks[k - 1];
			     k--) {
				int t = blocks[k];
				blocks[k] = blocks[k - 1];
				blocks[k - 1] = t;
			}
	}

	FILE *cf = csv ? fopen(csv, "w") : NULL;
	if (csv && !cf) {
		fprintf(stderr, "matmul: cannot write '%s'\n", csv);
		return 1;
	}
	if (cf)
		fprintf(cf, "table,n,variant,block,seconds,speedup\n");

	/* Figure 14: speedup over naive versus size */
	ex_counters cnt;
	ex_counters_open(&cnt);
	double sp[NVAR][32], xs[32];
	if (HAVE_BLAS)
		openblas_set_num_threads(1);
	printf("\n%6s %10s %10s %10s %10s   speedup: %s %s %s%s\n", "n",
	       "naive s", "reord s", "transp s", "blocked s", "reord", "transp",
	       "blocked", HAVE_BLAS ? "   BLAS s (1 thread) blocked/BLAS" : "");
	if (!HAVE_BLAS)
		printf("(no BLAS column: built without OpenBLAS; install "
		       "libopenblas-dev and rebuild)\n");
	for (int s = 0; s < nsizes; s++) {
		mat m;
		double t[NVAR];
		int n = sizes[s], reps = n <= 400 ? 3 : 1;
		char what[64];
		snprintf(what, sizeof what, "speedup at n = %d", n);
		progress(what);
		if (mat_init(&m, n)) {
			fprintf(stderr, "matmul: out of memory at n=%d\n", n);
			return 1;
		}
		for (int v = 0; v < NVAR; v++)
			t[v] =
			    run(&m, v, nb, reps, s == nsizes - 1 ? &cnt : NULL);
		double tb = HAVE_BLAS ? run(&m, BLAS, nb, reps, NULL) : 0;
		mat_free(&m);
		xs[s] = n;
		for (int v = 0; v < NVAR; v++) {
			sp[v][s] = t[NAIVE] / t[v];
			if (cf)
				fprintf(cf, "speedup,%d,%s,%d,%.6f,%.4f\n", n,
					var_name[v], v == BLOCKED ? nb : 0,
					t[v], sp[v][s]);
		}
		printf("%6d %10.4f %10.4f %10.4f %10.4f   %14.2f %6.2f %7.2f",
		       n, t[0], t[1], t[2], t[3], sp[1][s], sp[2][s], sp[3][s]);
		if (HAVE_BLAS) {
			printf("   %10.5f %9.1f\n", tb, t[BLOCKED] / tb);
			if (cf)
				fprintf(cf, "speedup,%d,blas,0,%.6f,%.4f\n", n,
					tb, t[NAIVE] / tb);
		} else {
			printf("\n");
		}
	}
	printf("      (counters of the blocked run at n = %d below)\n",
	       sizes[nsizes - 1]);
	ex_counters_print(&cnt, stdout);
	ex_counters_close(&cnt);

	/* Figure 12: time versus N */
	static double sw[8][64];
	double bx[64];
	for (int s = 0; s < nss; s++) {
		mat m;
		char what[64];
		int best = 0;
		snprintf(what, sizeof what, "sweep of N at n = %d", ssizes[s]);
		progress(what);
		if (mat_init(&m, ssizes[s]))
			return 1;
		printf("\nsweep at n = %d:\n%6s %10s\n", ssizes[s], "N",
		       "seconds");
		for (int b = 0; b < nblocks; b++) {
			bx[b] = blocks[b];
			sw[s][b] = run(&m, BLOCKED, blocks[b],
				       ssizes[s] <= 400 ? 3 : 1, NULL);
			if (sw[s][b] < sw[s][best])
				best = b;
			if (cf)
				fprintf(cf, "sweep,%d,blocked,%d,%.6f,\n",
					ssizes[s], blocks[b], sw[s][b]);
			printf("%6d %10.4f%s\n", blocks[b], sw[s][b],
			       blocks[b] == nb ? "   <- from the probe" : "");
		}
		mat_free(&m);
		for (int b = 0; b < nblocks; b++)
			if (blocks[b] == nb)
				printf(
				    "best N = %d (%.4f s); the probe's N = %d "
				    "is %.1f %% slower\n",
				    blocks[best], sw[s][best], nb,
				    (sw[s][b] / sw[s][best] - 1) * 100);
	}
	if (cf && fclose(cf))
		return 1;

	if (svg_speed) {
		pmk_plot_series se[3];
		for (int v = 1; v < NVAR; v++)
			se[v - 1] =
			    (pmk_plot_series){var_name[v], xs, sp[v], nsizes};
		pmk_plot p = {.title = "speedup over the naive multiply "
				       "(seed 004 Figure 14)",
			      .xlabel = "matrix size n",
			      .ylabel = "speedup (x)",
			      .series = se,
			      .nseries = 3};
		FILE *f = fopen(svg_speed, "w");
		if (!f || pmk_plot_svg(&p, f) || fclose(f))
			return 1;
	}
	if (svg_sweep) {
		pmk_plot_series se[8];
		char names[8][32];
		double mx[1] = {nb};
		const char *ml[1] = {"N from the probe"};
		for (int s = 0; s < nss; s++) {
			snprintf(names[s], sizeof names[s], "n = %d",
				 ssizes[s]);
			se[s] = (pmk_plot_series){names[s], bx, sw[s], nblocks};
		}
		pmk_plot p = {.title = "blocked multiply: time vs block size N "
				       "(seed 004 Figure 12)",
			      .xlabel = "N (log2)",
			      .ylabel = "seconds (log10)",
			      .xlog = 1,
			      .ylog = 1,
			      .series = se,
			      .nseries = nss,
			      .marks_x = mx,
			      .marks_label = ml,
			      .nmarks = 1};
		FILE *f = fopen(svg_sweep, "w");
		if (!f || pmk_plot_svg(&p, f) || fclose(f))
			return 1;
	}
	return 0;
}
