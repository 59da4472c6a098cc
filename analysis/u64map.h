/*
 * u64map.h - a hash map from 64-bit keys to pointers, for the report's
 * tables (threads, tasks, syscalls): open addressing, linear probing,
 * grown at half load.  Values are the caller's; the map never frees them.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ANALYSIS_U64MAP_H
#define UST_ANALYSIS_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	void **vals;		/* NULL: empty slot */
	size_t cap, nr;
};

/* The value of `key`, or NULL. */
void *u64map_get(const struct u64map *m, uint64_t key);
/* Set `key` to `val` (not NULL); aborts on memory exhaustion. */
void u64map_set(struct u64map *m, uint64_t key, void *val);
/* Every value, in no order, in a new array of m->nr (free() it). */
void **u64map_values(const struct u64map *m);
void u64map_free(struct u64map *m);
/* u64map_free(), after free() of every value. */
void u64map_free_all(struct u64map *m);

#endif /* UST_ANALYSIS_U64MAP_H */
