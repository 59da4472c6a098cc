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

int cli_dir_check_writable(const char *dir)
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

int cli_outdir_prepare(const char *dir, bool shared)
{
	bool created;
	int ret;

	ret = ust__mkdir_p(dir, &created);
	if (ret)
		return ret;
	if (created && shared && chmod(dir, 01777))
		return -errno;
	return cli_dir_check_writable(dir);
}
