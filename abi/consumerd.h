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
 * first five; the others when set.
 */
#define UST_CONSUMERD_OPT_SHM_FD	"shm-fd"	/* the memfd (abi/shm.h) */
#define UST_CONSUMERD_OPT_PID_FD	"pid-fd"	/* a pidfd of the process */
#define UST_CONSUMERD_OPT_PID		"pid"		/* the traced process */
#define UST_CONSUMERD_OPT_OUTPUT	"output"	/* parent of the trace dir */
#define UST_CONSUMERD_OPT_READ_TIMER	"read-timer"	/* microseconds */
#define UST_CONSUMERD_OPT_CLOCK		"clock"		/* UST_SESSION_CLOCK */
#define UST_CONSUMERD_OPT_SUMMARY_DIR	"summary-dir"	/* write <pid>.summary */
#define UST_CONSUMERD_OPT_FOREGROUND	"foreground"	/* do not detach */
#define UST_CONSUMERD_OPT_RESUME	"resume"	/* go on with a dead consumer's trace */

/* The descriptors the consumer finds open at these numbers. */
#define UST_CONSUMERD_SHM_FD	3
#define UST_CONSUMERD_PID_FD	4

/* A number above as the text of its option's argument. */
#define UST_CONSUMERD_STR_(n)	#n
#define UST_CONSUMERD_STR(n)	UST_CONSUMERD_STR_(n)

/*
 * The summary file, `<pid>.summary` (or `<pid>-N.summary` after an exec)
 * in the summary directory: "key=value" lines.  It is begun at the
 * consumer's start under a hidden name, `.<consumer pid>.summary.tmp`
 * (pid, then dir), completed at its end ("end=1", last) and renamed
 * (consumer/summary.c); a hidden one without "end" is a consumer that
 * did not finish.
 */
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
#define UST_SUMMARY_KEY_END		"end"		/* 1, last: the summary is complete */

#endif /* UST_ABI_CONSUMERD_H */
