/*
 * main.c - ust-kerneld: options, the session's time base, start-up in
 * order, the read timer and the orderly stop.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Start-up: tracefs and permissions, the instance (tracing off), the
 * tracepoints, their classes, DIR/kernel/ with its metadata and stream
 * files, the statedump, then tracing on and "ready" on --control-fd.
 * Then every --read-timer microseconds each CPU's ring is drained, and
 * the control socket's messages are served (abi/kerneld.h), until
 * SIGTERM, SIGINT or SIGHUP (or the death of `ust record`, which sends
 * us SIGTERM through PR_SET_PDEATHSIG): tracing off, a last drain, and
 * the instance removed.  `ust record` starts us in a process group of
 * our own, so a ^C at the terminal reaches CMD, not us.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "abi/env.h"
#include "kerneld.h"
#include "ctf/tsdl.h"
#include "common/parse.h"
#include "common/safepath.h"

#define DEFAULT_BUFFER_KB	8192
#define DEFAULT_PERIOD_US	20000
#define MAX_DIR_SUFFIX		100

static int check_numbers(const char *buffer, const char *timer,
			 const char *recorder, struct kerneld_opts *o)
{
	uint64_t v;

	if (recorder && (ust__parse_u64(recorder, &v) || !v || v > INT32_MAX)) {
		fprintf(stderr, KERNELD_NAME ": invalid --recorder '%s': a process id\n",
			recorder);
		return -1;
	}
	if (recorder)
		o->root = (int32_t)v;
	if (buffer && (ust__parse_size(buffer, &v) || v < 4096 || v > (1ull << 32))) {
		fprintf(stderr, KERNELD_NAME ": invalid --buffer-size '%s': from 4k to 4G\n",
			buffer);
		return -1;
	}
	if (buffer)
		o->buffer_kb = v / 1024;
	if (timer && (ust__parse_u64(timer, &o->period_us) ||
		      o->period_us < 100 || o->period_us > 10000000)) {
		fprintf(stderr, KERNELD_NAME ": invalid --read-timer '%s': from 100 "
			"to 10000000 microseconds\n", timer);
		return -1;
	}
	return 0;
}

static int parse_options(int argc, const char **argv, struct kerneld_opts *o)
{
	char *buffer = NULL, *timer = NULL, *recorder = NULL;
	int flight = 0;
	struct poptOption opts[] = {
		{ UST_KERNELD_OPT_OUTPUT, 'o', POPT_ARG_STRING, &o->output, 0,
		  "the session directory; the trace goes to DIR/kernel", "DIR" },
		{ UST_KERNELD_OPT_EVENTS, 'e', POPT_ARG_STRING, &o->events, 0,
		  "comma-separated globs on 'system:event' (or 'event'); "
		  "'default' is the default set", "LIST" },
		{ "buffer-size", '\0', POPT_ARG_STRING, &buffer, 0,
		  "ring size per CPU (default 8M)", "SIZE" },
		{ "read-timer", '\0', POPT_ARG_STRING, &timer, 0,
		  "read the rings every USEC microseconds (default 20000)", "USEC" },
		{ UST_KERNELD_OPT_CONTROL_FD, '\0', POPT_ARG_INT, &o->control_fd, 0,
		  "the socket of `ust record`'s messages (abi/kerneld.h)", "FD" },
		{ UST_KERNELD_OPT_FLIGHT, '\0', POPT_ARG_NONE, &flight, 0,
		  "flight recorder: the rings are written only in snapshots asked "
		  "for on the socket " UST_KERNELD_SOCKET_FMT, NULL },
		{ UST_KERNELD_OPT_TRIGGER, '\0', POPT_ARG_STRING, &o->trigger, 0,
		  "with --flight: snapshots when a kernel event matches "
		  "(EVENT[ if FILTER], LTTng's names and filter syntax)", "SPEC" },
		{ UST_KERNELD_OPT_HOLDOFF, '\0', POPT_ARG_STRING, &o->holdoff, 0,
		  "at most one trigger snapshot per SEC seconds (default 1)", "SEC" },
		{ UST_KERNELD_OPT_RECORDER, '\0', POPT_ARG_STRING, &recorder, 0,
		  "record only the process tree that process PID starts next "
		  "(its children, with their sched_switch context)", "PID" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(KERNELD_NAME, argc, argv, opts, 0);
	int rc, ret = 0;

	o->control_fd = -1;
	o->buffer_kb = DEFAULT_BUFFER_KB;
	o->period_us = DEFAULT_PERIOD_US;
	while ((rc = poptGetNextOpt(ctx)) > 0)
		;
	if (rc < -1) {
		fprintf(stderr, KERNELD_NAME ": %s: %s\n",
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		ret = -1;
	} else if (!o->output) {
		fprintf(stderr, KERNELD_NAME ": missing --output DIR\n");
		ret = -1;
	} else {
		ret = check_numbers(buffer, timer, recorder, o);
		o->flight = flight;
		if (!ret && o->trigger && !flight) {
			fprintf(stderr, KERNELD_NAME ": --trigger needs --flight\n");
			ret = -1;
		}
	}
	poptFreeContext(ctx);
	free(buffer);
	free(timer);
	free(recorder);
	return ret;
}

/* The session clock from `ust record`, else one measured here. */
static int session_clock(struct kerneld *kd)
{
	const char *text = getenv(UST_ENV_SESSION_CLOCK);

	if (text && !ust__clock_parse(text, &kd->clock))
		return 0;
	return ust__clock_measure(ust__clock_detect_kind(), &kd->clock);
}

