/*
 * progress_map.h - the progress file of the traced test programs: a
 * shared file mapping where each thread stores how many of its trace
 * calls returned, which survives a SIGKILL of the program.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_TESTS_PROGRESS_MAP_H
#define UST_TESTS_PROGRESS_MAP_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

/* Create PATH with room for 512 counters and map it; exit on failure. */
static inline volatile uint64_t *progress_map(const char *path)
{
	size_t len = 4096;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	void *p;

	if (fd < 0 || ftruncate(fd, (off_t)len) < 0) {
		perror(path);
		exit(1);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	close(fd);
	return p;
}

#endif
