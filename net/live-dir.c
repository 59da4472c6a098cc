/*
 * live-dir.c - mirror a live session into a directory (net/live-dir.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Paths come from the relay: PATH must be relative and may not climb
 * ("..") or name hidden parts, CHANNEL must be a plain file name; the
 * files are created with O_NOFOLLOW below directories we made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/live-dir.h"

struct dir_stream {
	struct ust_live_dir_stream pub;
	int fd;
};

struct ust_live_dir {
	char dir[4096];
	struct dir_stream *v;
	size_t nr;
	char error[1024];
};

__attribute__((format(printf, 2, 3)))
static int fail(struct ust_live_dir *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	return -1;
}

/* mkdir -p of `path` (0755). */
static int make_dirs(const char *path)
{
	char buf[8704], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -errno;
			*p = c;
			if (!c)
				return 0;
		}
	}
}

struct ust_live_dir *ust_live_dir_open(const char *dir, char *err, size_t errlen)
{
	struct ust_live_dir *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (snprintf(d->dir, sizeof(d->dir), "%s", dir) >= (int)sizeof(d->dir)) {
		snprintf(err, errlen, "%s: path too long", dir);
		free(d);
		return NULL;
	}
	ret = make_dirs(dir);
	if (ret) {
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		free(d);
		return NULL;
	}
	return d;
}

/* A relative path without "..", "." or hidden parts. */
static bool safe_path(const char *p)
{
	size_t len;

	if (*p == '/')
		return false;
	while (*p) {
		len = strcspn(p, "/");
		if (len == 0 || p[0] == '.')
			return false;
		p += len + (p[len] == '/');
	}
	return true;
}

static struct dir_stream *find(struct ust_live_dir *d, uint64_t id)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		if (d->v[i].pub.id == id)
			return &d->v[i];
	}
	return NULL;
}

static int on_stream(void *arg, const struct ust_live_stream_info *st)
{
	struct ust_live_dir *d = arg;
	struct dir_stream *s, *grown;
	char parent[sizeof(s->pub.file)];
	int ret;

	if (!safe_path(st->path) || !st->channel[0] || strchr(st->channel, '/') ||
	    st->channel[0] == '.')
		return fail(d, "the relay named an unsafe file: '%s/%s'", st->path, st->channel);
	grown = realloc(d->v, (d->nr + 1) * sizeof(*grown));
	if (!grown)
		return fail(d, "out of memory");
	d->v = grown;
	s = &d->v[d->nr];
	*s = (struct dir_stream){ .fd = -1 };
	s->pub.id = st->id;
	s->pub.trace_id = st->trace_id;
	s->pub.metadata = st->metadata;
	if (snprintf(parent, sizeof(parent), "%s/%s", d->dir, st->path) >= (int)sizeof(parent) ||
	    snprintf(s->pub.file, sizeof(s->pub.file), "%s/%s", parent, st->channel) >=
	    (int)sizeof(s->pub.file))
		return fail(d, "%s/%s/%s: path too long", d->dir, st->path, st->channel);
	ret = make_dirs(parent);
	if (ret)
		return fail(d, "%s: %s", parent, strerror(-ret));
	s->fd = open(s->pub.file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		     0644);
	if (s->fd < 0)
		return fail(d, "%s: %s", s->pub.file, strerror(errno));
	d->nr++;
	return 0;
}

static int append(struct ust_live_dir *d, struct dir_stream *s, const void *bytes, size_t len)
{
	const char *p = bytes;
	ssize_t n;

	while (len) {
		n = write(s->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail(d, "%s: %s", s->pub.file, n < 0 ? strerror(errno) : "short write");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int on_metadata(void *arg, uint64_t trace_id, const void *bytes, size_t len)
{
	struct ust_live_dir *d = arg;
	size_t i;

	for (i = 0; i < d->nr; i++) {
		if (d->v[i].pub.metadata && d->v[i].pub.trace_id == trace_id) {
			d->v[i].pub.bytes += len;
			return append(d, &d->v[i], bytes, len);
		}
	}
	return fail(d, "metadata for an unknown trace %llu", (unsigned long long)trace_id);
}

static void complete_to(struct ust_live_dir_stream *s, uint64_t t)
{
	if (!s->has_complete || t > s->complete_to)
		s->complete_to = t;
	s->has_complete = true;
}

static int on_packet(void *arg, uint64_t stream_id, const struct ust_live_index *ix,
		     const void *bytes, size_t len)
{
	struct ust_live_dir *d = arg;
	struct dir_stream *s = find(d, stream_id);

	if (!s)
		return fail(d, "a packet for an unknown stream %llu", (unsigned long long)stream_id);
	if (append(d, s, bytes, len))
		return -1;
	s->pub.packets++;
	s->pub.bytes += len;
	complete_to(&s->pub, ix->timestamp_end);
	return 0;
}

static int on_quiet(void *arg, uint64_t stream_id, uint64_t until)
{
	struct ust_live_dir *d = arg;
	struct dir_stream *s = find(d, stream_id);

	if (s)
		complete_to(&s->pub, until);
	return 0;
}

static int on_ended(void *arg, uint64_t stream_id)
{
	struct ust_live_dir *d = arg;
	struct dir_stream *s = find(d, stream_id);

	if (s)
		s->pub.ended = true;
	return 0;
}

void ust_live_dir_sink(struct ust_live_dir *d, struct ust_live_sink *sink)
{
	*sink = (struct ust_live_sink){
		.arg = d, .stream = on_stream, .metadata = on_metadata,
		.packet = on_packet, .quiet = on_quiet, .ended = on_ended,
	};
}

size_t ust_live_dir_nr_streams(const struct ust_live_dir *d)
{
	return d->nr;
}

const struct ust_live_dir_stream *ust_live_dir_stream(const struct ust_live_dir *d, size_t i)
{
	return &d->v[i].pub;
}

const char *ust_live_dir_error(const struct ust_live_dir *d)
{
	return d->error;
}

void ust_live_dir_close(struct ust_live_dir *d)
{
	if (!d)
		return;
	while (d->nr) {
		if (d->v[--d->nr].fd >= 0)
			close(d->v[d->nr].fd);
	}
	free(d->v);
	free(d);
}
