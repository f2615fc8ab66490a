/*
 * bw.c: memory bandwidth kernels (seed 004's Figure 8 operations).
 *
 * Bytes credited per pass are always `size`, the buffer size, whatever the
 * op does (lmbench's rule): rd/wr/rdwr/cp touch one 4-byte word per 16 bytes,
 * which still moves every cache line; cp and bcopy credit the bytes copied,
 * not read + written; write-allocate traffic is not credited. MB = 10^6.
 * By default the kernels run in the widest vector ISA (bw_simd.c), so that
 * L1 and L2 figures measure the cache, not scalar issue; the scalar kernels
 * below stay as a mode (PMK_BW_ISA_SCALAR, `bench bw --isa scalar`).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bw_nt.h"
#include "bench/bw_simd.h"
#include "pmkit/bench.h"

static const char *const op_names[PMK_BW_NOPS] = {
    "rd",    "wr",	  "rdwr",  "cp",   "frd", "fwr",
    "fcp",   "bzero", "bcopy", "triad", "ntwr", "ntcp"};

const char *pmk_bw_op_name(enum pmk_bw_op op)
{
	return (unsigned)op < PMK_BW_NOPS ? op_names[op] : NULL;
}

int pmk_bw_op_parse(const char *name)
{
	for (int i = 0; name && i < PMK_BW_NOPS; i++)
		if (!strcmp(name, op_names[i]))
			return i;
	return -1;
}

typedef unsigned long long v2 __attribute__((vector_size(16)));

struct bw_job {
	enum pmk_bw_op op;
	enum pmk_bw_isa isa;
	size_t size;
	char *src, *dst;
	volatile int64_t sink;
	pmk_bench_cfg cfg;
	pmk_bench_stat st;
	volatile int *go; /* 0 wait, 1 run, -1 give up */
	int rc;
};

/* One pass of the op over the buffer; returns a value to keep reads live. */
static int64_t pass(struct bw_job *j)
{
	size_t nl = j->size / 64, nv = j->size / sizeof(v2);
	unsigned *s = (unsigned *)j->src, *d = (unsigned *)j->dst;
	v2 *vs = (v2 *)j->src, *vd = (v2 *)j->dst;
	int64_t acc = 0;
	if ((j->op == PMK_BW_TRIAD || j->op == PMK_BW_NTWR ||
	     j->op == PMK_BW_NTCP) &&
	    pmk__bw_nt(j->op, j->isa, j->dst, j->src, j->size, &acc) == 0)
		return acc;
	if (j->isa != PMK_BW_ISA_SCALAR) {
		int kind = -1;
		switch (j->op) {
		case PMK_BW_RD:
		case PMK_BW_FRD:
			kind = PMK__BW_READ;
			break;
		case PMK_BW_WR:
		case PMK_BW_FWR:
			kind = PMK__BW_WRITE;
			break;
		case PMK_BW_CP:
		case PMK_BW_FCP:
			kind = PMK__BW_COPY;
			break;
		case PMK_BW_RDWR:
			kind = PMK__BW_RDWR;
			break;
		default:
			break;
		}
		if (kind >= 0 &&
		    pmk__bw_simd(j->isa, (enum pmk__bw_kind)kind, j->dst,
				 j->src, j->size, &acc) == 0) {
			__asm__ volatile("" ::"r"(j->dst) : "memory");
			return acc;
		}
	}
	switch (j->op) {
	case PMK_BW_RD: {
		unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0;
		for (size_t i = 0; i < nl; i++, s += 16) {
			a0 += s[0];
			a1 += s[4];
			a2 += s[8];
			a3 += s[12];
		}
		acc = (int64_t)(a0 + a1 + a2 + a3);
		break;
	}
	case PMK_BW_WR:
		for (size_t i = 0; i < nl; i++, s += 16)
			s[0] = s[4] = s[8] = s[12] = 1;
		break;
	case PMK_BW_RDWR:
		for (size_t i = 0; i < nl; i++, s += 16) {
			s[0] += 1;
			s[4] += 1;
			s[8] += 1;
			s[12] += 1;
		}
		break;
	case PMK_BW_CP:
		for (size_t i = 0; i < nl; i++, s += 16, d += 16) {
			d[0] = s[0];
			d[4] = s[4];
			d[8] = s[8];
			d[12] = s[12];
		}
		break;
	case PMK_BW_FRD: {
		v2 a = {0, 0}, b = {0, 0}, c = {0, 0}, e = {0, 0};
		size_t i = 0;
		for (; i + 4 <= nv; i += 4) {
			a += vs[i];
			b += vs[i + 1];
			c += vs[i + 2];
			e += vs[i + 3];
		}
		a += b + c + e;
		acc = (int64_t)(a[0] + a[1]);
		break;
	}
	case PMK_BW_FWR: {
		v2 one = {1, 1};
		for (size_t i = 0; i < nv; i++)
			vd[i] = one;
		__asm__ volatile("" ::"r"(vd) : "memory");
		break;
	}
	case PMK_BW_FCP:
		for (size_t i = 0; i < nv; i++)
			vd[i] = vs[i];
		__asm__ volatile("" ::"r"(vd) : "memory");
		break;
	case PMK_BW_BZERO:
		memset(j->dst, 0, j->size);
		__asm__ volatile("" ::"r"(j->dst) : "memory");
		break;
	case PMK_BW_BCOPY:
		memcpy(j->dst, j->src, j->size);
		__asm__ volatile("" ::"r"(j->dst) : "memory");
		break;
	default:
		break;
	}
	return acc;
}

