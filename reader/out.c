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

/* The digitsN() registers are in memory order on little-endian hosts. */
#define OUT_LE	(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* "00" to "99": two digits per division. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t powers_of_10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/* Decimal digits of `v`, without a loop: log2 to log10, then one compare. */
static unsigned int nr_digits(uint64_t v)
{
	unsigned int n = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return n + (v >= powers_of_10[n]) + !v;	/* "0": one digit */
}

/* The two characters of `v` < 100, as they lie in memory. */
static inline uint64_t pair(uint32_t v)
{
	uint16_t x;

	memcpy(&x, digit_pairs + 2 * v, 2);
	return x;
}

/*
 * `v` < 1e8 as 8 zero-padded digits in a register, the first in the low
 * byte (little-endian memory order): built from table loads only, so
 * that it is never stored in pieces and then loaded whole (a store-to-
 * load forwarding stall).
 */
static inline uint64_t digits8(uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	return pair(hi / 100) | pair(hi % 100) << 16 | pair(lo / 100) << 32 |
	       pair(lo % 100) << 48;
}

/*
 * Up to 8 digits (little-endian hosts): the zero-padded 8, shifted so
 * that the first significant one is in the low byte, in one 8-byte
 * store (the caller's room has the 8 bytes).  More: right to left, two
 * digits at a time.
 */
char *rd_fmt_u64(char *q, uint64_t v)
{
	unsigned int n = nr_digits(v);
	char *p = q + n;

	if (OUT_LE && v < 100000000) {
		uint64_t x = digits8((uint32_t)v) >> (8 * (8 - n));

		memcpy(q, &x, 8);
		return p;
	}
	while (v >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(p - 2, digit_pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return q + n;
}

bool rd_fmt_memo_fill(struct rd_fmt_memo *m, uint64_t v)
{
	unsigned int n;

	if (!OUT_LE || v >= 100000000)
		return false;
	n = nr_digits(v);
	m->v = v;
	m->len = n;
	m->word = digits8((uint32_t)v) >> (8 * (8 - n));
	return true;
}

char *rd_fmt_i64(char *q, int64_t v)
{
	if (v >= 0)
		return rd_fmt_u64(q, (uint64_t)v);
	*q = '-';
	return rd_fmt_u64(q + 1, 0 - (uint64_t)v);
}

/* `v` < 10000 as 4 digits in a register, the first in the low byte. */
static inline uint32_t digits4(uint32_t v)
{
	return (uint32_t)(pair(v / 100) | pair(v % 100) << 16);
}

/* `v` < 100000 as 5 digits in a register, the first in the low byte. */
static inline uint64_t digits5(uint32_t v)
{
	return (uint64_t)('0' + v / 10000) | (uint64_t)digits4(v % 10000) << 8;
}

char *rd_fmt_nsec(char *q, uint32_t x)
{
	uint32_t low = x % 100000000, hi, lo;

	if (OUT_LE && x < 10000) {	/* a small delta: no division */
		uint32_t d4 = digits4(x);

		memcpy(q, "00000", 5);
		memcpy(q + 5, &d4, 4);
		return q + 9;
	}
	q[0] = (char)('0' + x / 100000000);
	if (OUT_LE) {
		uint64_t d8 = digits8(low);

		memcpy(q + 1, &d8, 8);
		return q + 9;
	}
	hi = low / 10000;
	lo = low % 10000;
	memcpy(q + 1, digit_pairs + 2 * (hi / 100), 2);
	memcpy(q + 3, digit_pairs + 2 * (hi % 100), 2);
	memcpy(q + 5, digit_pairs + 2 * (lo / 100), 2);
	memcpy(q + 7, digit_pairs + 2 * (lo % 100), 2);
	return q + 9;
}

void rd_out_u64(struct rd_out *o, uint64_t v)
{
	char *q = rd_out_room(o, 20);

	o->len += rd_fmt_u64(q, v) - q;
}

void rd_out_i64(struct rd_out *o, int64_t v)
{
	char *q = rd_out_room(o, 21);

	o->len += rd_fmt_i64(q, v) - q;
}

void rd_out_nsec(struct rd_out *o, uint64_t v)
{
	rd_fmt_nsec(rd_out_room(o, 9), (uint32_t)(v % 1000000000));
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

/*
 * "HH:MM:SS." of the last second converted, since localtime_r() is slow,
 * and the first 5 digits of the last ns converted in it (10 us: they
 * change about once every few events).
 */
struct tm_cache {
	int64_t sec, sec_ns;	/* sec_ns: sec * 1e9 */
	bool gmt, valid;
	char hms[16];		/* 9 used; copied 16 at a time */
	uint32_t hi;		/* nsec / 10000 */
	uint64_t hi_digits;	/* digits5(hi), stored and loaded whole */
};

static struct tm_cache tm_cache = { .hi = UINT32_MAX };

char *rd_fmt_time_cached(char *q, int64_t ns, bool gmt)
{
	struct tm_cache *c = &tm_cache;
	uint64_t x = (uint64_t)ns - (uint64_t)c->sec_ns;
	uint32_t hi, lo4;

	/* unsigned: a time before the cached second wraps and misses */
	if (!OUT_LE || !c->valid || c->gmt != gmt || x >= 1000000000)
		return NULL;
	hi = (uint32_t)x / 10000;
	if (hi != c->hi) {
		c->hi = hi;
		c->hi_digits = digits5(hi);
	}
	lo4 = digits4((uint32_t)x - hi * 10000);
	memcpy(q, c->hms, 16);
	memcpy(q + 9, &c->hi_digits, 8);
	memcpy(q + 14, &lo4, 4);
	return q + 18;
}

void rd_out_time(struct rd_out *o, int64_t ns, bool gmt)
{
	struct tm_cache *cache = &tm_cache;
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
	char *q = rd_out_room(o, 32), *end;
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
	end = rd_fmt_time_cached(q, ns, gmt);
	if (end) {
		o->len += end - q;
		return;
	}
	if (!cache->valid || cache->sec != sec || cache->gmt != gmt) {
		struct tm tm;

		t = (time_t)sec;
		if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm))) {
			rd_out_u64(o, sec);
			rd_out_char(o, '.');
			rd_out_nsec(o, nsec);
			return;
		}
		memcpy(cache->hms, digit_pairs + 2 * (tm.tm_hour % 100), 2);
		memcpy(cache->hms + 3, digit_pairs + 2 * (tm.tm_min % 100), 2);
		memcpy(cache->hms + 6, digit_pairs + 2 * (tm.tm_sec % 100), 2);
		cache->hms[2] = cache->hms[5] = ':';
		cache->hms[8] = '.';
		cache->sec = sec;
		cache->sec_ns = sec * 1000000000;
		cache->gmt = gmt;
		cache->valid = true;
	}
	rd_out_mem(o, cache->hms, 9);
	rd_out_nsec(o, nsec);
}
