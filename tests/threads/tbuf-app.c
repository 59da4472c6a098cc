/*
 * tbuf-app.c - the traced workload of the per-thread buffer tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   tbuf-app [-t THREADS] [-w WAVES] [-n EVENTS] [-s] [-g] [-f]
 *   tbuf-app -q [-n EVENTS]
 *
 * Runs WAVES waves of THREADS threads, one wave after the other (each
 * joined before the next starts): thread number w * THREADS + i records
 * EVENTS tbuf:tick {thread, seq, tid} (every 8th a tbuf:text with a
 * string, with -s), its tid being gettid(), so a test can check that a
 * stream's packets name the thread its records come from.
 *   -g  a 20 kHz timer signal whose handler records tbuf:handler
 *   -f  fork first: parent and child each run the workload
 *   -b  the threads of a wave all record their first event before any
 *       records its second, so that they all hold a buffer at once
 *       however slowly threads start (e.g. under a sanitizer)
 *   -q  instead, the payloads of libust's quick path (threadbuf.h): one
 *       thread records EVENTS times tbuf:small {seq} (4 bytes), tbuf:pair
 *       {seq, 3 * seq} (8 bytes) and tbuf:empty, pausing 150 ms after
 *       the records of seq 1 and 2 (a time too far for a compact header)
 * At exit it prints "attempted=N handler=M grown=B": B is how many bytes
 * libust's memfd ("ust-trace") grew since before the first record, so
 * that a test sees how many thread buffers were added (per-thread mode).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "tbuf_tp.h"

static unsigned int nr_threads = 1, nr_waves = 1;
static uint32_t nr_events = 1000;
static int with_text, with_signal, with_barrier;
static uint64_t handler_events;	/* atomic: handlers run on any thread */
static pthread_barrier_t wave_met;	/* the threads of a wave, after one record */

static int32_t gettid_now(void)
{
	return (int32_t)syscall(SYS_gettid);
}

struct work {
	uint32_t thread;
};

static void record(uint32_t t, uint32_t i, int32_t tid)
{
	if (with_text && i % 8 == 0)
		trace_tbuf_text(t, i, tid, "a text payload");
	else
		trace_tbuf_tick(t, i, tid);
}

static void *worker(void *arg)
{
	uint32_t t = ((struct work *)arg)->thread, i;
	int32_t tid = gettid_now();

	for (i = 0; i < nr_events; i++) {
		record(t, i, tid);
		if (i == 0 && with_barrier)
			pthread_barrier_wait(&wave_met);
	}
	if (nr_events == 0 && with_barrier)
		pthread_barrier_wait(&wave_met);
	return NULL;
}

/* -q */
static void quick_payloads(void)
{
	uint32_t i;

	for (i = 0; i < nr_events; i++) {
		trace_tbuf_small(i);
		trace_tbuf_pair(i, 3 * i);
		trace_tbuf_empty();
		if (i == 1 || i == 2)
			usleep(150000);
	}
	printf("attempted=%llu\n", 3ull * nr_events);
}

static void on_timer(int sig)
{
	(void)sig;
	trace_tbuf_handler(__atomic_fetch_add(&handler_events, 1, __ATOMIC_RELAXED),
			   gettid_now());
}

static void timer_set(long usec)
{
	struct itimerval it = { { 0, usec }, { 0, usec } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* The size of libust's memfd, found in /proc/self/fd; 0 when none. */
static long long memfd_size(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long long size = 0;
	char path[300], target[256];
	ssize_t n;

	while (d && (e = readdir(d))) {
		struct stat st;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "memfd:ust-trace") && stat(path, &st) == 0)
			size = (long long)st.st_size;
	}
	if (d)
		closedir(d);
	return size;
}

static void run_workload(void)
{
	pthread_t *th = calloc(nr_threads, sizeof(*th));
	struct work *w = calloc(nr_threads, sizeof(*w));
	long long before = memfd_size();
	unsigned int i, k;
	uint64_t n;

	if (!th || !w || pthread_barrier_init(&wave_met, NULL, nr_threads))
		exit(1);
	if (with_signal) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_timer;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		timer_set(50);
	}
	for (k = 0; k < nr_waves; k++) {
		for (i = 0; i < nr_threads; i++) {
			w[i].thread = k * nr_threads + i;
			if (pthread_create(&th[i], NULL, worker, &w[i]))
				exit(1);
		}
		for (i = 0; i < nr_threads; i++)
			pthread_join(th[i], NULL);
	}
	if (with_signal)
		timer_set(0);
	n = __atomic_load_n(&handler_events, __ATOMIC_RELAXED);
	printf("attempted=%llu handler=%llu grown=%lld\n",
	       (unsigned long long)nr_waves * nr_threads * nr_events + n,
	       (unsigned long long)n, memfd_size() - before);
	fflush(stdout);
	pthread_barrier_destroy(&wave_met);
	free(th);
	free(w);
}

int main(int argc, char **argv)
{
	int opt, do_fork = 0, quick = 0;
	pid_t child = -1;

	while ((opt = getopt(argc, argv, "t:w:n:sgfbq")) != -1) {
		switch (opt) {
		case 't': nr_threads = (unsigned int)atoi(optarg); break;
		case 'w': nr_waves = (unsigned int)atoi(optarg); break;
		case 'n': nr_events = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 's': with_text = 1; break;
		case 'g': with_signal = 1; break;
		case 'f': do_fork = 1; break;
		case 'b': with_barrier = 1; break;
		case 'q': quick = 1; break;
		default:
			fprintf(stderr, "usage: tbuf-app [-t N] [-w N] [-n N] [-sgfbq]\n");
			return 2;
		}
	}
	if (nr_threads < 1 || nr_threads > 4096 || nr_waves < 1)
		return 2;
	if (quick) {
		quick_payloads();
		return 0;
	}
	if (do_fork)
		child = fork();
	run_workload();
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
