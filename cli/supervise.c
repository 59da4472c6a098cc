/*
 * supervise.c - running the traced command under `ust record` and
 * waiting for the consumers it leaves behind.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each traced process starts its own ust-consumerd with posix_spawn, so
 * the consumer is the traced process's child.  When that process exits,
 * the kernel reparents the consumer to the nearest child subreaper: us.
 * The consumer then flushes the last packets, writes its summary and
 * exits; we wait for that before reading the summaries.
 *
 * Signals arrive through a signalfd: SIGCHLD to reap, and the
 * terminating signals to pass on to CMD.  They stay blocked in this
 * process and are unblocked again in CMD by posix_spawn.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "supervise.h"

/* How often the consumer wait rescans /proc, in ms. */
#define CONSUMER_POLL_MS	100
/* Say what we are waiting for when it takes longer than this, in s. */
#define CONSUMER_NOTICE_S	5
/* After an interrupt, consumers still get this long to finish, in s. */
#define CONSUMER_GRACE_S	1

extern char **environ;

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

struct supervisor {
	const struct cli_supervise_hooks *hooks;
	int sfd;		/* signalfd for SIGCHLD and forwarded signals */
	sigset_t old_mask;	/* our mask before blocking; CMD gets it back */
	pid_t cmd;		/* the traced command */
	bool cmd_done;		/* CMD has been reaped */
	int status;		/* its wait status, once reaped */
};

static bool is_ignored(int sig)
{
	struct sigaction sa;

	return !sigaction(sig, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

/*
 * Block SIGCHLD and the forwarded signals and open a signalfd for them.
 * A signal that we inherited as ignored (as `cmd &` does for SIGINT and
 * SIGQUIT) stays ignored: CMD inherits that too.
 */
static int supervisor_init(struct supervisor *sv)
{
	sigset_t set;
	unsigned int i;

	memset(sv, 0, sizeof(*sv));
	/* An inherited SIG_IGN would have the kernel reap CMD for us. */
	signal(SIGCHLD, SIG_DFL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		cli_error("cannot become a child subreaper: %s; not waiting for consumers",
			  strerror(errno));
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; i < sizeof(forwarded_signals) / sizeof(int); i++) {
		if (!is_ignored(forwarded_signals[i]))
			sigaddset(&set, forwarded_signals[i]);
	}
	if (sigprocmask(SIG_BLOCK, &set, &sv->old_mask))
		return -errno;
	sv->sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sv->sfd < 0) {
		int ret = -errno;

		sigprocmask(SIG_SETMASK, &sv->old_mask, NULL);
		return ret;
	}
	return 0;
}

/*
 * The signals stay blocked: one that arrived after the last read would
 * otherwise kill us before we print the summary.
 */
static void supervisor_release(struct supervisor *sv)
{
	close(sv->sfd);
}

/* Start CMD with our original signal mask.  Returns 0 or -errno. */
static int spawn_cmd(struct supervisor *sv, char *const argv[])
{
	posix_spawnattr_t attr;
	int ret;

	ret = posix_spawnattr_init(&attr);
	if (ret)
		return -ret;
	ret = posix_spawnattr_setsigmask(&attr, &sv->old_mask);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	/* glibc reports exec failures (ENOENT, EACCES, ...) here. */
	if (!ret)
		ret = posix_spawnp(&sv->cmd, argv[0], NULL, &attr, argv,
				   environ);
	posix_spawnattr_destroy(&attr);
	return -ret;
}

/*
 * Read /proc/<pid>/stat: "pid (comm) state ppid ...".  comm may hold
 * blanks and parentheses, so it ends at the last ')'.  Returns whether
 * comm is ust-consumerd, with the state and ppid; false when unreadable.
 */
static bool stat_consumer(long pid, char *state, int *ppid)
{
	char path[64], buf[256];
	const char *open_paren, *close_paren;
	size_t comm_len = strlen(UST_CONSUMER_COMM);
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return false;
	if (sscanf(close_paren + 1, " %c %d", state, ppid) != 2)
		return false;
	return (size_t)(close_paren - open_paren - 1) == comm_len &&
	       !memcmp(open_paren + 1, UST_CONSUMER_COMM, comm_len);
}

/*
 * Reap every child that has exited: CMD, consumers, other orphans.  Each
 * is looked at before it is reaped (a zombie still has its comm), so the
 * hooks know whether it was a consumer.
 */
static void reap_children(struct supervisor *sv)
{
	siginfo_t si;
	bool consumer;
	char state;
	int st, ppid;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid)
			return;
		consumer = stat_consumer(si.si_pid, &state, &ppid);
		if (waitpid(si.si_pid, &st, 0) != si.si_pid)
			continue;
		if (si.si_pid == sv->cmd) {
			sv->status = st;
			sv->cmd_done = true;
		}
		if (sv->hooks && sv->hooks->child_exited)
			sv->hooks->child_exited(sv->hooks->arg, si.si_pid, st, consumer);
	}
}

