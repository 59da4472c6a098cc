/*
 * faultapp.c - the traced workload of the fault tests (tests/faults/).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   faultapp [-t THREADS] [-P] [-n EVENTS] [-r RATE] [-g FILE] [-b EVENTS]
 *
 * THREADS workers (default 1; pinned to CPU i % nproc with -P) record
 * EVENTS fault:tick each {thread, seq}, at most RATE per second each
 * (-r, 0: full speed).  With -g FILE, the program then prints its pid
 * ("pid=N") and "ready", and waits (60 s at most) until FILE exists, so that a test can do
 * something to it (kill its consumer, fill the disk) at a known point.
 * With -b EVENTS, two timed phases follow: thread 0 alone records EVENTS
 * more (b1), then every thread does (b2).  At exit it prints
 * "attempted=N b1_ms=X b2_ms=Y": trace calls made in all, and how long
 * each phase took.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fault_tp.h"

#define MAX_THREADS	64

static unsigned int nr_threads = 1;
static int pin;
static uint64_t events, rate, b_events;
static const char *gate;
static uint64_t attempted;	/* atomic */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until event `done` is due at `rate` per second from `start`. */
static void pace(uint64_t done, uint64_t start)
{
	uint64_t due = start + done * 1000000000ull / rate, now = now_ns();
	struct timespec ts;

	if (due <= now)
		return;
	ts.tv_sec = (time_t)((due - now) / 1000000000ull);
	ts.tv_nsec = (long)((due - now) % 1000000000ull);
	nanosleep(&ts, NULL);
}

struct worker {
	pthread_t tid;
	uint32_t index;
	uint64_t seq;		/* next sequence number */
	uint64_t count;		/* how many to record in this phase */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t i, start = now_ns();

	if (pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->index % (uint32_t)sysconf(_SC_NPROCESSORS_ONLN), &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (i = 0; i < w->count; i++) {
		if (rate)
			pace(i, start);
		trace_fault_tick(w->index, w->seq++);
		__atomic_fetch_add(&attempted, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Workers [first, last) each record `count` events; returns the ms taken. */
static uint64_t phase(struct worker *w, unsigned int first, unsigned int last,
		      uint64_t count)
{
	uint64_t start = now_ns();
	unsigned int i;

	for (i = first; i < last; i++) {
		w[i].count = count;
		if (pthread_create(&w[i].tid, NULL, work, &w[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	for (i = first; i < last; i++)
		pthread_join(w[i].tid, NULL);
	return (now_ns() - start) / 1000000;
}

static void wait_gate(void)
{
	unsigned int i;

	printf("pid=%d\nready\n", (int)getpid());
	fflush(stdout);
	for (i = 0; i < 6000 && access(gate, F_OK); i++)
		usleep(10000);
	if (access(gate, F_OK)) {
		fprintf(stderr, "faultapp: no %s after 60 s\n", gate);
		exit(1);
	}
}

static void parse_args(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "t:Pn:r:g:b:")) != -1) {
		switch (c) {
		case 't': nr_threads = (unsigned int)atoi(optarg); break;
		case 'P': pin = 1; break;
		case 'n': events = strtoull(optarg, NULL, 10); break;
		case 'r': rate = strtoull(optarg, NULL, 10); break;
		case 'g': gate = optarg; break;
		case 'b': b_events = strtoull(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: faultapp [-t THREADS] [-P] [-n EVENTS] "
				"[-r RATE] [-g FILE] [-b EVENTS]\n");
			exit(2);
		}
	}
	if (nr_threads < 1 || nr_threads > MAX_THREADS) {
		fprintf(stderr, "faultapp: 1 to %d threads\n", MAX_THREADS);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	uint64_t b1 = 0, b2 = 0;
	unsigned int i;

	parse_args(argc, argv);
	for (i = 0; i < nr_threads; i++)
		w[i].index = i;
	phase(w, 0, nr_threads, events);
	if (gate)
		wait_gate();
	if (b_events) {
		b1 = phase(w, 0, 1, b_events);
		b2 = phase(w, 0, nr_threads, b_events);
	}
	printf("attempted=%llu b1_ms=%llu b2_ms=%llu\n",
	       (unsigned long long)attempted, (unsigned long long)b1,
	       (unsigned long long)b2);
	return 0;
}
