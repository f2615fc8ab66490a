/*
 * workload.c: synthetic instruction streams, generated on the fly.
 *
 * A workload is a static program built once from the seed (basic blocks of
 * 4-byte instructions with op classes, registers, branch targets and a
 * memory-access pattern per load/store) walked dynamically for `n`
 * instructions: branch outcomes and addresses come from a second random
 * stream, so the same spec always gives the same instructions. Named presets
 * are parameter sets (docs/sim.md lists them and the keys).
 *
 * Program shape: `code` bytes of main blocks run in a cycle; block b ends in
 * a conditional branch to b+2 (taken) or falls to b+1, or in a call to one of
 * a few small functions (some in kernel mode), or in an indirect jump to one
 * of b+1..b+3. Loads follow one of four patterns: local (a 16 KB hot region),
 * stream (sequential with a stride over the footprint), random (uniform over
 * the footprint, independent) and chase (each address depends on the
 * previous load: a full-period permutation of the footprint's lines).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/sim.h"

enum { PAT_NONE, PAT_LOCAL, PAT_STREAM, PAT_RANDOM, PAT_CHASE };

typedef struct wparams {
	double n, seed, code, footprint, load, store, branch, fp, fdiv, imul,
	    chase, stream, random, predict, call, jind, kernel, dep, stride,
	    missload;
} wparams;

static const struct {
	const char *key;
	size_t off;
	const char *desc;
} keys[] = {
#define K(name, d)                                                             \
	{                                                                      \
#name, offsetof(wparams, name), d                              \
	}
    K(n, "instructions to generate"),
    K(seed, "random seed"),
    K(code, "main code footprint in bytes"),
    K(footprint, "data footprint in bytes"),
    K(load, "fraction of instructions that load"),
    K(store, "fraction that store"),
    K(branch, "fraction that are block-ending branches"),
    K(fp, "fraction of FP add/multiply"),
    K(fdiv, "fraction of FP divide/sqrt"),
    K(imul, "fraction of integer multiply/divide"),
    K(chase, "fraction of loads that chase pointers"),
    K(stream, "fraction of loads/stores that stream"),
    K(random, "fraction of loads at random over the footprint"),
    K(predict, "fraction of branch outcomes that follow the branch's bias"),
    K(call, "fraction of blocks ending in a call"),
    K(jind, "fraction of blocks ending in an indirect jump"),
    K(kernel, "fraction of calls into kernel-mode functions"),
    K(dep, "sources are drawn from the last `dep` results"),
    K(stride, "stream stride in bytes"),
    K(missload,
      "N > 0: an N-instruction loop (16..4096) with one load that misses"),
#undef K
};

static const wparams base_params = {.n = 1000000,
				    .seed = 1,
				    .code = 4096,
				    .footprint = 1 << 20,
				    .load = 0.25,
				    .store = 0.1,
				    .branch = 0.15,
				    .fp = 0,
				    .fdiv = 0,
				    .imul = 0.02,
				    .chase = 0,
				    .stream = 0,
				    .random = 0,
				    .predict = 0.97,
				    .call = 0.05,
				    .jind = 0.02,
				    .kernel = 0,
				    .dep = 4,
				    .stride = 8,
				    .missload = 0};

static const struct preset {
	const char *name, *desc, *params;
} presets[] = {
    {"pointer-chase",
     "dependent loads over a 64 MB footprint (L2 misses, no MLP)",
     "code=2048,footprint=64M,load=0.2,chase=1,branch=0.1,predict=0.995"},
    {"random-load",
     "independent loads at random over 64 MB (L2 misses with MLP)",
     "code=2048,footprint=64M,load=0.2,random=1,branch=0.1,predict=0.995"},
    {"stream", "strided loads and stores over 64 MB with FP work",
     "code=1024,footprint=64M,load=0.3,store=0.1,stream=1,fp=0.3,"
     "branch=0.08,predict=0.995,call=0,jind=0"},
    {"branchy", "short blocks, data-dependent branches (predict=0.6)",
     "code=8192,branch=0.25,predict=0.6,load=0.2"},
    {"fp-compute", "chains of long-latency FP divide and square root",
     "code=2048,fp=0.4,fdiv=0.12,load=0.1,branch=0.08,predict=0.995,dep=2"},
    {"icache", "2 MB of code walked in sequence (I-cache and I-TLB misses)",
     "code=2M,branch=0.12,predict=0.98,load=0.2,call=0.1"},
    {"int-mix", "integer-benchmark-like mix (gcc-ish): 48 KB code, 4 MB data",
     "code=48K,footprint=4M,load=0.25,store=0.1,random=0.08,stream=0.05,"
     "branch=0.16,predict=0.93,imul=0.03,call=0.06"},
    {"int-memory", "integer mix with pointer chasing (mcf-ish): 32 MB data",
     "code=16K,footprint=32M,load=0.3,chase=0.3,random=0.15,branch=0.18,"
     "predict=0.9"},
    {"int-compress", "compression-like: small code, 1 MB tables, hard branches",
     "code=8K,footprint=1M,load=0.28,store=0.12,random=0.5,branch=0.14,"
     "predict=0.88,call=0.02"},
    {"kernel-mix", "int-mix with 30% of calls into kernel-mode code",
     "code=48K,footprint=4M,load=0.25,random=0.08,branch=0.16,predict=0.93,"
     "call=0.15,kernel=0.3"},
    {"miss-load", "200-instruction loop with one load that always misses",
     "missload=200,footprint=256M,predict=1"},
    {"ilp", "independent integer work, perfectly predictable (IPC near width)",
     "code=1024,load=0.1,store=0.05,branch=0.08,predict=1,dep=16,call=0,"
     "jind=0"},
};

typedef struct sinsn {
	uint64_t pc;
	uint8_t op, pat, nsrc, ndst, dir, kernel;
	uint8_t src[2], dst;
	uint32_t next, target, alt[3];
	uint64_t cursor; /* stream position */
} sinsn;

