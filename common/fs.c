/*
 * fs.c - creating the output directory; reading small files.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fs.h"

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

int ust__mkdir_p(const char *path, bool *created)
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

int ust__read_small_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}
