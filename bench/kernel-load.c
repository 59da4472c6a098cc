/*
 * kernel-load.c - the workload of bench/kernel-run.sh: system calls as
 * fast as they go, to measure kernel event capture.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   kernel-load THREADS CALLS [RATE]
 *
 * Each of THREADS threads is pinned to CPU (i mod nproc) and makes
 * CALLS getppid() system calls, timed with CLOCK_MONOTONIC; with RATE,
 * at most RATE calls per second each (paced by batches of 1000 calls,
 * the thread spinning on the clock in between).  Prints
 *   calls=<total> seconds=<wall time of the slowest thread> ns_per_call=<mean>
 * where ns_per_call is the mean over threads of their own time / CALLS.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct worker {
	pthread_t thread;
	unsigned int cpu;
	unsigned long calls;
	double rate;		/* calls per second, 0: as fast as it goes */
	double seconds;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	unsigned long i;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	t0 = now();
	for (i = 0; i < w->calls; i++) {
		syscall(SYS_getppid);
		if (w->rate > 0 && i % 1000 == 999)
			while (now() - t0 < (i + 1) / w->rate)
				;
	}
	w->seconds = now() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int i, n = argc > 1 ? (unsigned int)atoi(argv[1]) : 1;
	unsigned long calls = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
	double rate = argc > 3 ? strtod(argv[3], NULL) : 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct worker *w = calloc(n ? n : 1, sizeof(*w));
	double slowest = 0, sum = 0;

	if (!w || n == 0 || calls == 0 || ncpu < 1) {
		fprintf(stderr, "usage: kernel-load THREADS CALLS [RATE]\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		w[i].cpu = i % ncpu;
		w[i].calls = calls;
		w[i].rate = rate;
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].seconds > slowest)
			slowest = w[i].seconds;
		sum += w[i].seconds * 1e9 / calls;
	}
	printf("calls=%lu seconds=%.4f ns_per_call=%.1f\n", calls * n, slowest, sum / n);
	free(w);
	return 0;
}
