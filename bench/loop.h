/*
 * loop.h - the workloads shared by every benchmark program.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ust-bench.c, lttng-bench.c and plain-bench.c define BENCH_NAME and
 * three tracepoint calls, then include this file, so every tracer is
 * timed by the very same main():
 *
 *   BENCH_INT(v)              one event, one 4-byte int
 *   BENCH_INT4(a, b, c, d)    one event, four 4-byte ints
 *   BENCH_STR(s)              one event, one string (32 characters here)
 *   BENCH_TRACEF(v)           one printf-style event, "tick %d" of v
 *
 * Modes (bench/README.md says what run.sh makes of them):
 *
 *   PROG loop KIND N [WARMUP]     KIND: int, int4, str32 or tracef
 *   PROG npt N [WARMUP]
 *   PROG rate THREADS RATE SECONDS
 *   PROG start
 *
 * loop: pins the thread to one CPU (0, or $BENCH_CPU), runs the loop
 * WARMUP times untimed (faults in buffer pages, warms caches and the
 * branch predictor), then N times between two clock reads, and prints
 *   bench=NAME mode=loop kind=KIND calls=N ... ns_per_call=X cpu_ns_per_call=Y
 * ns_per_call is the wall time per call; cpu_ns_per_call uses the
 * thread's CPU-time clock, lower than ns_per_call when the thread was
 * preempted (a sign of a noisy run).
 *
 * npt (after LTTng's "non-preemptible test"): pinned the same way, each
 * iteration reads the TSC and records one 4-byte event; the histogram of
 * the TSC differences between iterations gives the loop latency
 * quantiles, converted to ns with the TSC frequency measured over the run:
 *   bench=NAME mode=npt iterations=N min_ns=.. p50_ns=.. p99_ns=..
 *   p999_ns=.. p9999_ns=.. max_ns=.. cpu_ratio=..
 *
 * rate: THREADS threads, thread t pinned to CPU ($BENCH_CPU + t) modulo
 * the CPUs, together RATE 4-byte events per second for SECONDS: each
 * thread spins on the TSC until its next event is due (busy pacing, no
 * sleep), then records it.  Prints
 *   bench=NAME mode=rate threads=T target_eps=R attempted=N achieved_eps=A
 * A is below R when the producers could not keep up.
 *
 * start: main() returns at once.  bench/start.c execs it and times it;
 * this mode prints "main_ns=T", T being CLOCK_MONOTONIC at main's first
 * line.
 *
 * The counters passed as fields are plain (non-volatile) integers, so the
 * loop body is the tracepoint call and an increment.
 */
#ifndef BENCH_LOOP_H
#define BENCH_LOOP_H

/* The including file defines _GNU_SOURCE first (sched_setaffinity). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The string of the str32 kind: 32 characters. */
static const char bench_str32[] = "0123456789abcdefghijklmnopqrstuv";
_Static_assert(sizeof(bench_str32) == 33, "32 characters");

static void bench_usage(void)
{
	fprintf(stderr,
		"usage: %s loop int|int4|str32|tracef N [WARMUP]\n"
		"       %s npt N [WARMUP]\n"
		"       %s rate THREADS EVENTS_PER_SECOND SECONDS\n"
		"       %s start\n",
		BENCH_NAME, BENCH_NAME, BENCH_NAME, BENCH_NAME);
	exit(2);
}

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

static inline uint64_t bench_tsc(void)
{
	return __builtin_ia32_rdtsc();
}

static int bench_cpu(unsigned int offset)
{
	const char *cpu_env = getenv("BENCH_CPU");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpu < 1)
		ncpu = 1;
	return (int)(((cpu_env ? atoi(cpu_env) : 0) + offset) % ncpu);
}

/* Pin the calling thread; pthread_setaffinity_np for the rate threads. */
static void bench_pin(int cpu)
{
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret) {
		fprintf(stderr, "%s: pinning to CPU %d: %s\n", BENCH_NAME, cpu,
			strerror(ret));
		exit(1);
	}
}

/* TSC ticks per ns, measured against CLOCK_MONOTONIC over `ns` ns. */
static double bench_tsc_per_ns(uint64_t ns)
{
	uint64_t t0 = bench_tsc(), n0 = bench_ns(CLOCK_MONOTONIC), n1;

	do
		n1 = bench_ns(CLOCK_MONOTONIC);
	while (n1 - n0 < ns);
	return (double)(bench_tsc() - t0) / (double)(n1 - n0);
}

/* ---- loop ------------------------------------------------------------- */

enum bench_kind { KIND_INT, KIND_INT4, KIND_STR32, KIND_TRACEF };

/* The measured loops: nothing but the tracepoint and the counter. */
static __attribute__((noinline)) void bench_loop_int(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		BENCH_INT((int32_t)i);
}

static __attribute__((noinline)) void bench_loop_int4(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		BENCH_INT4((int32_t)i, (int32_t)i + 1, (int32_t)i + 2,
			   (int32_t)i + 3);
}

