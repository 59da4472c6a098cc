/*
 * outdir.c - creating and checking the directory `ust record` writes
 * traces under.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "outdir.h"

int cli_dir_check_writable(int dirfd)
{
	char probe[64];
	unsigned int i;
	int fd;

	for (i = 0; i < 100; i++) {
		snprintf(probe, sizeof(probe), ".ust-probe-%ld-%u", (long)getpid(), i);
		fd = openat(dirfd, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0) {
			close(fd);
			unlinkat(dirfd, probe, 0);
			return 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int cli_outdir_prepare(const char *dir, struct ust_safe_dir *d, char *note,
		       size_t notelen, char *err, size_t errlen)
{
	int ret;

	ret = ust__output_open(dir, d, note, notelen, err, errlen);
	if (ret)
		return ret;
	ret = cli_dir_check_writable(d->fd);
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		ust__safe_dir_close(d);
	}
	return ret;
}
