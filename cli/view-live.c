/*
 * view-live.c - `ust view --live DIR...`: follow traces while they are
 * written, by `ust record` or by programs traced through UST_TRACE
 * (doc/ust-view.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every LIVE_PERIOD_MS, the traces under DIR are opened again: new
 * trace directories and stream files join, each stream goes on where
 * the previous pass stopped (rd_reader_open_live()), and the new events
 * are printed merged by time, up to the time every stream still written
 * is known complete to: the smallest timestamp_end of their last whole
 * packets.  What is newer waits for a later pass, so the output is in
 * time order across passes.  A trace is still written while its
 * consumer runs (an `ust-consumerd --pid VPID` process, VPID being the
 * trace's env.vpid; it exits after writing the program's last packets);
 * a stream that has not grown for LIVE_IDLE_S holds nothing back.
 *
 * The session runs while DIR (or the directory above it) holds the
 * `.ust-record-PID` directory of a live `ust record` (cli/summary.c), or
 * while the consumer of a trace under DIR runs.  Once it ends, one last
 * pass prints everything left, and the command exits.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "view.h"
#include "view-follow.h"

#define LIVE_PERIOD_MS		200
#define LIVE_WAIT_S		10	/* for DIR, then for a trace in it */
#define LIVE_IDLE_S		5	/* an idle stream stops holding back */
#define RECORD_MARKER		".ust-record-"

struct vpids {
	int64_t *v;
	size_t nr;
};

struct live {
	struct view_follow f;	/* every stream file seen */
	struct vpids seen;	/* env.vpid of every trace seen */
	struct vpids written;	/* those whose consumer runs */
};

static bool vpids_has(const struct vpids *s, int64_t vpid)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		if (s->v[i] == vpid)
			return true;
	}
	return false;
}

/* Add `vpid` to `s`: false when it was there. */
static bool vpids_add(struct vpids *s, int64_t vpid)
{
	if (vpids_has(s, vpid))
		return false;
	s->v = view_grow_or_die(s->v, s->nr, sizeof(*s->v));
	s->v[s->nr++] = vpid;
	return true;
}

/* The trace's env.vpid, or -1. */
static int64_t trace_vpid(const struct rd_trace *t)
{
	const struct rd_env *e = rd_metadata_env(rd_trace_metadata(t), "vpid");

	return e && !e->str ? e->num : -1;
}

/* Learn the vpids of the traces of `r`; returns how many are new. */
static size_t live_learn_vpids(struct live *l, const struct rd_reader *r)
{
	size_t i, added = 0;

	for (i = 0; i < rd_reader_nr_traces(r); i++) {
		int64_t vpid = trace_vpid(rd_reader_trace(r, i));

		added += vpid >= 0 && vpids_add(&l->seen, vpid);
	}
	return added;
}

/* Does `dir` hold the marker of a `ust record` that still runs? */
static bool record_running_in(const char *dir)
{
	struct dirent *de;
	bool running = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!running && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, RECORD_MARKER, strlen(RECORD_MARKER)))
			continue;
		pid = strtol(de->d_name + strlen(RECORD_MARKER), &end, 10);
		running = !*end && pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
	}
	closedir(d);
	return running;
}

static bool record_running(const char *const *dirs, size_t n)
{
	char parent[4096];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(parent, sizeof(parent), "%s/..", dirs[i]);
		if (record_running_in(dirs[i]) || record_running_in(parent))
			return true;
	}
	return false;
}

/*
 * The vpid a consumer process follows: its command line holds
 * "--pid-fd" and "--pid VPID" (libust's consumer_args(); also under a
 * wrapper such as valgrind).  -1 when `pid` is not a consumer.
 */
static int64_t consumer_target(long pid)
{
	char path[64], buf[4096], *arg, *end;
	bool has_pid_fd = false;
	int64_t target = -1;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	for (arg = buf; arg < buf + len; arg += strlen(arg) + 1) {
		if (!strcmp(arg, "--pid-fd"))
			has_pid_fd = true;
		else if (!strcmp(arg, "--pid") && arg + strlen(arg) + 1 < buf + len)
			target = strtoll(arg + strlen(arg) + 1, &end, 10);
	}
	return has_pid_fd ? target : -1;
}

/* l->written: the traces seen whose consumer runs. */
static void find_consumers(struct live *l)
{
	struct dirent *de;
	char *end;
	DIR *d;

	l->written.nr = 0;
	if (!l->seen.nr || !(d = opendir("/proc")))
		return;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, &end, 10);
		int64_t target;

		if (pid > 0 && !*end && (target = consumer_target(pid)) >= 0 &&
		    vpids_has(&l->seen, target))
			vpids_add(&l->written, target);
	}
	closedir(d);
}

