/*
 * lat.c: pointer-chasing load latency. A chain of pointers is laid out in a
 * buffer and followed with dependent loads (p = *p); ns per load is the
 * latency of the level the chain fits in.
 *
 * Three layouts (docs/bench.md):
 *   stride      a forward ring at a fixed stride, like lmbench's lat_mem_rd;
 *               prefetchers can follow it, so it shows what streaming sees;
 *   random      elements (64 B by default) in random order inside windows of
 *               64 pages, windows in random order: no constant stride for
 *               the prefetchers, few TLB misses (multichase's idea);
 *   random-all  one random permutation of every element of the range: a
 *               new page almost every load, so TLB misses are included.
 * In both random modes the lines of a page come in random order (they are
 * shuffled with every other element of the window or range), and each
 * element's pointer sits at a random word of the element, not at offset 0.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pmkit/bench.h"

struct pmk_chase {
	char *buf, *map;
	size_t max, map_len;
	pmk_lat_cfg cfg;
	void **head, **pos;
	long elems;
	uint64_t rng;
};

void pmk_lat_cfg_default(pmk_lat_cfg *cfg)
{
	cfg->mode = PMK_LAT_RANDOM;
	cfg->stride = 64;
	cfg->window_pages = 64;
	cfg->huge = 0;
	cfg->offset0 = 0;
	cfg->seed = 0x9e3779b97f4a7c15ull;
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(uint32_t *a, size_t n, uint64_t *s)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(rnd(s) % i);
		uint32_t t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

int pmk_chase_new(pmk_chase **out, size_t max_bytes, const pmk_lat_cfg *cfg)
{
	pmk_chase *c;
	size_t huge = 2u << 20;
	if (!out || max_bytes < 64)
		return PMK_EINVAL;
	c = calloc(1, sizeof *c);
	if (!c)
		return PMK_ENOMEM;
	if (cfg)
		c->cfg = *cfg;
	else
		pmk_lat_cfg_default(&c->cfg);
	if (c->cfg.stride < sizeof(void *))
		c->cfg.stride =
		    c->cfg.mode == PMK_LAT_STRIDE ? sizeof(void *) : 64;
	c->cfg.stride -= c->cfg.stride % sizeof(void *);
	if (c->cfg.window_pages == 0)
		c->cfg.window_pages = 64;
	c->max = max_bytes;
	c->map_len = max_bytes + huge;
	c->map = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->map == MAP_FAILED) {
		free(c);
		return PMK_ENOMEM;
	}
	/* Align to 2 MiB so huge pages can back it when asked; otherwise say
	 * explicitly that we want small pages, whatever the THP setting. */
	c->buf =
	    (char *)(((uintptr_t)c->map + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
	madvise(c->buf, max_bytes,
		c->cfg.huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#endif
	c->rng = c->cfg.seed;
	*out = c;
	return 0;
}

void pmk_chase_free(pmk_chase *c)
{
	if (!c)
		return;
	munmap(c->map, c->map_len);
	free(c);
}

/* Element i's pointer: at offset 0 in stride mode (lat_mem_rd) and with
 * `offset0`; otherwise at a word of the element chosen by a hash of i, so
 * that no prefetcher sees the same offset in every element (with every
 * pointer at offset 0 of 256-byte elements, a pattern prefetcher made a
 * chase faster as the elements grew). */
static void **elem(pmk_chase *c, size_t i)
{
	size_t off = 0, words = c->cfg.stride / sizeof(void *);
	if (c->cfg.mode != PMK_LAT_STRIDE && !c->cfg.offset0 && words > 1) {
		uint64_t h = c->cfg.seed ^ (i * 0x9e3779b97f4a7c15ull);
		off = (size_t)(rnd(&h) % words) * sizeof(void *);
	}
	return (void **)(c->buf + i * c->cfg.stride + off);
}

long pmk_chase_build(pmk_chase *c, size_t range)
{
	size_t n, st;
	uint32_t *perm;
	if (!c || range > c->max || range < sizeof(void *))
		return PMK_EINVAL;
	st = c->cfg.stride;
	if (c->cfg.mode == PMK_LAT_STRIDE) {
		/* Elements at 0, st, 2 st, ... below range; forward ring. */
		n = (range + st - 1) / st;
		if ((n - 1) * st + sizeof(void *) > range)
			n--;
		if (n < 1)
			n = 1;
		for (size_t i = 0; i < n; i++)
			*elem(c, i) = elem(c, (i + 1) % n);
		c->head = c->pos = elem(c, 0);
		c->elems = (long)n;
		return c->elems;
	}
	n = range / st;
	if (n < 1)
		return PMK_EINVAL;
	if (n > UINT32_MAX)
		return PMK_ERANGE;
	perm = malloc(n * sizeof *perm);
	if (!perm)
		return PMK_ENOMEM;
	c->rng = c->cfg.seed ^ range;
	if (c->cfg.mode == PMK_LAT_RANDOM_ALL) {
		for (size_t i = 0; i < n; i++)
			perm[i] = (uint32_t)i;
		shuffle(perm, n, &c->rng);
	} else {
		/* Windows of window_pages pages in random order; inside each
		 * window its elements in random order. */
		size_t per_win = c->cfg.window_pages * 4096 / st, nwin, k = 0;
		uint32_t *worder;
		if (per_win < 1)
			per_win = 1;
		nwin = (n + per_win - 1) / per_win;
		worder = malloc(nwin * sizeof *worder);
		if (!worder) {
			free(perm);
			return PMK_ENOMEM;
		}
		for (size_t w = 0; w < nwin; w++)
			worder[w] = (uint32_t)w;
		shuffle(worder, nwin, &c->rng);
		for (size_t w = 0; w < nwin; w++) {
			size_t b = (size_t)worder[w] * per_win;
			size_t e = b + per_win > n ? n : b + per_win;
			for (size_t i = b; i < e; i++)
				perm[k + i - b] = (uint32_t)i;
			shuffle(perm + k, e - b, &c->rng);
			k += e - b;
		}
		free(worder);
	}
	for (size_t i = 0; i < n; i++)
		*elem(c, perm[i]) = elem(c, perm[(i + 1) % n]);
	c->head = c->pos = elem(c, perm[0]);
	c->elems = (long)n;
	free(perm);
	return c->elems;
}

#define HOP p = (void **)*p
#define HOP8                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP;                                                                   \
	HOP
static uint64_t chase_fn(void *arg, uint64_t n)
{
	pmk_chase *c = arg;
	void **p = c->pos;
	uint64_t loops = (n + 15) / 16;
	for (uint64_t i = 0; i < loops; i++) {
		HOP8;
		HOP8;
	}
	c->pos = p;
	return loops * 16;
}

int pmk_chase_time(pmk_chase *c, const pmk_bench_cfg *cfg, pmk_bench_stat *out)
{
	if (!c || !c->head)
		return PMK_ESTATE;
	return pmk_bench_run(chase_fn, c, cfg, out);
}

long pmk_chase_verify(pmk_chase *c)
{
	void **p;
	long k = 0;
	if (!c || !c->head)
		return PMK_ESTATE;
	p = c->head;
	do {
		char *q = (char *)*p;
		if (q < c->buf || q >= c->buf + c->max)
			return PMK_EFORMAT;
		p = (void **)q;
		k++;
	} while (p != c->head && k <= c->elems);
	return k;
}