int kd_random_uuid(uint8_t uuid[16])
{
	char buf[64];
	ssize_t n;
	int fd = open("/proc/sys/kernel/random/uuid", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 36)
		return -EIO;
	buf[n] = '\0';
	return ctf_uuid_parse(buf, uuid);
}

/* DIR/kernel, or DIR/kernel-N when an earlier session left one. */
static int make_trace_dir(struct kerneld *kd)
{
	char name[32], err[2 * PATH_MAX];
	struct ust_safe_dir out;
	int i, parent, ret;

	/* No link, no other user's directory in a world-writable one. */
	ret = ust__safe_dir_open(kd->opts.output, 0, 0, &out, err, sizeof(err));
	if (ret)
		return ret;
	parent = out.fd;
	for (i = 0; i < MAX_DIR_SUFFIX; i++) {
		snprintf(name, sizeof(name), i ? "kernel-%d" : "kernel", i);
		if (mkdirat(parent, name, 0700) && errno == EEXIST)
			continue;
		kd->dir_fd = openat(parent, name, O_RDONLY | O_DIRECTORY |
				    O_NOFOLLOW | O_CLOEXEC);
		break;
	}
	close(parent);
	if (i == MAX_DIR_SUFFIX)
		return -EEXIST;
	if (kd->dir_fd < 0)
		return -errno;
	if (asprintf(&kd->dir_path, "%s/%s", kd->opts.output, name) < 0)
		kd->dir_path = NULL;
	return kd->dir_path ? 0 : -ENOMEM;
}

static int setup_reader(struct kerneld *kd)
{
	kd->kbuf = tep_kbuffer(kd->tep);
	if (!kd->kbuf)
		return -ENOMEM;
	kd->page_size = getpagesize();
	kd->page = calloc(1, kd->page_size);
	if (!kd->page)
		return -ENOMEM;
	return kd_streams_open(kd);
}

static void say_ready(struct kerneld *kd)
{
	if (kd->opts.control_fd < 0)
		return;
	/* write(): a pipe serves too, for a bridge started by hand. */
	if (write(kd->opts.control_fd, UST_KERNELD_MSG_READY,
		  strlen(UST_KERNELD_MSG_READY)) < 0)
		fprintf(stderr, KERNELD_NAME ": cannot report readiness: %s\n",
			strerror(errno));
}

/*
 * "root PID": the recorder has started the traced command.  From now
 * on the recorder is in set_event_notrace_pid, and the metadata says
 * which process tree the trace holds.
 */
