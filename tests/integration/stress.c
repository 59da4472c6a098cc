/*
 * stress.c - the traced workload of the integration tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   stress [-t THREADS] [-n EVENTS] [-s] [-f] [-k] [-p FILE] [-v] [-x]
 *
 * Each thread records EVENTS stress:tick (or, with -s, every 8th one as
 * stress:text) with its number and a sequence number.
 *   -f  fork after starting: parent and child each run the whole workload
 *   -k  run forever (until killed)
 *   -p  FILE: after each trace call returns, store the thread's sequence
 *       number in FILE (shared mapping, one uint64 per thread), so a test
 *       that SIGKILLs us knows which events had been recorded
 *   -r  RATE: at most RATE events per millisecond per thread
 *   -g  a 20 kHz timer signal whose handler records stress:handler
 *   -v  record one stress:values event with extreme values and exit
 * At exit it prints "attempted=N handler=M mapped=B" on stdout, B being 1
 * when libust's shared memory (memfd "ust-trace") is mapped, else 0.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "progress_map.h"
#include "stress_tp.h"

static unsigned int nr_threads = 1;
static uint64_t nr_events = 1000;
static int with_text, forever, with_signal;
static uint64_t rate_per_ms;
static volatile uint64_t *progress;
static uint64_t handler_events;	/* atomic: handlers run on any thread */

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* With -r, sleep while this thread is ahead of its rate. */
static void throttle(uint64_t done, uint64_t start_us)
{
	struct timespec pause = { 0, 100000 };

	while (rate_per_ms && done * 1000 / rate_per_ms > now_us() - start_us)
		nanosleep(&pause, NULL);
}

static void *worker(void *arg)
{
	uint32_t t = (uint32_t)(uintptr_t)arg;
	uint64_t i, start = now_us();

	for (i = 0; forever || i < nr_events; i++) {
		if (i % 256 == 0)
			throttle(i, start);
		if (with_text && i % 8 == 0)
			trace_stress_text(t, i, "a text payload");
		else
			trace_stress_tick(t, i);
		if (progress)
			__atomic_store_n(&progress[t], i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void on_timer(int sig)
{
	(void)sig;
	trace_stress_handler(__atomic_fetch_add(&handler_events, 1,
						__ATOMIC_RELAXED));
}

static void start_timer(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 50 }, { 0, 50 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void stop_timer(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
}

static int ust_memory_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "memfd:ust-trace") != NULL;
	if (f)
		fclose(f);
	return found;
}

static void run_workload(void)
{
	pthread_t th[64];
	unsigned int i;
	uint64_t n;

	if (with_signal)
		start_timer();
	for (i = 0; i < nr_threads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)i);
	for (i = 0; i < nr_threads; i++)
		pthread_join(th[i], NULL);
	if (with_signal)
		stop_timer();
	n = __atomic_load_n(&handler_events, __ATOMIC_RELAXED);
	printf("attempted=%llu handler=%llu mapped=%d\n",
	       (unsigned long long)(nr_threads * nr_events + n),
	       (unsigned long long)n, ust_memory_mapped());
	fflush(stdout);
}

static void record_values(void)
{
	trace_stress_values(INT8_MIN, UINT8_MAX, INT16_MIN, UINT16_MAX,
			    INT32_MIN, 0xDEADBEEFu, INT64_MIN, UINT64_MAX,
			    "quote \" and backslash \\", NULL);
	trace_stress_values(INT8_MAX, 0, INT16_MAX, 0, INT32_MAX, 0,
			    INT64_MAX, 0, "", "");
	printf("attempted=2 handler=0\n");
}

/*
 * A stress:text event whose msg has each length from 0 to
 * STRESS_MAX_LEN, seq being the length: records of every size modulo 16,
 * so every tail of the writer's copy; after each, a stress:small event
 * (a payload passed by value, ust_event_write_small()) of that length and
 * its negation (lengths.sh).
 */
#define STRESS_MAX_LEN 47
static void record_lengths(void)
{
	static const char chars[STRESS_MAX_LEN + 1] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK";
	char msg[STRESS_MAX_LEN + 1];
	unsigned int len;

	for (len = 0; len <= STRESS_MAX_LEN; len++) {
		memcpy(msg, chars, len);
		msg[len] = '\0';
		trace_stress_text(0, len, msg);
		trace_stress_small((uint16_t)len, (int8_t)-(int)len);
	}
	printf("attempted=%u handler=0\n", 2 * (STRESS_MAX_LEN + 1));
}

int main(int argc, char **argv)
{
	int opt, do_fork = 0;
	pid_t child = -1;

	while ((opt = getopt(argc, argv, "t:n:sfkp:r:gvl")) != -1) {
		switch (opt) {
		case 't': nr_threads = (unsigned int)atoi(optarg); break;
		case 'n': nr_events = strtoull(optarg, NULL, 10); break;
		case 's': with_text = 1; break;
		case 'f': do_fork = 1; break;
		case 'k': forever = 1; break;
		case 'p': progress = progress_map(optarg); break;
		case 'r': rate_per_ms = strtoull(optarg, NULL, 10); break;
		case 'g': with_signal = 1; break;
		case 'v': record_values(); return 0;
		case 'l': record_lengths(); return 0;
		default:
			fprintf(stderr, "usage: stress [-t N] [-n N] [-sfkgvl] [-p FILE] [-r RATE]\n");
			return 2;
		}
	}
	if (nr_threads < 1 || nr_threads > 64)
		return 2;
	if (do_fork)
		child = fork();
	run_workload();
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