/* Wait up to `ms` for a signal or the hooks' fd; handle the latter. */
static int poll_events(struct supervisor *sv, int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = sv->sfd, .events = POLLIN },
		{ .fd = sv->hooks ? sv->hooks->fd : -1, .events = POLLIN },
	};
	int n = poll(pfd, 2, ms);

	if (n > 0 && (pfd[1].revents & POLLIN) && sv->hooks->fd_ready)
		sv->hooks->fd_ready(sv->hooks->arg);
	return n < 0 ? -errno : (pfd[0].revents & POLLIN) != 0;
}

/*
 * Pass a signal on to CMD.  The terminal sends ^C, ^\ and hangups to
 * its whole foreground process group (si_code SI_KERNEL), so CMD already
 * has it unless CMD moved to a process group of its own; sending it
 * again would make a program that exits on its second ^C do so at once.
 */
static void forward_signal(const struct supervisor *sv,
			   const struct signalfd_siginfo *si)
{
	if (si->ssi_code == SI_KERNEL && getpgid(sv->cmd) == getpgrp())
		return;
	kill(sv->cmd, (int)si->ssi_signo);
}

/*
 * Read the pending signals.  Before CMD is reaped, forward them; after,
 * report whether one asked us to stop (SIGCHLD does not).
 */
static bool drain_signals(struct supervisor *sv)
{
	struct signalfd_siginfo si;
	bool stop = false;

	while (read(sv->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			continue;
		if (!sv->cmd_done)
			forward_signal(sv, &si);
		else
			stop = true;
	}
	return stop;
}

/*
 * Wait for CMD, forwarding signals.  Should poll fail, fall back to a
 * plain wait: CMD still gets waited for, only signals are not forwarded.
 */
static void wait_cmd(struct supervisor *sv)
{
	int n;

	for (;;) {
		reap_children(sv);
		if (sv->cmd_done)
			return;
		n = poll_events(sv, -1);
		if (n < 0 && n != -EINTR)
			break;
		if (n > 0)
			drain_signals(sv);
	}
	while (waitpid(sv->cmd, &sv->status, 0) < 0 && errno == EINTR)
		;
	sv->cmd_done = true;
}

/*
 * Whether process `pid` is an ust-consumerd whose parent is `self`: a
 * zombie too, which the next reap_children() reaps and reports (a
 * consumer that died is replaced, and its successor waited for).
 */
static bool is_our_consumer(long pid, pid_t self)
{
	char state;
	int ppid;

	return stat_consumer(pid, &state, &ppid) && ppid == self;
}

/* Our live ust-consumerd children; -errno when /proc cannot be read. */
static int count_consumers(void)
{
	pid_t self = getpid();
	struct dirent *de;
	char *end;
	int n = 0;
	long pid;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid = strtol(de->d_name, &end, 10);
		if (pid > 0 && !*end && is_our_consumer(pid, self))
			n++;
	}
	closedir(d);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *consumers_word(int n)
{
	return n == 1 ? "consumer" : "consumers";
}

/*
 * Wait until no consumer is our child any more, or `timeout_s` passed.
 * A terminating signal cuts the wait short, after a grace period for the
 * consumers that are flushing because of the same ^C.  Returns how many
 * consumers are still running.
 */
static int wait_consumers(struct supervisor *sv, unsigned int timeout_s)
{
	double start = now_s(), deadline = start + timeout_s;
	bool noticed = false, interrupted = false;
	int n;

	for (;;) {
		reap_children(sv);
		n = count_consumers();
		if (n < 0)
			cli_error("cannot list processes in /proc: %s; not waiting for consumers",
				  strerror(-n));
		if (n <= 0)
			return 0;
		if (now_s() >= deadline)
			break;
		if (!noticed && now_s() - start >= CONSUMER_NOTICE_S) {
			cli_error("waiting for %d %s to finish writing",
				  n, consumers_word(n));
			noticed = true;
		}
		if (poll_events(sv, CONSUMER_POLL_MS) > 0 &&
		    drain_signals(sv) && !interrupted) {
			interrupted = true;
			if (deadline > now_s() + CONSUMER_GRACE_S)
				deadline = now_s() + CONSUMER_GRACE_S;
		}
	}
	if (interrupted)
		cli_error("interrupted: stopped waiting for %d %s; traces may be incomplete",
			  n, consumers_word(n));
	else
		cli_error("gave up waiting for %d %s after %u s; traces may be incomplete",
			  n, consumers_word(n), timeout_s);
	return n;
}

int cli_supervise(char *const argv[], unsigned int timeout_s,
		  const struct cli_supervise_hooks *hooks, int *status, int *left)
{
	struct supervisor sv;
	int ret;

	ret = supervisor_init(&sv);
	if (ret)
		return ret;
	sv.hooks = hooks;
	ret = spawn_cmd(&sv, argv);
	if (ret)
		goto out;
	if (hooks && hooks->spawned)
		hooks->spawned(sv.cmd, hooks->spawned_arg);
	wait_cmd(&sv);
	*status = sv.status;
	*left = wait_consumers(&sv, timeout_s);
out:
	supervisor_release(&sv);
	return ret;
}
