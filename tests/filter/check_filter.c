/*
 * check_filter.c - the filter language: what each expression selects
 * when its program runs on the payloads real tpgen probes record
 * (flt.xml), the programs the compiler emits, and its errors.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CHECK(want, event, expr, call): compile `expr` for flt:event, make the
 * call (a generated trace_flt_*() function), and check the decision (1
 * recorded, 0 discarded).  Integer semantics are LTTng's: every integer
 * is an int64 (a uint64 above INT64_MAX is negative), bitwise operators
 * and >> work on the 64 bits, and any run-time error (division by zero,
 * shift count outside 0..63, index past a sequence's end, a variant
 * option its tag does not select) discards the event.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "../check_run.h"
#include "compiler.h"
#include "flt_tp.h"
#include "harness.h"
#include "runtime.h"

static void set_filter(const char *expr, const struct ust_event_desc *d)
{
	char err[FILTER_ERROR_MAX + 32];

	ck_assert_msg(harness_set(expr, d, err, sizeof(err)) == 0,
		      "'%s' does not compile: %s", expr, err);
}

#define CHECK(want, ev, expr, call) do {				\
		set_filter(expr, &__ust_event_flt_##ev);		\
		call;							\
		ck_assert_msg(harness_result == (want),			\
			      "'%s' on flt:%s gave %d, expected %d",	\
			      expr, #ev, harness_result, (want));	\
	} while (0)

/* The error of `expr` on event `d`, formatted "column N: ...". */
static const char *error_of(const char *expr, const struct ust_event_desc *d)
{
	static char err[FILTER_ERROR_MAX + 32];

	ck_assert_msg(harness_set(expr, d, err, sizeof(err)) == -1,
		      "'%s' compiles, expected an error", expr);
	return err;
}

