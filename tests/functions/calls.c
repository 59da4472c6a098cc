/*
 * calls.c - a program with known call counts, built with -O0
 * -finstrument-functions, for the function-tracing tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   calls counts N M        fib(N) recursively, then M calls of leaf()
 *   calls threads T K       T threads, each calling callee_work() K times
 *                           (in libcallee.so) from thread_main()
 *   calls plugin PATH P     dlopen PATH, call plugin_work() P times, dlclose
 *   calls forkexec          fork; the child execs "calls counts 10 7",
 *                           the parent runs "counts 5 3" and waits
 *   calls exit N            fib(N), then exit() from quit(): main, run_exit
 *                           and quit never return
 *   calls timed N US        N calls of slow(), each at least US microseconds
 *                           long (it spins on the clock) and calling leaf()
 *                           3 times, each slow() between 100 calls of leaf()
 *
 * Call counts: fib(N) makes fib_calls(N) = 1 + fib_calls(N-1) +
 * fib_calls(N-2) calls (1 for N < 2): 15 for 5, 177 for 10, 21891 for 20.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "callee.h"

static volatile int sink;

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int leaf(int i)
{
	return i + 1;
}

static int run_counts(int n, int m)
{
	int i;

	sink = fib(n);
	for (i = 0; i < m; i++)
		sink = leaf(i);
	return 0;
}

static __attribute__((no_instrument_function)) long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* At least `us` microseconds, 3 calls of leaf() in it. */
static void slow(int us)
{
	long long end = now_ns() + us * 1000LL;
	int i;

	for (i = 0; i < 3; i++)
		sink = leaf(i);
	while (now_ns() < end)
		;
}

static int run_timed(int n, int us)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 100; j++)
			sink = leaf(j);
		slow(us);
	}
	return 0;
}

/* exit() two calls deep: main, run_exit and quit never return. */
static void quit(void)
{
	exit(0);
}

static int run_exit(int n)
{
	sink = fib(n);
	quit();
	return 1;
}

static void *thread_main(void *arg)
{
	long k = (long)arg, i, acc = 0;

	for (i = 0; i < k; i++)
		acc += callee_work((int)i);
	return (void *)acc;	/* per thread: no shared variable to race on */
}

static int run_threads(int t, long k)
{
	pthread_t tid[64];
	int i;

	if (t < 1 || t > 64)
		return 2;
	for (i = 0; i < t; i++) {
		if (pthread_create(&tid[i], NULL, thread_main, (void *)k))
			return 1;
	}
	for (i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static int run_plugin(const char *path, int p)
{
	int (*work)(int);
	void *h = dlopen(path, RTLD_NOW);
	int i;

	if (!h) {
		fprintf(stderr, "calls: %s\n", dlerror());
		return 1;
	}
	*(void **)&work = dlsym(h, "plugin_work");
	if (!work)
		return 1;
	for (i = 0; i < p; i++)
		sink = work(i);
	return dlclose(h) ? 1 : 0;
}

static int run_forkexec(void)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status;
	pid_t pid;

	if (n <= 0)
		return 1;
	self[n] = '\0';
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execl(self, self, "counts", "10", "7", (char *)NULL);
		_exit(127);
	}
	run_counts(5, 3);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "counts"))
		return run_counts(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return run_threads(atoi(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "plugin"))
		return run_plugin(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return run_exit(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "timed"))
		return run_timed(atoi(argv[2]), atoi(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "forkexec"))
		return run_forkexec();
	fprintf(stderr, "usage: calls counts N M | threads T K | "
		"plugin PATH P | forkexec | exit N | timed N US\n");
	return 2;
}
