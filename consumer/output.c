/*
 * output.c - the trace directory, its files, and the summary file.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The trace directory is created with mkdirat() and opened with
 * O_NOFOLLOW, and every file in it is created relative to that
 * directory fd with O_EXCL | O_NOFOLLOW: a symlink planted in a shared
 * output directory cannot redirect a write.  Files grow by whole
 * packets or metadata blocks only; a failed append is cut back off.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "abi/env.h"
#include "consumer.h"
#include "common/fs.h"
#include "common/shm-ctl.h"

#define MAX_SUFFIX	1000

/* Keep [A-Za-z0-9._-] and make the rest '_'; never start with '.'. */
void cd_sanitize_name(char *s)
{
	char *p;

	for (p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-'))
			*p = '_';
	}
	if (s[0] == '.')
		s[0] = '_';
}

/*
 * Open (creating it like `mkdir -p`) the output directory.  The default
 * /tmp/ltt-usertrace is shared like /tmp: created 1777, and it must be a
 * real directory owned by root or by us, or another user could read our
 * traces.
 */
int cd_output_open_parent(const char *dir, char *err, size_t errlen)
{
	bool shared = !strcmp(dir, UST_DEFAULT_OUTPUT);
	struct stat st;
	bool created;
	int fd, ret;

	ret = ust__mkdir_p(dir, &created);
	if (ret) {
		snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(-ret));
		return ret;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (shared ? O_NOFOLLOW : 0));
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
		return ret;
	}
	if (shared && (fstat(fd, &st) || (st.st_uid != 0 && st.st_uid != geteuid()))) {
		snprintf(err, errlen, "'%s' belongs to another user", dir);
		close(fd);
		return -EPERM;
	}
	if (shared && created)
		fchmod(fd, 01777);	/* the umask took the write bits */
	return fd;
}

/*
 * Create and open `<procname>-<pid>-<date>-<time>[-N]` in `parent`, a
 * fresh directory of ours; its name is returned in `name`.
 */
int cd_output_make_dir(int parent, const char *base, char *name, size_t len)
{
	struct stat st;
	int i, fd;

	for (i = 0; i < MAX_SUFFIX; i++) {
		if (i)
			snprintf(name, len, "%s-%d", base, i);
		else
			snprintf(name, len, "%s", base);
		if (mkdirat(parent, name, 0700)) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;	/* replaced under us: take another name */
		if (fstat(fd, &st) || st.st_uid != geteuid() || fchmod(fd, 0700)) {
			close(fd);
			continue;
		}
		return fd;
	}
	return -EEXIST;
}

/* The absolute path of `name` in `dir`, for messages and the summary. */
char *cd_output_join_path(const char *dir, const char *name)
{
	char real[PATH_MAX], *out;

	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	if (asprintf(&out, "%s/%s", real, name) < 0)
		return NULL;
	return out;
}

/*
 * `<procname>-<pid>-<YYYYMMDD>-<HHMMSS>`, the time being the trace's
 * creation (`created`): the trace's name, here or on a relay.
 */
