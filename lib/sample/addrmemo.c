/*
 * addrmemo.c: a bounded hash table from 64-bit keys to fixed-size records
 * (addrmemo.h). Open addressing with linear probing, at most half full;
 * it doubles up to what `max` entries need, and is emptied when `max`
 * entries are in it (no eviction order to keep: a memo may forget).
 */
#include <stdlib.h>
#include <string.h>

#include "sample/addrmemo.h"

struct pmk__addrmemo {
	uint64_t *key;
	unsigned char *used;
	unsigned char *rec;
	size_t rec_size, cap, n, max;
	void (*release)(void *rec);
};

static size_t slot_of(const pmk__addrmemo *m, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);
}

static void drop_all(pmk__addrmemo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i] && m->release)
			m->release(m->rec + i * m->rec_size);
	memset(m->used, 0, m->cap);
	m->n = 0;
}

static int resize(pmk__addrmemo *m, size_t cap)
{
	uint64_t *key = malloc(cap * sizeof *key);
	unsigned char *used = calloc(cap, 1);
	unsigned char *rec = malloc(cap * m->rec_size);
	if (!key || !used || !rec) {
		free(key), free(used), free(rec);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;
		if (!m->used[i])
			continue;
		j = (size_t)((m->key[i] * 0x9e3779b97f4a7c15ull) >> 17) &
		    (cap - 1);
		while (used[j])
			j = (j + 1) & (cap - 1);
		used[j] = 1;
		key[j] = m->key[i];
		memcpy(rec + j * m->rec_size, m->rec + i * m->rec_size,
		       m->rec_size);
	}
	free(m->key), free(m->used), free(m->rec);
	m->key = key;
	m->used = used;
	m->rec = rec;
	m->cap = cap;
	return 0;
}

pmk__addrmemo *pmk__addrmemo_new(size_t rec_size, size_t max,
				 void (*release)(void *rec))
{
	pmk__addrmemo *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->rec_size = rec_size ? rec_size : 1;
	m->max = max ? max : 1;
	m->release = release;
	if (resize(m, 64) != 0) {
		free(m);
		return NULL;
	}
	return m;
}

void *pmk__addrmemo_get(pmk__addrmemo *m, uint64_t key, int *fresh)
{
	size_t i;
	*fresh = 0;
	for (i = slot_of(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return m->rec + i * m->rec_size;
	if (m->n >= m->max)
		drop_all(m);
	else if (2 * (m->n + 1) > m->cap) {
		if (resize(m, 2 * m->cap) != 0)
			return NULL;
	}
	for (i = slot_of(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		;
	m->used[i] = 1;
	m->key[i] = key;
	m->n++;
	memset(m->rec + i * m->rec_size, 0, m->rec_size);
	*fresh = 1;
	return m->rec + i * m->rec_size;
}

size_t pmk__addrmemo_count(const pmk__addrmemo *m)
{
	return m ? m->n : 0;
}

void pmk__addrmemo_free(pmk__addrmemo *m)
{
	if (!m)
		return;
	drop_all(m);
	free(m->key), free(m->used), free(m->rec);
	free(m);
}
