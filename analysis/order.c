/*
 * order.c - sorting the report's ranked tables by their rows' keys.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * qsort() gives its comparator no context, so the rows are sorted as
 * (key, row) pairs computed once each, then written back.
 */
#include <stdlib.h>

#include "analysis.h"
#include "order.h"
#include "u64map.h"

struct keyed_row {
	struct order_key key;
	void *row;
};

int order_compare(struct order_key a, struct order_key b)
{
	if (a.figure != b.figure)
		return a.figure > b.figure ? -1 : 1;
	return a.tie < b.tie ? -1 : a.tie > b.tie;
}

struct order_key order_span(int64_t begin, int64_t end)
{
	return (struct order_key){ .figure = end - begin, .tie = begin };
}

static int by_key(const void *pa, const void *pb)
{
	return order_compare(((const struct keyed_row *)pa)->key,
			     ((const struct keyed_row *)pb)->key);
}

void order_rows(void **rows, size_t n, order_key_fn key_of)
{
	struct keyed_row *v;
	size_t i;

	if (!n)		/* qsort(NULL) is undefined */
		return;
	v = report_zalloc(n * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (struct keyed_row){ key_of(rows[i]), rows[i] };
	qsort(v, n, sizeof(*v), by_key);
	for (i = 0; i < n; i++)
		rows[i] = v[i].row;
	free(v);
}

void **order_values(const struct u64map *map, order_key_fn key_of)
{
	void **v = u64map_values(map);

	order_rows(v, map->nr, key_of);
	return v;
}
