/*
 * clock.h - the session time base, shared by libust, the consumer, the
 * kernel bridge and `ust record`.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Writers store raw counter values: the TSC where it is invariant and the
 * kernel's clocksource is the TSC, else CLOCK_MONOTONIC nanoseconds.  The
 * consumer describes the counter in the CTF clock block (frequency, and an
 * offset to the Unix epoch measured once per session).  `ust record`
 * measures the session clock once and passes it to every process it
 * traces in UST_SESSION_CLOCK, so all their traces share one clock block.
 */
#ifndef UST_CLOCK_H
#define UST_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include "abi/shm.h"

struct ust_clock {
	uint32_t kind;		/* enum ust_clock_kind */
	uint64_t freq;		/* counter ticks per second */
	int64_t offset_s;	/* CTF clock offset_s (seconds) */
	int64_t offset;		/* CTF clock offset (ticks), in [0, freq) */
	char uuid[37];		/* the boot id, "xxxxxxxx-xxxx-..." */
};

/* UST_CLOCK_TSC when the TSC is invariant and the kernel trusts it. */
uint32_t ust__clock_detect_kind(void);

/*
 * Fill `clk` for counter `kind`: frequency (from the kernel's perf
 * time conversion, else a short calibration against CLOCK_MONOTONIC_RAW),
 * epoch offset (best of several realtime samples) and boot id.
 * Returns 0 or a negative errno.
 */
int ust__clock_measure(uint32_t kind, struct ust_clock *clk);

/* "tsc:FREQ:OFFSET_S:OFFSET:UUID" and back; parse returns 0 or -EINVAL. */
int ust__clock_format(const struct ust_clock *clk, char *buf, size_t len);
int ust__clock_parse(const char *text, struct ust_clock *clk);

static inline uint64_t ust__clock_read(uint32_t kind)
{
	struct timespec ts;

	if (kind == UST_CLOCK_TSC)
		return __rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* UST_CLOCK_H */
