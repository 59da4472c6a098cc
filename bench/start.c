/*
 * start.c - time the start-up of a program, exec to main and exec to exit.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   bench-start RUNS PAUSE_MS PROG [ARGS...]
 *
 * Runs PROG RUNS times, one after the other, PAUSE_MS milliseconds apart
 * (time for what PROG leaves behind, such as ust's consumer, to finish).
 * PROG is one of the benchmark programs in `start` mode (loop.h): it
 * prints "main_ns=T", CLOCK_MONOTONIC at the first line of its main().
 * For each run, the child of the fork reads CLOCK_MONOTONIC just before
 * execv() and leaves it in shared memory (no system call in between);
 * the parent reads the clock again when waitpid() returns.  So
 *   exec to main = T - before execv: the dynamic loader, relocations,
 *                  every constructor (the tracer's start-up);
 *   exec to exit = when waitpid() returned - before execv: all of the
 *                  above plus main and exit (destructors, atexit).
 * Prints the medians and minimums in microseconds:
 *   runs=N main_us=M (min A) exit_us=E (min B)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The child: note the time, then become PROG with stdout on `out`. */
static void child(volatile uint64_t *exec_ns, int out, char **argv)
{
	if (dup2(out, STDOUT_FILENO) < 0)
		_exit(126);
	*exec_ns = now_ns();
	execv(argv[0], argv);
	fprintf(stderr, "bench-start: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Read PROG's "main_ns=T" from `in` (the output is there: it exited). */
static int read_main_ns(int in, uint64_t *main_ns)
{
	char buf[256];
	ssize_t n = read(in, buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return sscanf(buf, "main_ns=%" SCNu64, main_ns) == 1 ? 0 : -1;
}

/* One run; fills the two durations in microseconds. */
static int run_once(volatile uint64_t *exec_ns, char **argv, double *main_us,
		    double *exit_us)
{
	uint64_t main_ns, exit_ns;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child(exec_ns, fds[1], argv);
	}
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	exit_ns = now_ns();
	if (!WIFEXITED(status) || WEXITSTATUS(status) ||
	    read_main_ns(fds[0], &main_ns)) {
		fprintf(stderr, "bench-start: %s failed (status 0x%x)\n", argv[0],
			status);
		close(fds[0]);
		return -1;
	}
	close(fds[0]);
	*main_us = (double)(main_ns - *exec_ns) / 1e3;
	*exit_us = (double)(exit_ns - *exec_ns) / 1e3;
	return 0;
}

int main(int argc, char **argv)
{
	volatile uint64_t *exec_ns;
	struct timespec pause;
	double *main_us, *exit_us, mmin, emin;
	long runs, pause_ms, i;

	if (argc < 4 || (runs = atol(argv[1])) <= 0 || (pause_ms = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: bench-start RUNS PAUSE_MS PROG [ARGS...]\n");
		return 2;
	}
	pause.tv_sec = pause_ms / 1000;
	pause.tv_nsec = pause_ms % 1000 * 1000000;
	exec_ns = mmap(NULL, sizeof(*exec_ns), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	main_us = calloc((size_t)runs, sizeof(*main_us));
	exit_us = calloc((size_t)runs, sizeof(*exit_us));
	if (exec_ns == MAP_FAILED || !main_us || !exit_us)
		return 1;
	for (i = 0; i < runs; i++) {
		if (run_once(exec_ns, argv + 3, &main_us[i], &exit_us[i]))
			return 1;
		nanosleep(&pause, NULL);
	}
	mmin = main_us[0];
	emin = exit_us[0];
	for (i = 1; i < runs; i++) {
		mmin = main_us[i] < mmin ? main_us[i] : mmin;
		emin = exit_us[i] < emin ? exit_us[i] : emin;
	}
	printf("runs=%ld main_us=%.1f (min %.1f) exit_us=%.1f (min %.1f)\n", runs,
	       median(main_us, (size_t)runs), mmin, median(exit_us, (size_t)runs),
	       emin);
	return 0;
}
