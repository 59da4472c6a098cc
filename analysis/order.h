/*
 * order.h - the order of the report's ranked tables: the row with the
 * larger figure first (count, bytes, time), rows with equal figures by
 * the smaller second number (pid, tid, device, start time), so that the
 * same trace always prints the same table.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A table says by which two numbers a row ranks with a function giving
 * its struct order_key; order_rows() and order_values() sort by it.
 * The figures are counts and durations, far below 2^63.
 */
#ifndef UST_ANALYSIS_ORDER_H
#define UST_ANALYSIS_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct u64map;

struct order_key {
	int64_t figure;		/* the larger first */
	int64_t tie;		/* then the smaller first */
};

typedef struct order_key (*order_key_fn)(void *row);

/* qsort()'s answer for two rows of keys `a` and `b`. */
int order_compare(struct order_key a, struct order_key b);
/* The key of an interval [begin, end): the longest first, then the earliest. */
struct order_key order_span(int64_t begin, int64_t end);
/* Sorts the n row pointers of `rows` by key_of(row). */
void order_rows(void **rows, size_t n, order_key_fn key_of);
/* The values of `map` sorted by key_of(value), in a new array (free() it). */
void **order_values(const struct u64map *map, order_key_fn key_of);

#endif /* UST_ANALYSIS_ORDER_H */