static __attribute__((noinline)) void bench_loop_str32(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		BENCH_STR(bench_str32);
}

static __attribute__((noinline)) void bench_loop_tracef(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		BENCH_TRACEF((int32_t)i);
}

static void bench_loop(enum bench_kind kind, uint64_t n)
{
	if (kind == KIND_INT)
		bench_loop_int(n);
	else if (kind == KIND_INT4)
		bench_loop_int4(n);
	else if (kind == KIND_STR32)
		bench_loop_str32(n);
	else
		bench_loop_tracef(n);
}

static int mode_loop(int argc, char **argv)
{
	static const char *const kinds[] = { "int", "int4", "str32", "tracef" };
	uint64_t n, warmup = 0, w0, w1, c0, c1;
	enum bench_kind kind;
	int cpu = bench_cpu(0);

	if (argc < 4 || argc > 5)
		bench_usage();
	for (kind = KIND_INT; kind <= KIND_TRACEF; kind++)
		if (!strcmp(argv[2], kinds[kind]))
			break;
	if (kind > KIND_TRACEF)
		bench_usage();
	n = bench_parse_count(argv[3], "N");
	if (argc > 4)
		warmup = bench_parse_count(argv[4], "WARMUP");
	bench_pin(cpu);

	bench_loop(kind, warmup);
	w0 = bench_ns(CLOCK_MONOTONIC);
	c0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	bench_loop(kind, n);
	c1 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = bench_ns(CLOCK_MONOTONIC);

	printf("bench=%s mode=loop kind=%s calls=%" PRIu64 " warmup=%" PRIu64
	       " cpu=%d wall_ns=%" PRIu64 " ns_per_call=%.3f cpu_ns_per_call=%.3f\n",
	       BENCH_NAME, kinds[kind], n, warmup, cpu, w1 - w0,
	       n ? (double)(w1 - w0) / (double)n : 0.0,
	       n ? (double)(c1 - c0) / (double)n : 0.0);
	return 0;
}

/* ---- npt -------------------------------------------------------------- */

/*
 * One bucket per TSC tick below NPT_BUCKETS ticks (about 100 us at
 * 2.5 GHz); longer iterations are kept one by one (they are rare: a
 * preemption, an interrupt, a sub-buffer switch that faults pages in).
 */
#define NPT_BUCKETS	(1u << 18)
#define NPT_SLOW_MAX	(1u << 20)

struct npt {
	uint32_t *hist;		/* [NPT_BUCKETS] */
	uint64_t *slow;		/* [NPT_SLOW_MAX], sorted at the end */
	uint64_t nr_slow, n;
};

