/*
 * abi/consumerd.h - how libust starts ust-consumerd and how the consumer
 * reports back to `ust record`: its command line, the descriptors it
 * inherits, and the keys of its summary file.  libust builds the command
 * line (libust/session.c), the consumer parses it (consumer/main.c) and
 * writes the summary (consumer/output.c), `ust record` reads it
 * (cli/summary.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_ABI_CONSUMERD_H
#define UST_ABI_CONSUMERD_H

#define UST_CONSUMERD_NAME	"ust-consumerd"

/*
 * The options, without their leading "--".  libust always passes the
 * first five; the others when set.  --output may be a relay URL
 * (net://HOST[:CTRL[:DATA]], doc/relayd.md): UST_OUTPUT passed through.
 */
#define UST_CONSUMERD_OPT_SHM_FD	"shm-fd"	/* the memfd (abi/shm.h) */
#define UST_CONSUMERD_OPT_PID_FD	"pid-fd"	/* a pidfd of the process */
#define UST_CONSUMERD_OPT_PID		"pid"		/* the traced process */
#define UST_CONSUMERD_OPT_OUTPUT	"output"	/* parent of the trace dir */
#define UST_CONSUMERD_OPT_READ_TIMER	"read-timer"	/* microseconds */
#define UST_CONSUMERD_OPT_CLOCK		"clock"		/* UST_SESSION_CLOCK */
#define UST_CONSUMERD_OPT_SUMMARY_DIR	"summary-dir"	/* write <pid>.summary */
#define UST_CONSUMERD_OPT_FOREGROUND	"foreground"	/* do not detach */
#define UST_CONSUMERD_OPT_WAKE_FD	"wake-fd"	/* an eventfd blocked writers ring */
#define UST_CONSUMERD_OPT_RESUME	"resume"	/* go on with a dead consumer's trace */

/* The descriptors the consumer finds open at these numbers. */
#define UST_CONSUMERD_SHM_FD	3
#define UST_CONSUMERD_PID_FD	4
#define UST_CONSUMERD_WAKE_FD	5	/* with --wake-fd: UST_MODE=block */

/* A number above as the text of its option's argument. */
#define UST_CONSUMERD_STR_(n)	#n
#define UST_CONSUMERD_STR(n)	UST_CONSUMERD_STR_(n)

/*
 * The summary file, `<pid>.summary` (or `<pid>-N.summary` after an exec)
 * in the summary directory: "key=value" lines.  It is begun at the
 * consumer's start under a hidden name, `.<consumer pid>.summary.tmp`
 * (pid, then dir, and relay when the trace streams: dir is then empty
 * until the trace falls back to a directory), completed at its end
 * ("end=1", last) and renamed
 * (consumer/summary.c); a hidden one without "end" is a consumer that
 * did not finish.  libust writes `<pid>-untraced.summary` itself, with
 * an empty dir and the error, when it cannot trace at all
 * (libust/untraced.c).
 */
#define UST_SUMMARY_SUFFIX		".summary"
#define UST_SUMMARY_KEY_PID		"pid"		/* the traced process */
#define UST_SUMMARY_KEY_DIR		"dir"		/* the trace directory */
#define UST_SUMMARY_KEY_EVENTS		"events"	/* records written */
#define UST_SUMMARY_KEY_LOST		"lost"		/* records counted lost (I7), unwritten included */
#define UST_SUMMARY_KEY_UNWRITTEN	"unwritten"	/* records of packets not written */
#define UST_SUMMARY_KEY_PACKETS		"packets"
#define UST_SUMMARY_KEY_PACKETS_DROPPED	"packets_dropped"
#define UST_SUMMARY_KEY_PACKETS_UNWRITTEN "packets_unwritten"
#define UST_SUMMARY_KEY_BYTES		"bytes"
#define UST_SUMMARY_KEY_ERROR		"error"		/* why writing stopped */
#define UST_SUMMARY_KEY_SNAPSHOT	"snapshot"	/* one line per snapshot */
/*
 * Records an event's gate stopped, "COUNT NAME", one line per event
 * (doc/filters.md): over its rate limit, or under a filter that had no
 * program for its fields.  The consumer also writes these lines in the
 * trace directory, in UST_NOT_RECORDED_FILE, for `ust report`.
 */
#define UST_SUMMARY_KEY_RATE_LIMITED	"rate_limited"
#define UST_SUMMARY_KEY_NO_PROGRAM	"no_program"
#define UST_NOT_RECORDED_FILE		".ust-not-recorded"	/* hidden: not a stream */
/*
 * Function events the hooks' filters kept out (libust/funcfilter.c):
 * by --time-filter, --depth, --filter-func/--exclude-func; only when
 * not 0.  Counted per thread buffer (abi/shm.h, `filtered`).
 */
#define UST_SUMMARY_KEY_FILTERED_TIME	"filtered_time"
#define UST_SUMMARY_KEY_FILTERED_DEPTH	"filtered_depth"
#define UST_SUMMARY_KEY_FILTERED_FUNC	"filtered_func"

/*
 * When the trace streams to lttng-relayd (--output net://..., consumer/
 * relay.c): where, and what did not make it.  `dir` is then the local
 * trace directory the trace fell back to, or empty.
 */
#define UST_SUMMARY_KEY_RELAY		"relay"		/* the URL */
#define UST_SUMMARY_KEY_RELAY_PATH	"relay_path"	/* HOST/SESSION/TRACE on the relay */
#define UST_SUMMARY_KEY_RELAY_PACKETS	"relay_packets"	/* packets sent */
#define UST_SUMMARY_KEY_RELAY_EVENTS	"relay_events"	/* records in them */
#define UST_SUMMARY_KEY_RELAY_UNCONFIRMED "relay_unconfirmed" /* records sent, not confirmed stored */
#define UST_SUMMARY_KEY_RELAY_KEPT	"relay_kept"	/* packets kept locally after a failure */
#define UST_SUMMARY_KEY_RELAY_CUT	"relay_cut"	/* records in a packet cut by a failure */
#define UST_SUMMARY_KEY_RELAY_ERROR	"relay_error"	/* why the trace fell back */
#define UST_SUMMARY_KEY_RELAY_SNAPSHOT	"relay_snapshot" /* a snapshot sent: its place */
#define UST_SUMMARY_KEY_RELAY_LIVE	"relay_live"	/* begun summary: its live timer (us) */

#define UST_SUMMARY_KEY_END		"end"		/* 1, last: the summary is complete */

#endif /* UST_ABI_CONSUMERD_H */
