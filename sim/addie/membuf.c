/*
 * membuf.c: seed 003's DRAM interface buffer, as a timing model.
 *
 * A write buffer of `wb_words` 32-bit entries (word address + byte mask,
 * oldest first) snooped by every request: a write to a word already queued
 * merges into it (new bytes) or collapses onto it (bytes written again); a
 * read whose bytes are queued is merged with them. Below the watermark the
 * buffer only accumulates; at or above it the buffer has priority on the
 * DRAM and drains, oldest first, until it is below the watermark again.
 * Reads go around the queued writes (read-around-write) unless that is
 * switched off, when a read miss first drains the whole buffer.
 * A read buffer of two 4-word lines holds what DRAM returned; with
 * read-ahead, every read request also fetches the next line into the other
 * slot in the background. Writes update a line held in the read buffer, so
 * it never returns stale data.
 * The DRAM has `banks` banks with one open row each: a column access costs
 * t_row_hit on the open row and t_row_miss otherwise, plus t_word per word.
 * Time is in bus cycles. The processor stalls only when a read has to wait
 * for data and when a write finds the buffer full. docs/addie.md has the
 * details and the reasons.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmkit/addie.h"
#include "sim/addie/addie_int.h"

#define WB_MAX 64

struct wb_entry {
	uint32_t word; /* address >> 2 */
	uint8_t mask;  /* bytes held */
};

struct rb_line {
	uint32_t line; /* address >> 4 */
	int valid;
	int prefetched; /* filled by read-ahead and not used yet */
	uint64_t ready; /* when its data has arrived */
	uint64_t used;	/* last use, for LRU */
};

struct pmk_membuf {
	pmk_membuf_config cfg;
	struct wb_entry wb[WB_MAX];
	unsigned head, occ; /* ring: oldest at head */
	struct rb_line rb[2];
	uint32_t open_row[16];
	int row_valid[16];
	uint64_t now, dram_free, drain_from, tick;
	pmk_membuf_stats st;
	pmk_addie_mux mux;
};

const char *pmk_membuf_signal_name(int signal)
{
	switch (signal) {
	case PMK_MEMBUF_WB_HIT:
		return "wb-hit";
	case PMK_MEMBUF_READ_MERGE:
		return "read-merge";
	case PMK_MEMBUF_WB_FULL:
		return "wb-full";
	case PMK_MEMBUF_RB_HIT:
		return "rb-hit";
	}
	return "?";
}

void pmk_membuf_config_default(pmk_membuf_config *c)
{
	memset(c, 0, sizeof *c);
	c->wb_words = 32;
	c->watermark = 16;
	c->read_ahead = 0;
	c->read_around_write = 1;
	c->t_row_hit = 2;
	c->t_row_miss = 6;
	c->t_word = 1;
	c->row_bytes = 2048;
	c->banks = 4;
	pmk_addie_config_default(&c->addie);
	c->select[0] = PMK_MEMBUF_WB_HIT;
	c->select[1] = PMK_MEMBUF_RB_HIT;
}

pmk_membuf *pmk_membuf_new(const pmk_membuf_config *c, int *err)
{
	pmk_membuf *m;
	int rc = PMK_EINVAL;
	if (!c || c->wb_words < 1 || c->wb_words > WB_MAX || c->watermark < 1 ||
	    c->watermark > c->wb_words || c->banks < 1 || c->banks > 16 ||
	    c->row_bytes < 16 || (c->row_bytes & (c->row_bytes - 1)) ||
	    c->select[0] < -1 || c->select[0] >= PMK_MEMBUF_NSIGNALS ||
	    c->select[1] < -1 || c->select[1] >= PMK_MEMBUF_NSIGNALS)
		goto fail;
	rc = PMK_ENOMEM;
	m = calloc(1, sizeof *m);
	if (!m)
		goto fail;
	m->cfg = *c;
	rc = pmk_addie_mux_init(&m->mux, &c->addie);
	for (int u = 0; !rc && u < 2; u++)
		rc = pmk_addie_mux_select(
		    &m->mux, u, c->select[u],
		    c->select[u] >= 0 ? pmk_membuf_signal_name(c->select[u])
				      : "off");
	if (rc) {
		free(m);
		goto fail;
	}
	if (err)
		*err = 0;
	return m;
fail:
	if (err)
		*err = rc;
	return NULL;
}

