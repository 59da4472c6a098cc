/*
 * view-relay.c - `ust view --live net://HOST[:PORT]/host/HOSTNAME/SESSION`:
 * follow a session on lttng-relayd through its live port (net/live.h,
 * doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The session is mirrored into a private directory as it arrives
 * (net/live-dir.c: whole packets appended to one file per stream), and
 * printed from there by the reader as `ust view --live DIR` does: each
 * pass goes on where the previous one stopped (view-follow.c) and prints
 * only what every stream not ended yet is known complete to, the end of
 * its last packet or the time of the relay's last "quiet" notice for it,
 * so that the output is in time order.  Once the relay says every stream
 * ended, one last pass prints the rest.  The directory is removed at the
 * end.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "net/live-dir.h"
#include "net/live.h"
#include "net/sock.h"
#include "view.h"
#include "view-follow.h"

#define RELAY_TIMEOUT_MS	5000	/* each answer of the relay */
#define ATTACH_WAIT_MS		10000	/* for the session to be listed */
#define PASS_PERIOD_MS		200	/* between two printing passes */
/*
 * A process that starts later has a relay session of its own, attached
 * within the viewer's relisting period (net/live.c), and its first events
 * may be older than the newest ones of the streams already followed:
 * nothing newer than this before the newest known is printed.
 */
#define LATE_SESSION_GRACE_NS	1000000000

struct relay_view {
	struct ust_live_url url;
	struct ust_live_viewer *v;
	struct ust_live_dir *mirror;
	struct ust_live_sink sink;
	char dir[4096];			/* the mirror */
	struct view_follow follow;
};

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Attach to the session, waiting for it to be listed. */
static int attach(struct relay_view *rv)
{
	int64_t deadline = ust_net_deadline(ATTACH_WAIT_MS);
	int n;

	while ((n = ust_live_attach(rv->v, rv->url.hostname, rv->url.session, true)) == 0) {
		if (!ust_net_left_ms(deadline)) {
			cli_error("no session '%s' of host '%s' on lttng-relayd at %s in %d s",
				  rv->url.session, rv->url.hostname, rv->url.relay.text,
				  ATTACH_WAIT_MS / 1000);
			return -1;
		}
		sleep_ms(PASS_PERIOD_MS);
	}
	if (n < 0)
		cli_error("%s", ust_live_error(rv->v));
	return n < 0 ? -1 : 0;
}

/*
 * Take what the relay has, for about one pass period.  1 while the
 * session goes on, 0 once it ended, -1 on error (reported).
 */
static int take(struct relay_view *rv)
{
	int64_t deadline = ust_net_deadline(PASS_PERIOD_MS);
	bool progress;
	int ret;

	do {
		ret = ust_live_poll(rv->v, &rv->sink, &progress);
		if (ret < 0) {
			cli_error("%s", ust_live_error(rv->v));
			return -1;
		}
		if (ret > 0 && !progress)
			sleep_ms(20);
	} while (ret > 0 && ust_net_left_ms(deadline));
	return ret;
}

static const struct rd_stream *reader_stream(const struct rd_reader *r, const char *path)
{
	size_t i;

	for (i = 0; i < rd_reader_nr_streams(r); i++) {
		if (!strcmp(rd_stream_path(rd_reader_stream(r, i)), path))
			return rd_reader_stream(r, i);
	}
	return NULL;
}

/*
 * What may be printed: nothing at or after the time some stream not
 * ended yet is complete to; nothing at all while such a stream has told
 * nothing yet; nothing within the grace of the newest time known.
 */
static void relay_limit(struct rd_reader *r, const struct ust_live_dir *d)
{
	int64_t limit = INT64_MAX, newest = INT64_MIN, ns;
	size_t i;

	for (i = 0; i < ust_live_dir_nr_streams(d); i++) {
		const struct ust_live_dir_stream *s = ust_live_dir_stream(d, i);
		const struct rd_stream *st;

		if (s->metadata || s->ended)
			continue;
		st = reader_stream(r, s->file);
		if (!s->has_complete || !st) {
			limit = INT64_MIN;
			break;
		}
		ns = rd_clock_ns(&rd_trace_metadata(rd_stream_trace(st))->clock, s->complete_to);
		if (ns < limit)
			limit = ns;
		if (ns > newest)
			newest = ns;
	}
	if (newest != INT64_MIN && newest - LATE_SESSION_GRACE_NS < limit)
		limit = newest - LATE_SESSION_GRACE_NS;
	if (limit != INT64_MAX)
		rd_reader_set_limit(r, limit);
}

/* One printing pass over the mirror; `running`: limit it. */
static int print_pass(struct relay_view *rv, struct view_opts *o, bool running)
{
	struct rd_live hooks = { view_follow_find, &rv->follow };
	const char *dirs[1] = { rv->dir };
	struct rd_reader *r;
	char err[512];
	int ret;

	if (rd_reader_open_live(&r, dirs, 1, &hooks, err, sizeof(err))) {
		cli_error("%s", err);
		return UST_EXIT_FAILURE;
	}
	if (running)
		relay_limit(r, rv->mirror);
	ret = view_batch(r, o);
	view_follow_save(&rv->follow, r);
	rd_reader_close(r);
	return ret;
}

/* Take and print until the session ends; after an error, print what is complete. */
static int follow(struct relay_view *rv, struct view_opts *o)
{
	int running = 1, ret = 0;

	while (running > 0 && !ret) {
		running = take(rv);
		ret = print_pass(rv, o, running != 0);
	}
	return running < 0 ? UST_EXIT_FAILURE : ret;
}

static int open_all(struct relay_view *rv, const char *url)
{
	const char *tmp = getenv("TMPDIR");
	char err[1024];

	if (ust_live_url_parse(url, &rv->url, err, sizeof(err))) {
		cli_error("invalid URL '%s': %s", url, err);
		return UST_EXIT_USAGE;
	}
	if (!rv->url.session[0]) {
		cli_error("'%s' names no session: net://HOST[:PORT]/host/HOSTNAME/SESSION", url);
		return UST_EXIT_USAGE;
	}
	snprintf(rv->dir, sizeof(rv->dir), "%s/ust-view-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(rv->dir)) {
		cli_error("cannot create a directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			  strerror(errno));
		rv->dir[0] = '\0';
		return UST_EXIT_FAILURE;
	}
	rv->mirror = ust_live_dir_open(rv->dir, err, sizeof(err));
	if (!rv->mirror) {
		cli_error("%s", err);
		return UST_EXIT_FAILURE;
	}
	ust_live_dir_sink(rv->mirror, &rv->sink);
	rv->v = ust_live_connect(&rv->url, RELAY_TIMEOUT_MS, err, sizeof(err));
	if (!rv->v) {
		cli_error("%s", err);
		return UST_EXIT_FAILURE;
	}
	return attach(rv) ? UST_EXIT_FAILURE : 0;
}

int view_live_relay(const char *url, struct view_opts *o)
{
	struct relay_view rv = { 0 };
	int ret;

	ret = open_all(&rv, url);
	if (!ret)
		ret = follow(&rv, o);
	ust_live_close(rv.v);
	ust_live_dir_close(rv.mirror);
	view_follow_release(&rv.follow);
	if (rv.dir[0])
		nftw(rv.dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
