/*
 * summary.c - the summary file that `ust record` reads: begun when the
 * consumer starts, finished when it ends.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The file is created in the summary directory at start, under a hidden
 * name of this consumer's, `.<consumer pid>.summary.tmp`, with room
 * reserved for its final text (fallocate), so a disk that fills up
 * meanwhile cannot cost it.  It says at once which process this consumer
 * serves ("pid=N"), then, once made, which trace directory ("dir=D"),
 * or which relay it streams to ("relay=URL", with "dir=" empty until the
 * trace falls back to a directory): a consumer that dies leaves that
 * behind, and `ust record` knows whose trace it was.  At the end the file gets the whole summary, ending with
 * "end=1" (complete), and is renamed to `<pid>.summary` without
 * replacing another's: a process that execs gets a second consumer for
 * the same pid (one per image), whose summary becomes `<pid>-1.summary`.
 * Each text only adds to the one before, so the file never shrinks
 * before the end and never needs more room than was reserved.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consumer.h"

#define SUMMARY_RESERVE	16384	/* bytes kept for the final text */

/* Write `text` over the file from its start. */
static int summary_put(struct consumer *c, const char *text)
{
	size_t len = strlen(text), done = 0;
	ssize_t n;

	while (done < len) {
		n = pwrite(c->sum_fd, text + done, len - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return ftruncate(c->sum_fd, (off_t)len) ? -errno : 0;
}

static void summary_fail(const struct consumer *c, const char *name, int err)
{
	fprintf(stderr, CONSUMER_NAME ": cannot write summary '%s': %s\n", name,
		strerror(-err));
}

int cd_summary_start(struct consumer *c, int dirfd, int pid)
{
	char text[64];
	int ret;

	c->sum_dirfd = dirfd;
	c->sum_pid = pid;
	snprintf(c->sum_tmp, sizeof(c->sum_tmp), ".%d" UST_SUMMARY_SUFFIX ".tmp",
		 (int)getpid());
	unlinkat(dirfd, c->sum_tmp, 0);
	c->sum_fd = openat(dirfd, c->sum_tmp,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (c->sum_fd < 0) {
		ret = -errno;
		summary_fail(c, c->sum_tmp, ret);
		return ret;
	}
	/* Best effort: a file system without fallocate keeps no room. */
	(void)fallocate(c->sum_fd, FALLOC_FL_KEEP_SIZE, 0, SUMMARY_RESERVE);
	snprintf(text, sizeof(text), UST_SUMMARY_KEY_PID "=%d\n", pid);
	ret = summary_put(c, text);
	if (ret)
		summary_fail(c, c->sum_tmp, ret);
	return ret;
}

/*
 * Where the trace goes, once it started: its directory, and its relay
 * when it streams (the directory is then empty until the trace falls back
 * to one, and relay.c says it again then).
 */
void cd_summary_started(struct consumer *c)
{
	char *relay, *text;
	int ret;

	if (c->sum_fd < 0)
		return;
	relay = cd_relay_begun_lines(c);
	if (!relay || asprintf(&text, UST_SUMMARY_KEY_PID "=%d\n" UST_SUMMARY_KEY_DIR "=%s\n%s",
			       c->sum_pid, c->out_path ? c->out_path : "", relay) < 0) {
		free(relay);
		return;
	}
	ret = summary_put(c, text);
	if (ret)
		summary_fail(c, c->sum_tmp, ret);
	free(text);
	free(relay);
}

static int summary_format(const struct consumer *c, char **text)
{
	uint64_t lost = (c->streams ? cd_streams_lost(c) : 0) + c->stats.events_unwritten;
	char *not_recorded = cd_not_recorded_lines(c);
	char *relay = cd_relay_summary(c);
	char *filtered = cd_threads_summary(c);
	int n = -1;

	if (relay && filtered)
		n = asprintf(text,
			     UST_SUMMARY_KEY_PID "=%d\n"
			     UST_SUMMARY_KEY_DIR "=%s\n"
			     UST_SUMMARY_KEY_EVENTS "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_LOST "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_UNWRITTEN "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_PACKETS "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_PACKETS_DROPPED "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_PACKETS_UNWRITTEN "=%" PRIu64 "\n"
			     UST_SUMMARY_KEY_BYTES "=%" PRIu64 "\n%s%s%s%s%s%s%s"
			     UST_SUMMARY_KEY_END "=1\n",
			     c->sum_pid, c->out_path ? c->out_path : "", c->stats.events,
			     lost, c->stats.events_unwritten, c->stats.packets,
			     c->stats.packets_dropped, c->stats.packets_unwritten,
			     c->stats.bytes, c->error[0] ? UST_SUMMARY_KEY_ERROR "=" : "", c->error,
			     c->error[0] ? "\n" : "",
			     c->snapshot_lines ? c->snapshot_lines : "", relay,
			     not_recorded ? not_recorded : "", filtered);
	free(relay);
	free(filtered);
	free(not_recorded);
	return n < 0 ? -ENOMEM : 0;
}

/*
 * Move the finished summary to `<pid>.summary`, or, when a consumer of
 * an earlier image of the same process (before an exec) took that name,
 * to `<pid>-N.summary`: never replace another's summary.
 */
static int summary_publish(const struct consumer *c, char *final, size_t len)
{
	unsigned int n;

	snprintf(final, len, "%d" UST_SUMMARY_SUFFIX, c->sum_pid);
	for (n = 1; n < 1000; n++) {
		if (!renameat2(c->sum_dirfd, c->sum_tmp, c->sum_dirfd, final,
			       RENAME_NOREPLACE))
			return 0;
		if (errno != EEXIST)
			return -errno;
		snprintf(final, len, "%d-%u" UST_SUMMARY_SUFFIX, c->sum_pid, n);
	}
	return -EEXIST;
}

/*
 * The whole summary, complete ("end=1"), then its name.  Should the
 * rename fail, the hidden file stays complete, and `ust record` reads it
 * as it is.
 */
int cd_summary_finish(struct consumer *c)
{
	char final[64], *text;
	int ret;

	/* Not begun at the start (it failed then): one more try. */
	if (c->sum_fd < 0 && (c->sum_dirfd < 0 || cd_summary_start(c, c->sum_dirfd, c->sum_pid)))
		return -EBADF;
	ret = summary_format(c, &text);
	if (!ret) {
		ret = summary_put(c, text);
		free(text);
	}
	if (close(c->sum_fd) && !ret)
		ret = -errno;
	c->sum_fd = -1;
	if (ret) {
		summary_fail(c, c->sum_tmp, ret);
		return ret;
	}
	ret = summary_publish(c, final, sizeof(final));
	if (ret)
		summary_fail(c, final, ret);
	return ret;
}