static void set_root(struct kerneld *kd, const char *arg)
{
	char pid[24];
	uint64_t v;

	if (!kd->opts.root || kd->root_pid || ust__parse_u64(arg, &v) || !v ||
	    v > INT32_MAX) {
		fprintf(stderr, KERNELD_NAME ": ignoring '" UST_KERNELD_MSG_ROOT " %s'\n", arg);
		return;
	}
	kd->root_pid = (int32_t)v;
	snprintf(pid, sizeof(pid), "%d", (int)kd->opts.root);
	tracefs_instance_file_append(kd->inst, "set_event_notrace_pid", pid);
	kd_trigger_notrace(kd, pid);
	/*
	 * DIR/kernel/metadata gets ust_kernel_pid; a relay's copy is sent in
	 * increments, appended, so it keeps the scope without the pid.
	 */
	if (kd_metadata_write_to(kd, kd->dir_fd, kd->uuid))
		fprintf(stderr, KERNELD_NAME ": cannot rewrite %s/metadata\n", kd->dir_path);
}

/* One message of the control socket; false when it is closed. */
static bool control_message(struct kerneld *kd)
{
	char msg[UST_KERNELD_MSG_MAX + 1];
	ssize_t n = read(kd->opts.control_fd, msg, UST_KERNELD_MSG_MAX);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return false;
	if (n < 0)
		return true;
	msg[n] = '\0';
	if (!strncmp(msg, UST_KERNELD_MSG_ROOT " ", strlen(UST_KERNELD_MSG_ROOT) + 1))
		set_root(kd, msg + strlen(UST_KERNELD_MSG_ROOT) + 1);
	else
		fprintf(stderr, KERNELD_NAME ": unknown message '%.64s'\n", msg);
	return true;
}

static int new_trace_uuid(struct kerneld *kd)
{
	return kd_random_uuid(kd->uuid);
}

/* What start_trace() does once the classes are built, in order. */
static int (*const start_steps[])(struct kerneld *kd) = {
	kd_trigger_open,	/* a bad spec stops us before any file */
	kd_tasks_init,
	new_trace_uuid,
	make_trace_dir,
	setup_reader,
	kd_relay_start,
	kd_metadata_write,
	kd_paths_open,
	kd_statedump,
};

/* The trace directory, its files and the statedump; 0 or -errno. */
static int start_trace(struct kerneld *kd, char **enabled)
{
	size_t i;
	int ret;

	ret = kd_classes_build(kd, enabled);
	for (i = 0; !ret && i < sizeof(start_steps) / sizeof(*start_steps); i++)
		ret = start_steps[i](kd);
	if (!ret && kd->opts.flight)
		ret = kd_flight_listen(kd);
	if (!ret && kd_tracing_on(kd, true))
		ret = -errno;
	if (ret && ret != -KERNELD_EXIT_USAGE)
		fprintf(stderr, "ust record: kernel events: cannot start in %s: %s\n",
			kd->dir_path ? kd->dir_path : kd->opts.output, strerror(-ret));
	return ret;
}

/* Everything up to tracing on.  Returns 0 or an exit status. */
static int start(struct kerneld *kd)
{
	char **enabled = NULL;
	long n;
	int ret;

	n = sysconf(_SC_NPROCESSORS_CONF);
	kd->nr_cpus = n > 0 ? (unsigned int)n : 1;
	ret = session_clock(kd);
	if (ret) {
		fprintf(stderr, "ust record: kernel events: cannot measure the clock: %s\n",
			strerror(-ret));
		return 1;
	}
	ret = kd_tracefs_find(kd);
	if (!ret)
		ret = kd_instance_create(kd);
	if (!ret)
		ret = kd_enable_events(kd, &enabled);
	if (!ret)
		ret = start_trace(kd, enabled);
	kd_list_free(enabled);
	if (ret == -KERNELD_EXIT_USAGE || ret == -KERNELD_EXIT_UNAVAIL)
		return -ret;
	return ret ? 1 : 0;
}

