/*
 * supervise.h - running the traced command under `ust record` and
 * waiting for the consumers it leaves behind.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_SUPERVISE_H
#define UST_CLI_SUPERVISE_H

#include <sys/types.h>

/* The consumers' process name (/proc/PID/comm). */
#define UST_CONSUMER_COMM	"ust-consumerd"

/*
 * Make this process a child subreaper, start `argv` (argv[0] searched in
 * PATH) with the current environment, and wait for it, forwarding
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT to it.  Then wait up to
 * `timeout_s` seconds for every ust-consumerd that ended up our child
 * (the companions of CMD and of its descendants), reaping any other
 * orphan that exits meanwhile but not waiting for it.
 *
 * Returns 0 with CMD's wait status in *status and the number of
 * consumers we stopped waiting for in *left, or a negative errno when
 * CMD could not be started (-ENOENT: not found in PATH).
 */
int cli_supervise(char *const argv[], unsigned int timeout_s, int *status,
		  int *left);

/* What the recorder does once CMD runs (NULL: nothing). */
struct cli_supervise_hook {
	void (*spawned)(pid_t cmd, void *arg);
	void *arg;
};

/* cli_supervise(), calling hook->spawned() with CMD's pid once it runs. */
int cli_supervise_hooked(char *const argv[], unsigned int timeout_s,
			 const struct cli_supervise_hook *hook, int *status,
			 int *left);

#endif /* UST_CLI_SUPERVISE_H */