void cd_output_trace_name(const char *procname, int pid, time_t created,
			  char *buf, size_t len)
{
	char proc[64];
	struct tm tm;

	snprintf(proc, sizeof(proc), "%s", procname[0] ? procname : "unknown");
	cd_sanitize_name(proc);
	localtime_r(&created, &tm);
	snprintf(buf, len, "%s-%d-%04d%02d%02d-%02d%02d%02d", proc, pid,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
}

int cd_output_create_trace_dir(struct consumer *c, const char *dir,
			    const char *procname, int pid)
{
	char base[96], name[112], err[PATH_MAX + 64];
	int parent, fd;

	parent = cd_output_open_parent(dir, err, sizeof(err));
	if (parent < 0) {
		fprintf(stderr, CONSUMER_NAME ": %s\n", err);
		return parent;
	}
	if (!c->created)
		c->created = time(NULL);
	cd_output_trace_name(procname, pid, c->created, base, sizeof(base));
	fd = cd_output_make_dir(parent, base, name, sizeof(name));
	if (fd < 0) {
		fprintf(stderr, CONSUMER_NAME ": cannot create a trace directory in '%s': %s\n",
			dir, strerror(-fd));
		close(parent);
		return fd;
	}
	c->out_path = cd_output_join_path(dir, name);
	close(parent);
	if (!c->out_path) {
		close(fd);
		return -ENOMEM;
	}
	c->out_fd = fd;
	return 0;
}

/*
 * Where the trace goes: `output` is a directory, or a relay URL
 * (net://HOST..., doc/relayd.md), for the relay sink of relay.c, which
 * falls back to a directory by itself.
 */
int cd_output_start(struct consumer *c, const char *output, const char *procname, int pid)
{
	char name[96];

	if (!cd_relay_wanted(output))
		return cd_output_create_trace_dir(c, output, procname, pid);
	c->created = time(NULL);
	cd_output_trace_name(procname, pid, c->created, name, sizeof(name));
	return cd_relay_start(c, output, name);
}

/*
 * Undo cd_output_create_trace_dir() when the trace cannot even start: a
 * directory without valid metadata would make babeltrace2 refuse every
 * trace under the output directory.
 */
void cd_output_remove_trace_dir(struct consumer *c, const char *meta)
{
	unlinkat(c->out_fd, meta, 0);
	close(c->out_fd);
	c->out_fd = -1;
	if (rmdir(c->out_path))
		fprintf(stderr, CONSUMER_NAME ": cannot remove '%s': %s\n",
			c->out_path, strerror(errno));
	free(c->out_path);
	c->out_path = NULL;
}

/* Create `name` in the trace directory; never follows or reuses a file. */
int cd_output_open_file(struct consumer *c, const char *name)
{
	int fd;

	fd = openat(c->out_fd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd < 0 ? -errno : fd;
}

/* Stop writing for good; the reason goes to stderr once and to the summary. */
void cd_output_stop(struct consumer *c, const char *name, int err)
{
	if (c->writing_stopped)
		return;
	c->writing_stopped = true;
	snprintf(c->error, sizeof(c->error), "%s/%s: %s", c->out_path, name,
		 strerror(err));
	fprintf(stderr, CONSUMER_NAME ": %s; trace writing stopped\n", c->error);
}

/*
 * Append `len` bytes at `*size` of `fd`.  On failure the file is cut
 * back to `*size`, so it still ends with a whole packet or block, and
 * writing stops for the whole trace (a later packet could need what was
 * lost).  Returns 0 or a negative errno.
 */
int cd_output_append(struct consumer *c, int fd, uint64_t *size,
		  const void *buf, size_t len, const char *name)
{
	const uint8_t *p = buf;
	size_t done = 0;
	ssize_t n;
	int err;

	if (c->writing_stopped)
		return -EIO;
	while (done < len) {
		n = pwrite(fd, p + done, len - done, (off_t)(*size + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			if (ftruncate(fd, (off_t)*size))
				err = errno;	/* the worse news */
			cd_output_stop(c, name, err);
			return -err;
		}
		done += (size_t)n;
	}
	*size += len;
	c->stats.bytes += len;
	return 0;
}

/* Append to `metadata` in the trace directory (created on first use). */
int cd_output_file_metadata(struct consumer *c, const char *text, size_t len)
{
	int fd;

	if (c->meta_fd < 0) {
		if (c->out_fd < 0)
			return -EIO;
		fd = cd_output_open_file(c, META_FILE);
		if (fd < 0) {
			fprintf(stderr, CONSUMER_NAME ": %s/" META_FILE ": %s\n", c->out_path,
				strerror(-fd));
			return fd;
		}
		c->meta_fd = fd;
	}
	return cd_output_append(c, c->meta_fd, &c->meta_file_size, text, len, META_FILE);
}

int cd_output_metadata(struct consumer *c, const char *text, size_t len)
{
	if (cd_relay_sink(c))
		return cd_relay_metadata(c, text, len);
	return cd_output_file_metadata(c, text, len);
}

/* Append a checked packet to its stream file (created on first use). */
void cd_output_file_packet(struct consumer *c, struct stream *s, const uint8_t *pkt,
			   size_t len, uint64_t records)
{
	int fd;

	if (c->writing_stopped || c->out_fd < 0) {
		c->stats.packets_unwritten++;
		return;
	}
	if (s->fd < 0) {
		fd = cd_output_open_file(c, s->name);
		if (fd < 0) {
			cd_output_stop(c, s->name, -fd);
			c->stats.packets_unwritten++;
			return;
		}
		s->fd = fd;
	}
	if (cd_output_append(c, s->fd, &s->file_size, pkt, len, s->name)) {
		c->stats.packets_unwritten++;
		return;
	}
	c->stats.packets++;
	c->stats.events += records;
}

/*
 * A checked packet of sub-buffer `n`; `partial`: the committed part of
 * a sub-buffer still being filled (live relay sessions only: a trace
 * directory gets whole packets only).
 */
void cd_output_packet(struct consumer *c, struct stream *s, uint64_t n, const uint8_t *pkt,
		      size_t len, uint64_t records, bool partial)
{
	if (cd_relay_sink(c))
		cd_relay_packet(c, s, n, pkt, len, records, partial);
	else if (!partial)
		cd_output_file_packet(c, s, pkt, len, records);
}

void cd_output_finish(struct consumer *c)
{
	if (c->relay)
		cd_relay_finish(c);
}

int cd_output_write_all(int fd, const void *data, size_t len)
{
	const char *buf = data;
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * "rate_limited=COUNT NAME" and "no_program=COUNT NAME" lines, one per
 * event with such records, from the control area's counters (I1: copied,
 * names terminated and made printable); "" when none.
 */
char *cd_not_recorded_lines(const struct consumer *c)
{
	const struct ust_ctl_area *a = c->shm.base ? shm_ctl_area(&c->shm, NULL, 0) : NULL;
	char *text = NULL;
	size_t len = 0;
	uint32_t i, n;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	n = a ? ust__ctl_nr_events(a) : 0;
	for (i = 0; i < n; i++) {
		/* Relaxed: the process is gone, or the count is a snapshot. */
		uint64_t rate = __atomic_load_n(&a->rate_limited[i], __ATOMIC_RELAXED);
		uint64_t none = __atomic_load_n(&a->no_program[i], __ATOMIC_RELAXED);
		char name[UST_CTL_NAME_MAX];

		if (!rate && !none)
			continue;
		ust__ctl_event_name(&a->events[i], name);
		ust__ctl_printable(name);
		if (rate)
			fprintf(f, UST_SUMMARY_KEY_RATE_LIMITED "=%" PRIu64 " %s\n",
				rate, name[0] ? name : "?");
		if (none)
			fprintf(f, UST_SUMMARY_KEY_NO_PROGRAM "=%" PRIu64 " %s\n",
				none, name[0] ? name : "?");
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

void cd_not_recorded_write(const struct consumer *c)
{
	char *text = cd_not_recorded_lines(c);
	int fd;

	if (text && *text && c->out_fd >= 0) {
		fd = openat(c->out_fd, UST_NOT_RECORDED_FILE,
			    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 || cd_output_write_all(fd, text, strlen(text)))
			fprintf(stderr, CONSUMER_NAME ": cannot write '%s': %s\n",
				UST_NOT_RECORDED_FILE, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	free(text);
}

static int summary_format(const struct consumer *c, char **text)
{
	char *not_recorded = cd_not_recorded_lines(c);
	char *relay = cd_relay_summary(c);
	char *filtered = cd_threads_summary(c);
	int n;

	if (!relay || !filtered) {
		free(not_recorded);
		free(relay);
		free(filtered);
		return -ENOMEM;
	}
	n = asprintf(text,
		     UST_SUMMARY_KEY_DIR "=%s\n"
		     UST_SUMMARY_KEY_EVENTS "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_LOST "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_PACKETS "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_PACKETS_DROPPED "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_PACKETS_UNWRITTEN "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_BYTES "=%" PRIu64 "\n%s%s%s%s%s%s%s",
		     c->out_path ? c->out_path : "", c->stats.events,
		     c->streams ? cd_streams_lost(c) : 0, c->stats.packets,
		     c->stats.packets_dropped, c->stats.packets_unwritten,
		     c->stats.bytes, c->error[0] ? UST_SUMMARY_KEY_ERROR "=" : "", c->error,
		     c->error[0] ? "\n" : "",
		     c->snapshot_lines ? c->snapshot_lines : "", relay,
		     not_recorded ? not_recorded : "", filtered);
	free(relay);
	free(not_recorded);
	free(filtered);
	return n < 0 ? -ENOMEM : 0;
}

/*
 * Move the finished temporary summary to `<pid>.summary`, or, when a
 * consumer of an earlier image of the same process (before an exec) took
 * that name, to `<pid>-N.summary`: never replace another's summary.
 */
static int summary_publish(int dirfd, const char *tmp, int pid,
			   char *final, size_t len)
{
	unsigned int n;

	snprintf(final, len, "%d.summary", pid);
	for (n = 1; n < 1000; n++) {
		if (!renameat2(dirfd, tmp, dirfd, final, RENAME_NOREPLACE))
			return 0;
		if (errno != EEXIST)
			return -errno;
		snprintf(final, len, "%d-%u.summary", pid, n);
	}
	return -EEXIST;
}

/*
 * Write `<pid>.summary` in `dirfd` atomically: a hidden temporary file
 * (named after this consumer, which is alone to write it), then rename,
 * so `ust record` never reads half a summary.
 */
int cd_summary_write(const struct consumer *c, int dirfd, int pid)
{
	char tmp[64], final[64], *text;
	int fd, ret;

	ret = summary_format(c, &text);
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), ".%d.summary.tmp", (int)getpid());
	snprintf(final, sizeof(final), "%d.summary", pid);
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = cd_output_write_all(fd, text, strlen(text));
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = summary_publish(dirfd, tmp, pid, final, sizeof(final));
	if (ret)
		unlinkat(dirfd, tmp, 0);
out:
	if (ret)
		fprintf(stderr, CONSUMER_NAME ": cannot write summary '%s': %s\n",
			final, strerror(-ret));
	free(text);
	return ret;
}
