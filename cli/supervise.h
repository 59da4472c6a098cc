/*
 * supervise.h - running the traced command under `ust record` and
 * waiting for the consumers it leaves behind.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_SUPERVISE_H
#define UST_CLI_SUPERVISE_H

/* The consumers' process name (/proc/PID/comm). */
#define UST_CONSUMER_COMM	"ust-consumerd"

#include <stdbool.h>
#include <sys/types.h>

/* What the caller wants to hear of while it supervises (all optional). */
struct cli_supervise_hooks {
	int fd;				/* also watched, -1 for none */
	void (*fd_ready)(void *arg);	/* `fd` is readable */
	/* A child was reaped; `consumer`: it was an ust-consumerd. */
	void (*child_exited)(void *arg, pid_t pid, int status, bool consumer);
	void *arg;			/* of the two above */
	void (*spawned)(pid_t cmd, void *arg);	/* CMD runs (its pid) */
	void *spawned_arg;
};

/*
 * Make this process a child subreaper, start `argv` (argv[0] searched in
 * PATH) with the current environment, and wait for it, forwarding
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT to it.  Then wait up to
 * `timeout_s` seconds for every ust-consumerd that ended up our child
 * (the companions of CMD and of its descendants, and those `hooks`
 * started), reaping any other orphan that exits meanwhile but not
 * waiting for it.  `hooks` (may be NULL) hears of CMD once it runs, of
 * every child reaped and of its fd, all along.
 *
 * Returns 0 with CMD's wait status in *status and the number of
 * consumers we stopped waiting for in *left, or a negative errno when
 * CMD could not be started (-ENOENT: not found in PATH).
 */
int cli_supervise(char *const argv[], unsigned int timeout_s,
		  const struct cli_supervise_hooks *hooks, int *status, int *left);

#endif /* UST_CLI_SUPERVISE_H */
