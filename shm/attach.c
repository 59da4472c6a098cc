/*
 * shm/attach.c - find and map the shared memory of a running traced
 * process from outside it (`ust snapshot`, `ust ctl`, `ust list PID`).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust names its memfd "ust-trace"; /proc/PID/fd/N of a memfd reads as
 * "/memfd:ust-trace (deleted)".  Opening that /proc link reopens the
 * same file, which the kernel allows only to whoever may ptrace PID.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shm/map.h"

#define MEMFD_LINK_PREFIX	"/memfd:" UST_SHM_MEMFD_NAME

/* Is /proc/PID/fd/<name> our memfd? */
static bool is_ust_memfd(int fd_dir, const char *name)
{
	char target[64];
	ssize_t n = readlinkat(fd_dir, name, target, sizeof(target) - 1);

	if (n < 0)
		return false;
	target[n] = '\0';
	return !strncmp(target, MEMFD_LINK_PREFIX, strlen(MEMFD_LINK_PREFIX));
}

/* The fd number of the memfd in /proc/PID/fd, or -errno. */
static int find_memfd(pid_t pid, char *err, size_t errlen)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int found = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir) {
		int e = errno;

		if (e == ENOENT)
			shm_fail_msg(err, errlen, "no process %d", (int)pid);
		else
			shm_fail_msg(err, errlen, "%s: %s (tracing another user's "
				 "process needs root)", path, strerror(e));
		return e == ENOENT ? -ESRCH : -e;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] != '.' && is_ust_memfd(dirfd(dir), d->d_name)) {
			found = atoi(d->d_name);
			break;
		}
	}
	closedir(dir);
	if (found < 0)
		shm_fail_msg(err, errlen, "process %d is not traced by libust (start "
			 "it with UST_TRACE set, or under `ust record`)", (int)pid);
	return found;
}

int shm_map_attach(struct shm_map *m, pid_t pid, char *err, size_t errlen)
{
	int fd, ret = shm_map_attach_fd(m, pid, &fd, err, errlen);

	if (!ret)
		close(fd);
	return ret;
}

int shm_memfd_open(pid_t pid, char *err, size_t errlen)
{
	char path[64];
	int nr, fd, ret;

	nr = find_memfd(pid, err, errlen);
	if (nr < 0)
		return nr;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, nr);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		shm_fail_msg(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	return fd;
}

int shm_map_attach_fd(struct shm_map *m, pid_t pid, int *fdp, char *err,
		      size_t errlen)
{
	int fd, ret;

	memset(m, 0, sizeof(*m));
	fd = shm_memfd_open(pid, err, errlen);
	if (fd < 0)
		return fd;
	ret = shm_map_open(m, fd, err, errlen);
	if (!ret && m->pid != pid) {
		shm_fail_msg(err, errlen, "process %d: its trace memory belongs to "
			 "process %d", (int)pid, (int)m->pid);
		shm_map_close(m);
		ret = -EINVAL;
	}
	if (ret)
		close(fd);
	else
		*fdp = fd;
	return ret;
}
