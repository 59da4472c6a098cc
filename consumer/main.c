/*
 * main.c - ust-consumerd: drain one traced process's buffers to a CTF trace.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libust starts one consumer per traced process and passes it the
 * shared memory and a pidfd of the process.  The consumer detaches at
 * once (so it is never the traced program's child), then wakes every
 * --read-timer microseconds to drain whatever was committed.  When the
 * process ends, however it ends, or on SIGTERM, it drains and flushes
 * every buffer, writes its summary and exits.  In flight-recorder mode it
 * also writes snapshots on request and when the process dies by a signal
 * (snapshot.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <popt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "consumer.h"

#define READ_TIMER_DEFAULT	1000L		/* us */

struct options {
	int shm_fd;
	int pid_fd;
	int pid;
	char *output;
	long read_timer;
	char *clock;
	char *summary_dir;
	char *resume;
	int foreground;
	int wake_fd;
	struct ust_clock session_clock;
};

static volatile sig_atomic_t term_requested;
static sigjmp_buf bus_env;
static volatile sig_atomic_t bus_armed;

static void on_sigterm(int sig)
{
	(void)sig;
	term_requested = 1;
}

/*
 * A shared memory file shrunk under us faults our next read of it.
 * While reading it (bus_armed), jump back out and stop using it.
 */
