/*
 * clock.c - measure and describe the session time base.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The writers store raw counter values; the CTF clock block turns them
 * into wall time with a frequency and an offset (offset_s seconds plus
 * offset ticks) from the Unix epoch to counter value 0.  Measuring that
 * offset once per session and sharing it (ust__clock_format/parse) keeps
 * every trace of the session on exactly the same time base.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/fs.h"

#define NSEC_PER_SEC		1000000000ull
#define CLOCKSOURCE_PATH	"/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define BOOT_ID_PATH		"/proc/sys/kernel/random/boot_id"
#define OFFSET_SAMPLES		10
#define CALIBRATE_NS		20000000ull	/* 20 ms */
#define FREQ_MIN		1000000ull	/* 1 MHz: anything lower is bogus */
#define FREQ_MAX		100000000000ull	/* 100 GHz */

/* CPUID 0x80000007, EDX bit 8: the TSC runs at a constant rate in all states. */
static int cpu_has_invariant_tsc(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) || eax < 0x80000007)
		return 0;
	if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx))
		return 0;
	return (edx >> 8) & 1;
}

uint32_t ust__clock_detect_kind(void)
{
	char buf[64];

	if (!cpu_has_invariant_tsc())
		return UST_CLOCK_MONOTONIC;
	if (ust__read_small_file(CLOCKSOURCE_PATH, buf, sizeof(buf)))
		return UST_CLOCK_MONOTONIC;
	if (strcmp(buf, "tsc\n") && strcmp(buf, "tsc"))
		return UST_CLOCK_MONOTONIC;
	return UST_CLOCK_TSC;
}

/*
 * TSC frequency from the kernel's own conversion factors, published in
 * the user page of any perf event: ns = (cyc * time_mult) >> time_shift,
 * so freq = 1e9 * 2^time_shift / time_mult.  Returns 0 when unavailable.
 */
static uint64_t tsc_freq_from_perf(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	uint32_t seq, mult = 0;
	uint16_t shift = 0;
	uint64_t cap = 0, freq = 0;
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return 0;
	pg = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (pg == MAP_FAILED)
		return 0;
	/*
	 * The kernel updates the page under a sequence count: retry until
	 * `lock` is unchanged around our reads.  The compiler barriers keep
	 * the field loads between the two loads of `lock`; x86 does not
	 * reorder loads with loads.
	 */
	do {
		seq = pg->lock;
		__asm__ __volatile__("" ::: "memory");
		cap = pg->cap_user_time;
		mult = pg->time_mult;
		shift = pg->time_shift;
		__asm__ __volatile__("" ::: "memory");
	} while (pg->lock != seq || (seq & 1));
	munmap(pg, psz);
	if (cap && mult && shift < 64)
		freq = (uint64_t)((((unsigned __int128)NSEC_PER_SEC << shift) + mult / 2) / mult);
	return freq;
}

static uint64_t ts_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* One (TSC, CLOCK_MONOTONIC_RAW) pair: the narrowest of a few windows. */
static void tsc_raw_pair(uint64_t *tsc, uint64_t *raw)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = __rdtsc();
		uint64_t r = ts_ns(CLOCK_MONOTONIC_RAW);
		uint64_t t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*raw = r;
		}
	}
}

/* Fallback: count TSC ticks over ~20 ms of CLOCK_MONOTONIC_RAW. */
static uint64_t tsc_freq_calibrate(void)
{
	struct timespec nap = { 0, CALIBRATE_NS };
	uint64_t t0, r0, t1, r1;

	tsc_raw_pair(&t0, &r0);
	while (nanosleep(&nap, &nap) && errno == EINTR)
		;
	tsc_raw_pair(&t1, &r1);
	if (r1 <= r0 || t1 <= t0)
		return 0;
	return (uint64_t)(((unsigned __int128)(t1 - t0) * NSEC_PER_SEC) / (r1 - r0));
}

/*
 * Epoch offset: the best of several (counter, CLOCK_REALTIME, counter)
 * samples, the one whose two counter reads are closest, with the
 * realtime read placed at their midpoint.  The result is the epoch time
 * of counter value 0, in ticks, split into seconds and [0, freq) ticks.
 */
static void clock_measure_offset(struct ust_clock *clk)
{
	uint64_t best = UINT64_MAX, mid = 0, real = 0;
	__int128 origin;
	int i;

	for (i = 0; i < OFFSET_SAMPLES; i++) {
		uint64_t c0 = ust__clock_read(clk->kind);
		uint64_t r = ts_ns(CLOCK_REALTIME);
		uint64_t c1 = ust__clock_read(clk->kind);

		if (c1 >= c0 && c1 - c0 < best) {
			best = c1 - c0;
			mid = c0 + (c1 - c0) / 2;
			real = r;
		}
	}
	origin = (__int128)(real / NSEC_PER_SEC) * clk->freq +
		 (__int128)(real % NSEC_PER_SEC) * clk->freq / NSEC_PER_SEC -
		 (__int128)mid;
	clk->offset_s = (int64_t)(origin / (__int128)clk->freq);
	clk->offset = (int64_t)(origin % (__int128)clk->freq);
	if (clk->offset < 0) {
		clk->offset += clk->freq;
		clk->offset_s--;
	}
}

