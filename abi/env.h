/*
 * abi/env.h - the environment variables through which `ust record`, the
 * user and the tests configure libust and the helpers, and the values they
 * take.  libust reads them once at start-up (libust/config.c); `ust
 * record` sets them for the command it runs (cli/record.c).  README lists
 * them for users.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_ABI_ENV_H
#define UST_ABI_ENV_H

#include <stdint.h>

/* What libust reads. */
#define UST_ENV_TRACE		"UST_TRACE"	/* patterns: tracing on */
#define UST_ENV_RATE_LIMIT	"UST_RATE_LIMIT" /* PATTERN=N[,...] (doc/filters.md) */
#define UST_ENV_OUTPUT		"UST_OUTPUT"	/* where traces go */
#define UST_ENV_MODE		"UST_MODE"	/* UST_MODE_NAME_* */
#define UST_ENV_SUBBUF_SIZE	"UST_SUBBUF_SIZE"
#define UST_ENV_SUBBUF_COUNT	"UST_SUBBUF_COUNT"
#define UST_ENV_READ_TIMER	"UST_READ_TIMER_US"
#define UST_ENV_CONTEXT		"UST_CONTEXT"	/* UST_CONTEXT_NAME_*, comma-separated */
#define UST_ENV_BUFFERS		"UST_BUFFERS"	/* UST_BUFFERS_NAME_* */
/* Function tracing (doc/functions.md): the layout, and the hooks' filters. */
#define UST_ENV_FUNCTIONS	"UST_FUNCTIONS"	/* UST_FUNCTIONS_NAME_* */
#define UST_ENV_FUNC_TIME	"UST_FUNC_TIME_FILTER"	/* ns: shorter calls are left out */
#define UST_ENV_FUNC_DEPTH	"UST_FUNC_DEPTH"	/* calls nested deeper are left out */
#define UST_ENV_FUNC_FILTER	"UST_FUNC_FILTER"	/* globs: only these and their callees */
#define UST_ENV_FUNC_EXCLUDE	"UST_FUNC_EXCLUDE"	/* globs: not these nor their callees */
#define UST_ENV_SESSION_CLOCK	"UST_SESSION_CLOCK" /* set by ust record */
#define UST_ENV_SUMMARY_DIR	"UST_SUMMARY_DIR"   /* set by ust record */
#define UST_ENV_CONSUMERD	"UST_CONSUMERD"	/* another ust-consumerd */

/* What ust-consumerd reads: the kernel flight recorder (abi/kerneld.h). */
#define UST_ENV_KERNELD_SOCKET	"UST_KERNELD_SOCKET"
/* ... and `ust record --trigger` on a user event (trigger/trigger.h). */
#define UST_ENV_TRIGGER		"UST_TRIGGER"		/* EVENT[ if FILTER] */
#define UST_ENV_TRIGGER_HOLDOFF	"UST_TRIGGER_HOLDOFF"	/* seconds, default 1 */
/* What ust-kerneld reads: its nice value (default -10, consumer/kernel/main.c). */
#define UST_ENV_KERNELD_NICE	"UST_KERNELD_NICE"
/*
 * What ust-consumerd (and ust-kerneld) read when UST_OUTPUT is a relay
 * URL (net://...): the relay session to join (net/session.h's text form,
 * set by `ust record`; without it each process has a session of its
 * own), and where the trace goes when the relay cannot take it.
 */
#define UST_ENV_RELAY_SESSION	"UST_RELAY_SESSION"
#define UST_ENV_RELAY_FALLBACK	"UST_RELAY_FALLBACK" /* default UST_DEFAULT_OUTPUT */

/* What the `ust` command reads (tests and uninstalled builds). */
#define UST_ENV_KERNELD		"UST_KERNELD"	/* another ust-kerneld */
#define UST_ENV_CYG_PROFILE_LIB	"UST_CYG_PROFILE_LIB" /* another preload library */

/* What ust-kerneld reads (tests: tracefs mounted elsewhere). */
#define UST_ENV_TRACEFS		"UST_TRACEFS"

