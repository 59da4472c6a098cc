/*
 * check_clock.c - unit tests of common/clock.c: the session clock text
 * format, and the measurement against the kernel's clocks.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../check_run.h"
#include "common/clock.h"

#define BOOT "c3d2f6a4-93b1-4b5e-8d3f-0123456789ab"

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wall time (ns) the clock block gives counter value `v`. */
static int64_t wall_ns(const struct ust_clock *c, uint64_t v)
{
	__int128 ticks = (__int128)c->offset + v;

	return c->offset_s * 1000000000ll +
	       (int64_t)(ticks * 1000000000 / (__int128)c->freq);
}

START_TEST(test_round_trip)
{
	struct ust_clock a = { UST_CLOCK_TSC, 2500000000ull, 1700000000, 2499999999, BOOT };
	struct ust_clock b;
	char buf[128];

	ck_assert_int_eq(ust__clock_format(&a, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "tsc:2500000000:1700000000:2499999999:" BOOT);
	ck_assert_int_eq(ust__clock_parse(buf, &b), 0);
	ck_assert_uint_eq(b.kind, a.kind);
	ck_assert_uint_eq(b.freq, a.freq);
	ck_assert_int_eq(b.offset_s, a.offset_s);
	ck_assert_int_eq(b.offset, a.offset);
	ck_assert_str_eq(b.uuid, a.uuid);

	/* Monotonic, negative seconds, no boot id. */
	a = (struct ust_clock){ UST_CLOCK_MONOTONIC, 1000000000, -5, 0, "" };
	ck_assert_int_eq(ust__clock_format(&a, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mono:1000000000:-5:0:");
	ck_assert_int_eq(ust__clock_parse(buf, &b), 0);
	ck_assert_uint_eq(b.kind, UST_CLOCK_MONOTONIC);
	ck_assert_int_eq(b.offset_s, -5);
	ck_assert_str_eq(b.uuid, "");

	ck_assert_int_eq(ust__clock_format(&a, buf, 10), -ENOSPC);
	a.kind = 7;
	ck_assert_int_eq(ust__clock_format(&a, buf, sizeof(buf)), -EINVAL);
}
END_TEST

START_TEST(test_parse_rejects)
{
	static const char *bad[] = {
		"", "tsc", "tsc:1", "tsc:2500000000:0:0", "foo:2500000000:0:0:",
		"mono:999999999:0:0:",			/* ns clock at another rate */
		"tsc:2500000000:0:-1:",			/* offset below 0 */
		"tsc:2500000000:0:2500000000:",		/* offset not below freq */
		"tsc:100:0:0:",				/* absurd frequency */
		"tsc:-2500000000:0:0:",
		"tsc: 2500000000:0:0:", "tsc:2500000000:0:0x10:",
		"tsc:2500000000:0:0:" BOOT ":x",	/* a sixth field */
		"tsc:2500000000:0:0:C3D2F6A4-93B1-4B5E-8D3F-0123456789AB",
		"tsc:2500000000:0:0:c3d2f6a4-93b1-4b5e-8d3f-0123456789a",
		"tsc:25000000000000000000:0:0:",	/* overflow */
		"tsc::0:0:",
	};
	struct ust_clock c = { 0 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ust__clock_parse(bad[i], &c) == -EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_uint_eq(c.kind, 0);	/* untouched on error */
}
END_TEST

START_TEST(test_detect)
{
	uint32_t k = ust__clock_detect_kind();

	ck_assert(k == UST_CLOCK_TSC || k == UST_CLOCK_MONOTONIC);
}
END_TEST

/* Wall time from the clock block agrees with CLOCK_REALTIME (1 ms). */
static void check_plausible(uint32_t kind)
{
	struct ust_clock c;
	int64_t before, after, wall;
	uint64_t v;

	ck_assert_int_eq(ust__clock_measure(kind, &c), 0);
	ck_assert_uint_eq(c.kind, kind);
	ck_assert_uint_gt(c.freq, 0);
	ck_assert_int_ge(c.offset, 0);
	ck_assert_int_lt(c.offset, (int64_t)c.freq);
	ck_assert(c.uuid[0] == '\0' || strlen(c.uuid) == 36);
	before = realtime_ns();
	v = ust__clock_read(kind);
	after = realtime_ns();
	wall = wall_ns(&c, v);
	ck_assert_msg(wall > before - 1000000 && wall < after + 1000000,
		      "clock block says %lld, realtime was %lld..%lld",
		      (long long)wall, (long long)before, (long long)after);
}

START_TEST(test_measure_monotonic)
{
	struct ust_clock c;

	check_plausible(UST_CLOCK_MONOTONIC);
	ck_assert_int_eq(ust__clock_measure(UST_CLOCK_MONOTONIC, &c), 0);
	ck_assert_uint_eq(c.freq, 1000000000);
	ck_assert_int_eq(ust__clock_measure(99, &c), -EINVAL);
}
END_TEST

START_TEST(test_measure_tsc)
{
	struct timespec nap = { 0, 50000000 }, r0, r1;
	struct ust_clock c;
	uint64_t t0, t1;
	double measured, rel;

	if (ust__clock_detect_kind() != UST_CLOCK_TSC)
		return;		/* no invariant TSC here: nothing to check */
	check_plausible(UST_CLOCK_TSC);
	ck_assert_int_eq(ust__clock_measure(UST_CLOCK_TSC, &c), 0);
	/* The frequency agrees with 50 ms of CLOCK_MONOTONIC_RAW to 0.1 %. */
	clock_gettime(CLOCK_MONOTONIC_RAW, &r0);
	t0 = __rdtsc();
	nanosleep(&nap, NULL);
	t1 = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC_RAW, &r1);
	measured = (double)(t1 - t0) * 1e9 /
		   ((r1.tv_sec - r0.tv_sec) * 1e9 + (r1.tv_nsec - r0.tv_nsec));
	rel = (measured - (double)c.freq) / (double)c.freq;
	ck_assert_msg(rel > -0.001 && rel < 0.001, "freq %llu, measured %.0f",
		      (unsigned long long)c.freq, measured);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "format", NULL, NULL, 0, {
			test_round_trip, test_parse_rejects, NULL } },
		{ "measure", NULL, NULL, 10, {
			test_detect, test_measure_monotonic, test_measure_tsc,
			NULL } },
	};

	return CHECK_RUN_CASES("clock", cases);
}
