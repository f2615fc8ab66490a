/*
 * struct.c: set-associative LRU arrays and branch predictors (struct.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pmkit/sim.h"
#include "sim/core/struct.h"

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static uint32_t log2u(uint64_t x)
{
	uint32_t s = 0;
	while ((1ull << s) < x)
		s++;
	return s;
}

int pmk__sa_init(pmk__sa *c, uint64_t size_bytes, uint32_t assoc,
		 uint32_t block_bytes)
{
	uint64_t blocks, n;
	memset(c, 0, sizeof *c);
	if (!is_pow2(block_bytes) || !assoc || size_bytes < block_bytes)
		return PMK_EINVAL;
	blocks = size_bytes / block_bytes;
	if (blocks % assoc || !is_pow2(blocks / assoc))
		return PMK_EINVAL;
	c->sets = (uint32_t)(blocks / assoc);
	c->assoc = assoc;
	c->shift = log2u(block_bytes);
	n = blocks;
	c->tag = calloc(n, sizeof *c->tag);
	c->stamp = calloc(n, sizeof *c->stamp);
	c->ready = calloc(n, sizeof *c->ready);
	if (!c->tag || !c->stamp || !c->ready) {
		pmk__sa_release(c);
		return PMK_ENOMEM;
	}
	return 0;
}

void pmk__sa_release(pmk__sa *c)
{
	free(c->tag);
	free(c->stamp);
	free(c->ready);
	memset(c, 0, sizeof *c);
}

int pmk__sa_lookup(pmk__sa *c, uint64_t addr, uint64_t *ready)
{
	uint64_t blk = addr >> c->shift;
	uint64_t *t = c->tag + (blk & (c->sets - 1)) * c->assoc;
	for (uint32_t w = 0; w < c->assoc; w++)
		if (t[w] == blk + 1) {
			size_t i = (size_t)(t - c->tag) + w;
			c->stamp[i] = ++c->clock;
			if (ready)
				*ready = c->ready[i];
			return 1;
		}
	return 0;
}

void pmk__sa_insert(pmk__sa *c, uint64_t addr, uint64_t ready)
{
	uint64_t blk = addr >> c->shift;
	size_t base = (size_t)(blk & (c->sets - 1)) * c->assoc, v = base;
	for (uint32_t w = 0; w < c->assoc; w++) {
		if (!c->tag[base + w]) {
			v = base + w;
			break;
		}
		if (c->stamp[base + w] < c->stamp[v])
			v = base + w;
	}
	c->tag[v] = blk + 1;
	c->stamp[v] = ++c->clock;
	c->ready[v] = ready;
}

/* ------------------------------------------------------------ predictors */

int pmk__bp_init(pmk__bp *b, uint32_t kind, uint32_t bits, uint32_t hbits,
		 uint32_t btb_entries, uint32_t btb_assoc, uint32_t ras_depth)
{
	size_t n;
	int rc;
	memset(b, 0, sizeof *b);
	if (bits < 2 || bits > 24 || hbits > bits || ras_depth < 1 ||
	    ras_depth > 1024)
		return PMK_EINVAL;
	b->kind = kind;
	b->bits = bits;
	b->hbits = hbits;
	n = (size_t)1 << bits;
	b->bim = malloc(n);
	b->gsh = malloc(n);
	b->cho = malloc(n);
	b->ras = calloc(ras_depth, sizeof *b->ras);
	b->ras_depth = ras_depth;
	if (!b->bim || !b->gsh || !b->cho || !b->ras) {
		pmk__bp_release(b);
		return PMK_ENOMEM;
	}
	memset(b->bim, 1, n); /* weakly not taken */
	memset(b->gsh, 1, n);
	memset(b->cho, 2, n); /* weakly prefer gshare */
	rc = pmk__sa_init(&b->btb, (uint64_t)btb_entries * 4, btb_assoc, 4);
	if (rc < 0) {
		pmk__bp_release(b);
		return rc;
	}
	b->btb_target = calloc(btb_entries, sizeof *b->btb_target);
	if (!b->btb_target) {
		pmk__bp_release(b);
		return PMK_ENOMEM;
	}
	return 0;
}

