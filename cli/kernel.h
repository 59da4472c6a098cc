/*
 * kernel.h - `ust record --kernel`: starting and stopping ust-kerneld,
 * the kernel bridge, around CMD.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_KERNEL_H
#define UST_CLI_KERNEL_H

#include <stdbool.h>
#include <sys/types.h>

/* Overrides where ust-kerneld is (tests run it from the build tree). */

enum cli_kernel_start {
	UST_KERNEL_RUNNING,	/* tracing; stop it with cli_kernel_stop() */
	UST_KERNEL_UNAVAILABLE,	/* said why; go on with user space only */
	UST_KERNEL_BAD_LIST,	/* said why; do not run CMD */
};

/* A running ust-kerneld. */
struct cli_kernel {
	pid_t pid;
	int fd;			/* the control socket (abi/kerneld.h) */
};

/* What the bridge records. */
struct cli_kernel_opts {
	const char *list;	/* tracepoint globs; NULL: the default set */
	bool process_tree;	/* the command's process tree only */
	bool flight;		/* flight recorder: rings written in snapshots */
	const char *trigger;	/* a kernel --trigger (trigger.h), or NULL */
	const char *holdoff;	/* --trigger-holdoff, or NULL */
};

/*
 * Start ust-kerneld writing to `outdir`/kernel as `o` says, and wait
 * until its tracing is on.  With o->process_tree, it records only the
 * process tree of the command we start next (tell it which with
 * cli_kernel_root()); else the whole system.  With o->flight, the
 * command's consumers find its snapshot socket in UST_KERNELD_SOCKET
 * (set here).  The session clock must already be in the environment.
 */
enum cli_kernel_start cli_kernel_start(const char *outdir, const struct cli_kernel_opts *o,
				       struct cli_kernel *k);

/* The command has started as process `pid`. */
void cli_kernel_root(struct cli_kernel *k, pid_t pid);

/* Ask ust-kerneld to drain and finish, and wait for it. */
void cli_kernel_stop(struct cli_kernel *k);

#endif /* UST_CLI_KERNEL_H */
