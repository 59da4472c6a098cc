/*
 * safepath.c - the walk that opens trace directories, and the default
 * location (rules in safepath.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/env.h"
#include "common/safepath.h"

#define MAX_LINKS	40	/* as the kernel's path walk */

/* One walk: where it stands, and what is left to walk. */
struct walk {
	int fd;				/* O_PATH, the current directory */
	struct stat st;			/* its fstat */
	char path[PATH_MAX];		/* its physical path */
	char rest[2 * PATH_MAX];	/* components still to walk */
	size_t pos;			/* next unread byte of rest */
	unsigned int links;
	unsigned int flags;
	mode_t mode;
	bool created;
	char *err;
	size_t errlen;
};

static int say(char *buf, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A refusal: the reason in words into buf; returns -err. */
static int say(char *buf, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return -err;
}

/* An ordinary error: strerror() alone, as callers print it after the path. */
static int walk_errno(struct walk *w, int err)
{
	snprintf(w->err, w->errlen, "%s", strerror(err));
	return -err;
}

/* Stand at `fd` (taken), whose physical path is `path`. */
static int walk_enter(struct walk *w, int fd, const char *path)
{
	struct stat st;

	if (fd < 0)
		return walk_errno(w, errno);
	if (fstat(fd, &st)) {
		close(fd);
		return walk_errno(w, errno);
	}
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	w->st = st;
	if (path != w->path)
		snprintf(w->path, sizeof(w->path), "%s", path);
	return 0;
}

static int walk_root(struct walk *w)
{
	return walk_enter(w, open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), "/");
}

/* Prepend `head` to what is left to walk. */
static int rest_prepend(struct walk *w, const char *head)
{
	char tmp[sizeof(w->rest)];
	int n;

	n = snprintf(tmp, sizeof(tmp), "%s/%s", head, w->rest + w->pos);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return walk_errno(w, ENAMETOOLONG);
	memcpy(w->rest, tmp, (size_t)n + 1);
	w->pos = 0;
	return 0;
}

/* The next component into `name`: 1, or 0 at the end, or -errno. */
static int rest_next(struct walk *w, char name[NAME_MAX + 1])
{
	const char *p = w->rest + w->pos;
	size_t len;

	while (*p == '/')
		p++;
	len = strcspn(p, "/");
	if (!len)
		return 0;
	if (len > NAME_MAX)
		return walk_errno(w, ENAMETOOLONG);
	memcpy(name, p, len);
	name[len] = '\0';
	w->pos = (size_t)(p + len - w->rest);
	return 1;
}

/* Whether only "/" and "." are left: the component just read is the last. */
static bool rest_done(const struct walk *w)
{
	const char *p = w->rest + w->pos;
	size_t len;

	for (;;) {
		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			return true;
		if (len != 1 || *p != '.')
			return false;
		p += len;
	}
}

/* The path of entry `name` of the current directory; false when too long. */
static bool entry_path(const struct walk *w, const char *name, char *buf, size_t len)
{
	size_t plen = strcmp(w->path, "/") ? strlen(w->path) : 0, nlen = strlen(name);

	if (plen + 1 + nlen >= len)
		return false;
	memcpy(buf, w->path, plen);
	buf[plen] = '/';
	memcpy(buf + plen + 1, name, nlen + 1);
	return true;
}

/* "..": the physical parent. */
static int walk_up(struct walk *w)
{
	char parent[PATH_MAX], *slash;

	snprintf(parent, sizeof(parent), "%s", w->path);
	slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return walk_enter(w, openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC), parent);
}

/* Entry `name` is a symbolic link: follow it, unless others may have put it there. */
static int walk_link(struct walk *w, const char *name)
{
	char target[PATH_MAX], full[PATH_MAX];
	ssize_t n;
	int ret;

	if (w->st.st_mode & S_IWOTH) {
		(void)entry_path(w, name, full, sizeof(full));
		return say(w->err, w->errlen, ELOOP, "'%s' is a symbolic link in the world-writable "
				 "directory '%s'; links there are not followed", full, w->path);
	}
	if (++w->links > MAX_LINKS)
		return walk_errno(w, ELOOP);
	n = readlinkat(w->fd, name, target, sizeof(target) - 1);
	if (n < 0)
		return walk_errno(w, errno);
	if (n == 0)
		return walk_errno(w, ENOENT);
	target[n] = '\0';
	if (target[0] == '/' && (ret = walk_root(w)))
		return ret;
	return rest_prepend(w, target);
}

/* Give a directory we just created exactly the mode asked for. */
static int chmod_created(struct walk *w, int fd, struct stat *st)
{
	int rfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (rfd < 0 || fchmod(rfd, w->mode) || fstat(rfd, st)) {
		int err = errno;

		if (rfd >= 0)
			close(rfd);
		return walk_errno(w, err);
	}
	close(rfd);
	return 0;
}

