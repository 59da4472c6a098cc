/*
 * lttng-bench.c - the benchmark workloads over LTTng-UST 2.13
 * tracepoints.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Built by `make -C bench bench-programs` (only when `pkg-config
 * lttng-ust` finds the library):
 *   cc -O2 -I. lttng-bench.c benchlt_tp.c -llttng-ust -ldl
 * See loop.h for what it measures.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <lttng/tracef.h>

#include "benchlt_tp.h"

#define BENCH_NAME "lttng"
#define BENCH_INT(v) lttng_ust_tracepoint(benchlt, tick, (v))
#define BENCH_INT4(a, b, c, d) lttng_ust_tracepoint(benchlt, quad, a, b, c, d)
#define BENCH_STR(s) lttng_ust_tracepoint(benchlt, text, s)
#define BENCH_TRACEF(v) lttng_ust_tracef("tick %d", v)
#include "loop.h"
