/*
 * view-live.c - `ust view --live DIR...`: follow traces while `ust
 * record` writes them (doc/ust-view.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every LIVE_PERIOD_MS, the traces under DIR are opened again: new
 * trace directories and stream files join, each stream goes on after
 * the last whole packet read before (rd_reader_open_live()), and the
 * new events are printed merged by time.  The session is running while
 * DIR (or the directory above it) holds the `.ust-record-PID` directory
 * of a live `ust record` (cli/summary.c makes it and removes it when
 * the command ends).  Once it is gone, one last pass prints what the
 * consumers wrote last, and the command exits.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "view.h"

#define LIVE_PERIOD_MS		200
#define LIVE_WAIT_DIR_S		10	/* for DIR to be created */
#define RECORD_MARKER		".ust-record-"

struct followed {
	char *path;
	struct rd_stream_pos pos;
};

struct live {
	struct followed *v;
	size_t nr;
};

static const struct rd_stream_pos *live_find(void *arg, const char *path)
{
	const struct live *l = arg;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (!strcmp(l->v[i].path, path))
			return &l->v[i].pos;
	}
	return NULL;
}

/* Remember where each stream of `r` ends, for the next pass. */
static void live_save(struct live *l, const struct rd_reader *r)
{
	size_t i, j;

	for (i = 0; i < rd_reader_nr_streams(r); i++) {
		const char *path = rd_stream_path(rd_reader_stream(r, i));

		for (j = 0; j < l->nr && strcmp(l->v[j].path, path); j++)
			;
		if (j == l->nr) {
			l->v = realloc(l->v, (l->nr + 1) * sizeof(*l->v));
			if (!l->v || !(l->v[j].path = strdup(path))) {
				fputs("ust: out of memory\n", stderr);
				abort();
			}
			l->nr++;
		}
		rd_reader_stream_pos(r, i, &l->v[j].pos);
	}
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

static bool session_running(const char *const *dirs, size_t n)
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
			if (tries == LIVE_WAIT_DIR_S * 1000 / LIVE_PERIOD_MS) {
				ust_error("%s: %s", dirs[i], strerror(errno));
				return -1;
			}
			sleep_ms(LIVE_PERIOD_MS);
		}
	}
	return 0;
}

int view_live(const char *const *dirs, size_t n, struct view_opts *o)
{
	struct live l = { NULL, 0 };
	struct rd_live hooks = { live_find, &l };
	struct rd_reader *r;
	bool ending = false;
	char err[512];
	int ret = 0;

	if (wait_for_dirs(dirs, n))
		return UST_EXIT_FAILURE;
	while (!ending && !ret) {
		/* decided before reading: what the end wrote is then read */
		ending = !session_running(dirs, n);
		if (rd_reader_open_live(&r, dirs, n, &hooks, err, sizeof(err))) {
			ust_error("%s", err);
			ret = UST_EXIT_FAILURE;
			break;
		}
		ret = view_batch(r, o);
		live_save(&l, r);
		rd_reader_close(r);
		if (!ending)
			sleep_ms(LIVE_PERIOD_MS);
	}
	while (l.nr)
		free(l.v[--l.nr].path);
	free(l.v);
	return ret;
}