static void on_sigbus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_env, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int usage_error(poptContext pc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(poptContext pc, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, CONSUMER_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	poptPrintUsage(pc, stderr, 0);
	return -EINVAL;
}

static int options_check(poptContext pc, struct options *o)
{
	if (o->shm_fd < 0)
		return usage_error(pc, "--shm-fd is required");
	if (o->pid <= 0)
		return usage_error(pc, "--pid is required");
	if (!o->output && !o->resume)
		return usage_error(pc, "--output or --resume is required");
	if (o->read_timer < UST_READ_TIMER_MIN_US || o->read_timer > UST_READ_TIMER_MAX_US)
		return usage_error(pc, "--read-timer must be %u..%u microseconds",
				   UST_READ_TIMER_MIN_US, UST_READ_TIMER_MAX_US);
	if (o->clock && ust__clock_parse(o->clock, &o->session_clock))
		return usage_error(pc, "invalid --clock '%s' (expected KIND:FREQ:OFFSET_S:OFFSET:UUID)",
				   o->clock);
	return 0;
}

/* popt gives string arguments as heap copies. */
static void options_release(struct options *o)
{
	free(o->output);
	free(o->clock);
	free(o->summary_dir);
	free(o->resume);
}

static int options_parse(int argc, const char **argv, struct options *o)
{
	struct poptOption table[] = {
		{ UST_CONSUMERD_OPT_SHM_FD, 0, POPT_ARG_INT, &o->shm_fd, 0,
		  "shared memory of the traced process", "N" },
		{ UST_CONSUMERD_OPT_PID_FD, 0, POPT_ARG_INT, &o->pid_fd, 0,
		  "pidfd of the traced process (default: opened from --pid)", "N" },
		{ UST_CONSUMERD_OPT_PID, 0, POPT_ARG_INT, &o->pid, 0, "the traced process", "PID" },
		{ UST_CONSUMERD_OPT_OUTPUT, 0, POPT_ARG_STRING, &o->output, 0,
		  "directory that receives the trace directory", "DIR" },
		{ UST_CONSUMERD_OPT_READ_TIMER, 0, POPT_ARG_LONG, &o->read_timer, 0,
		  "drain period in microseconds (default 1000)", "USEC" },
		{ UST_CONSUMERD_OPT_CLOCK, 0, POPT_ARG_STRING, &o->clock, 0,
		  "session clock from `ust record`", "SPEC" },
		{ UST_CONSUMERD_OPT_SUMMARY_DIR, 0, POPT_ARG_STRING, &o->summary_dir, 0,
		  "write <pid>.summary there at exit", "DIR" },
		{ UST_CONSUMERD_OPT_FOREGROUND, 0, POPT_ARG_NONE, &o->foreground, 0,
		  "do not detach", NULL },
		{ UST_CONSUMERD_OPT_WAKE_FD, 0, POPT_ARG_INT, &o->wake_fd, 0,
		  "an eventfd that blocked writers ring to have their buffers drained", "N" },
		{ UST_CONSUMERD_OPT_RESUME, 0, POPT_ARG_STRING, &o->resume, 0,
		  "go on with the trace directory of a consumer that died", "DIR" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext pc;
	int rc, ret = 0;

	memset(o, 0, sizeof(*o));
	o->shm_fd = -1;
	o->pid_fd = -1;
	o->wake_fd = -1;
	o->read_timer = READ_TIMER_DEFAULT;
	pc = poptGetContext(CONSUMER_NAME, argc, argv, table, 0);
	while ((rc = poptGetNextOpt(pc)) > 0)
		;
	if (rc < -1)
		ret = usage_error(pc, "%s", poptStrerror(rc));
	else if (poptPeekArg(pc))
		ret = usage_error(pc, "unexpected argument '%s'", poptPeekArg(pc));
	else
		ret = options_check(pc, o);
	poptFreeContext(pc);
	if (ret)
		options_release(o);
	return ret;
}

/* Leave the traced program's process tree: the parent exits at once. */
static void detach(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror(CONSUMER_NAME ": fork");
		exit(EXIT_FAILURE);
	}
	if (pid > 0)
		_exit(EXIT_SUCCESS);	/* reaped by libust */
	setsid();
}

/*
 * SIGTERM stays blocked except inside ppoll(), which gets `runmask`.
 * libust starts us with every signal blocked (libust/session.c,
 * sibling_child()): start from an empty mask, so that a SIGBUS on the
 * shared memory reaches on_sigbus().
 */
static void signals_setup(sigset_t *runmask)
{
	struct sigaction sa;
	sigset_t block;

	sigemptyset(&block);
	sigprocmask(SIG_SETMASK, &block, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_sigterm;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_sigbus;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, runmask);
	sigdelset(runmask, SIGTERM);
}

static int open_pidfd(const struct options *o)
{
	int fd = o->pid_fd;

	if (fd < 0)
		fd = pidfd_open(o->pid, 0);
	else if (fcntl(fd, F_GETFD) < 0)
		fd = -1;
	if (fd < 0 && !(o->resume && errno == ESRCH))
		fprintf(stderr, CONSUMER_NAME ": cannot watch process %d: %s\n",
			o->pid, strerror(errno));
	return fd;
}

static int clock_setup(struct consumer *c, const struct options *o)
{
	int ret;

	if (o->clock && o->session_clock.kind == c->shm.clock_kind) {
		c->clock = o->session_clock;
		return 0;
	}
	if (o->clock)
		fprintf(stderr, CONSUMER_NAME ": --clock is not the process's clock kind; measuring\n");
	ret = ust__clock_measure(c->shm.clock_kind, &c->clock);
	if (ret)
		fprintf(stderr, CONSUMER_NAME ": cannot measure the clock: %s\n",
			strerror(-ret));
	return ret;
}

/*
 * The trace: the dead consumer's with --resume, else (or when that one
 * cannot be continued: a new trace next to it) a new one, in a directory
 * or on a relay (output.c).
 */
static int trace_start(struct consumer *c, const struct options *o)
{
	int ret;

	if (o->resume) {
		ret = cd_resume(c, o->resume, o->pid);
		if (ret != -EAGAIN)
			return ret;
	}
	ret = cd_output_start(c, o->output ? o->output : c->resume_parent,
			      c->shm.procname, o->pid);
	if (!ret)
		ret = cd_metadata_write_header(c, o->pid);
	return ret;
}

/* Everything before the first drain.  Returns 0 or a negative errno. */
static int consumer_start(struct consumer *c, const struct options *o)
{
	char err[160];
	int ret;

	/* I16: never block on the eventfd, whatever the descriptor is. */
	if (o->wake_fd >= 0 && fcntl(o->wake_fd, F_SETFL, O_NONBLOCK))
		fprintf(stderr, CONSUMER_NAME ": --wake-fd %d: %s; the timer alone drains\n",
			o->wake_fd, strerror(errno));
	ret = shm_map_open(&c->shm, o->shm_fd, err, sizeof(err));
	if (ret) {
		fprintf(stderr, CONSUMER_NAME ": shared memory rejected: %s\n", err);
		snprintf(c->error, sizeof(c->error), "shared memory rejected: %s", err);
		return ret;
	}
	if (c->shm.pid != o->pid)
		fprintf(stderr, CONSUMER_NAME ": shared memory names pid %d, not %d\n",
			c->shm.pid, o->pid);
	ret = clock_setup(c, o);
	if (!ret)
		ret = cd_streams_init(c);
	if (!ret)
		ret = cd_threads_init(c);
	if (!ret)
		ret = cd_trigger_init(c);	/* before the first event class */
	if (!ret)
		ret = trace_start(c, o);
	if (ret && !c->error[0])
		snprintf(c->error, sizeof(c->error), "consumer could not start: %s",
			 strerror(-ret));
	return ret;
}

/* Free everything: exit is near, but sanitizers should see no leak. */
static void consumer_release(struct consumer *c)
{
	cd_reserve_release(c);
	cd_trigger_release(c);
	cd_relay_release(c);
	cd_threads_release(c);
	cd_streams_release(c);
	cd_metadata_release(c);
	shm_map_close(&c->shm);
	if (c->out_fd >= 0)
		close(c->out_fd);
	free(c->out_path);
	free(c->snapshot_lines);
}

/*
 * cd_drain_all() with shared memory faults turned into a clean stop.  The
 * signal mask need not be saved (no syscall per tick): SIGBUS runs with
 * SA_NODEFER, so the handler leaves the mask as it found it.
 */
static bool drain_guarded(struct consumer *c, bool final)
{
	if (sigsetjmp(bus_env, 0)) {
		bus_armed = 0;
		fprintf(stderr, CONSUMER_NAME ": shared memory became unreadable; trace ends here\n");
		if (!c->error[0])
			snprintf(c->error, sizeof(c->error), "shared memory became unreadable");
		return false;
	}
	bus_armed = 1;
	cd_drain_all(c, final);
	if (final) {
		cd_trigger_scan(c);	/* what the last tick did not see */
		cd_flight_final(c);	/* a crash leaves a snapshot */
	} else {
		cd_trigger_scan(c);		/* --trigger on a user event */
		cd_flight_poll(c);		/* a snapshot request */
		if (cd_relay_live_due(c)) {
			cd_drain_live(c);	/* the sub-buffers being filled */
			cd_relay_beacons(c);
		}
	}
	bus_armed = 0;
	cd_relay_tick(c);
	return true;
}

/*
 * A blocked writer rang (I16): empty the eventfd's counter and drain now.
 * A bad descriptor is given up, the timer still drains.
 */
static void wake_take(struct pollfd *pfd)
{
	uint64_t count;

	if (pfd->revents & (POLLERR | POLLNVAL) ||
	    (read(pfd->fd, &count, sizeof(count)) < 0 && errno != EAGAIN))
		pfd->fd = -1;
}

/*
 * Drain every tick, and whenever a blocked writer rings, until the
 * process ends or SIGTERM; then flush.  No pidfd (resuming the trace of
 * a process that is gone): only the flush.
 */
static void consumer_run(struct consumer *c, const struct options *o, int pidfd,
			 const sigset_t *runmask)
{
	struct pollfd pfd[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = o->wake_fd, .events = POLLIN },
	};
	struct timespec tick = {
		.tv_sec = o->read_timer / 1000000,
		.tv_nsec = (o->read_timer % 1000000) * 1000,
	};
	bool readable = true;
	int n;

	while (pidfd >= 0 && !term_requested && readable) {
		n = ppoll(pfd, 2, &tick, runmask);
		if (n < 0 && errno != EINTR) {
			perror(CONSUMER_NAME ": ppoll");
			break;
		}
		if (n > 0 && pfd[0].revents)
			break;		/* the process is gone (or the pidfd is bad) */
		if (n > 0)
			wake_take(&pfd[1]);
		readable = drain_guarded(c, false);
	}
	if (readable)
		drain_guarded(c, true);
	cd_output_finish(c);	/* the relay's end, even after a fault */
}

/* The summary directory, opened by the walk of common/safepath.h. */
static int summary_dir_open(const char *path)
{
	struct ust_safe_dir d;
	char err[2 * PATH_MAX];

	if (ust__safe_dir_open(path, 0, 0, &d, err, sizeof(err))) {
		fprintf(stderr, CONSUMER_NAME ": cannot open summary directory '%s': %s\n",
			path, err);
		return -1;
	}
	return d.fd;
}

int main(int argc, const char **argv)
{
	struct consumer c;
	struct options o;
	sigset_t runmask;
	int pidfd, sumfd = -1, ret;

	if (options_parse(argc, argv, &o))
		return 2;
	if (!o.foreground)
		detach();
	signals_setup(&runmask);
	memset(&c, 0, sizeof(c));
	c.out_fd = -1;
	c.meta_fd = -1;
	c.pidfd = -1;
	c.reserve_fd = -1;
	c.sum_fd = -1;
	c.sum_dirfd = -1;
	if (o.summary_dir)
		sumfd = summary_dir_open(o.summary_dir);
	if (sumfd >= 0)
		cd_summary_start(&c, sumfd, o.pid);
	pidfd = open_pidfd(&o);
	c.pidfd = pidfd;
	/* Resuming the trace of a process that is gone: its memory is not. */
	if (pidfd < 0 && !o.resume) {
		snprintf(c.error, sizeof(c.error), "cannot watch process %d", o.pid);
		ret = -ESRCH;
	} else {
		ret = consumer_start(&c, &o);
	}
	if (!ret) {
		cd_summary_started(&c);
		/* Paths were resolved at start: do not pin the cwd's mount. */
		if (chdir("/"))
			perror(CONSUMER_NAME ": chdir /");
		consumer_run(&c, &o, pidfd, &runmask);
		cd_not_recorded_write(&c);	/* for ust report */
	}
	if (sumfd >= 0) {
		cd_summary_finish(&c);
		close(sumfd);
	}
	consumer_release(&c);
	options_release(&o);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
