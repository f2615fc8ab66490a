/*
 * mempattern.c: named, generated memory-access patterns for the DRAM
 * interface buffer model. Each is a small deterministic program of a
 * processor's bus requests: the same (pattern, seed, count) always gives the
 * same requests. docs/addie.md describes what each one stands for.
 */
#include <string.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

enum {
	P_MIXED,
	P_SEQREAD,
	P_LINES,
	P_MEMCPY,
	P_STACK,
	P_BYTES,
	P_RANDOM,
	P_STRIDED,
	P_COUNT
};

static const struct {
	const char *name, *desc;
} patterns[P_COUNT] = {
    {"mixed", "a representative mix: sequential reads, a stack frame, an "
	      "output buffer, table look-ups, reads after writes, line "
	      "reads, bursts of 16-32 word writes"},
    {"seqread", "word reads walking through 256 KiB"},
    {"lines", "line (4-word burst) reads walking forward, with line "
	      "write-backs"},
    {"memcpy", "copy word by word: read source, write destination"},
    {"stack", "reads and writes of 1, 2 and 4 bytes in a 256-byte frame"},
    {"bytes", "byte writes filling a buffer, reading a word now and then"},
    {"random", "word reads (70 %) and writes anywhere in 4 MiB"},
    {"strided", "word reads every 32 bytes (every other line)"},
};

int pmk_mempattern_count(void)
{
	return P_COUNT;
}

const char *pmk_mempattern_name(int id)
{
	return id >= 0 && id < P_COUNT ? patterns[id].name : NULL;
}

const char *pmk_mempattern_desc(int id)
{
	return id >= 0 && id < P_COUNT ? patterns[id].desc : NULL;
}

int pmk_mempattern_find(const char *name)
{
	for (int i = 0; name && i < P_COUNT; i++)
		if (!strcmp(name, patterns[i].name))
			return i;
	return PMK_ENOENT;
}

typedef struct gen {
	uint64_t rng;
	uint32_t seq, out, line, wline, src, last_w[8];
	uint32_t burst, bptr; /* mixed: words left in a write burst */
	unsigned nlast;
} gen;

static uint32_t rnd(gen *g, uint32_t n)
{
	return (uint32_t)(((pmk__xs64(&g->rng) >> 32) * n) >> 32);
}

static void put(pmk_mem_access *a, uint32_t addr, unsigned size, int write,
		unsigned gap)
{
	a->addr = addr;
	a->size = (uint8_t)size;
	a->write = (uint8_t)write;
	a->gap = (uint16_t)gap;
}

static void stack_access(gen *g, pmk_mem_access *a, unsigned gap)
{
	uint32_t k = rnd(g, 100), size = k < 70 ? 4 : k < 85 ? 2 : 1;
	uint32_t addr = 0x7f000 + (rnd(g, 256) & ~(size - 1));
	int write = rnd(g, 100) < 55;
	put(a, addr, size, write, gap);
	if (write)
		g->last_w[g->nlast++ % 8] = addr & ~3u;
}

int pmk_mempattern_generate(int id, uint64_t seed, pmk_mem_access *out,
			    size_t n)
{
	gen g;
	if (id < 0 || id >= P_COUNT || (!out && n))
		return PMK_EINVAL;
	memset(&g, 0, sizeof g);
	g.rng = pmk__seed_mix(seed ^ ((uint64_t)id << 40));
	for (size_t i = 0; i < n; i++) {
		pmk_mem_access *a = &out[i];
		unsigned gap = 1 + rnd(&g, 6);
		switch (id) {
		case P_SEQREAD:
			put(a, 0x100000 + (g.seq & 0x3ffff), 4, 0, gap);
			g.seq += 4;
			break;
		case P_LINES:
			if (rnd(&g, 4) == 0) {
				put(a, 0x300800 + (g.wline & 0xffff), 16, 1,
				    gap);
				g.wline += 16;
			} else {
				put(a, 0x100000 + (g.line & 0x3ffff), 16, 0,
				    gap + 4);
				g.line += 16;
			}
			break;
		case P_MEMCPY:
			if (i & 1) {
				put(a, 0x180800 + (g.src & 0xffff), 4, 1, 1);
				g.src += 4;
			} else {
				put(a, 0x100000 + (g.src & 0xffff), 4, 0, gap);
			}
			break;
		case P_STACK:
			stack_access(&g, a, gap);
			break;
		case P_BYTES:
			if (rnd(&g, 16) == 0) {
				put(a, 0x100000 + (rnd(&g, 0x10000) & ~3u), 4,
				    0, gap);
			} else {
				put(a, 0x200000 + (g.out & 0xffff), 1, 1, gap);
				g.out++;
			}
			break;
		case P_RANDOM:
			put(a, (rnd(&g, 1u << 22)) & ~3u, 4, rnd(&g, 10) >= 7,
			    gap);
			break;
		case P_STRIDED:
			put(a, 0x100000 + (g.seq & 0x3ffff), 4, 0, gap);
			g.seq += 32;
			break;
		default: { /* P_MIXED */
			uint32_t k = rnd(&g, 1000) / 10;
			gap = 1 + rnd(&g, 8);
			if (g.burst) {
				/* a block copy or a register save: a burst of
				 * word writes, back to back */
				put(a, g.bptr, 4, 1, 1);
				g.bptr += 4;
				g.burst--;
			} else if (rnd(&g, 1000) < 6) {
				g.burst = 16 + rnd(&g, 17);
				g.bptr = 0x500000 + (rnd(&g, 1u << 16) & ~127u);
				put(a, g.bptr, 4, 1, gap);
				g.bptr += 4;
				g.burst--;
			} else if (k < 35) {
				put(a, 0x100000 + (g.seq & 0x3ffff), 4, 0, gap);
				g.seq += 4;
			} else if (k < 55) {
				stack_access(&g, a, gap);
			} else if (k < 70) {
				unsigned size = rnd(&g, 4) == 0 ? 1 : 4;
				g.out = (g.out + size - 1) & ~(size - 1);
				put(a, 0x200000 + (g.out & 0xffff), size, 1,
				    gap);
				g.last_w[g.nlast++ % 8] =
				    (0x200000 + (g.out & 0xffff)) & ~3u;
				g.out += size;
			} else if (k < 85) {
				put(a, 0x400000 + (rnd(&g, 1u << 20) & ~3u), 4,
				    0, gap);
			} else if (k < 95) {
				uint32_t addr =
				    g.nlast
					? g.last_w[rnd(&g, g.nlast < 8 ? g.nlast
								       : 8)]
					: 0x7f000;
				put(a, addr, 4, 0, gap);
			} else {
				put(a, 0x600000 + (g.line & 0xffff), 16, 0,
				    gap);
				g.line += 16;
			}
			break;
		}
		}
	}
	return 0;
}