/* Create missing entry `name` (a directory); EEXIST is a lost race, fine. */
static int walk_mkdir(struct walk *w, const char *name, bool last, bool *made)
{
	if (!(w->flags & UST_SAFE_CREATE))
		return walk_errno(w, ENOENT);
	if (mkdirat(w->fd, name, last ? w->mode : 0755) == 0)
		*made = true;
	else if (errno != EEXIST)
		return walk_errno(w, errno);
	return 0;
}

/* Go into entry `name` of the current directory. */
static int walk_step(struct walk *w, const char *name, bool last)
{
	bool shared = w->st.st_mode & S_IWOTH, made = false;
	char full[PATH_MAX];
	struct stat st;
	int fd, ret;

	if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return walk_errno(w, errno);
		ret = walk_mkdir(w, name, last, &made);
		if (ret)
			return ret;
		if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW))
			return walk_errno(w, errno);
	}
	if (S_ISLNK(st.st_mode))
		return walk_link(w, name);
	if (!S_ISDIR(st.st_mode))
		return walk_errno(w, ENOTDIR);
	/* O_NOFOLLOW: a link swapped in since the fstatat is refused. */
	fd = openat(w->fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = walk_errno(w, errno);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!entry_path(w, name, full, sizeof(full))) {
		close(fd);
		return walk_errno(w, ENAMETOOLONG);
	}
	if (shared && st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		return say(w->err, w->errlen, EPERM, "'%s' belongs to uid %u, not to us or root, "
				 "in the world-writable directory '%s'",
				 full, (unsigned int)st.st_uid, w->path);
	}
	if (made && last && (w->flags & UST_SAFE_CHMOD) &&
	    (ret = chmod_created(w, fd, &st))) {
		close(fd);
		return ret;
	}
	close(w->fd);
	w->fd = fd;
	w->st = st;
	snprintf(w->path, sizeof(w->path), "%s", full);
	w->created = made;
	return 0;
}

static int walk_run(struct walk *w)
{
	char name[NAME_MAX + 1];
	int ret;

	while ((ret = rest_next(w, name)) > 0) {
		w->created = false;
		if (!strcmp(name, "."))
			continue;
		ret = strcmp(name, "..") ? walk_step(w, name, rest_done(w)) : walk_up(w);
		if (ret)
			return ret;
	}
	return ret;
}

/* Hand the result over to `d`, or clean up. */
static int walk_finish(struct walk *w, int ret, struct ust_safe_dir *d)
{
	if (ret) {
		if (w->fd >= 0)
			close(w->fd);
		d->fd = -1;
		return ret;
	}
	d->fd = w->fd;
	d->st = w->st;
	d->created = w->created;
	memcpy(d->path, w->path, sizeof(d->path));
	return 0;
}

static void walk_init(struct walk *w, unsigned int flags, mode_t mode,
		      char *err, size_t errlen)
{
	w->fd = -1;
	w->pos = 0;
	w->links = 0;
	w->flags = flags;
	w->mode = mode;
	w->created = false;
	w->err = err;
	w->errlen = errlen;
	if (errlen)
		err[0] = '\0';
}

/* Where a relative path starts: the physical working directory. */
static int walk_load(struct walk *w, const char *path)
{
	char cwd[PATH_MAX];
	int n;

	if (!*path)
		return walk_errno(w, ENOENT);
	if (path[0] == '/')
		n = snprintf(w->rest, sizeof(w->rest), "%s", path);
	else if (!getcwd(cwd, sizeof(cwd)))
		return walk_errno(w, errno);
	else
		n = snprintf(w->rest, sizeof(w->rest), "%s/%s", cwd, path);
	if (n < 0 || (size_t)n >= sizeof(w->rest))
		return walk_errno(w, ENAMETOOLONG);
	return walk_root(w);
}

/* The walk of `path`, from `base` when given, else from "/" or the cwd. */
static int safe_open(const struct ust_safe_dir *base, const char *path,
		     unsigned int flags, mode_t mode, struct ust_safe_dir *d,
		     char *err, size_t errlen)
{
	struct walk *w = malloc(sizeof(*w));
	int ret;

	if (!w)
		return say(err, errlen, ENOMEM, "%s", strerror(ENOMEM));
	walk_init(w, flags, mode, err, errlen);
	if (base) {
		snprintf(w->rest, sizeof(w->rest), "%s", path);
		ret = walk_enter(w, fcntl(base->fd, F_DUPFD_CLOEXEC, 0), base->path);
	} else {
		ret = walk_load(w, path);
	}
	if (!ret)
		ret = walk_run(w);
	ret = walk_finish(w, ret, d);
	free(w);
	return ret;
}