void pmk__bp_release(pmk__bp *b)
{
	free(b->bim);
	free(b->gsh);
	free(b->cho);
	free(b->ras);
	free(b->btb_target);
	pmk__sa_release(&b->btb);
	memset(b, 0, sizeof *b);
}

static uint32_t idx_bim(const pmk__bp *b, uint64_t pc)
{
	return (uint32_t)((pc >> 2) & ((1u << b->bits) - 1));
}

static uint32_t idx_gsh(const pmk__bp *b, uint64_t pc)
{
	uint64_t h = b->ghist & ((1ull << b->hbits) - 1);
	return (uint32_t)(((pc >> 2) ^ h) & ((1u << b->bits) - 1));
}

int pmk__bp_dir(const pmk__bp *b, uint64_t pc)
{
	int bi = b->bim[idx_bim(b, pc)] >= 2, gs = b->gsh[idx_gsh(b, pc)] >= 2;
	switch (b->kind) {
	case PMK_SIM_BP_BIMODAL:
		return bi;
	case PMK_SIM_BP_GSHARE:
		return gs;
	default:
		return b->cho[idx_bim(b, pc)] >= 2 ? gs : bi;
	}
}

static void sat(uint8_t *c, int up)
{
	if (up && *c < 3)
		(*c)++;
	else if (!up && *c > 0)
		(*c)--;
}

void pmk__bp_update(pmk__bp *b, uint64_t pc, int taken)
{
	uint8_t *bi = &b->bim[idx_bim(b, pc)], *gs = &b->gsh[idx_gsh(b, pc)];
	if (b->kind == PMK_SIM_BP_HYBRID) {
		int bok = (*bi >= 2) == taken, gok = (*gs >= 2) == taken;
		if (bok != gok)
			sat(&b->cho[idx_bim(b, pc)], gok);
	}
	sat(bi, taken);
	sat(gs, taken);
	b->ghist = b->ghist << 1 | (taken ? 1 : 0);
}

int pmk__btb_lookup(pmk__bp *b, uint64_t pc, uint64_t *target)
{
	uint64_t blk = pc >> 2;
	uint64_t *t = b->btb.tag + (blk & (b->btb.sets - 1)) * b->btb.assoc;
	for (uint32_t w = 0; w < b->btb.assoc; w++)
		if (t[w] == blk + 1) {
			size_t i = (size_t)(t - b->btb.tag) + w;
			b->btb.stamp[i] = ++b->btb.clock;
			*target = b->btb_target[i];
			return 1;
		}
	return 0;
}

void pmk__btb_update(pmk__bp *b, uint64_t pc, uint64_t target)
{
	uint64_t blk = pc >> 2, dummy;
	uint64_t *t = b->btb.tag + (blk & (b->btb.sets - 1)) * b->btb.assoc;
	if (!pmk__btb_lookup(b, pc, &dummy))
		pmk__sa_insert(&b->btb, pc, 0);
	for (uint32_t w = 0; w < b->btb.assoc; w++)
		if (t[w] == blk + 1)
			b->btb_target[(size_t)(t - b->btb.tag) + w] = target;
}

void pmk__ras_push(pmk__bp *b, uint64_t ret)
{
	b->ras_top = (b->ras_top + 1) % b->ras_depth;
	b->ras[b->ras_top] = ret;
	if (b->ras_n < b->ras_depth)
		b->ras_n++;
}

uint64_t pmk__ras_pop(pmk__bp *b)
{
	uint64_t v;
	if (!b->ras_n)
		return 0;
	v = b->ras[b->ras_top];
	b->ras_top = (b->ras_top + b->ras_depth - 1) % b->ras_depth;
	b->ras_n--;
	return v;
}

uint64_t pmk__ras_peek(const pmk__bp *b)
{
	return b->ras_n ? b->ras[b->ras_top] : 0;
}
