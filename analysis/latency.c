/*
 * latency.c - durations and their percentiles (latency.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <math.h>
#include <stdlib.h>

#include "analysis.h"
#include "latency.h"

void latency_add(struct latency *l, int64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = report_realloc(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = ns;
	l->sum += ns;
	if (ns > l->max)
		l->max = ns;
	l->sorted = false;
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

int64_t latency_rank(struct latency *l, double p)
{
	size_t rank;

	if (!l->n)
		return 0;
	if (!l->sorted) {
		qsort(l->v, l->n, sizeof(*l->v), cmp_i64);
		l->sorted = true;
	}
	rank = (size_t)ceil(p * (double)l->n);
	return l->v[(rank ? rank : 1) - 1];
}

double latency_mean(const struct latency *l)
{
	return l->n ? (double)l->sum / (double)l->n : 0;
}

void latency_note_worst(struct latency_case *worst, size_t *nr, unsigned int top,
			const struct latency_case *o)
{
	size_t i = *nr;

	if (i == top && worst[i - 1].lat >= o->lat)
		return;
	if (i < top)
		(*nr)++;
	else
		i--;
	while (i > 0 && worst[i - 1].lat < o->lat) {
		worst[i] = worst[i - 1];
		i--;
	}
	worst[i] = *o;
}

void latency_free(struct latency *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