static uint64_t bw_fn(void *arg, uint64_t n)
{
	struct bw_job *j = arg;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++)
		acc += (uint64_t)pass(j);
	j->sink = (int64_t)(acc >> 1);
	return n;
}

static void *bw_thread(void *arg)
{
	struct bw_job *j = arg;
	if (pmk_bench_pin(j->cfg.cpu) < 0)
		j->cfg.cpu = -1;
	/* fault the buffers in, on this thread's CPU */
	memset(j->src, 1, j->size);
	if (j->dst != j->src)
		memset(j->dst, 1, j->size);
	while (j->go && __atomic_load_n(j->go, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	if (j->go && *j->go < 0)
		return NULL;
	j->rc = pmk_bench_run(bw_fn, j, &j->cfg, &j->st);
	return NULL;
}

static char *buf_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int pmk_bw_run(enum pmk_bw_op op, size_t size, int threads,
	       const pmk_bench_cfg *cfg, pmk_bw_result *out)
{
	return pmk_bw_run_isa(op, PMK_BW_ISA_AUTO, size, threads, cfg, out);
}

int pmk_bw_run_isa(enum pmk_bw_op op, enum pmk_bw_isa isa, size_t size,
		   int threads, const pmk_bench_cfg *cfg, pmk_bw_result *out)
{
	struct bw_job *jobs;
	pthread_t *tid;
	volatile int go = 0;
	pmk_bench_cfg def;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int rc = 0, base;

	if ((unsigned)op >= PMK_BW_NOPS || size < 512 || threads < 1 ||
	    threads > 256 || !out)
		return PMK_EINVAL;
	if ((unsigned)isa >= PMK_BW_ISA_N)
		return PMK_EINVAL;
	if (isa == PMK_BW_ISA_AUTO)
		isa = pmk_bw_isa_best();
	if (!pmk_bw_isa_supported(isa))
		return PMK_ENOTSUP;
	size -= size % 64;
	if (!cfg) {
		pmk_bench_cfg_default(&def);
		cfg = &def;
	}
	if (ncpu < 1)
		ncpu = 1;
	base = cfg->cpu >= 0 ? cfg->cpu : sched_getcpu();
	if (base < 0)
		base = 0;
	jobs = calloc((size_t)threads, sizeof *jobs);
	tid = calloc((size_t)threads, sizeof *tid);
	if (!jobs || !tid) {
		free(jobs);
		free(tid);
		return PMK_ENOMEM;
	}
	for (int i = 0; i < threads && rc == 0; i++) {
		struct bw_job *j = &jobs[i];
		int two = op == PMK_BW_CP || op == PMK_BW_FCP ||
			  op == PMK_BW_BCOPY || op == PMK_BW_NTCP;
		j->op = op;
		j->isa = isa;
		j->size = size;
		j->cfg = *cfg;
		j->cfg.cpu = (int)((base + i) % ncpu);
		/* a sample must hold several passes even at DRAM speed */
		if (size >= (16u << 20) && j->cfg.sample_ms < 50)
			j->cfg.sample_ms = 50;
		j->go = threads > 1 ? &go : NULL;
		j->src = buf_alloc(size);
		j->dst = two ? buf_alloc(size) : j->src;
		if (!j->src || !j->dst)
			rc = PMK_ENOMEM;
	}
	if (rc == 0 && threads == 1) {
		/* run on the calling thread: keeps its pinning */
		if (cfg->cpu >= 0)
			pmk_bench_pin(cfg->cpu);
		jobs[0].cfg.cpu = -1;
		bw_thread(&jobs[0]);
	} else if (rc == 0) {
		int started = 0;
		for (int i = 0; i < threads; i++) {
			if (pthread_create(&tid[i], NULL, bw_thread, &jobs[i]))
				break;
			started++;
		}
		if (started < threads)
			rc = PMK_ESYS;
		__atomic_store_n(&go, rc ? -1 : 1, __ATOMIC_RELEASE);
		for (int i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
	}
	memset(out, 0, sizeof *out);
	out->threads = threads;
	out->isa = isa;
	out->cpu = jobs[0].st.cpu;
	for (int i = 0; i < threads; i++) {
		struct bw_job *j = &jobs[i];
		double credit = op == PMK_BW_TRIAD
				    ? (double)pmk__bw_triad_bytes(size)
				    : (double)size;
		if (rc == 0 && j->rc)
			rc = j->rc;
		if (j->st.median_ns > 0) {
			out->mb_s_median += credit / j->st.median_ns * 1e3;
			out->mb_s_max += credit / j->st.min_ns * 1e3;
		}
		if (j->dst && j->dst != j->src)
			munmap(j->dst, size);
		if (j->src)
			munmap(j->src, size);
	}
	free(jobs);
	free(tid);
	return rc;
}
