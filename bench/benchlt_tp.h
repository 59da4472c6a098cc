/*
 * benchlt_tp.h - the LTTng-UST 2.13 side of the benchmark: provider
 * `benchlt`, event `tick` with one 4-byte int field, the twin of
 * benchust.xml.  lttng-bench.c calls it; benchlt_tp.c instantiates it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER benchlt

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./benchlt_tp.h"

#if !defined(BENCHLT_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCHLT_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(benchlt, tick,
	LTTNG_UST_TP_ARGS(int32_t, value),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, value, value)
	)
)

#endif /* BENCHLT_TP_H */

#include <lttng/tracepoint-event.h>