/*
 * UST_TRACE: entries separated by ',', each [-]PATTERN then options, each
 * after a ';' (doc/filters.md):
 *   loglevel=LEVEL        events of this level or a more severe one
 *   loglevel-only=LEVEL   events of this level only
 *   filter=BASE64         a compiled filter (struct ust_filter_blob),
 *                         as `ust record --filter` writes it
 * LEVEL is 0 to 14 or a name of <ust/loglevel.h> (TRACE_EMERG ...); an
 * event without a level counts as TRACE_DEBUG_LINE (13), as in LTTng.
 */
#define UST_TRACE_OPT_LOGLEVEL		"loglevel="
#define UST_TRACE_OPT_LOGLEVEL_ONLY	"loglevel-only="
#define UST_TRACE_OPT_FILTER		"filter="
#define UST_LOGLEVEL_NONE_AS		13	/* TRACE_DEBUG_LINE */

/*
 * A compiled filter in UST_TRACE, before base64: this header, the
 * expression's text (NUL-terminated, padded to 8 bytes), then the
 * programs (filter/program.h), each 8-byte aligned and sized by its own
 * header, one per kind of event fields.  Host byte order.
 */
#define UST_FILTER_BLOB_MAGIC	0x31424655u	/* "UFB1" */

struct ust_filter_blob {
	uint32_t magic;
	uint32_t nr_programs;
	uint32_t expr_size;	/* bytes of text with its NUL and padding */
	uint32_t programs_size;	/* bytes of programs with padding */
};

/* The values of UST_MODE. */
#define UST_MODE_NAME_DISCARD	"discard"
#define UST_MODE_NAME_OVERWRITE	"overwrite"
#define UST_MODE_NAME_BLOCK	"block"		/* discard, writers wait */
#define UST_MODE_NAME_FLIGHT	"flight"

/*
 * The values of UST_BUFFERS: one buffer per CPU (the default), or one per
 * thread (doc/ring-buffer.md, "Per-thread buffers").
 */
#define UST_BUFFERS_NAME_PER_CPU	"per-cpu"
#define UST_BUFFERS_NAME_PER_THREAD	"per-thread"

/*
 * The values of UST_FUNCTIONS: the events of function tracing
 * (libust/functions.c), and the contexts each records by default when
 * UST_CONTEXT is not set.
 */
enum ust_func_layout {
	UST_FUNC_COMPACT = 0,	/* ust_func:*: 8 and 4 bytes per entry and exit */
	UST_FUNC_FULL,		/* ust_cyg_profile:*: ust's layout before */
	UST_FUNC_LTTNG_FAST,	/* lttng_ust_cyg_profile_fast:* */
	UST_FUNC_LTTNG,		/* lttng_ust_cyg_profile:* */
};
#define UST_FUNCTIONS_NAME_COMPACT	"compact"
#define UST_FUNCTIONS_NAME_FULL		"full"
#define UST_FUNCTIONS_NAME_LTTNG_FAST	"lttng-fast"
#define UST_FUNCTIONS_NAME_LTTNG	"lttng"
/* What Trace Compass's call stack and debug-info views need (doc/compatibility.md). */
#define UST_FUNCTIONS_LTTNG_CONTEXT	"vtid,vpid,procname,ip"

/*
 * The names of UST_CONTEXT's list (common/context.h parses it): the
 * stream event context fields of abi/shm.h, named as `lttng add-context`
 * names them.
 */
#define UST_CONTEXT_NAME_VTID		"vtid"
#define UST_CONTEXT_NAME_TID		"tid"	/* the same as vtid */
#define UST_CONTEXT_NAME_VPID		"vpid"
#define UST_CONTEXT_NAME_PROCNAME	"procname"
#define UST_CONTEXT_NAME_PTHREAD_ID	"pthread_id"
#define UST_CONTEXT_NAME_IP		"ip"
#define UST_CONTEXT_NAME_NONE		"none"	/* alone: no context */

/* Where traces go when UST_OUTPUT is not set; shared by every user. */
#define UST_DEFAULT_OUTPUT	"/tmp/ltt-usertrace"

#endif /* UST_ABI_ENV_H */
