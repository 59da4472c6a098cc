/*
 * lttng-bench.c - the timed loop over an LTTng-UST 2.13 tracepoint.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Built by run.sh (only when `pkg-config lttng-ust` finds the library):
 *   cc -O2 -I. lttng-bench.c benchlt_tp.c -llttng-ust -ldl
 * See loop.h for what it measures.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "benchlt_tp.h"

#define BENCH_NAME "lttng"
#define BENCH_TRACE(v) lttng_ust_tracepoint(benchlt, tick, (v))
#include "loop.h"
