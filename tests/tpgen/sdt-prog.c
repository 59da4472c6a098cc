/*
 * sdt-prog.c - records every event of sdt.xml with known values, for
 * sdt.sh, which reads them back as USDT probes with bpftrace and gdb
 * (and as ust events when `ust record` runs it).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	sdt-prog [ROUNDS]
 *
 * Each round records small, wide, text, mixed, pair, many and none, in
 * that order; the values do not change between rounds.  Before the
 * first round the program prints the addresses that the pointer
 * arguments will have:
 *	samples=0x... pair=0x...
 * (the `p` argument of mixed is the address of pair, too).  The
 * integers come through volatile objects, so that the compiler passes
 * them as it would a program's own values, not as constants.  No cast:
 * compile.sh builds this file as C++ with -Wold-style-cast.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sdt_tp.h"

static volatile int8_t s8 = INT8_MIN;
static volatile uint8_t u8 = UINT8_MAX;
static volatile int16_t s16 = INT16_MIN;
static volatile uint16_t u16 = UINT16_MAX;
static volatile int32_t s32 = INT32_MIN;
static volatile uint32_t u32 = UINT32_MAX;
static volatile int64_t s64 = INT64_MIN;
static volatile uint64_t u64 = UINT64_MAX;
static volatile long lng = -1234567890123L;
static volatile double dbl = -2.25;

static const int32_t samples[3] = { 7, -8, 9 };
static const struct sdt_pair_pair pair = { 42, -42 };

static void round_of_events(void)
{
	trace_sdt_small(s8, u8, s16, u16, s32, u32);
	trace_sdt_wide(s64, u64, lng);
	trace_sdt_text("hello, usdt", -7);
	trace_sdt_mixed(SDT_MOOD_SAD, 'x', &pair, dbl, 3, samples);
	trace_sdt_pair(&pair);
	trace_sdt_many(1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14);
	trace_sdt_none();
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	const void *samples_at = samples, *pair_at = &pair;
	long i;

	printf("samples=%p pair=%p\n", samples_at, pair_at);
	fflush(stdout);
	for (i = 0; i < rounds; i++)
		round_of_events();
	return 0;
}
