/*
 * functions-loop.c - a call-dense loop for bench/functions.sh, built with
 * -finstrument-functions: N times outer(), which calls inner() twice,
 * so 6 hook events per iteration and almost nothing else: the most
 * events per second of plain run time a function tracer can meet.
 *
 *   functions-loop N
 *
 * Prints "cpu USER SYS" (its own CPU time, seconds) on stderr, as
 * functions-sqlite.c does.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>

#include "report-cpu.h"

static volatile long sink;

static __attribute__((noinline)) long inner(long x)
{
	return x * 3 + 1;
}

static __attribute__((noinline)) long outer(long x)
{
	return inner(x) ^ inner(x + 1);
}


int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000, i;

	for (i = 0; i < n; i++)
		sink += outer(i);
	printf("%ld\n", sink);
	report_cpu();
	return 0;
}
