/*
 * main.c - ust-kerneld: options, the session's time base, start-up in
 * order, the read timer and the orderly stop.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Start-up: tracefs and permissions, the instance (tracing off), the
 * tracepoints, their classes, DIR/kernel/ with its metadata and stream
 * files, the statedump, then tracing on and one byte on --ready-fd.
 * Then every --read-timer microseconds each CPU's ring is drained, until
 * SIGTERM, SIGINT or SIGHUP (or the death of `ust record`, which sends
 * us SIGTERM through PR_SET_PDEATHSIG): tracing off, a last drain, and
 * the instance removed.  `ust record` starts us in a process group of
 * our own, so a ^C at the terminal reaches CMD, not us.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
			 struct kerneld_opts *o)
{
	uint64_t v;

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
	char *buffer = NULL, *timer = NULL;
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
		{ UST_KERNELD_OPT_READY_FD, '\0', POPT_ARG_INT, &o->ready_fd, 0,
		  "write one byte to FD once tracing is on", "FD" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(KERNELD_NAME, argc, argv, opts, 0);
	int rc, ret = 0;

	o->ready_fd = -1;
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
		ret = check_numbers(buffer, timer, o);
	}
	poptFreeContext(ctx);
	free(buffer);
	free(timer);
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

static int random_uuid(uint8_t uuid[16])
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
	long n = sysconf(_SC_NPROCESSORS_CONF);

	kd->nr_cpus = n > 0 ? (unsigned int)n : 1;
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
	if (kd->opts.ready_fd < 0)
		return;
	if (write(kd->opts.ready_fd, "1", 1) != 1)
		fprintf(stderr, KERNELD_NAME ": cannot report readiness: %s\n",
			strerror(errno));
	close(kd->opts.ready_fd);
	kd->opts.ready_fd = -1;
}

/* The trace directory, its files and the statedump; 0 or -errno. */
static int start_trace(struct kerneld *kd, char **enabled)
{
	int ret;

	ret = kd_classes_build(kd, enabled);
	if (!ret)
		ret = random_uuid(kd->uuid);
	if (!ret)
		ret = make_trace_dir(kd);
	if (!ret)
		ret = kd_metadata_write(kd);
	if (!ret)
		ret = setup_reader(kd);
	if (!ret)
		ret = kd_statedump(kd);
	if (!ret && kd_tracing_on(kd, true))
		ret = -errno;
	if (ret)
		fprintf(stderr, "ust record: kernel events: cannot start in %s: %s\n",
			kd->dir_path ? kd->dir_path : kd->opts.output, strerror(-ret));
	return ret;
}

/* Everything up to tracing on.  Returns 0 or an exit status. */
static int start(struct kerneld *kd)
{
	char **enabled = NULL;
	int ret;

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

static uint64_t drain_all(struct kerneld *kd)
{
	uint64_t pages = 0;
	unsigned int i;

	for (i = 0; i < kd->nr_cpus; i++)
		pages += kd_drain_cpu(kd, &kd->streams[i]);
	return pages;
}

/* Drain on the timer until a stop signal. */
static void run(struct kerneld *kd, const sigset_t *stop)
{
	struct timespec period = {
		.tv_sec = kd->opts.period_us / 1000000,
		.tv_nsec = (kd->opts.period_us % 1000000) * 1000,
	};

	for (;;) {
		drain_all(kd);
		if (sigtimedwait(stop, NULL, &period) > 0)
			return;
	}
}

static void finish(struct kerneld *kd)
{
	uint64_t events = 0, lost = 0;
	unsigned int i;

	kd_tracing_on(kd, false);
	while (drain_all(kd))
		;
	for (i = 0; i < kd->nr_cpus; i++) {
		events += kd->streams[i].total_events;
		lost += kd->streams[i].discarded;
	}
	fprintf(stderr, "ust record: kernel trace %s: %" PRIu64 " events, %" PRIu64
		" lost\n", kd->dir_path, events, lost);
}

static void release(struct kerneld *kd)
{
	kd_streams_close(kd);	/* open rings keep the instance busy */
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
	free(kd->dir_path);
	free(kd->tracing_dir);
	free(kd->opts.events);
	free((char *)kd->opts.output);
}

int main(int argc, const char **argv)
{
	struct kerneld kd = { .dir_fd = -1 };
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
	tracefs_set_loglevel(TEP_LOG_NONE);
	ret = start(&kd);
	if (!ret) {
		say_ready(&kd);
		run(&kd, &stop);
		finish(&kd);
	}
	release(&kd);
	return ret;
}
