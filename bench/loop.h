/*
 * loop.h - the timed loop shared by both benchmark programs.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ust-bench.c and lttng-bench.c define BENCH_TRACE(v) (one tracepoint
 * call with one 4-byte int field) and BENCH_NAME, then include this file,
 * so both tracers are timed by the very same main():
 *
 *   PROG N [WARMUP]
 *
 * pins the thread to one CPU (0, or $BENCH_CPU), runs the loop WARMUP
 * times untimed (faults in buffer pages, warms caches and the branch
 * predictor), then N times between two clock_gettime(CLOCK_MONOTONIC)
 * reads, and prints one line of key=value pairs:
 *
 *   bench=ust calls=N warmup=W cpu=0 wall_ns=T ns_per_call=X cpu_ns_per_call=Y
 *
 * ns_per_call is the wall time of the timed loop divided by N.  The
 * thread is pinned and alone on its CPU (the consumer runs on another
 * one), so this is the time the traced thread spends per call.
 * cpu_ns_per_call uses the thread's CPU-time clock instead; it is lower
 * than ns_per_call when the thread was preempted, which is a sign of a
 * noisy run.
 *
 * The loop counter is a plain (non-volatile) integer passed as the
 * event's field, so the loop body is one tracepoint call and an
 * increment on both sides.
 */
#ifndef BENCH_LOOP_H
#define BENCH_LOOP_H

/* The including file defines _GNU_SOURCE first (sched_setaffinity). */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t bench_parse_count(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-') {
		fprintf(stderr, "%s: bad %s '%s'\n", BENCH_NAME, what, s);
		exit(2);
	}
	return v;
}

static uint64_t bench_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The measured loop: nothing but the tracepoint and the counter. */
static __attribute__((noinline)) void bench_loop(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		BENCH_TRACE((int32_t)i);
}

int main(int argc, char **argv)
{
	uint64_t n, warmup = 0, w0, w1, c0, c1;
	const char *cpu_env = getenv("BENCH_CPU");
	int cpu = cpu_env ? atoi(cpu_env) : 0;
	cpu_set_t set;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s N [WARMUP]\n", BENCH_NAME);
		return 2;
	}
	n = bench_parse_count(argv[1], "N");
	if (argc > 2)
		warmup = bench_parse_count(argv[2], "WARMUP");

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: sched_setaffinity(CPU %d): %s\n",
			BENCH_NAME, cpu, strerror(errno));
		return 1;
	}

	bench_loop(warmup);

	w0 = bench_ns(CLOCK_MONOTONIC);
	c0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	bench_loop(n);
	c1 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = bench_ns(CLOCK_MONOTONIC);

	printf("bench=%s calls=%" PRIu64 " warmup=%" PRIu64 " cpu=%d"
	       " wall_ns=%" PRIu64 " ns_per_call=%.3f cpu_ns_per_call=%.3f\n",
	       BENCH_NAME, n, warmup, cpu, w1 - w0,
	       n ? (double)(w1 - w0) / (double)n : 0.0,
	       n ? (double)(c1 - c0) / (double)n : 0.0);
	return 0;
}

#endif /* BENCH_LOOP_H */
