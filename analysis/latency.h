/*
 * latency.h - a list of durations and its statistics: count, sum, mean,
 * nearest-rank percentiles, max.  Every value is kept (8 bytes each) and
 * sorted once, when first asked for a percentile.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ANALYSIS_LATENCY_H
#define UST_ANALYSIS_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct latency {
	int64_t *v;
	size_t n, cap;
	int64_t sum, max;
	bool sorted;
};

void latency_add(struct latency *l, int64_t ns);
/* The ceil(p * n)-th smallest value (nearest rank), 0 for an empty list. */
int64_t latency_rank(struct latency *l, double p);
double latency_mean(const struct latency *l);
void latency_free(struct latency *l);

#endif /* UST_ANALYSIS_LATENCY_H */
