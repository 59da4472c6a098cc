/*
 * plain-bench.c - the benchmark workloads with no tracer at all: the
 * baseline of `npt` and `start` (bench/run.sh).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The "tracepoints" only make their arguments live (an empty asm), so the
 * loops keep their shape.  See loop.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>

#define BENCH_NAME "plain"
#define BENCH_INT(v) __asm__ volatile("" : : "r"(v))
#define BENCH_INT4(a, b, c, d) \
	__asm__ volatile("" : : "r"(a), "r"(b), "r"(c), "r"(d))
#define BENCH_STR(s) __asm__ volatile("" : : "r"(s))
/* The formatting alone, as a tracef does it. */
#define BENCH_TRACEF(v)							\
	do {								\
		char bench_buf[64];					\
									\
		snprintf(bench_buf, sizeof(bench_buf), "tick %d", v);	\
		__asm__ volatile("" : : "r"(bench_buf) : "memory");	\
	} while (0)
#include "loop.h"
