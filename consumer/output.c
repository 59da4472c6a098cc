/*
 * output.c - where the trace goes: the trace directory and its files, or
 * the relay sink (relay.c), which falls back to a trace directory.
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
#include "common/safepath.h"
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
 * Open (creating it like `mkdir -p`) the directory that receives trace
 * directories, by the walk of common/safepath.h: no link and no other
 * user's directory in a world-writable one; the default location is the
 * user's own folder in it.  A fallback is said on stderr.
 */
int cd_output_open_parent(const char *dir, struct ust_safe_dir *d,
			  char *err, size_t errlen)
{
	char note[PATH_MAX + 256], why[PATH_MAX + 160];
	int ret;

	ret = ust__output_open(dir, d, note, sizeof(note), why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "cannot use output directory '%s': %s", dir, why);
	else if (note[0])
		fprintf(stderr, CONSUMER_NAME ": %s\n", note);
	return ret;
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

/* The path of `name` in the directory `d`, for messages and the summary. */
char *cd_output_join_path(const struct ust_safe_dir *d, const char *name)
{
	char *out;

	if (asprintf(&out, "%s%s%s", d->path, strcmp(d->path, "/") ? "/" : "", name) < 0)
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
	char base[96], name[112], err[2 * PATH_MAX];
	struct ust_safe_dir parent;
	int fd;

	fd = cd_output_open_parent(dir, &parent, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, CONSUMER_NAME ": %s\n", err);
		snprintf(c->error, sizeof(c->error), "%.*s", (int)sizeof(c->error) - 1, err);
		return fd;
	}
	if (!c->created)
		c->created = time(NULL);
	cd_output_trace_name(procname, pid, c->created, base, sizeof(base));
	fd = cd_output_make_dir(parent.fd, base, name, sizeof(name));
	if (fd < 0) {
		snprintf(c->error, sizeof(c->error), "cannot create a trace directory in '%.*s': %s",
			 (int)sizeof(c->error) / 2, parent.path, strerror(-fd));
		fprintf(stderr, CONSUMER_NAME ": %s\n", c->error);
		ust__safe_dir_close(&parent);
		return fd;
	}
	c->out_path = cd_output_join_path(&parent, name);
	ust__safe_dir_close(&parent);
	if (!c->out_path) {
		close(fd);
		return -ENOMEM;
	}
	c->out_fd = fd;
	cd_reserve_take(c);
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
	cd_reserve_release(c);
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
	cd_reserve_release(c);		/* room for the closing packets */
	if (c->out_path)
		snprintf(c->error, sizeof(c->error), "%s/%s: %s", c->out_path, name,
			 strerror(err));
	else if (!c->error[0])	/* no trace directory: why is said already */
		snprintf(c->error, sizeof(c->error), "%s: %s", name, strerror(err));
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

/* A checked packet that could not be written: its records are lost (I7). */
static void packet_unwritten(struct consumer *c, struct stream *s, uint64_t records)
{
	c->stats.packets_unwritten++;
	c->stats.events_unwritten += records;
	s->unwritten += records;
}

/*
 * Append a checked packet to its stream file (created on first use).  No
 * trace directory (a relay that fell back and could not make one) or
 * writing stopped: the packet's records are counted unwritten.
 */
void cd_output_file_packet(struct consumer *c, struct stream *s, const uint8_t *pkt,
			   size_t len, uint64_t records)
{
	int fd;

	if (c->writing_stopped || c->out_fd < 0) {
		packet_unwritten(c, s, records);
		return;
	}
	if (s->fd < 0) {
		fd = cd_output_open_file(c, s->name);
		if (fd < 0) {
			cd_output_stop(c, s->name, -fd);
			packet_unwritten(c, s, records);
			return;
		}
		s->fd = fd;
	}
	if (cd_output_append(c, s->fd, &s->file_size, pkt, len, s->name)) {
		packet_unwritten(c, s, records);
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
