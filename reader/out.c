/*
 * out.c - the output buffer of the text printer, and babeltrace2's
 * timestamp and string formats.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reader.h"

#define OUT_CHUNK	(256 * 1024)

void rd_out_init(struct rd_out *o, void *file)
{
	o->buf = NULL;
	o->len = 0;
	o->cap = 0;
	o->file = file;
}

int rd_out_flush(struct rd_out *o)
{
	int ret = 0;

	if (o->file && o->len) {
		if (fwrite(o->buf, 1, o->len, o->file) != o->len)
			ret = -1;
		o->len = 0;
	}
	return ret;
}

void rd_out_release(struct rd_out *o)
{
	rd_out_flush(o);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
}

/*
 * Make room for `n` more bytes, flushing a buffer that has a file once
 * it holds OUT_CHUNK bytes; aborts on memory exhaustion.
 */
char *rd_out_grow(struct rd_out *o, size_t n)
{
	if (o->file && o->len + n > OUT_CHUNK && o->len)
		rd_out_flush(o);
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : (o->file ? OUT_CHUNK + 4096 : 4096);

		while (cap < o->len + n)
			cap *= 2;
		o->buf = realloc(o->buf, cap);
		if (!o->buf) {
			fputs("ust: out of memory\n", stderr);
			abort();
		}
		o->cap = cap;
	}
	return o->buf + o->len;
}

/* "00" to "99": two digits per division. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static unsigned int nr_digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Written in place, right to left, two digits at a time. */
void rd_out_u64(struct rd_out *o, uint64_t v)
{
	unsigned int n = nr_digits(v);
	char *p = rd_out_room(o, 20) + n;

	o->len += n;
	while (v >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(p - 2, digit_pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
}

void rd_out_i64(struct rd_out *o, int64_t v)
{
	if (v < 0) {
		rd_out_char(o, '-');
		rd_out_u64(o, 0 - (uint64_t)v);
	} else {
		rd_out_u64(o, v);
	}
}

void rd_out_nsec(struct rd_out *o, uint64_t v)
{
	char *p = rd_out_room(o, 9);
	uint32_t x = (uint32_t)(v % 1000000000), hi = x / 10000, lo = x % 10000;

	memcpy(p + 7, digit_pairs + 2 * (lo % 100), 2);
	memcpy(p + 5, digit_pairs + 2 * (lo / 100), 2);
	memcpy(p + 3, digit_pairs + 2 * (hi % 100), 2);
	memcpy(p + 1, digit_pairs + 2 * (hi / 100 % 100), 2);
	p[0] = (char)('0' + hi / 10000);
	o->len += 9;
}

/* babeltrace2's escaping: C escapes for controls and \\ \' \" \?. */
void rd_out_escaped(struct rd_out *o, const char *s, size_t n)
{
	static const char ctl[] = "0......abtnvfr";	/* index = code */
	size_t i;

	rd_out_char(o, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];
		char hex[8];

		if (c == '\\' || c == '\'' || c == '"' || c == '?') {
			rd_out_char(o, '\\');
			rd_out_char(o, c);
		} else if (c >= 0x20 && c != 0x7f) {
			rd_out_char(o, c);
		} else if (c < sizeof(ctl) - 1 && ctl[c] != '.') {
			rd_out_char(o, '\\');
			rd_out_char(o, ctl[c]);
		} else if (c == 0x1b) {
			rd_out_str(o, "\\e");
		} else {
			snprintf(hex, sizeof(hex), "\\x%02x", c);
			rd_out_str(o, hex);
		}
	}
	rd_out_char(o, '"');
}

/* "HH:MM:SS." of the last second converted, since localtime_r() is slow. */
struct tm_cache {
	int64_t sec;
	bool gmt, valid;
	char hms[9];
};

void rd_out_time(struct rd_out *o, int64_t ns, bool gmt)
{
	static struct tm_cache cache;
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
	time_t t;

	if (ns < 0) {
		static bool warned;
		uint64_t abs_ns = 0 - (uint64_t)ns;

		if (!warned) {
			fputs("[warning] Fallback to [sec.ns] to print negative time value. Use --clock-seconds.\n",
			      stderr);
			warned = true;
		}
		rd_out_char(o, '-');
		rd_out_u64(o, abs_ns / 1000000000);
		rd_out_char(o, '.');
		rd_out_nsec(o, abs_ns % 1000000000);
		return;
	}
	if (!cache.valid || cache.sec != sec || cache.gmt != gmt) {
		struct tm tm;

		t = (time_t)sec;
		if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm))) {
			rd_out_u64(o, sec);
			rd_out_char(o, '.');
			rd_out_nsec(o, nsec);
			return;
		}
		memcpy(cache.hms, digit_pairs + 2 * (tm.tm_hour % 100), 2);
		memcpy(cache.hms + 3, digit_pairs + 2 * (tm.tm_min % 100), 2);
		memcpy(cache.hms + 6, digit_pairs + 2 * (tm.tm_sec % 100), 2);
		cache.hms[2] = cache.hms[5] = ':';
		cache.hms[8] = '.';
		cache.sec = sec;
		cache.gmt = gmt;
		cache.valid = true;
	}
	rd_out_mem(o, cache.hms, sizeof(cache.hms));
	rd_out_nsec(o, nsec);
}
