/*
 * benchlt_tp.c - instantiates the LTTng-UST probe of benchlt_tp.h (the
 * counterpart of the tpgen-generated benchust_tp.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "benchlt_tp.h"
