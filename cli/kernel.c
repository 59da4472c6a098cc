/*
 * kernel.c - `ust record --kernel`: ust-kerneld around CMD.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ust-kerneld is started before CMD, in a process group of its own (a
 * ^C at the terminal is for CMD; we stop the bridge ourselves once CMD's
 * session is over), with the write end of a pipe as fd 3.  It writes one
 * byte there once kernel tracing is on; if it exits instead, its exit
 * status says why (it printed the reason itself): a bad event list stops
 * `ust record`, anything else leaves the user-space trace to go on alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/env.h"
#include "abi/kerneld.h"
#include "cli.h"
#include "kernel.h"

#define KERNELD_READY_TIMEOUT_MS 60000

extern char **environ;

static const char *kerneld_path(void)
{
	const char *env = getenv(UST_ENV_KERNELD);

	return env && *env ? env : PKGLIBEXECDIR "/" UST_KERNELD_NAME;
}

static int spawn_kerneld(const char *outdir, const char *list, int ready_fd,
			 pid_t *pid)
{
	const char *argv[9];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int n = 0, ret;

	argv[n++] = UST_KERNELD_NAME;
	argv[n++] = "--" UST_KERNELD_OPT_OUTPUT;
	argv[n++] = outdir;
	argv[n++] = "--" UST_KERNELD_OPT_READY_FD;
	argv[n++] = UST_KERNELD_STR(UST_KERNELD_READY_FD);
	if (list) {
		argv[n++] = "--" UST_KERNELD_OPT_EVENTS;
		argv[n++] = list;
	}
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	ret = posix_spawn_file_actions_adddup2(&fa, ready_fd, UST_KERNELD_READY_FD);
	if (!ret)
		ret = posix_spawnattr_setpgroup(&attr, 0);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	if (!ret)
		ret = posix_spawn(pid, kerneld_path(), &fa, &attr,
				  (char *const *)argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -ret;
}

static int wait_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Whether the bridge said "ready" within the timeout. */
static bool wait_ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;
	int ret;

	do
		ret = poll(&p, 1, KERNELD_READY_TIMEOUT_MS);
	while (ret < 0 && errno == EINTR);
	return ret > 0 && read(fd, &c, 1) == 1;
}

enum cli_kernel_start cli_kernel_start(const char *outdir, const char *list,
				       pid_t *pid)
{
	int fds[2], ret, status;
	bool ready;

	if (pipe2(fds, O_CLOEXEC)) {
		cli_error("no kernel events: cannot make a pipe: %s", strerror(errno));
		return UST_KERNEL_UNAVAILABLE;
	}
	ret = spawn_kerneld(outdir, list, fds[1], pid);
	close(fds[1]);
	if (ret) {
		close(fds[0]);
		cli_error("no kernel events: cannot run %s: %s", kerneld_path(),
			  strerror(-ret));
		return UST_KERNEL_UNAVAILABLE;
	}
	ready = wait_ready(fds[0]);
	close(fds[0]);
	if (ready)
		return UST_KERNEL_RUNNING;
	kill(*pid, SIGTERM);
	status = wait_exit(*pid);
	if (status == KERNELD_EXIT_USAGE)
		return UST_KERNEL_BAD_LIST;
	if (status != KERNELD_EXIT_UNAVAIL)
		cli_error("no kernel events: %s failed (status %d)", kerneld_path(),
			  status);
	cli_error("recording the user-space trace only");
	return UST_KERNEL_UNAVAILABLE;
}

void cli_kernel_stop(pid_t pid)
{
	kill(pid, SIGTERM);
	wait_exit(pid);
}
