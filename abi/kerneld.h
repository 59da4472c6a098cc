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
#define UST_KERNELD_OPT_READY_FD	"ready-fd"	/* one byte once tracing */

/* The descriptor `ust record` passes as --ready-fd. */
#define UST_KERNELD_READY_FD	3

/* A number above as the text of its option's argument. */
#define UST_KERNELD_STR_(n)	#n
#define UST_KERNELD_STR(n)	UST_KERNELD_STR_(n)

#define KERNELD_EXIT_USAGE	2	/* bad event list: ust record stops */
#define KERNELD_EXIT_UNAVAIL	3	/* no permission, no tracefs: go on */

#endif /* UST_ABI_KERNELD_H */
