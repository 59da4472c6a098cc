/*
 * abi/kerneld.h - what `ust record` (cli/kernel.c) and ust-kerneld
 * (consumer/kernel/) agree on: the bridge's command line, the descriptor
 * on which it says it is ready, and the exit statuses the recorder tells
 * apart.  One definition for both sides.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ABI_KERNELD_H
#define UST_ABI_KERNELD_H

#define UST_KERNELD_NAME	"ust-kerneld"

/* The options, without their leading "--". */
#define UST_KERNELD_OPT_OUTPUT		"output"	/* the kernel trace's parent */
#define UST_KERNELD_OPT_EVENTS		"events"	/* globs on system:event */
#define UST_KERNELD_OPT_CONTROL_FD	"control-fd"	/* the messages below */
#define UST_KERNELD_OPT_RECORDER	"recorder"	/* PID: only the process
							   tree PID starts next */
#define UST_KERNELD_OPT_FLIGHT		"flight"	/* rings written only in
							   snapshots */
#define UST_KERNELD_OPT_TRIGGER		"trigger"	/* EVENT[ if FILTER] */
#define UST_KERNELD_OPT_HOLDOFF		"trigger-holdoff"	/* seconds */

/* The descriptor `ust record` passes as --control-fd: a SOCK_SEQPACKET. */
#define UST_KERNELD_CONTROL_FD	3

/*
 * The messages on it, one per packet, in text:
 *   bridge -> recorder  "ready"       kernel tracing is on: run CMD
 *   recorder -> bridge  "root PID"    CMD is process PID (--recorder)
 */
#define UST_KERNELD_MSG_READY	"ready"
#define UST_KERNELD_MSG_ROOT	"root"
#define UST_KERNELD_MSG_MAX	1024

/*
 * --flight: the bridge's snapshot socket, an abstract SOCK_SEQPACKET
 * unix socket of this name (its pid), given to the traced processes'
 * consumers in UST_ENV_KERNELD_SOCKET (abi/env.h).  One request per
 * connection:
 *   consumer -> bridge  "snapshot CUT DIR"    kernel events up to CUT
 *                                             (UINT64_MAX: now) into DIR
 *   bridge -> consumer  "done EVENTS DIR" or "error TEXT"
 */
#define UST_KERNELD_SOCKET_FMT	"ust-kerneld-%d"
#define UST_KERNELD_MSG_SNAPSHOT	"snapshot"
#define UST_KERNELD_MSG_DONE	"done"
#define UST_KERNELD_MSG_ERROR	"error"
/* The kernel part of user snapshot DIR goes to DIR UST_KERNELD_SNAP_SUFFIX. */
#define UST_KERNELD_SNAP_SUFFIX	"-kernel"

/* A number above as the text of its option's argument. */
#define UST_KERNELD_STR_(n)	#n
#define UST_KERNELD_STR(n)	UST_KERNELD_STR_(n)

#define KERNELD_EXIT_USAGE	2	/* bad event list: ust record stops */
#define KERNELD_EXIT_UNAVAIL	3	/* no permission, no tracefs: go on */

#endif /* UST_ABI_KERNELD_H */
