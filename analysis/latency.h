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

/* One slow case: thread `tid`, from `at`, lasting `lat` ns, in `call`. */
struct latency_case {
	int64_t at, lat, tid;
	int call;		/* the system call, when the list is of calls */
};

/*
 * Keep the `top` slowest cases in worst[] (room for top, *nr of them
 * so far), slowest first; of equal ones, the first seen stays first.
 */
void latency_note_worst(struct latency_case *worst, size_t *nr, unsigned int top,
			const struct latency_case *o);

#endif /* UST_ANALYSIS_LATENCY_H */
