/*
 * kworkload.c - the traced program of the kernel bridge tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   kworkload N [S]	N times: ktest:before {i}, getppid(), ktest:after {i};
 *			then S (default N) 1 ms sleeps, so that the scheduler
 *			switches this thread out and back in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ktest_tp.h"

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 1000000 };	/* 1 ms */
	unsigned int i, n = argc > 1 ? (unsigned int)atoi(argv[1]) : 50;
	unsigned int sleeps = argc > 2 ? (unsigned int)atoi(argv[2]) : n;

	for (i = 0; i < n; i++) {
		trace_ktest_before(i);
		syscall(SYS_getppid);
		trace_ktest_after(i);
	}
	for (i = 0; i < sleeps; i++)
		nanosleep(&nap, NULL);
	printf("tid=%ld\n", (long)syscall(SYS_gettid));
	return 0;
}