static __attribute__((noinline)) void npt_run(struct npt *h, uint64_t n)
{
	uint64_t i, prev = bench_tsc(), now, d;

	for (i = 0; i < n; i++) {
		BENCH_INT((int32_t)i);
		now = bench_tsc();
		d = now - prev;
		prev = now;
		if (__builtin_expect(d < NPT_BUCKETS, 1))
			h->hist[d]++;
		else if (h->nr_slow < NPT_SLOW_MAX)
			h->slow[h->nr_slow++] = d;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The TSC difference of rank `r` (0-based) among the samples. */
static uint64_t npt_rank(const struct npt *h, uint64_t r)
{
	uint64_t seen = 0, d;

	for (d = 0; d < NPT_BUCKETS; d++) {
		seen += h->hist[d];
		if (seen > r)
			return d;
	}
	r -= seen;
	return r < h->nr_slow ? h->slow[r] : h->slow[h->nr_slow - 1];
}

/* Quantile q (0..1) in ns, the nearest-rank way. */
static double npt_quantile(const struct npt *h, double q, double tsc_per_ns)
{
	uint64_t total = h->n, r = (uint64_t)(q * (double)total);

	if (r >= total)
		r = total - 1;
	return (double)npt_rank(h, r) / tsc_per_ns;
}

static int mode_npt(int argc, char **argv)
{
	struct npt h = { 0 };
	uint64_t n, warmup = 0, t0, n0, c0, c1;
	double tsc_per_ns, wall;

	if (argc < 3 || argc > 4)
		bench_usage();
	n = bench_parse_count(argv[2], "N");
	if (argc > 3)
		warmup = bench_parse_count(argv[3], "WARMUP");
	if (n == 0)
		bench_usage();
	h.hist = calloc(NPT_BUCKETS, sizeof(*h.hist));
	h.slow = calloc(NPT_SLOW_MAX, sizeof(*h.slow));
	if (!h.hist || !h.slow) {
		fprintf(stderr, "%s: out of memory\n", BENCH_NAME);
		return 1;
	}
	bench_pin(bench_cpu(0));

	npt_run(&h, warmup);
	memset(h.hist, 0, NPT_BUCKETS * sizeof(*h.hist));
	h.nr_slow = 0;
	h.n = n;
	t0 = bench_tsc();
	n0 = bench_ns(CLOCK_MONOTONIC);
	c0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	npt_run(&h, n);
	c1 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	wall = (double)(bench_ns(CLOCK_MONOTONIC) - n0);
	tsc_per_ns = (double)(bench_tsc() - t0) / wall;
	qsort(h.slow, h.nr_slow, sizeof(*h.slow), cmp_u64);

	printf("bench=%s mode=npt iterations=%" PRIu64 " tsc_ghz=%.3f"
	       " min_ns=%.1f p50_ns=%.1f p99_ns=%.1f p999_ns=%.1f"
	       " p9999_ns=%.1f max_ns=%.1f slow=%" PRIu64 " cpu_ratio=%.3f\n",
	       BENCH_NAME, n, tsc_per_ns,
	       npt_quantile(&h, 0, tsc_per_ns),
	       npt_quantile(&h, 0.5, tsc_per_ns),
	       npt_quantile(&h, 0.99, tsc_per_ns),
	       npt_quantile(&h, 0.999, tsc_per_ns),
	       npt_quantile(&h, 0.9999, tsc_per_ns),
	       npt_quantile(&h, 1, tsc_per_ns), h.nr_slow,
	       (double)(c1 - c0) / wall);
	free(h.hist);
	free(h.slow);
	return 0;
}

/* ---- rate ------------------------------------------------------------- */

struct rate_thread {
	pthread_t thread;
	unsigned int index;
	uint64_t interval;	/* TSC ticks between two events */
	uint64_t start, end;	/* TSC values: first event due, stop */
	uint64_t done;		/* events recorded */
	uint64_t finish;	/* TSC value after the last one */
};

static void *rate_main(void *arg)
{
	struct rate_thread *t = arg;
	uint64_t next, i = 0;

	bench_pin(bench_cpu(t->index));
	next = t->start;
	while (next < t->end) {
		/* Busy pacing: spin until the event is due. */
		while (bench_tsc() < next)
			__builtin_ia32_pause();
		BENCH_INT((int32_t)i);
		i++;
		next += t->interval;
	}
	t->done = i;
	t->finish = bench_tsc();
	return NULL;
}

static int mode_rate(int argc, char **argv)
{
	struct rate_thread *th;
	uint64_t nthreads, rate, seconds, total = 0, start, finish = 0;
	double tsc_per_ns;
	unsigned int i;

	if (argc != 5)
		bench_usage();
	nthreads = bench_parse_count(argv[2], "THREADS");
	rate = bench_parse_count(argv[3], "EVENTS_PER_SECOND");
	seconds = bench_parse_count(argv[4], "SECONDS");
	if (nthreads == 0 || nthreads > 64 || rate == 0 || seconds == 0)
		bench_usage();
	th = calloc(nthreads, sizeof(*th));
	if (!th)
		return 1;
	tsc_per_ns = bench_tsc_per_ns(20000000);
	/* Every thread's first event is due 10 ms from now. */
	start = bench_tsc() + (uint64_t)(tsc_per_ns * 1e7);
	for (i = 0; i < nthreads; i++) {
		th[i].index = i;
		th[i].start = start;
		th[i].interval = (uint64_t)(tsc_per_ns * 1e9 * (double)nthreads /
					    (double)rate);
		th[i].end = start + (uint64_t)(tsc_per_ns * 1e9 * (double)seconds);
		if (pthread_create(&th[i].thread, NULL, rate_main, &th[i])) {
			fprintf(stderr, "%s: cannot create a thread\n", BENCH_NAME);
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i].thread, NULL);
		total += th[i].done;
		if (th[i].finish > finish)
			finish = th[i].finish;
	}
	/* Behind schedule, the threads ran late: the rate they reached. */
	printf("bench=%s mode=rate threads=%" PRIu64 " target_eps=%" PRIu64
	       " attempted=%" PRIu64 " achieved_eps=%.0f\n", BENCH_NAME,
	       nthreads, rate, total,
	       (double)total * 1e9 * tsc_per_ns / (double)(finish - start));
	free(th);
	return 0;
}

/* ---- main ------------------------------------------------------------- */

int main(int argc, char **argv)
{
	/* First line: when main starts, for `start` (bench/start.c). */
	uint64_t main_ns = bench_ns(CLOCK_MONOTONIC);

	if (argc < 2)
		bench_usage();
	if (!strcmp(argv[1], "start")) {
		printf("main_ns=%" PRIu64 "\n", main_ns);
		return 0;
	}
	if (!strcmp(argv[1], "loop"))
		return mode_loop(argc, argv);
	if (!strcmp(argv[1], "npt"))
		return mode_npt(argc, argv);
	if (!strcmp(argv[1], "rate"))
		return mode_rate(argc, argv);
	bench_usage();
	return 2;
}

#endif /* BENCH_LOOP_H */