void pmk_membuf_free(pmk_membuf *m)
{
	free(m);
}

/* One DRAM access of `words` words at `addr`: its cost, opening the row. */
static uint64_t dram_cost(pmk_membuf *m, uint32_t addr, unsigned words)
{
	uint32_t row = addr / m->cfg.row_bytes;
	unsigned bank = row % m->cfg.banks;
	uint64_t t = m->cfg.t_word * (uint64_t)words;
	if (m->row_valid[bank] && m->open_row[bank] == row) {
		m->st.row_hits++;
		t += m->cfg.t_row_hit;
	} else {
		m->st.row_misses++;
		t += m->cfg.t_row_miss;
		m->open_row[bank] = row;
		m->row_valid[bank] = 1;
	}
	m->st.dram_busy_cycles += t;
	return t;
}

/* Write the oldest entry to DRAM, starting no earlier than `from`. */
static void drain_one(pmk_membuf *m, uint64_t from)
{
	struct wb_entry *e = &m->wb[m->head];
	uint64_t start = m->dram_free > from ? m->dram_free : from;
	m->dram_free = start + dram_cost(m, e->word << 2, 1);
	m->head = (m->head + 1) % WB_MAX;
	m->occ--;
	m->st.dram_writes++;
}

/* Let the priority drains that start before `t` happen. */
static void advance(pmk_membuf *m, uint64_t t)
{
	while (m->occ >= m->cfg.watermark) {
		uint64_t start =
		    m->dram_free > m->drain_from ? m->dram_free : m->drain_from;
		if (start >= t)
			break;
		drain_one(m, m->drain_from);
	}
}

static struct wb_entry *wb_find(pmk_membuf *m, uint32_t word)
{
	for (unsigned i = 0; i < m->occ; i++) {
		struct wb_entry *e = &m->wb[(m->head + i) % WB_MAX];
		if (e->word == word)
			return e;
	}
	return NULL;
}

static struct rb_line *rb_find(pmk_membuf *m, uint32_t line)
{
	for (int i = 0; i < 2; i++)
		if (m->rb[i].valid && m->rb[i].line == line)
			return &m->rb[i];
	return NULL;
}

/* Byte masks of the words a request touches: 1 word (1, 2 or 4 bytes
 * inside it) or the 4 words of a line. */
static int request_words(const pmk_mem_access *a, uint32_t *word, uint8_t *mask)
{
	if (a->size == 16) {
		if (a->addr & 15)
			return PMK_EINVAL;
		for (int i = 0; i < 4; i++) {
			word[i] = (a->addr >> 2) + (uint32_t)i;
			mask[i] = 0xf;
		}
		return 4;
	}
	if ((a->size != 1 && a->size != 2 && a->size != 4) ||
	    (a->addr & (a->size - 1u)))
		return PMK_EINVAL;
	word[0] = a->addr >> 2;
	mask[0] = (uint8_t)(((1u << a->size) - 1) << (a->addr & 3));
	return 1;
}

static void do_write(pmk_membuf *m, const uint32_t *word, const uint8_t *mask,
		     int n)
{
	int hit = 0, full = 0;
	for (int i = 0; i < n; i++) {
		struct wb_entry *e = wb_find(m, word[i]);
		if (e) {
			hit = 1;
			if (e->mask & mask[i])
				m->st.wb_collapses++;
			else
				m->st.wb_merges++;
			e->mask |= mask[i];
			continue;
		}
		if (m->occ == m->cfg.wb_words) {
			/* full: the processor waits for the oldest entry */
			uint64_t before = m->now;
			full = 1;
			drain_one(m, m->now);
			if (m->dram_free > m->now)
				m->now = m->dram_free;
			m->st.write_stall_cycles += m->now - before;
		}
		e = &m->wb[(m->head + m->occ) % WB_MAX];
		e->word = word[i];
		e->mask = mask[i];
		m->occ++;
		if (m->occ == m->cfg.watermark)
			m->drain_from = m->now;
	}
	m->st.wb_hits += (uint64_t)hit;
	m->st.wb_full += (uint64_t)full;
	pmk_addie_mux_feed(&m->mux, PMK_MEMBUF_WB_HIT, hit);
	pmk_addie_mux_feed(&m->mux, PMK_MEMBUF_WB_FULL, full);
}