int ust__safe_dir_open(const char *path, unsigned int flags, mode_t mode,
		       struct ust_safe_dir *d, char *err, size_t errlen)
{
	return safe_open(NULL, path, flags, mode, d, err, errlen);
}

int ust__safe_dir_open_at(const struct ust_safe_dir *base, const char *rel,
			  unsigned int flags, mode_t mode,
			  struct ust_safe_dir *d, char *err, size_t errlen)
{
	return safe_open(base, rel, flags, mode, d, err, errlen);
}

void ust__safe_dir_close(struct ust_safe_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

bool ust__output_is_default(const char *path)
{
	const char *want = UST_DEFAULT_OUTPUT, *p = path;
	size_t len;

	/* Compare component by component, skipping empty and "." ones. */
	for (;;) {
		while (*p == '/' || (p[0] == '.' && (p[1] == '/' || !p[1])))
			p++;
		while (*want == '/')
			want++;
		len = strcspn(want, "/");
		if (!len)
			return !*p && path[0] == '/';
		if (strncmp(p, want, len) || (p[len] && p[len] != '/'))
			return false;
		p += len;
		want += len;
	}
}

/* A directory the default location may use for this user: ours alone. */
static int check_ours(const struct ust_safe_dir *d, char *why, size_t len)
{
	if (d->st.st_uid != geteuid())
		return say(why, len, EPERM, "'%s' belongs to uid %u", d->path,
			      (unsigned int)d->st.st_uid);
	return 0;
}

/* Step 1: /tmp/ltt-usertrace/<uid>. */
static int default_user_dir(struct ust_safe_dir *d, char *why, size_t len)
{
	struct ust_safe_dir top;
	char uid[24];
	int ret;

	ret = ust__safe_dir_open(UST_DEFAULT_OUTPUT, UST_SAFE_CREATE | UST_SAFE_CHMOD,
				 01777, &top, why, len);
	if (ret)
		return ret;
	if (top.st.st_uid != 0 && top.st.st_uid != geteuid())
		ret = say(why, len, EPERM, "'%s' belongs to uid %u", top.path,
			     (unsigned int)top.st.st_uid);
	else if ((top.st.st_mode & (S_IWGRP | S_IWOTH)) && !(top.st.st_mode & S_ISVTX))
		ret = say(why, len, EPERM, "'%s' is writable by others and not sticky",
			     top.path);
	if (!ret) {
		snprintf(uid, sizeof(uid), "%u", (unsigned int)geteuid());
		ret = ust__safe_dir_open_at(&top, uid, UST_SAFE_CREATE | UST_SAFE_CHMOD,
					    0700, d, why, len);
	}
	ust__safe_dir_close(&top);
	if (!ret && (ret = check_ours(d, why, len)))
		ust__safe_dir_close(d);
	return ret;
}

/* Steps 2 and 3: /tmp/ltt-usertrace-<uid>, else a fresh mkdtemp one. */
static int default_fallback(struct ust_safe_dir *d, char *err, size_t errlen)
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "%s-%u", UST_DEFAULT_OUTPUT, (unsigned int)geteuid());
	ret = ust__safe_dir_open(path, UST_SAFE_CREATE | UST_SAFE_CHMOD, 0700, d, err, errlen);
	if (!ret && !(ret = check_ours(d, err, errlen)))
		return 0;
	if (!ret)
		ust__safe_dir_close(d);
	snprintf(path, sizeof(path), "%s-%u.XXXXXX", UST_DEFAULT_OUTPUT,
		 (unsigned int)geteuid());
	if (!mkdtemp(path)) {
		ret = -errno;
		snprintf(err, errlen, "cannot create a directory in /tmp: %s", strerror(-ret));
		return ret;
	}
	ret = ust__safe_dir_open(path, 0, 0, d, err, errlen);
	if (!ret && (ret = check_ours(d, err, errlen)))
		ust__safe_dir_close(d);
	return ret;
}

int ust__default_output_open(struct ust_safe_dir *d, char *note, size_t notelen,
			     char *err, size_t errlen)
{
	char why[PATH_MAX + 160];
	int ret;

	note[0] = '\0';
	ret = default_user_dir(d, why, sizeof(why));
	if (!ret)
		return 0;
	ret = default_fallback(d, err, errlen);
	if (!ret)
		snprintf(note, notelen, "cannot use %s/%u (%s); traces go to %s",
			 UST_DEFAULT_OUTPUT, (unsigned int)geteuid(), why, d->path);
	return ret;
}

int ust__output_open(const char *path, struct ust_safe_dir *d, char *note,
		     size_t notelen, char *err, size_t errlen)
{
	if (ust__output_is_default(path))
		return ust__default_output_open(d, note, notelen, err, errlen);
	note[0] = '\0';
	return ust__safe_dir_open(path, UST_SAFE_CREATE, 0755, d, err, errlen);
}
