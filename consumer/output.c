/*
 * output.c - the trace directory and its files.
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

int cd_output_create_trace_dir(struct consumer *c, const char *dir,
			    const char *procname, int pid)
{
	char proc[sizeof(c->shm.procname)], base[96], name[112], err[2 * PATH_MAX];
	struct ust_safe_dir parent;
	struct tm tm;
	time_t now = time(NULL);
	int fd;

	fd = cd_output_open_parent(dir, &parent, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, CONSUMER_NAME ": %s\n", err);
		snprintf(c->error, sizeof(c->error), "%.*s", (int)sizeof(c->error) - 1, err);
		return fd;
	}
	snprintf(proc, sizeof(proc), "%s", procname[0] ? procname : "unknown");
	cd_sanitize_name(proc);
	localtime_r(&now, &tm);
	snprintf(base, sizeof(base), "%s-%d-%04d%02d%02d-%02d%02d%02d", proc, pid,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
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