static void prefetch(pmk_membuf *m, uint32_t line, struct rb_line *keep)
{
	struct rb_line *slot = keep == &m->rb[0] ? &m->rb[1] : &m->rb[0];
	uint64_t start;
	if (rb_find(m, line))
		return;
	/* at or above the watermark the write buffer goes first */
	while (m->occ >= m->cfg.watermark)
		drain_one(m, m->drain_from);
	start = m->dram_free > m->now ? m->dram_free : m->now;
	m->dram_free = start + dram_cost(m, line << 4, 4);
	slot->line = line;
	slot->valid = 1;
	slot->prefetched = 1;
	slot->ready = m->dram_free;
	slot->used = m->tick;
	m->st.prefetches++;
}

static void do_read(pmk_membuf *m, const pmk_mem_access *a,
		    const uint32_t *word, const uint8_t *mask, int n)
{
	uint32_t line = a->addr >> 4;
	struct rb_line *l = rb_find(m, line);
	int merge = 0, hit = l != NULL;
	uint64_t before = m->now;
	for (int i = 0; i < n && !merge; i++) {
		struct wb_entry *e = wb_find(m, word[i]);
		merge = e && (e->mask & mask[i]);
	}
	if (hit) {
		/* hit: data now, or when a prefetch in flight lands */
		if (l->ready > m->now)
			m->now = l->ready;
		if (l->prefetched) {
			m->st.prefetch_used++;
			l->prefetched = 0;
		}
		m->st.rb_hits++;
	} else {
		uint64_t start;
		if (!m->cfg.read_around_write)
			while (m->occ)
				drain_one(m, m->now);
		else
			while (m->occ >= m->cfg.watermark)
				drain_one(m, m->drain_from);
		start = m->dram_free > m->now ? m->dram_free : m->now;
		m->dram_free = start + dram_cost(m, line << 4, 4);
		m->now = m->dram_free;
		m->st.dram_reads++;
		/* fill the least recently used slot */
		l = (!m->rb[0].valid ||
		     (m->rb[1].valid && m->rb[0].used <= m->rb[1].used))
			? &m->rb[0]
			: &m->rb[1];
		l->line = line;
		l->valid = 1;
		l->prefetched = 0;
		l->ready = m->now;
	}
	l->used = ++m->tick;
	m->st.read_stall_cycles += m->now - before;
	m->st.read_merges += (uint64_t)merge;
	pmk_addie_mux_feed(&m->mux, PMK_MEMBUF_READ_MERGE, merge);
	pmk_addie_mux_feed(&m->mux, PMK_MEMBUF_RB_HIT, hit);
	if (m->cfg.read_ahead)
		prefetch(m, line + 1, l);
}

int pmk_membuf_access(pmk_membuf *m, const pmk_mem_access *a)
{
	uint32_t word[4];
	uint8_t mask[4];
	int n;
	if (!m || !a)
		return PMK_EINVAL;
	n = request_words(a, word, mask);
	if (n < 0)
		return n;
	m->now += a->gap;
	advance(m, m->now);
	if (a->write) {
		m->st.writes++;
		do_write(m, word, mask, n);
	} else {
		m->st.reads++;
		do_read(m, a, word, mask, n);
	}
	m->st.cycles = m->now;
	return 0;
}

void pmk_membuf_flush(pmk_membuf *m)
{
	while (m->occ)
		drain_one(m, m->now);
}

const pmk_membuf_stats *pmk_membuf_stats_get(const pmk_membuf *m)
{
	return &m->st;
}

const pmk_addie_mux *pmk_membuf_mux(const pmk_membuf *m)
{
	return &m->mux;
}

double pmk_membuf_exact(const pmk_membuf *m, int signal)
{
	if (signal < 0 || signal >= PMK_MEMBUF_NSIGNALS ||
	    !m->mux.events[signal])
		return NAN;
	return (double)m->mux.ones[signal] / (double)m->mux.events[signal];
}

uint64_t pmk_membuf_stall(const pmk_membuf *m)
{
	return m->st.read_stall_cycles + m->st.write_stall_cycles;
}