#define ERROR_IS(ev, expr, msg) \
	ck_assert_str_eq(error_of(expr, &__ust_event_flt_##ev), msg)

/* ---- one payload per event ---- */

static void ints_std(void)
{
	trace_flt_ints(-5, 250, -300, 60000, -70000, 4000000000u, INT64_MIN,
		       UINT64_MAX, -123456, 0x0102030405060708ull);
}

static void ints_pair(int64_t a, uint64_t b)
{
	trace_flt_ints(0, 0, 0, 0, 0, 0, a, b, 0, 0);
}

static void text_call(const char *text, const char *other)
{
	trace_flt_text(7, text, 42, other);
}

static void arrays_std(void)
{
	static const uint8_t mac[6] = { 0, 1, 2, 3, 4, 0xff };
	static const int16_t matrix[2][3] = { { 1, 2, 3 }, { -4, -5, -6 } };
	static const char *const names[3] = { "a", "bb", "ccc" };

	trace_flt_arrays(mac, matrix, names, 99);
}

static void seqs_call(size_t nvals, size_t nwords)
{
	static const int32_t vals[3] = { 10, 20, 30 };
	static const char *const words[2] = { "x", "yy" };

	trace_flt_seqs(nvals, vals, nwords, words, -1);
}

static void structs_std(void)
{
	static const struct flt_point origin = { 3, -2 };
	static const struct flt_structs_box box = {
		"boxname", { { 1, 2 }, { -3, 4 } }, 0xA0B0C0D0u,
	};

	trace_flt_structs(&origin, &box, 5);
}

static void variants_num(void)
{
	union flt_variants_value v;

	v.NUM = -5;
	trace_flt_variants(1, FLT_KIND_NUM, &v, 9);
}

static void variants_text(void)
{
	union flt_variants_value v;

	v.TEXT = "tt";
	trace_flt_variants(2, FLT_KIND_TEXT, &v, 9);
}

static void variants_pair(void)
{
	union flt_variants_value v;

	v.PAIR.x = 1;
	v.PAIR.y = 2;
	trace_flt_variants(3, FLT_KIND_PAIR, &v, 9);
}

/* ---- field types ---- */

START_TEST(integers)
{
	CHECK(1, ints, "i8 == -5", ints_std());
	CHECK(1, ints, "i8 < 0", ints_std());
	CHECK(0, ints, "i8 == 251", ints_std());
	CHECK(1, ints, "u8 == 250", ints_std());
	CHECK(1, ints, "u8 > 200", ints_std());
	CHECK(1, ints, "i16 == -300", ints_std());
	CHECK(1, ints, "u16 == 60000", ints_std());
	CHECK(1, ints, "i32 == -70000", ints_std());
	CHECK(1, ints, "u32 == 4000000000", ints_std());
	CHECK(1, ints, "u32 > 0x7fffffff", ints_std());
	CHECK(1, ints, "i64 == -9223372036854775808", ints_std());
	CHECK(1, ints, "i64 == 0x8000000000000000", ints_std());
	CHECK(1, ints, "i64 < -9223372036854775807", ints_std());
	CHECK(1, ints, "u64 == 0xffffffffffffffff", ints_std());
	CHECK(1, ints, "u64 == 18446744073709551615", ints_std());
	/* LTTng compares as int64: UINT64_MAX is -1, not above 0. */
	CHECK(1, ints, "u64 == -1", ints_std());
	CHECK(0, ints, "u64 > 0", ints_std());
	CHECK(1, ints, "be32 == -123456", ints_std());
	CHECK(1, ints, "be64 == 0x0102030405060708", ints_std());
	CHECK(1, ints, "be64 == 72623859790382856", ints_std());
	/* Octal, suffixes. */
	CHECK(1, ints, "u8 == 0372", ints_std());
	CHECK(1, ints, "u16 == 60000UL && u8 == 250u", ints_std());
	/* A field against another. */
	CHECK(1, ints, "i16 < i8", ints_std());
	CHECK(1, ints, "u8 > i8 && u32 > u16", ints_std());
	CHECK(1, ints, "i8 + 5 == 0", ints_std());
}
END_TEST

START_TEST(floats)
{
	CHECK(1, floats, "f == 1.5", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f > 1", trace_flt_floats(1.5f, -2.25));
	CHECK(0, floats, "f > 2", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "d == -2.25", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "d < -2 && d > -3", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f + d == -0.75", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f * 2 == 3", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "d - f == -3.75", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f / 0 > 1e308", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "-d == 2.25", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f == 0x1.8p0", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "f == 1.5f && d == -225e-2", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "d != f", trace_flt_floats(1.5f, -2.25));
	CHECK(1, floats, "d <= -2.25 && f >= 1.5", trace_flt_floats(1.5f, -2.25));
	/* Truth of a float, as in C (LTTng truncates to an integer first). */
	CHECK(1, floats, "f && d", trace_flt_floats(0.5f, -2.25));
	CHECK(0, floats, "!f", trace_flt_floats(0.5f, -2.25));
	CHECK(1, floats, "!f", trace_flt_floats(0.0f, -2.25));
	CHECK(0, floats, "f || d", trace_flt_floats(0.0f, 0.0));
	/* NaN compares unequal to everything. */
	CHECK(1, floats, "d != d", trace_flt_floats(0.0f, __builtin_nan("")));
	CHECK(0, floats, "d == d", trace_flt_floats(0.0f, __builtin_nan("")));
}
END_TEST

START_TEST(strings)
{
	CHECK(1, text, "text == \"hello world\"", text_call("hello world", ""));
	CHECK(0, text, "text == \"hello\"", text_call("hello world", ""));
	CHECK(0, text, "text == \"hello world!\"", text_call("hello world", ""));
	CHECK(1, text, "text != \"hello\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"hello*\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"*world\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"*lo w*\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"h*o*d\"", text_call("hello world", ""));
	CHECK(0, text, "text == \"h*x*d\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"h**d\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"*\"", text_call("hello world", ""));
	CHECK(0, text, "text != \"*\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"hello world*\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"*hello world\"", text_call("hello world", ""));
	CHECK(0, text, "text == \"*o*o*o*\"", text_call("hello world", ""));
	CHECK(1, text, "text == \"*o*o*\"", text_call("hello world", ""));
	CHECK(1, text, "\"hello*\" == text", text_call("hello world", ""));
	CHECK(1, text, "text == 'hello*'", text_call("hello world", ""));
	/* \* is a star; without it, a star in the data is just a byte. */
	CHECK(1, text, "other == \"a\\*b\"", text_call("", "a*b"));
	CHECK(1, text, "other == \"a*b\"", text_call("", "a*b"));
	CHECK(0, text, "other == \"a\\*b\"", text_call("", "axb"));
	CHECK(1, text, "other == \"a\\\\b\"", text_call("", "a\\b"));
	CHECK(1, text, "other == \"say \\\"hi\\\"\"", text_call("", "say \"hi\""));
	/* Empty strings and NULL, recorded as "(null)". */
	CHECK(1, text, "text == \"\"", text_call("", "x"));
	CHECK(1, text, "text == \"*\"", text_call("", "x"));
	CHECK(0, text, "text == \"a*\"", text_call("", "x"));
	CHECK(1, text, "text == \"(null)\"", text_call(NULL, "x"));
	/* Two strings of the event: compared byte for byte, no wildcard. */
	CHECK(1, text, "text == other", text_call("same", "same"));
	CHECK(0, text, "text == other", text_call("a*", "abc"));
	CHECK(1, text, "text != other", text_call("a*", "abc"));
	/* Fields after strings. */
	CHECK(1, text, "after == 42 && count == 7", text_call("hello", "x"));
	CHECK(1, text, "other == \"tail\" && after == 42", text_call("hello", "tail"));
	/* Bytes above 0x7f. */
	CHECK(1, text, "text == \"caf\xc3\xa9*\"", text_call("caf\xc3\xa9 au lait", ""));
	/* Constant strings fold. */
	CHECK(1, text, "\"abc\" == \"a*\"", text_call("", ""));
	CHECK(0, text, "\"abc\" != \"a*\"", text_call("", ""));
}
END_TEST

/*
 * A string that ends where its page ends, the next page inaccessible: a
 * read one byte past its NUL faults.  Unmapped by the caller.
 */
static char *at_page_end(const char *str, void **map, size_t *map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = strlen(str) + 1;
	size_t pages = (len + page - 1) / page + 1;
	char *m = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mprotect(m + (pages - 1) * page, page, PROT_NONE), 0);
	*map = m;
	*map_len = pages * page;
	return memcpy(m + (pages - 1) * page - len, str, len);
}

/*
 * CHECK, where the decision must be taken on the string not measured
 * (UST_SEG_CSTR: the probe hands it to libust's gated path before its
 * strlen(), harness.c checks it against the program on the measured
 * payload), on `text` placed at the end of its page.
 */
#define CHECK_CSTR(want, expr, str) do {				\
		void *map_;						\
		size_t map_len_;					\
		unsigned int before_ = harness_cstr_decided;		\
		char *s_ = at_page_end(str, &map_, &map_len_);		\
									\
		CHECK(want, text, expr, text_call(s_, "x"));		\
		ck_assert_uint_eq(harness_cstr_decided, before_ + 1);	\
		munmap(map_, map_len_);					\
	} while (0)

START_TEST(strings_not_measured)
{
	char *long_str = malloc(100001);

	ck_assert_ptr_nonnull(long_str);
	memset(long_str, 'a', 100000);
	long_str[100000] = '\0';
	long_str[50000] = 'z';
	/* A prefix: compared byte by byte up to the first difference. */
	CHECK_CSTR(1, "text == \"hello*\"", "hello world");
	CHECK_CSTR(0, "text == \"hello*\"", "hell");
	CHECK_CSTR(1, "text != \"xyz*\"", "hello");
	CHECK_CSTR(0, "text == \"0123456789abcdefghij*\"", "0123456789abc");
	CHECK_CSTR(1, "text == \"0123456789abcdefghij*\"", "0123456789abcdefghij");
	/* Pieces after the first: found with strstr(). */
	CHECK_CSTR(1, "text == \"*lo w*\"", "hello world");
	CHECK_CSTR(0, "text == \"*zz*\"", "hello world");
	CHECK_CSTR(1, "text == \"*zz*\"", "hello wozz");
	CHECK_CSTR(1, "text == \"he*o*o*\"", "hello world");
	CHECK_CSTR(0, "text == \"he*o*o*o*\"", "hello world");
	CHECK_CSTR(1, "text == \"*o**r*\"", "hello world");
	/* Patterns with bytes after their last star, or none: measured. */
	CHECK_CSTR(1, "text == \"h*o*d\"", "hello world");
	CHECK_CSTR(0, "text == \"hello\"", "hello world");
	CHECK_CSTR(1, "text == \"hello world\"", "hello world");
	/* The empty string. */
	CHECK_CSTR(1, "text == \"*\"", "");
	CHECK_CSTR(1, "text == \"\"", "");
	CHECK_CSTR(0, "text == \"a*\"", "");
	CHECK_CSTR(0, "text == \"*a*\"", "");
	CHECK_CSTR(1, "text != \"*a*\"", "");
	/* A long string, the piece in its middle or nowhere. */
	CHECK_CSTR(1, "text == \"aaa*z*\"", long_str);
	CHECK_CSTR(0, "text == \"*zz*\"", long_str);
	CHECK_CSTR(1, "text == \"*a\"", long_str);
	/* Not at a fixed offset (after a string): the interpreter decides. */
	CHECK(1, text, "other == \"ta*\"", text_call("hello", "tail"));
	free(long_str);
}
END_TEST

START_TEST(enums)
{
	CHECK(1, enums, "s == 1", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(1, enums, "s == \"BUSY\"", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(0, enums, "s == \"IDLE\"", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(1, enums, "s != \"IDLE\"", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(1, enums, "\"BUSY\" == s", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(1, enums, "s == \"B*\"", trace_flt_enums(FLT_STATE_BUSY, FLT_DELTA_DOWN));
	CHECK(1, enums, "s == \"B*\"", trace_flt_enums(FLT_STATE_BLOCKED, FLT_DELTA_DOWN));
	CHECK(0, enums, "s == \"B*\"", trace_flt_enums(FLT_STATE_DEAD, FLT_DELTA_DOWN));
	CHECK(1, enums, "s == \"DEAD\" && s == 255", trace_flt_enums(FLT_STATE_DEAD, FLT_DELTA_DOWN));
	CHECK(1, enums, "d == \"down\" && d == -1 && d < 0", trace_flt_enums(FLT_STATE_IDLE, FLT_DELTA_DOWN));
	CHECK(1, enums, "d == \"up\"", trace_flt_enums(FLT_STATE_IDLE, FLT_DELTA_UP));
	CHECK(1, enums, "s < d + 2", trace_flt_enums(FLT_STATE_IDLE, FLT_DELTA_SAME));
}
END_TEST

START_TEST(arrays)
{
	CHECK(1, arrays, "mac[0] == 0 && mac[5] == 255", arrays_std());
	CHECK(1, arrays, "mac[5] == 0xff", arrays_std());
	CHECK(1, arrays, "matrix[0][1] == 2", arrays_std());
	CHECK(1, arrays, "matrix[1][2] == -6", arrays_std());
	CHECK(1, arrays, "names[0] == \"a\"", arrays_std());
	CHECK(1, arrays, "names[1] == \"bb\"", arrays_std());
	CHECK(1, arrays, "names[2] == \"c*\"", arrays_std());
	CHECK(1, arrays, "tail == 99", arrays_std());
}
END_TEST

START_TEST(sequences)
{
	CHECK(1, seqs, "vals[0] == 10", seqs_call(3, 2));
	CHECK(1, seqs, "vals[2] == 30", seqs_call(3, 2));
	CHECK(1, seqs, "words[0] == \"x\" && words[1] == \"yy\"", seqs_call(3, 2));
	CHECK(1, seqs, "tail == -1", seqs_call(3, 2));
	CHECK(1, seqs, "tail == -1", seqs_call(0, 0));
	/* Past the end: the whole expression is false, as in LTTng. */
	CHECK(0, seqs, "vals[3] == 0", seqs_call(3, 2));
	CHECK(0, seqs, "vals[3] != 0", seqs_call(3, 2));
	CHECK(0, seqs, "!(vals[3] == 0)", seqs_call(3, 2));
	CHECK(0, seqs, "words[2] == \"*\"", seqs_call(3, 2));
	CHECK(0, seqs, "vals[0] == 10", seqs_call(0, 2));
	CHECK(1, seqs, "vals[0] == 10", seqs_call(1, 0));
	/* Short circuit decides whether the failing side runs at all. */
	CHECK(1, seqs, "tail == -1 || vals[7] == 1", seqs_call(3, 2));
	CHECK(0, seqs, "vals[7] == 1 || tail == -1", seqs_call(3, 2));
	CHECK(0, seqs, "tail == 0 && vals[7] == 1", seqs_call(3, 2));
}
END_TEST

START_TEST(structs)
{
	CHECK(1, structs, "origin.x == 3 && origin.y == -2", structs_std());
	CHECK(1, structs, "box.name == \"box*\"", structs_std());
	CHECK(1, structs, "box.corners[0].x == 1 && box.corners[0].y == 2", structs_std());
	CHECK(1, structs, "box.corners[1].x == -3 && box.corners[1].y == 4", structs_std());
	CHECK(1, structs, "box.color == 0xA0B0C0D0", structs_std());
	CHECK(1, structs, "tail == 5", structs_std());
}
END_TEST

START_TEST(variants)
{
	CHECK(1, variants, "value.NUM == -5", variants_num());
	CHECK(1, variants, "kind == \"NUM\" && tail == 9", variants_num());
	/* An option the tag does not select does not exist: false. */
	CHECK(0, variants, "value.TEXT == \"*\"", variants_num());
	CHECK(0, variants, "value.TEXT == \"*\" || id == 1", variants_num());
	CHECK(1, variants, "id == 1 || value.TEXT == \"*\"", variants_num());
	CHECK(1, variants, "value.TEXT == \"t*\" && tail == 9", variants_text());
	CHECK(0, variants, "value.NUM == 0", variants_text());
	CHECK(1, variants, "value.PAIR.x == 1 && value.PAIR.y == 2 && tail == 9",
	      variants_pair());
	CHECK(1, variants, "kind == 7 && id == 3", variants_pair());
}
END_TEST

START_TEST(contexts)
{
	CHECK(1, empty, "$ctx.vtid == 1234", trace_flt_empty());
	CHECK(1, empty, "$ctx.vpid == 1200", trace_flt_empty());
	CHECK(1, empty, "$ctx.cpu_id == 1", trace_flt_empty());
	CHECK(1, empty, "$ctx.procname == \"harn*\"", trace_flt_empty());
	CHECK(0, empty, "$ctx.procname == \"other\"", trace_flt_empty());
	CHECK(1, text, "$ctx.procname != text", text_call("x", ""));
	CHECK(1, empty, "1", trace_flt_empty());
	CHECK(0, empty, "0", trace_flt_empty());
}
END_TEST

/* ---- operators ---- */

START_TEST(precedence)
{
	/* LTTng's table: & ^ | bind tighter than comparisons. */
	CHECK(1, empty, "2 & 2 == 2", trace_flt_empty());
	CHECK(1, ints, "i32 & 1 == 0", ints_std());
	CHECK(1, ints, "u8 & 0xf0 == 0xf0", ints_std());
	CHECK(1, ints, "(1 | 2 ^ 3 & 4) == 3", ints_std());
	CHECK(1, ints, "u8 | 2 ^ 3 & 4 == 250", ints_std());
	CHECK(1, ints, "1 + 2 << 1 == 6", ints_std());
	CHECK(1, ints, "1 << 2 + 1 == 8", ints_std());
	CHECK(1, ints, "2 + 3 * 4 == 14 && (2 + 3) * 4 == 20", ints_std());
	CHECK(1, ints, "10 - 4 - 3 == 3 && 100 / 10 / 5 == 2", ints_std());
	CHECK(1, ints, "7 % 4 * 2 == 6", ints_std());
	CHECK(1, ints, "i8 < 0 == 1", ints_std());
	CHECK(1, ints, "1 < 2 == 2 > 1", ints_std());
	CHECK(1, ints, "0 && 0 || 1", ints_std());
	CHECK(0, ints, "0 && (0 || 1)", ints_std());
	CHECK(1, ints, "1 || 0 && 0", ints_std());
	/* Unary operators, right to left. */
	CHECK(1, ints, "- -i8 == -5 && -i8 * 2 == 10", ints_std());
	CHECK(1, ints, "!!i8 == 1 && !i8 == 0", ints_std());
	CHECK(1, ints, "~0 == -1 && ~i8 == 4", ints_std());
	CHECK(1, ints, "-~i8 == -4 && +i8 == -5", ints_std());
	/* The one LTTng gets wrong: !(x & 1) discards every event there. */
	CHECK(1, ints, "!(u8 & 1)", ints_std());
	CHECK(0, ints, "!(i8 & 1)", ints_std());
	/* && and || give 0 or 1. */
	CHECK(1, ints, "(u8 && i8) == 1 && (0 || u16) == 1", ints_std());
	/* Comments, white space. */
	CHECK(1, ints, " /* c */ i8 // the rest\n == -5", ints_std());
}
END_TEST

/* The reference semantics, written independently of interp.c. */
static int ref_int(const char *op, int64_t a, int64_t b, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	if (!strcmp(op, "+")) *r = (int64_t)(ua + ub);
	else if (!strcmp(op, "-")) *r = (int64_t)(ua - ub);
	else if (!strcmp(op, "*")) *r = (int64_t)(ua * ub);
	else if (!strcmp(op, "/") || !strcmp(op, "%")) {
		if (b == 0 || (a == INT64_MIN && b == -1))
			return -1;
		*r = op[0] == '/' ? a / b : a % b;
	} else if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
		if (b < 0 || b > 63)
			return -1;
		*r = (int64_t)(op[0] == '<' ? ua << b : ua >> b);
	}
	else if (!strcmp(op, "&")) *r = (int64_t)(ua & ub);
	else if (!strcmp(op, "|")) *r = (int64_t)(ua | ub);
	else if (!strcmp(op, "^")) *r = (int64_t)(ua ^ ub);
	else if (!strcmp(op, "<")) *r = a < b;
	else if (!strcmp(op, "<=")) *r = a <= b;
	else if (!strcmp(op, ">")) *r = a > b;
	else if (!strcmp(op, ">=")) *r = a >= b;
	else if (!strcmp(op, "==")) *r = a == b;
	else if (!strcmp(op, "!=")) *r = a != b;
	else if (!strcmp(op, "&&")) *r = a && b;
	else *r = a || b;	/* || */
	return 0;
}

static const char *const int_ops[] = {
	"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
	"<", "<=", ">", ">=", "==", "!=", "&&", "||",
};

static const int64_t int_values[] = {
	0, 1, -1, 2, 7, -7, 63, 64, -64, 1000003, INT64_MAX, INT64_MIN,
	0x5555555555555555ll,
};

/*
 * Every integer operator on every pair of values, at run time (two
 * fields) and folded (two constants): the result the reference gives, or
 * a discarded event (a compile error when folded) where it fails.
 */
START_TEST(integer_operators)
{
	size_t o, i, j;
	char expr[160], err[FILTER_ERROR_MAX + 32];

	for (o = 0; o < sizeof(int_ops) / sizeof(int_ops[0]); o++) {
		for (i = 0; i < sizeof(int_values) / sizeof(int_values[0]); i++) {
			for (j = 0; j < sizeof(int_values) / sizeof(int_values[0]); j++) {
				int64_t a = int_values[i], b = int_values[j], r = 0;
				int fails = ref_int(int_ops[o], a, b, &r) != 0;
				int folded;

				snprintf(expr, sizeof(expr), "(i64 %s u64) == 0x%" PRIx64,
					 int_ops[o], (uint64_t)r);
				CHECK(!fails, ints, expr, ints_pair(a, (uint64_t)b));
				snprintf(expr, sizeof(expr), "(i64 %s u64) != 0x%" PRIx64,
					 int_ops[o], (uint64_t)r);
				CHECK(0, ints, expr, ints_pair(a, (uint64_t)b));
				snprintf(expr, sizeof(expr), "(0x%" PRIx64 " %s 0x%" PRIx64 ") == 0x%" PRIx64,
					 (uint64_t)a, int_ops[o], (uint64_t)b, (uint64_t)r);
				folded = harness_set(expr, &__ust_event_flt_empty, err, sizeof(err));
				ck_assert_msg(folded == -fails, "%s: %s", expr, err);
				if (!fails) {
					trace_flt_empty();
					ck_assert_msg(harness_result == 1, "%s folded wrong", expr);
				}
			}
		}
	}
}
END_TEST

/*
 * A field against a constant, the program that runs without the
 * interpreter (the harness checks that the interpreter agrees): every
 * integer field, every comparison and `&`, on the values above.
 */
START_TEST(field_against_constant)
{
	static const char *const fields[] = {
		"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "be32", "be64",
	};
	static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=", "&" };
	size_t f, o, i, j;
	char expr[96];

	for (i = 0; i < sizeof(int_values) / sizeof(int_values[0]); i++) {
		int64_t v = int_values[i];
		/* Each field's value as a filter sees it: extended to 64 bits. */
		const int64_t seen[] = {
			(int8_t)v, (uint8_t)v, (int16_t)v, (uint16_t)v, (int32_t)v,
			(uint32_t)v, v, v, (int32_t)v, v,
		};

		for (f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
				for (j = 0; j < sizeof(int_values) / sizeof(int_values[0]); j++) {
					int64_t k = int_values[j], r = 0;

					ref_int(ops[o], seen[f], k, &r);
					snprintf(expr, sizeof(expr), "%s %s 0x%" PRIx64,
						 fields[f], ops[o], (uint64_t)k);
					CHECK(r != 0, ints, expr,
					      trace_flt_ints((int8_t)v, (uint8_t)v, (int16_t)v,
							     (uint16_t)v, (int32_t)v,
							     (uint32_t)v, v, (uint64_t)v,
							     (int32_t)v, (uint64_t)v));
				}
			}
		}
	}
}
END_TEST

/*
 * The same on payloads of 8 bytes at most, which the probes pass by
 * value: the harness checks the shape's decision on the value in a
 * register (ust_filter_int_k_keeps_word()) against the program's, for
 * fields at each offset, signed and not, and of 8 bytes.
 */
START_TEST(small_payloads)
{
	static const char *const fields[] = { "i8", "u16", "i32", "i64" };
	static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=", "&" };
	size_t f, o, i, j;
	char expr[96];

	for (i = 0; i < sizeof(int_values) / sizeof(int_values[0]); i++) {
		int64_t v = int_values[i];
		const int64_t seen[] = { (int8_t)v, (uint16_t)v, (int32_t)v, v };

		for (f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
				for (j = 0; j < sizeof(int_values) / sizeof(int_values[0]); j++) {
					int64_t k = int_values[j], r = 0;
					unsigned int before = harness_word_decided;

					ref_int(ops[o], seen[f], k, &r);
					snprintf(expr, sizeof(expr), "%s %s 0x%" PRIx64,
						 fields[f], ops[o], (uint64_t)k);
					if (f == 3)
						CHECK(r != 0, wide, expr, trace_flt_wide(v));
					else
						CHECK(r != 0, small, expr,
						      trace_flt_small((int8_t)v, (uint16_t)v,
								      (int32_t)v));
					ck_assert_uint_eq(harness_word_decided, before + 1);
				}
			}
		}
	}
}
END_TEST

/*
 * A prefix on a string that is the first field, not measured: one load of
 * the string's first 8 bytes when they are on its page
 * (ust_filter_cstr_prefix_word()).  The bytes past its NUL must not
 * count, at a page's end the bytes are compared one by one, and a
 * prefix past 8 bytes is never taken in one load.
 */
#define CHECK_MSG(want, expr, s) do {							unsigned int before_ = harness_cstr_decided;													CHECK(want, msg, expr, trace_flt_msg(s, 5));				ck_assert_uint_eq(harness_cstr_decided, before_ + 1);		} while (0)

START_TEST(prefix_in_one_load)
{
	/* Strings whose bytes past the NUL go on as the prefix would. */
	static const char ends[] = "01\0" "23456789";
	static const char eight[] = "0123456\0" "7";
	static const char full[] = "01234567";
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *heap;
	size_t at;

	CHECK_MSG(1, "msg == \"01*\"", ends);
	CHECK_MSG(0, "msg == \"012*\"", ends);
	CHECK_MSG(1, "msg != \"012*\"", ends);
	CHECK_MSG(0, "msg == \"0123*\"", ends);
	CHECK_MSG(1, "msg == \"0123456*\"", eight);
	CHECK_MSG(0, "msg == \"01234567*\"", eight);
	CHECK_MSG(1, "msg == \"01234567*\"", full);
	CHECK_MSG(0, "msg == \"012345678*\"", full);
	CHECK_MSG(1, "msg == \"0*\"", full);
	CHECK_MSG(0, "msg == \"1*\"", full);
	CHECK_MSG(1, "msg == \"*\"", "");
	CHECK_MSG(0, "msg == \"0*\"", "");
	CHECK_MSG(1, "msg != \"0*\"", "");
	/*
	 * A string in the last bytes of a heap block, not 8-byte aligned:
	 * valgrind reports a load past the block (validate.c, under it,
	 * keeps to the byte loop).
	 */
	heap = strdup("x01");
	ck_assert_ptr_nonnull(heap);
	CHECK_MSG(0, "msg == \"0123*\"", heap + 1);
	CHECK_MSG(1, "msg == \"01*\"", heap + 1);
	free(heap);
	/* "01234567" and its NUL at each place of a page's last 16 bytes. */
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mprotect(m + page, page, PROT_NONE), 0);
	for (at = page - 16; at + sizeof(full) <= page; at++) {
		memset(m + page - 16, '0', 16);
		memcpy(m + at, full, sizeof(full));
		CHECK_MSG(1, "msg == \"0123*\"", m + at);
		CHECK_MSG(0, "msg == \"01234567x*\"", m + at);
		CHECK_MSG(1, "msg == \"01234567*\"", m + at);
		CHECK_MSG(0, "msg == \"0124*\"", m + at);
		m[at + 2] = '\0';
		CHECK_MSG(0, "msg == \"0123*\"", m + at);
		CHECK_MSG(1, "msg == \"01*\"", m + at);
	}
	munmap(m, 2 * page);
}
END_TEST

/* Doubles against integers: the integer becomes a double. */
START_TEST(mixed_numbers)
{
	CHECK(1, ints, "i8 == -5.0 && i8 < -4.5 && i8 > -5.5", ints_std());
	CHECK(1, ints, "i8 + 0.5 == -4.5", ints_std());
	CHECK(1, ints, "u8 / 4.0 == 62.5", ints_std());
	CHECK(1, floats, "f * 2 == 3 && 3 == f * 2", trace_flt_floats(1.5f, 0));
	CHECK(1, floats, "f > 1 && f < 2", trace_flt_floats(1.5f, 0));
	CHECK(1, floats, "d == 1e100", trace_flt_floats(0, 1e100));
	CHECK(1, floats, "1 / 2.0 == 0.5 && 1 / 2 == 0", trace_flt_floats(0, 0));
}
END_TEST

/* ---- the programs ---- */

static int nr_insns(const char *expr, const struct ust_event_desc *d)
{
	struct filter_event ev;
	struct filter_error err;
	struct filter_program p;
	struct filter_expr *e = filter_parse(expr, &err);
	const struct ust_filter_header *h;
	int n;

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(harness_event(d, &ev, &err), 0);
	ck_assert_int_eq(filter_compile(e, &ev, &p, &err), 0);
	h = (const struct ust_filter_header *)p.bytes;
	ck_assert_uint_eq(h->magic, UST_FILTER_MAGIC);
	ck_assert(h->signature == ust_filter_signature(d->tsdl_fields, d->layout));
	n = h->nr_insns;
	filter_program_free(&p);
	filter_event_release(&ev);
	filter_expr_free(e);
	return n;
}

static char *disasm(const char *expr, const struct ust_event_desc *d)
{
	struct filter_event ev;
	struct filter_error err;
	struct filter_program p;
	struct filter_expr *e = filter_parse(expr, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(harness_event(d, &ev, &err), 0);
	ck_assert_int_eq(filter_compile(e, &ev, &p, &err), 0);
	filter_disasm(p.bytes, p.size, out);
	fclose(out);
	filter_program_free(&p);
	filter_event_release(&ev);
	filter_expr_free(e);
	return text;
}

#define DISASM_IS(ev, expr, text) do {					\
		char *got = disasm(expr, &__ust_event_flt_##ev);	\
		ck_assert_str_eq(got, text);				\
		free(got);						\
	} while (0)

START_TEST(programs)
{
	/* A field at a fixed offset: one load, no position instruction. */
	DISASM_IS(text, "count > 10", "  0  FIELD_GT_K s32 @0 10\n  1  RET\n");
	DISASM_IS(text, "10 < count", "  0  FIELD_GT_K s32 @0 10\n  1  RET\n");
	DISASM_IS(text, "count + 1 > 10",
		  "  0  LOAD_INT s32 @0\n  1  INT 1\n  2  ADD\n  3  GT_K 10\n  4  RET\n");
	DISASM_IS(text, "text == \"hel*\"",
		  "  0  LOAD_STR @4\n  1  STR_MATCH \"hel*\"\n  2  RET\n");
	/* After a string: one skip. */
	DISASM_IS(text, "after == 1",
		  "  0  POS @4\n  1  SKIP_STR\n  2  FIELD_EQ_K u32 @P+0 1\n"
		  "  3  RET\n");
	DISASM_IS(ints, "be64 == 1", "  0  FIELD_EQ_K u64be @34 1\n  1  RET\n");
	DISASM_IS(seqs, "tail == 1",
		  "  0  POS @0\n  1  SKIP \"Q1[F4] Q2[S]\"\n  2  FIELD_EQ_K s32 @P+0 1\n"
		  "  3  RET\n");
	DISASM_IS(seqs, "vals[2] == 1",
		  "  0  POS @0\n  1  SEQ_INDEX u8 [2]\n  2  FIELD_EQ_K s32 @P+8 1\n"
		  "  3  RET\n");
	DISASM_IS(variants, "value.PAIR.y == 3",
		  "  0  TAG_IS u16 @4 == 7\n  1  FIELD_EQ_K s16be @8 3\n  2  RET\n");
	DISASM_IS(enums, "s == \"B*\"",
		  "  0  LOAD_INT u8 @0\n  1  IN_RANGES 1 2\n  2  RET\n");
	DISASM_IS(text, "count > 1 && text == \"a\" || $ctx.vtid == 3",
		  "  0  FIELD_GT_K s32 @0 1\n  1  AND -> 4\n"
		  "  2  LOAD_STR @4\n  3  STR_MATCH \"a\"\n  4  OR -> 7\n"
		  "  5  CTX_INT vtid\n  6  EQ_K 3\n  7  RET\n");
	/* A comparison whose left side holds a jump: not fused. */
	DISASM_IS(ints, "(i8 && u8) == 1",
		  "  0  LOAD_INT s8 @0\n  1  AND -> 4\n  2  LOAD_INT u8 @1\n"
		  "  3  BOOL\n  4  EQ_K 1\n  5  RET\n");
	/* Constants fold, equal constants share a slot. */
	ck_assert_int_eq(nr_insns("(1 + 2) * 3 == 9", &__ust_event_flt_empty), 2);
	ck_assert_int_eq(nr_insns("i8 > 2 + 3", &__ust_event_flt_ints), 2);
	DISASM_IS(floats, "d > 1 && f < 1.0",
		  "  0  LOAD_DBL f64 @4\n  1  DBL 1\n  2  GT_D\n  3  AND -> 7\n"
		  "  4  LOAD_DBL f32 @0\n  5  DBL 1\n  6  LT_D\n  7  RET\n");
	/* The right side of && is made 0 or 1 unless it is a condition. */
	DISASM_IS(ints, "i8 && u8",
		  "  0  LOAD_INT s8 @0\n  1  AND -> 4\n  2  LOAD_INT u8 @1\n"
		  "  3  BOOL\n  4  RET\n");
}
END_TEST

/* Every event of every tpgen test facility: its fields give its layout. */
START_TEST(layouts)
{
	unsigned int p, i, events = 0;

	ck_assert_uint_ge(harness_nr_providers, 3);
	for (p = 0; p < harness_nr_providers; p++) {
		const struct ust_provider *prov = harness_providers[p];

		for (i = 0; i < prov->nr_events; i++) {
			const struct ust_event_desc *d = prov->events[i];
			struct filter_event ev;
			struct filter_error err;
			char name[128];

			snprintf(name, sizeof(name), "%s:%s", prov->facility, d->name);
			ck_assert_msg(filter_event_init(&ev, name, d->layout,
							d->tsdl_fields, &err) == 0,
				      "%s: %s", name, err.msg);
			filter_event_release(&ev);
			events++;
		}
	}
	ck_assert_uint_ge(events, 20);
}
END_TEST

/* ---- errors ---- */

START_TEST(syntax_errors)
{
	ERROR_IS(text, "", "empty expression");
	ERROR_IS(text, "  ", "empty expression");
	ERROR_IS(text, "count >", "column 8: expected a value, found the end of the expression");
	ERROR_IS(text, "count > 1 )", "column 11: expected an operator, found ')'");
	ERROR_IS(text, "(count > 1", "column 11: expected ')' to close the '(' of column 1, found the end of the expression");
	ERROR_IS(text, "count count", "column 7: expected an operator, found 'count'");
	ERROR_IS(text, "count = 1", "column 7: expected an operator, found '='");
	ERROR_IS(text, "count > #", "column 9: expected a value, found '#'");
	ERROR_IS(text, "text == \"abc", "column 9: unterminated string");
	ERROR_IS(text, "text == \"a\\nb\"", "column 11: unsupported escape '\\n' in a string (\\* is a star, \\\\ a backslash)");
	ERROR_IS(text, "count /* x", "column 7: unterminated comment");
	ERROR_IS(text, "count == 09", "column 10: invalid octal constant '09'");
	ERROR_IS(text, "count == 0x", "column 10: invalid number '0x'");
	ERROR_IS(text, "count == 1uu", "column 10: invalid integer suffix in '1uu'");
	ERROR_IS(text, "count == 99999999999999999999", "column 10: integer constant '99999999999999999999' is too large (more than 64 bits)");
	ERROR_IS(text, "count == 1.5.2", "column 10: invalid floating-point constant '1.5.2'");
	ERROR_IS(text, "count[x] == 1", "column 7: expected an index (a non-negative integer constant), found 'x'");
	ERROR_IS(text, "count[-1] == 1", "column 7: expected an index (a non-negative integer constant), found '-'");
	ERROR_IS(text, "count[1 == 1", "column 9: expected ']', found '=='");
	ERROR_IS(text, "count. == 1", "column 8: expected a member name after '.', found '=='");
	ERROR_IS(text, "count->x == 1", "column 6: '->' is not supported: write '.' for a member");
	ERROR_IS(text, "$app.p:c == 1", "column 1: application contexts ($app.) are not supported by ust");
	ERROR_IS(text, "$foo == 1", "column 1: unknown '$foo': context fields are $ctx.NAME");
	ERROR_IS(text, "$ctx == 1", "column 6: expected '.' after $ctx, found '=='");
}
END_TEST

START_TEST(type_errors)
{
	/* The issue's example, on flt:text. */
	ERROR_IS(text, "cnt > 10", "column 1: unknown field 'cnt' in flt:text; fields are count, text, after, other");
	ERROR_IS(text, "count > 1 && cnt", "column 14: unknown field 'cnt' in flt:text; fields are count, text, after, other");
	ERROR_IS(empty, "x == 1", "column 1: unknown field 'x' in flt:empty, which has no fields");
	ERROR_IS(seqs, "vals_length == 1", "column 1: unknown field 'vals_length' in flt:seqs; fields are vals, words, tail");
	ERROR_IS(text, "$ctx.pid == 1", "column 1: unknown context field '$ctx.pid'; ust has $ctx.cpu_id, $ctx.procname, $ctx.vpid, $ctx.vtid");
	ERROR_IS(text, "text", "column 1: the filter is a string, not a condition: compare it (as name == \"abc*\")");
	ERROR_IS(floats, "f", "column 1: the filter is a float, not a condition: compare it (as x > 0.5)");
	ERROR_IS(text, "text < \"a\"", "column 6: '<' cannot compare strings: only == and != do");
	ERROR_IS(text, "count == \"7\"", "column 7: '==' cannot compare an integer with a string");
	ERROR_IS(text, "text + 1 > 0", "column 6: '+' needs numbers, not a string");
	ERROR_IS(text, "!text", "column 1: '!' needs a number, not a string");
	ERROR_IS(text, "-text == 1", "column 1: '-' needs a number, not a string");
	ERROR_IS(floats, "~f == 1", "column 1: '~' needs an integer, not a float");
	ERROR_IS(floats, "f & 1", "column 3: '&' needs integers, not a float");
	ERROR_IS(floats, "f % 2 == 1", "column 3: '%' needs integers, not a float");
	ERROR_IS(text, "text && count", "column 6: '&&' needs conditions or numbers, not a string");
	ERROR_IS(text, "\"a*\" == \"b*\"", "column 6: cannot compare two patterns");
	ERROR_IS(text, "count / 0 == 1 || 10 / 0", "column 22: division by zero");
	ERROR_IS(text, "count << 64 == 1", "column 7: shift count 64 is outside 0..63");
	ERROR_IS(text, "count >> -1 == 1", "column 7: shift count -1 is outside 0..63");
	ERROR_IS(text, "0x8000000000000000 / -1 == 1", "column 20: -9223372036854775808 / -1 overflows");
	/* Paths. */
	ERROR_IS(text, "count[0] == 1", "column 6: 'count' is an integer, not an array or a sequence: it has no elements");
	ERROR_IS(text, "count.x == 1", "column 7: 'count' is an integer: it has no member 'x'");
	ERROR_IS(arrays, "mac == 1", "column 1: 'mac' is an array: compare one of its elements, as mac[0]");
	ERROR_IS(arrays, "mac[6] == 1", "column 4: index 6 is out of the bounds of 'mac' (6 elements)");
	ERROR_IS(arrays, "matrix[1] == 1", "column 1: 'matrix[1]' is an array: compare one of its elements, as matrix[1][0]");
	ERROR_IS(seqs, "vals == 1", "column 1: 'vals' is a sequence: compare one of its elements, as vals[0]");
	ERROR_IS(structs, "origin == 1", "column 1: 'origin' is a struct: compare one of its members, as origin.x");
	ERROR_IS(structs, "box.nope == 1", "column 5: unknown member 'nope' of 'box' in flt:structs; members are name, corners, color");
	ERROR_IS(structs, "box.corners[2].x == 1", "column 12: index 2 is out of the bounds of 'box.corners' (2 elements)");
	ERROR_IS(variants, "value == 1", "column 1: 'value' is a variant: compare one of its options, as value.NUM");
	ERROR_IS(variants, "value.FOO == 1", "column 7: unknown option 'FOO' of variant 'value' in flt:variants; options are NUM, TEXT, PAIR");
	/* Enum labels. */
	ERROR_IS(enums, "s == \"BUSSY\"", "column 6: unknown label 'BUSSY' of enum field 's' in flt:enums; labels are IDLE, BUSY, BLOCKED, DEAD");
	ERROR_IS(enums, "s == \"Z*\"", "column 6: no label of enum field 's' in flt:enums matches 'Z*'; labels are IDLE, BUSY, BLOCKED, DEAD");
	ERROR_IS(enums, "s < \"BUSY\"", "column 3: '<' cannot compare an enum with a label: only == and != do");
}
END_TEST

/* Limits: deep nesting and long expressions are refused, not crashed on. */
START_TEST(limits)
{
	char *expr = malloc(200000);
	size_t n = 0, i;
	const char *err;

	ck_assert_ptr_nonnull(expr);
	for (i = 0; i < 20000; i++)
		expr[n++] = '(';
	strcpy(expr + n, "1");
	err = error_of(expr, &__ust_event_flt_empty);
	ck_assert_str_eq(err, "column 201: expression nested too deeply");
	/* 40 nested sums need more than 32 stack slots. */
	n = 0;
	for (i = 0; i < 40; i++)
		n += (size_t)sprintf(expr + n, "i8 + (");
	n += (size_t)sprintf(expr + n, "1");
	for (i = 0; i < 40; i++)
		expr[n++] = ')';
	strcpy(expr + n, " == 0");
	err = error_of(expr, &__ust_event_flt_ints);
	ck_assert_str_eq(err, "the expression is too deeply nested (it needs more than 32 stack slots)");
	/* 600 comparisons: more than 1024 instructions. */
	n = 0;
	for (i = 0; i < 600; i++)
		n += (size_t)sprintf(expr + n, "%si8 == %zu", i ? " || " : "", i);
	err = error_of(expr, &__ust_event_flt_ints);
	ck_assert_str_eq(err, "the expression is too long (more than 1024 instructions)");
	/* 200 in a row are fine, and run. */
	n = 0;
	for (i = 0; i < 200; i++)
		n += (size_t)sprintf(expr + n, "%si8 == %zu", i ? " || " : "", i + 300);
	strcpy(expr + n, " || i8 == -5");
	CHECK(1, ints, expr, ints_std());
	free(expr);
}
END_TEST

static Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("filter");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, integers);
	tcase_add_test(tc, floats);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, strings_not_measured);
	tcase_add_test(tc, enums);
	tcase_add_test(tc, arrays);
	tcase_add_test(tc, sequences);
	tcase_add_test(tc, structs);
	tcase_add_test(tc, variants);
	tcase_add_test(tc, contexts);
	tcase_add_test(tc, precedence);
	tcase_add_test(tc, integer_operators);
	tcase_add_test(tc, field_against_constant);
	tcase_add_test(tc, small_payloads);
	tcase_add_test(tc, prefix_in_one_load);
	tcase_add_test(tc, mixed_numbers);
	tcase_add_test(tc, programs);
	tcase_add_test(tc, layouts);
	tcase_add_test(tc, syntax_errors);
	tcase_add_test(tc, type_errors);
	tcase_add_test(tc, limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(filter_suite());
}