static int uuid_valid(const char *s)
{
	int i;

	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (!((s[i] >= '0' && s[i] <= '9') ||
			     (s[i] >= 'a' && s[i] <= 'f'))) {
			return 0;
		}
	}
	return s[36] == '\0';
}

/* The boot id, or an empty string when it cannot be read. */
static void clock_read_boot_id(struct ust_clock *clk)
{
	char buf[64];

	clk->uuid[0] = '\0';
	if (ust__read_small_file(BOOT_ID_PATH, buf, sizeof(buf)))
		return;
	buf[strcspn(buf, "\n")] = '\0';
	if (uuid_valid(buf))
		memcpy(clk->uuid, buf, sizeof(clk->uuid));
}

int ust__clock_measure(uint32_t kind, struct ust_clock *clk)
{
	memset(clk, 0, sizeof(*clk));
	clk->kind = kind;
	if (kind == UST_CLOCK_MONOTONIC) {
		clk->freq = NSEC_PER_SEC;
	} else if (kind == UST_CLOCK_TSC) {
		clk->freq = tsc_freq_from_perf();
		if (clk->freq < FREQ_MIN || clk->freq > FREQ_MAX)
			clk->freq = tsc_freq_calibrate();
		if (clk->freq < FREQ_MIN || clk->freq > FREQ_MAX)
			return -EIO;
	} else {
		return -EINVAL;
	}
	clock_measure_offset(clk);
	clock_read_boot_id(clk);
	return 0;
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case UST_CLOCK_TSC:
		return "tsc";
	case UST_CLOCK_MONOTONIC:
		return "mono";
	default:
		return NULL;
	}
}

int ust__clock_format(const struct ust_clock *clk, char *buf, size_t len)
{
	const char *kind = kind_name(clk->kind);
	int n;

	if (!kind || memchr(clk->uuid, '\0', sizeof(clk->uuid)) == NULL)
		return -EINVAL;
	n = snprintf(buf, len, "%s:%" PRIu64 ":%" PRId64 ":%" PRId64 ":%s",
		     kind, clk->freq, clk->offset_s, clk->offset, clk->uuid);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	return 0;
}

/* A whole decimal field, optionally signed; no spaces, no trailing junk. */
static int parse_i64(const char *s, size_t n, int is_signed, int64_t *out)
{
	char tmp[24], *end;
	long long v;

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (!(tmp[0] >= '0' && tmp[0] <= '9') && !(is_signed && tmp[0] == '-'))
		return -EINVAL;
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int ust__clock_parse(const char *text, struct ust_clock *clk)
{
	const char *f[5], *p = text;
	size_t n[5];
	int64_t freq, off_s, off;
	struct ust_clock c;
	int i;

	for (i = 0; i < 5; i++) {
		const char *colon = strchr(p, ':');

		f[i] = p;
		n[i] = (i < 4 && colon) ? (size_t)(colon - p) : strlen(p);
		if (i < 4 && !colon)
			return -EINVAL;
		p += n[i] + 1;
	}
	memset(&c, 0, sizeof(c));
	if (n[0] == 3 && !strncmp(f[0], "tsc", 3))
		c.kind = UST_CLOCK_TSC;
	else if (n[0] == 4 && !strncmp(f[0], "mono", 4))
		c.kind = UST_CLOCK_MONOTONIC;
	else
		return -EINVAL;
	if (parse_i64(f[1], n[1], 0, &freq) || parse_i64(f[2], n[2], 1, &off_s) ||
	    parse_i64(f[3], n[3], 1, &off))
		return -EINVAL;
	if ((uint64_t)freq < FREQ_MIN || (uint64_t)freq > FREQ_MAX ||
	    off < 0 || off >= freq)
		return -EINVAL;
	if (c.kind == UST_CLOCK_MONOTONIC && (uint64_t)freq != NSEC_PER_SEC)
		return -EINVAL;
	if (n[4] != 0 && n[4] != 36)
		return -EINVAL;
	memcpy(c.uuid, f[4], n[4]);
	c.uuid[n[4]] = '\0';
	if (n[4] && !uuid_valid(c.uuid))
		return -EINVAL;
	c.freq = freq;
	c.offset_s = off_s;
	c.offset = off;
	*clk = c;
	return 0;
}
