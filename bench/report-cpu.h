/*
 * report-cpu.h - the bench programs of bench/functions.sh print their own
 * CPU time on stderr, "cpu USER SYS" in seconds, so that the script can
 * tell the program's CPU from the tracers' helper processes.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_BENCH_REPORT_CPU_H
#define UST_BENCH_REPORT_CPU_H

#include <stdio.h>
#include <sys/resource.h>

static __attribute__((no_instrument_function)) void report_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "cpu %ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
		(long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
		(long)ru.ru_stime.tv_usec);
}

#endif
