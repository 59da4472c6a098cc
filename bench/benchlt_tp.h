/*
 * benchlt_tp.h - the LTTng-UST 2.13 side of the benchmark: provider
 * `benchlt`, the twin of benchust.xml: `tick` (one 4-byte int), `quad`
 * (four 4-byte ints), `text` (one string).  lttng-bench.c calls it;
 * benchlt_tp.c instantiates it.
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

LTTNG_UST_TRACEPOINT_EVENT(benchlt, quad,
	LTTNG_UST_TP_ARGS(int32_t, a, int32_t, b, int32_t, c, int32_t, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, a, a)
		lttng_ust_field_integer(int32_t, b, b)
		lttng_ust_field_integer(int32_t, c, c)
		lttng_ust_field_integer(int32_t, d, d)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(benchlt, text,
	LTTNG_UST_TP_ARGS(const char *, msg),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(msg, msg)
	)
)

#endif /* BENCHLT_TP_H */

#include <lttng/tracepoint-event.h>
