/*
 * kernel.c - `ust record --kernel`: ust-kerneld around CMD.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ust-kerneld is started before CMD, in a process group of its own (a
 * ^C at the terminal is for CMD; we stop the bridge ourselves once CMD's
 * session is over), with one end of a socket pair as fd 3 (abi/kerneld.h).
 * It says "ready" there once kernel tracing is on; if it exits instead,
 * its exit status says why (it printed the reason itself): a bad event
 * list stops `ust record`, anything else leaves the user-space trace to
 * go on alone.  For the traced process tree only (--kernel-pid, the
 * default), it is given our pid: it follows the tasks we fork from then
 * on, and we tell it CMD's pid once CMD runs.
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
#include <sys/socket.h>
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

static int spawn_kerneld(const char *outdir, const struct cli_kernel_opts *o,
			 int control_fd, pid_t *pid)
{
	const char *argv[16];
	char self[24];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int n = 0, ret;

	argv[n++] = UST_KERNELD_NAME;
	argv[n++] = "--" UST_KERNELD_OPT_OUTPUT;
	argv[n++] = outdir;
	argv[n++] = "--" UST_KERNELD_OPT_CONTROL_FD;
	argv[n++] = UST_KERNELD_STR(UST_KERNELD_CONTROL_FD);
	if (o->list) {
		argv[n++] = "--" UST_KERNELD_OPT_EVENTS;
		argv[n++] = o->list;
	}
	if (o->flight)
		argv[n++] = "--" UST_KERNELD_OPT_FLIGHT;
	if (o->trigger) {
		argv[n++] = "--" UST_KERNELD_OPT_TRIGGER;
		argv[n++] = o->trigger;
	}
	if (o->holdoff) {
		argv[n++] = "--" UST_KERNELD_OPT_HOLDOFF;
		argv[n++] = o->holdoff;
	}
	if (o->process_tree) {
		snprintf(self, sizeof(self), "%d", (int)getpid());
		argv[n++] = "--" UST_KERNELD_OPT_RECORDER;
		argv[n++] = self;
	}
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	ret = posix_spawn_file_actions_adddup2(&fa, control_fd, UST_KERNELD_CONTROL_FD);
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
	char msg[UST_KERNELD_MSG_MAX];
	ssize_t n;
	int ret;

	do
		ret = poll(&p, 1, KERNELD_READY_TIMEOUT_MS);
	while (ret < 0 && errno == EINTR);
	if (ret <= 0)
		return false;
	n = recv(fd, msg, sizeof(msg), 0);
	return n == (ssize_t)strlen(UST_KERNELD_MSG_READY) &&
	       !memcmp(msg, UST_KERNELD_MSG_READY, (size_t)n);
}

/* The consumers' way to the bridge's snapshot socket. */
static void export_socket(pid_t pid)
{
	char name[64];

	snprintf(name, sizeof(name), UST_KERNELD_SOCKET_FMT, (int)pid);
	if (setenv(UST_ENV_KERNELD_SOCKET, name, 1))
		cli_error("cannot set %s: %s; snapshots will have no kernel part",
			  UST_ENV_KERNELD_SOCKET, strerror(errno));
}

enum cli_kernel_start cli_kernel_start(const char *outdir, const struct cli_kernel_opts *o,
				       struct cli_kernel *k)
{
	int fds[2], ret, status;

	k->fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds)) {
		cli_error("no kernel events: cannot make a socket pair: %s", strerror(errno));
		return UST_KERNEL_UNAVAILABLE;
	}
	ret = spawn_kerneld(outdir, o, fds[1], &k->pid);
	close(fds[1]);
	if (ret) {
		close(fds[0]);
		cli_error("no kernel events: cannot run %s: %s", kerneld_path(),
			  strerror(-ret));
		return UST_KERNEL_UNAVAILABLE;
	}
	if (wait_ready(fds[0])) {
		k->fd = fds[0];
		if (o->flight)
			export_socket(k->pid);
		return UST_KERNEL_RUNNING;
	}
	close(fds[0]);
	kill(k->pid, SIGTERM);
	status = wait_exit(k->pid);
	if (status == KERNELD_EXIT_USAGE)
		return UST_KERNEL_BAD_LIST;
	if (status != KERNELD_EXIT_UNAVAIL)
		cli_error("no kernel events: %s failed (status %d)", kerneld_path(),
			  status);
	cli_error("recording the user-space trace only");
	return UST_KERNEL_UNAVAILABLE;
}

void cli_kernel_root(struct cli_kernel *k, pid_t pid)
{
	char msg[32];
	int n = snprintf(msg, sizeof(msg), UST_KERNELD_MSG_ROOT " %d", (int)pid);

	if (send(k->fd, msg, (size_t)n, MSG_NOSIGNAL) != n)
		cli_error("cannot tell the kernel bridge which process is traced: %s",
			  strerror(errno));
}

void cli_kernel_stop(struct cli_kernel *k)
{
	kill(k->pid, SIGTERM);
	wait_exit(k->pid);
	close(k->fd);
	k->fd = -1;
}