static bool session_running(const char *const *dirs, size_t n, struct live *l)
{
	find_consumers(l);
	return record_running(dirs, n) || l->written.nr;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Wait for every DIR to exist, as `ust record` may not have made it yet. */
static int wait_for_dirs(const char *const *dirs, size_t n)
{
	struct stat sb;
	size_t i;
	int tries;

	for (i = 0; i < n; i++) {
		for (tries = 0; stat(dirs[i], &sb); tries++) {
			if (tries == LIVE_WAIT_S * 1000 / LIVE_PERIOD_MS) {
				cli_error("%s: %s", dirs[i], strerror(errno));
				return -1;
			}
			sleep_ms(LIVE_PERIOD_MS);
		}
	}
	return 0;
}

/*
 * One pass: print what every stream is known complete to (everything
 * when the session has ended), remember where each stream goes on.
 */
/*
 * Whether stream `i` of `r` holds back what is newer than its last whole
 * packet: its consumer runs (or, without a vpid, the session does) and
 * it grew within LIVE_IDLE_S.  *end: that packet's end, ns.
 */
static bool holds_back(const struct live *l, const struct rd_reader *r, size_t i,
		       double now, int64_t *end)
{
	const struct rd_stream *st = rd_reader_stream(r, i);
	const struct rd_trace *t = rd_stream_trace(st);
	const struct view_followed *f = view_follow_stream(&l->f, rd_stream_path(st));
	int64_t vpid = trace_vpid(t);
	struct rd_stream_pos pos;

	rd_reader_stream_pos(r, i, &pos);
	if (!pos.has_complete || (vpid >= 0 && !vpids_has(&l->written, vpid)) ||
	    (f && f->pos.has_complete == pos.has_complete &&
	     f->pos.complete_end == pos.complete_end && now - f->grew_at > LIVE_IDLE_S))
		return false;
	*end = rd_clock_ns(&rd_trace_metadata(t)->clock, pos.complete_end);
	return true;
}

/* Nothing at or after the time some stream still written is complete to. */
static void live_limit(struct rd_reader *r, const struct live *l)
{
	double now = view_now_s();
	int64_t end, limit = INT64_MAX;
	bool any = false;
	size_t i;

	for (i = 0; i < rd_reader_nr_streams(r); i++) {
		if (holds_back(l, r, i, now, &end) && end < limit) {
			limit = end;
			any = true;
		}
	}
	if (any)
		rd_reader_set_limit(r, limit);
}

static int live_pass(struct rd_reader *r, struct live *l, struct view_opts *o,
		     bool running)
{
	int ret;

	if (running)
		live_limit(r, l);
	ret = view_batch(r, o);
	view_follow_save(&l->f, r);
	return ret;
}

int view_live(const char *const *dirs, size_t n, struct view_opts *o)
{
	struct live l = { 0 };
	struct rd_live hooks = { view_follow_find, &l.f };
	int waited = 0, ret = 0;
	bool found = false;
	struct rd_reader *r;
	bool running = true;
	char err[512];

	if (wait_for_dirs(dirs, n))
		return UST_EXIT_FAILURE;
	while (running && !ret) {
		/* decided before reading: what the end wrote is then read */
		running = session_running(dirs, n, &l);
		if (rd_reader_open_live(&r, dirs, n, &hooks, err, sizeof(err))) {
			cli_error("%s", err);
			ret = UST_EXIT_FAILURE;
			break;
		}
		if (live_learn_vpids(&l, r)) {
			/* new traces: which consumers run, known before reading */
			rd_reader_close(r);
			running = true;
			continue;
		}
		/* no trace yet: a program may be starting */
		found |= rd_reader_nr_traces(r) > 0;
		if (!running && !found)
			running = ++waited < LIVE_WAIT_S * 1000 / LIVE_PERIOD_MS;
		ret = live_pass(r, &l, o, running);
		rd_reader_close(r);
		if (running)
			sleep_ms(LIVE_PERIOD_MS);
	}
	if (!ret && !found) {
		cli_error("%s%s: no trace found (no 'metadata' file) in %d s", dirs[0],
			  n > 1 ? " (and the other directories)" : "", LIVE_WAIT_S);
		ret = UST_EXIT_FAILURE;
	}
	view_follow_release(&l.f);
	free(l.seen.v);
	free(l.written.v);
	return ret;
}