/* A pass over every ring: the records up to `cut` converted. */
static uint64_t drain_all(struct kerneld *kd, uint64_t cut)
{
	kd_paths_drain(kd);
	return kd_merge_pass(kd, cut);
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Drain on the timer (in flight mode only the BPF names: the rings wait
 * for a snapshot) and serve the sockets until a stop signal.
 */
static void run(struct kerneld *kd, const sigset_t *stop)
{
	struct pollfd p[3] = {
		{ .fd = signalfd(-1, stop, SFD_CLOEXEC), .events = POLLIN },
		{ .fd = kd->opts.control_fd, .events = POLLIN },
		{ .fd = kd->listen_fd, .events = POLLIN },
	};
	int64_t next = now_us();

	if (p[0].fd < 0) {
		fprintf(stderr, KERNELD_NAME ": signalfd: %s\n", strerror(errno));
		return;
	}
	for (;;) {
		int64_t wait = next - now_us();

		if (wait <= 0) {
			if (kd->opts.flight)
				kd_paths_drain(kd);
			else	/* the cut: the clock before any ring is read */
				drain_all(kd, ust__clock_read(kd->clock.kind));
			kd_relay_pass_end(kd);
			kd_trigger_poll(kd);
			next = now_us() + (int64_t)kd->opts.period_us;
			continue;
		}
		if (poll(p, 3, (int)((wait + 999) / 1000)) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (p[1].revents && !control_message(kd))
			p[1].fd = -1;	/* ust record is gone: PDEATHSIG follows */
		if (p[2].revents)
			kd_flight_accept(kd);
	}
	close(p[0].fd);
}

static void finish(struct kerneld *kd)
{
	uint64_t events = 0, lost = 0;
	unsigned int i;

	kd_tracing_on(kd, false);
	while (!kd->opts.flight && drain_all(kd, UINT64_MAX))
		;
	kd_streams_end(kd, ust__clock_read(kd->clock.kind));
	for (i = 0; i < kd->nr_cpus; i++) {
		events += kd->streams[i].total_events;
		lost += kd->streams[i].discarded;
	}
	kd_relay_finish(kd, events, lost);
	if (!kd_relay_streamed(kd))
		fprintf(stderr, "ust record: kernel trace %s: %" PRIu64 " events, %" PRIu64
			" lost\n", kd->dir_path, events, lost);
}

static void release(struct kerneld *kd)
{
	kd_trigger_close(kd);
	kd_flight_release(kd);
	kd_relay_release(kd);
	kd_streams_close(kd);	/* open rings keep the instance busy */
	kd_paths_close(kd);
	kd_instance_destroy(kd);
	if (kd->kbuf)
		kbuffer_free(kd->kbuf);
	if (kd->tep)
		tep_free(kd->tep);
	kd_classes_release(&kd->classes);
	if (kd->dir_fd >= 0)
		close(kd->dir_fd);
	free(kd->page);
	free(kd->tgid);
	free(kd->muted);
	kd_list_free(kd->hidden);
	if (kd->opts.control_fd >= 0)
		close(kd->opts.control_fd);
	free(kd->dir_path);
	free(kd->tracing_dir);
	free(kd->opts.events);
	free(kd->opts.trigger);
	free(kd->opts.holdoff);
	free((char *)kd->opts.output);
}

/*
 * The bridge must read the rings faster than the traced programs fill
 * them.  With every CPU busy, at the default priority it gets its share
 * among the busy threads only, falls behind and the rings overwrite
 * (bench/README.md, "Kernel events": 2 threads of system calls
 * saturating 2 CPUs lose about 35% of their events at nice 0, 1% at
 * -10).  Its work is
 * bounded by what the programs do, so it runs at nice -10;
 * UST_KERNELD_NICE=N sets another value (0: the default priority).
 */
static void raise_priority(void)
{
	const char *env = getenv(UST_ENV_KERNELD_NICE);
	int nice = env && *env ? atoi(env) : KERNELD_NICE;

	if (nice && setpriority(PRIO_PROCESS, 0, nice))
		fprintf(stderr, "ust record: kernel events: cannot set the bridge's nice "
			"value to %d: %s\n", nice, strerror(errno));
}

int main(int argc, const char **argv)
{
	struct kerneld kd = { .dir_fd = -1, .listen_fd = -1, .self = getpid(),
			      .created = time(NULL) };
	sigset_t stop;
	int ret;

	if (parse_options(argc, argv, &kd.opts)) {
		release(&kd);
		return KERNELD_EXIT_USAGE;
	}
	/* Signals only stop us, at a point of our choosing. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGPIPE, SIG_IGN);	/* a recorder gone is an error, not a death */
	tracefs_set_loglevel(TEP_LOG_NONE);
	raise_priority();
	ret = start(&kd);
	if (!ret) {
		say_ready(&kd);
		run(&kd, &stop);
		finish(&kd);
	}
	release(&kd);
	return ret;
}
