/*
 * u64map.c - the report's hash map from 64-bit keys to pointers.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>

#include "u64map.h"

static size_t slot_of(const struct u64map *m, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (m->cap - 1);
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(m, key); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key)
			return m->vals[i];
	}
	return NULL;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fputs("ust: out of memory\n", stderr);
		abort();
	}
	return p;
}

static void grow(struct u64map *m)
{
	struct u64map bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	size_t i;

	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
	for (i = 0; i < m->cap; i++) {
		if (m->vals[i])
			u64map_set(&bigger, m->keys[i], m->vals[i]);
	}
	u64map_free(m);
	*m = bigger;
}

void u64map_set(struct u64map *m, uint64_t key, void *val)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->cap)
		grow(m);
	for (i = slot_of(m, key); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
}

void **u64map_values(const struct u64map *m)
{
	void **v = xcalloc(m->nr + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < m->cap; i++) {
		if (m->vals[i])
			v[n++] = m->vals[i];
	}
	return v;
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}

void u64map_free_all(struct u64map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->vals[i]);
	u64map_free(m);
}
