/*
 * ust-bench.c - the benchmark workloads over tpgen-generated ust
 * tracepoints.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Built by `make -C bench bench-programs` (benchust_tp.{h,c} are made by
 * tpgen from benchust.xml).  See loop.h for what it measures.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ust/tracef.h>

#include "benchust_tp.h"

#define BENCH_NAME "ust"
#define BENCH_INT(v) trace_benchust_tick(v)
#define BENCH_INT4(a, b, c, d) trace_benchust_quad(a, b, c, d)
#define BENCH_STR(s) trace_benchust_text(s)
#define BENCH_TRACEF(v) ust_tracef("tick %d", v)
#include "loop.h"