struct pmk_workload {
	wparams p;
	sinsn *st;
	uint32_t nst;
	uint64_t left;
	uint32_t cur;
	uint32_t stack[64];
	int sp;
	uint64_t rng;
	uint64_t chase_idx, chase_mask;
	uint64_t foot;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static double frand(uint64_t *s)
{
	return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

static int parse_num(const char *s, double *v)
{
	char *end;
	double m = 1;
	*v = strtod(s, &end);
	if (end == s)
		return -1;
	if (*end == 'K' || *end == 'k')
		m = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		m = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		m = 1024.0 * 1024 * 1024, end++;
	if (*end || !isfinite(*v) || *v < 0)
		return -1;
	*v *= m;
	/* every key ends up in an integer (counts, sizes, seeds): at most
	 * 2^62, so that no conversion overflows */
	if (*v > 4.6e18)
		return -1;
	return 0;
}

static int fail(pmk_diag *d, int code, const char *spec, int col,
		const char *msg, const char *hint)
{
	if (d) {
		pmk_diag_clear(d);
		d->code = code;
		d->column = col;
		snprintf(d->input, sizeof d->input, "%s", spec);
		snprintf(d->message, sizeof d->message, "%s", msg);
		snprintf(d->hint, sizeof d->hint, "%s", hint ? hint : "");
	}
	return code;
}

/* Apply "k=v,k=v" from `s` (column offset `col0` in `spec`). */
static int apply(wparams *p, const char *s, const char *spec, int col0,
		 pmk_diag *d)
{
	char item[128], msg[200];
	const char *q = s;
	while (*q) {
		const char *e = strchr(q, ',');
		size_t len = e ? (size_t)(e - q) : strlen(q);
		int col = col0 + (int)(q - s) + 1;
		char *eq;
		size_t k;
		if (len == 0 || len >= sizeof item)
			return fail(d, PMK_ESYNTAX, spec, col,
				    "expected KEY=VALUE", NULL);
		memcpy(item, q, len);
		item[len] = 0;
		eq = strchr(item, '=');
		if (!eq)
			return fail(d, PMK_ESYNTAX, spec, col,
				    "expected KEY=VALUE", NULL);
		*eq = 0;
		for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
			if (!strcmp(keys[k].key, item))
				break;
		if (k == sizeof keys / sizeof keys[0]) {
			snprintf(msg, sizeof msg, "unknown workload key '%s'",
				 item);
			return fail(d, PMK_ESYNTAX, spec, col, msg,
				    "keys: n seed code footprint load store "
				    "branch fp fdiv imul chase stream random "
				    "predict call jind kernel dep stride");
		}
		if (parse_num(eq + 1, (double *)((char *)p + keys[k].off)))
			return fail(d, PMK_ESYNTAX, spec,
				    col + (int)(eq + 1 - item),
				    "expected a non-negative number up to "
				    "4.6e18 (K, M, G suffixes allowed)",
				    NULL);
		q += len;
		if (*q == ',')
			q++;
	}
	return 0;
}

int pmk_workload_foreach(int (*fn)(const char *name, const char *desc,
				   void *arg),
			 void *arg)
{
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
		int rc = fn(presets[i].name, presets[i].desc, arg);
		if (rc)
			return rc;
	}
	return 0;
}

static uint8_t pick_src(uint8_t *ring, int dep, uint64_t *r)
{
	return ring[rnd(r) % (uint64_t)dep];
}

static void build(pmk_workload *w)
{
	wparams *p = &w->p;
	uint64_t r = (uint64_t)p->seed * 0x9E3779B97F4A7C15ull + 12345;
	uint32_t nmain, nfunc = 16, i;
	uint8_t iring[16], fring[16];
	int dep = p->dep < 1 ? 1 : p->dep > 16 ? 16 : (int)p->dep;
	int ni = 0, nf = 0;
	for (int k = 0; k < 16; k++)
		iring[k] = (uint8_t)(1 + k % 15), fring[k] = (uint8_t)(33 + k);
	(void)ni;
	(void)nf;
	if (p->missload) {
		nmain = p->missload < 16     ? 16
			: p->missload > 4096 ? 4096
					     : (uint32_t)p->missload;
		nfunc = 0;
	} else {
		nmain = (uint32_t)(p->code / 4);
		if (nmain < 16)
			nmain = 16;
		if (nmain > (1u << 22))
			nmain = 1u << 22;
	}
	w->nst = nmain + nfunc * 8;
	w->st = calloc(w->nst, sizeof *w->st);
	if (!w->st)
		return;
	if (p->missload) {
		uint32_t len = w->nst, ld = len / 2;
		for (i = 0; i < len; i++) {
			sinsn *s = &w->st[i];
			s->pc = 0x400000 + 4 * i;
			s->next = (i + 1) % len;
			s->op = PMK_SIM_OP_INT;
			s->ndst = 1;
			s->dst = (uint8_t)(1 + i % 4);
			s->nsrc = 1;
			s->src[0] = s->dst; /* four independent chains */
		}
		w->st[ld].op = PMK_SIM_OP_LOAD;
		w->st[ld].pat = PAT_RANDOM;
		w->st[ld].src[0] = 21;
		w->st[ld].dst = 10;
		w->st[len - 1].op = PMK_SIM_OP_BCOND;
		w->st[len - 1].ndst = 0;
		w->st[len - 1].dir = 1;
		w->st[len - 1].target = 0;
		w->st[len - 1].next = 0;
		return;
	}
	/* main blocks */
	i = 0;
	while (i < nmain) {
		double mean = p->branch > 0.01 ? 1.0 / p->branch : 100;
		uint32_t len = 2 + (uint32_t)(frand(&r) * 2 * (mean - 1));
		uint32_t start = i, end;
		if (len > 64)
			len = 64;
		if (start + len > nmain)
			len = nmain - start;
		end = start + len;
		for (; i < end; i++) {
			sinsn *s = &w->st[i];
			double x = frand(&r);
			s->pc = 0x400000 + 4ull * i;
			s->next = i + 1 < nmain ? i + 1 : 0;
			if (i + 1 == end) {
				double y = frand(&r);
				uint32_t tgt =
				    (end + 1 + (uint32_t)(rnd(&r) % 2)) % nmain;
				/* the target is the start of a later block:
				 * approximate by an index a little ahead */
				s->target = tgt;
				s->nsrc = 1;
				s->src[0] = pick_src(iring, dep, &r);
				if (nfunc && y < p->call) {
					uint32_t fn =
					    (uint32_t)(rnd(&r) % nfunc);
					if (frand(&r) >= p->kernel)
						fn %= nfunc / 2;
					else
						fn = nfunc / 2 +
						     fn % (nfunc / 2);
					s->op = PMK_SIM_OP_CALL;
					s->nsrc = 0;
					s->target = nmain + fn * 8;
				} else if (y < p->call + p->jind) {
					s->op = PMK_SIM_OP_JIND;
					for (int k = 0; k < 3; k++)
						s->alt[k] =
						    (end + (uint32_t)k) % nmain;
					s->target = s->alt[0];
				} else {
					s->op = PMK_SIM_OP_BCOND;
					s->dir = (uint8_t)(rnd(&r) & 1);
				}
				continue;
			}
			if (x < p->load) {
				double y = frand(&r);
				s->op = PMK_SIM_OP_LOAD;
				s->nsrc = 1;
				s->ndst = 1;
				if (y < p->chase) {
					s->pat = PAT_CHASE;
					s->src[0] = 20;
					s->dst = 20;
					continue;
				}
				s->pat = y < p->chase + p->stream ? PAT_STREAM
					 : y < p->chase + p->stream + p->random
					     ? PAT_RANDOM
					     : PAT_LOCAL;
				s->src[0] = 21;
				s->dst = (uint8_t)(1 + rnd(&r) % 15);
				iring[ni++ % dep] = s->dst;
			} else if (x < p->load + p->store) {
				s->op = PMK_SIM_OP_STORE;
				s->nsrc = 2;
				s->src[0] = 21;
				s->src[1] = pick_src(iring, dep, &r);
				s->pat = frand(&r) < p->stream ? PAT_STREAM
							       : PAT_LOCAL;
			} else if (x < p->load + p->store + p->fp) {
				s->op = PMK_SIM_OP_FADD;
				s->nsrc = 2;
				s->src[0] = pick_src(fring, dep, &r);
				s->src[1] = pick_src(fring, dep, &r);
				s->ndst = 1;
				s->dst = (uint8_t)(33 + rnd(&r) % 16);
				fring[nf++ % dep] = s->dst;
			} else if (x < p->load + p->store + p->fp + p->fdiv) {
				s->op = PMK_SIM_OP_FDIV;
				s->nsrc = 1;
				s->src[0] = pick_src(fring, dep, &r);
				s->ndst = 1;
				s->dst = (uint8_t)(33 + rnd(&r) % 16);
				fring[nf++ % dep] = s->dst;
			} else {
				s->op = x < p->load + p->store + p->fp +
						    p->fdiv + p->imul
					    ? PMK_SIM_OP_IMUL
					    : PMK_SIM_OP_INT;
				s->nsrc = 2;
				s->src[0] = pick_src(iring, dep, &r);
				s->src[1] = pick_src(iring, dep, &r);
				s->ndst = 1;
				s->dst = (uint8_t)(1 + rnd(&r) % 15);
				iring[ni++ % dep] = s->dst;
			}
		}
	}
	/* functions: 8 instructions each, the last a return; the upper half
	 * run in kernel mode */
	for (uint32_t f = 0; f < nfunc; f++) {
		int kern = f >= nfunc / 2;
		for (uint32_t k = 0; k < 8; k++) {
			sinsn *s = &w->st[nmain + f * 8 + k];
			s->pc =
			    (kern ? 0xffffffff81000000ull : 0x7f0000000000ull) +
			    f * 4096 + 4 * k;
			s->kernel = (uint8_t)kern;
			s->next = nmain + f * 8 + k + 1;
			if (k == 7) {
				s->op = PMK_SIM_OP_RET;
			} else if (k == 2) {
				s->op = PMK_SIM_OP_LOAD;
				s->pat = PAT_LOCAL;
				s->nsrc = 1;
				s->src[0] = 21;
				s->ndst = 1;
				s->dst = (uint8_t)(1 + k);
			} else {
				s->op = PMK_SIM_OP_INT;
				s->nsrc = 1;
				s->src[0] = (uint8_t)(1 + k);
				s->ndst = 1;
				s->dst = (uint8_t)(2 + k);
			}
		}
	}
	/* stream cursors start spread over the footprint */
	for (i = 0; i < w->nst; i++)
		if (w->st[i].pat == PAT_STREAM)
			w->st[i].cursor = rnd(&r) % w->foot & ~63ull;
}

int pmk_workload_new(pmk_workload **out, const char *spec, pmk_diag *d)
{
	pmk_workload *w;
	wparams p = base_params;
	char name[64];
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	size_t i;
	int rc;
	*out = NULL;
	if (nlen >= sizeof name)
		return fail(d, PMK_ENOENT, spec, 1, "unknown workload", NULL);
	memcpy(name, spec, nlen);
	name[nlen] = 0;
	for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (!strcmp(presets[i].name, name))
			break;
	if (i == sizeof presets / sizeof presets[0] && strcmp(name, "custom")) {
		char msg[160];
		snprintf(msg, sizeof msg, "unknown workload '%s'", name);
		return fail(d, PMK_ENOENT, spec, 1, msg,
			    "`pmkit sim workloads` lists them");
	}
	if (i < sizeof presets / sizeof presets[0]) {
		rc = apply(&p, presets[i].params, presets[i].params, 0, NULL);
		if (rc < 0)
			return rc;
	}
	if (colon) {
		rc = apply(&p, colon + 1, spec, (int)(colon + 1 - spec), d);
		if (rc < 0)
			return rc;
	}
	if (p.footprint < 4096)
		p.footprint = 4096;
	if (p.footprint > 64.0 * 1024 * 1024 * 1024)
		return fail(d, PMK_ERANGE, spec, 1, "footprint above 64 GB",
			    NULL);
	if (p.code > 16.0 * 1024 * 1024)
		return fail(d, PMK_ERANGE, spec, 1, "code above 16 MB", NULL);
	if (p.predict > 1 || p.load + p.store + p.fp + p.fdiv + p.imul > 1)
		return fail(d, PMK_ERANGE, spec, 1,
			    "fractions must be at most 1 (and the mix sum too)",
			    NULL);
	w = calloc(1, sizeof *w);
	if (!w)
		return PMK_ENOMEM;
	w->p = p;
	w->foot = (uint64_t)p.footprint;
	w->chase_mask = 1;
	while (w->chase_mask * 64 < w->foot)
		w->chase_mask <<= 1;
	w->chase_mask -= 1;
	build(w);
	if (!w->st) {
		free(w);
		return PMK_ENOMEM;
	}
	w->left = (uint64_t)p.n;
	w->rng = (uint64_t)p.seed * 0xD1B54A32D192ED03ull + 99;
	if (!w->rng)
		w->rng = 1;
	*out = w;
	return 0;
}

void pmk_workload_free(pmk_workload *w)
{
	if (!w)
		return;
	free(w->st);
	free(w);
}

static uint64_t address(pmk_workload *w, sinsn *s)
{
	switch (s->pat) {
	case PAT_LOCAL:
		return 0x10000000ull + (rnd(&w->rng) % 16384 & ~7ull);
	case PAT_STREAM:
		s->cursor += (uint64_t)w->p.stride;
		if (s->cursor >= w->foot)
			s->cursor = 0;
		return 0x40000000000ull + s->cursor;
	case PAT_RANDOM:
		return 0x80000000000ull + (rnd(&w->rng) % w->foot & ~7ull);
	case PAT_CHASE:
		w->chase_idx = (w->chase_idx * 6364136223846793005ull +
				1442695040888963407ull) &
			       w->chase_mask;
		return 0xC0000000000ull + w->chase_idx * 64;
	}
	return 0;
}

int pmk_workload_next(void *wp, pmk_sim_insn *o)
{
	pmk_workload *w = wp;
	sinsn *s;
	uint32_t nx;
	if (!w->left)
		return 0;
	w->left--;
	s = &w->st[w->cur];
	memset(o, 0, sizeof *o);
	o->pc = s->pc;
	o->op = s->op;
	o->len = 4;
	o->kernel = s->kernel;
	o->nsrc = s->nsrc;
	o->src[0] = s->src[0];
	o->src[1] = s->src[1];
	if (s->ndst) {
		o->ndst = 1;
		o->dst[0] = s->dst;
	}
	nx = s->next;
	switch (s->op) {
	case PMK_SIM_OP_LOAD:
	case PMK_SIM_OP_STORE:
		o->nmem = 1;
		o->mem[0].addr = address(w, s);
		o->mem[0].size = 8;
		o->mem[0].store = s->op == PMK_SIM_OP_STORE;
		break;
	case PMK_SIM_OP_BCOND:
		o->taken = frand(&w->rng) < w->p.predict
			       ? s->dir
			       : (uint8_t)(rnd(&w->rng) & 1);
		o->target = w->st[s->target].pc;
		if (o->taken)
			nx = s->target;
		break;
	case PMK_SIM_OP_JIND: {
		uint32_t k = frand(&w->rng) < w->p.predict
				 ? 0
				 : (uint32_t)(rnd(&w->rng) % 3);
		nx = s->alt[k];
		o->taken = 1;
		o->target = w->st[nx].pc;
		o->nsrc = 1;
		o->src[0] = 22;
		break;
	}
	case PMK_SIM_OP_CALL:
		o->taken = 1;
		o->target = w->st[s->target].pc;
		if (w->sp < 64)
			w->stack[w->sp++] = s->next;
		nx = s->target;
		break;
	case PMK_SIM_OP_RET:
		nx = w->sp ? w->stack[--w->sp] : 0;
		o->taken = 1;
		o->target = w->st[nx].pc;
		break;
	case PMK_SIM_OP_JUMP:
		o->taken = 1;
		o->target = w->st[s->target].pc;
		nx = s->target;
		break;
	}
	w->cur = nx;
	return 1;
}
