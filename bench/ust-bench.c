/*
 * ust-bench.c - the timed loop over a tpgen-generated ust tracepoint.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Built by `make -C bench bench-programs` (benchust_tp.{h,c} are made by
 * tpgen from benchust.xml).  See loop.h for what it measures.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "benchust_tp.h"

#define BENCH_NAME "ust"
#define BENCH_TRACE(v) trace_benchust_tick(v)
#include "loop.h"
