/*
 * outdir.c - creating and checking the directory `ust record` writes
 * traces under.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"

/* Create one directory; an existing directory is fine. */
static int mkdir_one(const char *path, bool *created)
{
	struct stat st;

	if (mkdir(path, 0755) == 0) {
		*created = true;
		return 0;
	}
	if (errno != EEXIST)
		return -errno;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* Drop trailing slashes, keeping a lone "/". */
static void strip_trailing_slashes(char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
}

int ust_mkdir_p(const char *path, bool *created)
{
	bool parent_created;
	char *copy, *p;
	int ret = 0;

	*created = false;
	if (!*path)
		return -ENOENT;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	strip_trailing_slashes(copy);

	/* Every prefix that ends just before a '/' is a parent. */
	for (p = copy + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		ret = mkdir_one(copy, &parent_created);
		*p = '/';
		if (ret)
			goto out;
	}
	ret = mkdir_one(copy, created);
out:
	free(copy);
	return ret;
}

int ust_dir_check_writable(const char *dir)
{
	char *probe;
	int fd, ret = 0;

	if (access(dir, W_OK | X_OK))
		return -errno;
	if (asprintf(&probe, "%s/.ust-probe-XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(probe, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	close(fd);
	unlink(probe);
out:
	free(probe);
	return ret;
}

int ust_outdir_prepare(const char *dir, bool shared)
{
	bool created;
	int ret;

	ret = ust_mkdir_p(dir, &created);
	if (ret)
		return ret;
	if (created && shared && chmod(dir, 01777))
		return -errno;
	return ust_dir_check_writable(dir);
}
