/*
 * kthreads.c - short-lived threads whose creation and whose own events
 * land in different CPUs' rings (the thread table test, threads.sh).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   kthreads N
 *	The program runs on the last CPU it may use; N times it creates a
 *	thread bound to the first one, which calls getppid() and exits,
 *	and joins it (so that it is gone from /proc), 2 ms apart.  Their
 *	task_newtask and sched_process_fork are written in the last CPU's
 *	ring, their own system calls and exit in the first CPU's.
 *   It prints "pid=P", "parent_cpu=C", "child_cpu=D" and "tids=T1,T2,...",
 *   or "cpus=1" (and exits 0) when it may use one CPU only.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	1000

static long child_tid[MAX_THREADS];

static void *child(void *arg)
{
	long *tid = arg;

	*tid = syscall(SYS_gettid);
	syscall(SYS_getppid);
	return NULL;
}

/* The first and last CPU of the mask; false when it has only one. */
static bool cpu_range(const cpu_set_t *mask, int *first, int *last)
{
	int cpu;

	*first = *last = -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, mask))
			continue;
		if (*first < 0)
			*first = cpu;
		*last = cpu;
	}
	return *first >= 0 && *first != *last;
}

static int bind_to(pthread_attr_t *attr, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return attr ? pthread_attr_setaffinity_np(attr, sizeof(set), &set) :
		      sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	struct timespec gap = { 0, 2000000 };	/* 2 ms */
	int n = argc > 1 ? atoi(argv[1]) : 50, first, last, i, err;
	pthread_attr_t attr;
	cpu_set_t mask;
	pthread_t t;

	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr, "kthreads: N from 1 to %d\n", MAX_THREADS);
		return 2;
	}
	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		perror("kthreads: sched_getaffinity");
		return 1;
	}
	if (!cpu_range(&mask, &first, &last)) {
		printf("cpus=1\n");
		return 0;
	}
	if (bind_to(NULL, last) || pthread_attr_init(&attr) || bind_to(&attr, first)) {
		perror("kthreads: binding");
		return 1;
	}
	for (i = 0; i < n; i++) {
		err = pthread_create(&t, &attr, child, &child_tid[i]);
		if (err || (err = pthread_join(t, NULL))) {
			fprintf(stderr, "kthreads: thread %d: %s\n", i, strerror(err));
			pthread_attr_destroy(&attr);
			return 1;
		}
		nanosleep(&gap, NULL);
	}
	/* glibc keeps the affinity mask in the attribute's own allocation. */
	pthread_attr_destroy(&attr);
	printf("pid=%ld\nparent_cpu=%d\nchild_cpu=%d\ntids=", (long)getpid(), last, first);
	for (i = 0; i < n; i++)
		printf("%s%ld", i ? "," : "", child_tid[i]);
	printf("\n");
	return 0;
}
