/*
 * check_generated.c - run the code tpgen generates for tpt.xml and
 * other.xml, against the stand-in libust of mock-ust.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The golden files say what the code looks like; this says what it does:
 * the constructors register both providers with correct descriptors, a
 * disabled event writes nothing, an enabled one passes segments whose
 * bytes are the packed little-endian fields and whose total is the
 * payload size, strings end with a NUL that is not the caller's, and the
 * destructors unregister.
 */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check_run.h"
#include "mock-ust.h"
#include "other_tp.h"
#include "tpt_tp.h"
#include "types_tp.h"

/* Append `len` bytes of `v` (x86-64: little endian) to `buf`. */
static size_t put(unsigned char *buf, size_t off, const void *v, size_t len)
{
	memcpy(buf + off, v, len);
	return off + len;
}

/*
 * Walk a payload the way the consumer will, with the layout string:
 * "F<n>" skips n bytes, "S" skips past the first NUL.  Returns the size
 * found, or -1 when the payload is too short or the layout malformed.
 */
static long walk_layout(const char *layout, const unsigned char *p, size_t len)
{
	size_t off = 0;
	char *end;
	void *nul;

	while (*layout) {
		if (*layout == 'F') {
			off += strtoul(layout + 1, &end, 10);
			layout = end;
		} else if (*layout == 'S') {
			nul = memchr(p + off, 0, len > off ? len - off : 0);
			if (!nul)
				return -1;
			off = (size_t)((unsigned char *)nul - p) + 1;
			layout++;
		} else {
			return -1;
		}
		if (off > len)
			return -1;
		if (*layout == ' ')
			layout++;
	}
	return (long)off;
}

/* The last write's consistency: sizes agree and the layout walks it. */
static void check_last_write(struct ust_event_desc *event)
{
	ck_assert_ptr_eq(mock_last.event, event);
	ck_assert_uint_eq(mock_last.payload_size, mock_last.seg_total);
	ck_assert_int_eq(mock_last.truncated, 0);
	ck_assert_int_eq(walk_layout(event->layout, mock_last.payload,
				     mock_last.seg_total),
			 (long)mock_last.seg_total);
}

static void setup(void)
{
	mock_enable_all(1);
	mock_reset_writes();
}

START_TEST(test_providers_registered)
{
	struct ust_provider *tpt = mock_find_provider("tpt");
	struct ust_provider *other = mock_find_provider("other");

	ck_assert_uint_eq(mock_nr_providers, 3);
	ck_assert_ptr_nonnull(tpt);
	ck_assert_ptr_nonnull(other);
	ck_assert_uint_eq(tpt->struct_size, sizeof(struct ust_provider));
	ck_assert_uint_eq(tpt->abi_version, UST_ABI_VERSION);
	ck_assert_uint_eq(tpt->nr_events, 7);
	ck_assert_uint_eq(other->nr_events, 2);
	ck_assert_uint_eq(tpt->registered, 0);
	ck_assert_ptr_null(other->description);
	ck_assert_str_eq(tpt->description,
			 "Every type tpgen knows so far. Descriptions are free "
			 "text that must survive as C: \"quotes\", back\\slashes, "
			 "a comment end */ or start /*, trigraphs ?\?= ?\?/ and "
			 "UTF-8 (d\303\251j\303\240 vu) & entities.");
	ck_assert_ptr_eq(tpt->events[0], &__ust_event_tpt_signed_ints);
	ck_assert_ptr_eq(tpt->events[5], &__ust_event_tpt_one_string);
	ck_assert_ptr_eq(tpt->events[6], &__ust_event_tpt_small);
	ck_assert_ptr_eq(other->events[1], &__ust_event_other_empty);
}
END_TEST

START_TEST(test_descriptors)
{
	static const struct {
		struct ust_event_desc *desc;
		const char *name;
		int32_t loglevel;
		const char *layout;
	} expect[] = {
		{ &__ust_event_tpt_signed_ints, "signed_ints", 0, "F15" },
		{ &__ust_event_tpt_unsigned_ints, "unsigned_ints", 14, "F15" },
		{ &__ust_event_tpt_bases, "bases", 7, "F15" },
		{ &__ust_event_tpt_strings, "strings", -1, "S F3 S S F8" },
		{ &__ust_event_tpt_empty, "empty", -1, "" },
		{ &__ust_event_tpt_one_string, "one_string", 3, "S" },
		{ &__ust_event_other_strings, "strings", -1, "F4" },
		{ &__ust_event_other_empty, "empty", 2, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		const struct ust_event_desc *d = expect[i].desc;

		ck_assert_uint_eq(d->struct_size, sizeof(struct ust_event_desc));
		ck_assert_str_eq(d->name, expect[i].name);
		ck_assert_int_eq(d->loglevel, expect[i].loglevel);
		ck_assert_str_eq(d->layout, expect[i].layout);
		ck_assert_uint_eq(d->id, 0);
		ck_assert_ptr_null(d->priv);
	}
	ck_assert_str_eq(__ust_event_tpt_bases.tsdl_fields,
			 "integer { size = 32; align = 8; signed = false; encoding = none; base = 16; } _hex; "
			 "integer { size = 8; align = 8; signed = false; encoding = none; base = 2; } _bin; "
			 "integer { size = 16; align = 8; signed = true; encoding = none; base = 8; } _oct; "
			 "integer { size = 64; align = 8; signed = true; encoding = none; base = 10; } _dec;");
	ck_assert_str_eq(__ust_event_tpt_one_string.tsdl_fields, "string _msg;");
	ck_assert_str_eq(__ust_event_tpt_empty.tsdl_fields, "");
}
END_TEST

START_TEST(test_disabled_writes_nothing)
{
	mock_enable_all(0);
	trace_tpt_signed_ints(1, 2, 3, 4);
	trace_tpt_strings("a", 1, 2, "b", "c", 3);
	trace_tpt_empty();
	trace_other_strings(5);
	ck_assert_uint_eq(mock_nr_writes, 0);
}
END_TEST

START_TEST(test_signed_ints)
{
	int8_t s8 = -1;
	int16_t s16 = -2;
	int32_t s32 = INT32_MIN;
	int64_t s64 = INT64_MIN + 1;
	unsigned char expect[15];
	size_t off = 0;

	trace_tpt_signed_ints(s8, s16, s32, s64);
	ck_assert_uint_eq(mock_nr_writes, 1);
	check_last_write(&__ust_event_tpt_signed_ints);
	ck_assert_uint_eq(mock_last.nr_segs, 1);
	off = put(expect, off, &s8, 1);
	off = put(expect, off, &s16, 2);
	off = put(expect, off, &s32, 4);
	off = put(expect, off, &s64, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

START_TEST(test_unsigned_ints)
{
	uint8_t u8 = 0xfe;
	uint16_t u16 = 0xbeef;
	uint32_t u32 = 0xdeadbeef;
	uint64_t u64 = UINT64_MAX;
	unsigned char expect[15];
	size_t off = 0;

	trace_tpt_unsigned_ints(u8, u16, u32, u64);
	check_last_write(&__ust_event_tpt_unsigned_ints);
	off = put(expect, off, &u8, 1);
	off = put(expect, off, &u16, 2);
	off = put(expect, off, &u32, 4);
	off = put(expect, off, &u64, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

/*
 * trace_tpt_strings("ab", 0x1234, -5, "", NULL, ...): a NULL string is
 * recorded as "(null)", "" as one NUL.  Checks the last write's payload,
 * returns its size.
 */
static size_t check_strings_write(void)
{
	uint16_t count = 0x1234;
	int8_t flag = -5;
	uint64_t last = 0x1122334455667788u;
	unsigned char expect[64];
	size_t off = 0;

	trace_tpt_strings("ab", count, flag, "", NULL, last);
	check_last_write(&__ust_event_tpt_strings);
	ck_assert_uint_eq(mock_last.nr_segs, 8);
	off = put(expect, off, "ab", 3);
	off = put(expect, off, &count, 2);
	off = put(expect, off, &flag, 1);
	off = put(expect, off, "", 1);
	off = put(expect, off, "(null)", 7);
	off = put(expect, off, &last, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
	return off;
}

START_TEST(test_strings)
{
	check_strings_write();
	ck_assert_int_eq(mock_last.gated, 0);
	ck_assert_uint_eq(mock_last.segs[0].len, 2);
}
END_TEST

/*
 * With a filter (the gate word set), the probe hands its strings to
 * libust unmeasured (UST_SEG_CSTR) and the other segments' size; the
 * record is the same.  Without, it measures them itself (test_strings).
 */
START_TEST(test_strings_gated)
{
	__ust_event_tpt_strings.reserved = 1;
	check_strings_write();
	__ust_event_tpt_strings.reserved = 0;
	ck_assert_int_eq(mock_last.gated, 1);
	ck_assert_uint_eq(mock_last.segs[0].len, UST_SEG_CSTR);
	ck_assert_uint_eq(mock_last.segs[3].len, UST_SEG_CSTR);
	ck_assert_uint_eq(mock_last.segs[5].len, UST_SEG_CSTR);
	ck_assert_uint_eq(mock_last.known_size, 3 + 3 + 8);
}

/* The string's bytes come from the caller, its NUL from a constant. */
START_TEST(test_string_terminator_is_ours)
{
	static const char msg[] = "hello";

	trace_tpt_one_string(msg);
	check_last_write(&__ust_event_tpt_one_string);
	ck_assert_uint_eq(mock_last.nr_segs, 2);
	ck_assert_ptr_eq(mock_last.segs[0].ptr, msg);
	ck_assert_uint_eq(mock_last.segs[0].len, 5);
	ck_assert_ptr_ne(mock_last.segs[1].ptr, msg + 5);
	ck_assert_uint_eq(mock_last.segs[1].len, 1);
	ck_assert_int_eq(*(const char *)mock_last.segs[1].ptr, '\0');
}
END_TEST

START_TEST(test_empty_event)
{
	trace_tpt_empty();
	ck_assert_uint_eq(mock_nr_writes, 1);
	check_last_write(&__ust_event_tpt_empty);
	ck_assert_uint_eq(mock_last.nr_segs, 0);
	ck_assert_uint_eq(mock_last.payload_size, 0);
}
END_TEST

/*
 * Fixed-size fields of 8 bytes at most go by value
 * (ust_event_write_small()), in the same packed layout as a segment.
 */
START_TEST(test_small_by_value)
{
	uint16_t port = 0xbeef;
	int8_t delta = -3;
	uint32_t code = 0xc0ffee01u;
	unsigned char expect[7];
	size_t off = 0;

	trace_tpt_small(port, delta, code);
	ck_assert_uint_eq(mock_nr_writes, 1);
	check_last_write(&__ust_event_tpt_small);
	ck_assert_int_eq(mock_last.small, 1);
	ck_assert_uint_eq(mock_last.nr_segs, 1);
	off = put(expect, off, &port, 2);
	off = put(expect, off, &delta, 1);
	off = put(expect, off, &code, 4);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);

	/* 15 bytes of fields: segments, as before. */
	trace_tpt_signed_ints(1, 2, 3, 4);
	ck_assert_int_eq(mock_last.small, 0);
}
END_TEST

/* Same event names in two facilities: distinct descriptors and probes. */
START_TEST(test_two_facilities)
{
	int32_t value = 42;

	trace_other_strings(value);
	check_last_write(&__ust_event_other_strings);
	ck_assert_uint_eq(mock_last.payload_size, 4);
	ck_assert_mem_eq(mock_last.payload, &value, 4);

	trace_tpt_strings("x", 0, 0, "y", "z", 0);
	check_last_write(&__ust_event_tpt_strings);

	/* Enabling one event leaves its namesake in the other facility off. */
	mock_enable_all(0);
	mock_reset_writes();
	__ust_event_other_empty.enabled = 1;
	trace_tpt_empty();
	ck_assert_uint_eq(mock_nr_writes, 0);
	trace_other_empty();
	ck_assert_uint_eq(mock_nr_writes, 1);
	ck_assert_ptr_eq(mock_last.event, &__ust_event_other_empty);
}
END_TEST

/* Destructors run at exit: watch them from a child process. */
START_TEST(test_destructors_unregister)
{
	char buf[64] = "";
	ssize_t n, len = 0;
	int fds[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL);	/* the child's exit() must not repeat our output */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		mock_unregister_fd = fds[1];
		exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	buf[len] = '\0';
	/* Each once, in the reverse order of construction (link order). */
	ck_assert_uint_eq(strlen(buf), strlen("tpt\nother\ntypes\n"));
	ck_assert_ptr_nonnull(strstr(buf, "tpt\n"));
	ck_assert_ptr_nonnull(strstr(buf, "other\n"));
	ck_assert_ptr_nonnull(strstr(buf, "types\n"));
}
END_TEST

/* types.xml: the bytes each probe records, field by field. */

/* Append `len` bytes, given most significant first, in reverse (LE). */
static size_t put_le(unsigned char *buf, size_t off, uint64_t v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[off + i] = (unsigned char)(v >> (8 * i));
	return off + len;
}

static size_t put_be(unsigned char *buf, size_t off, uint64_t v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[off + i] = (unsigned char)(v >> (8 * (len - 1 - i)));
	return off + len;
}

/* The last write is one segment of exactly `len` bytes: `expect`. */
static void check_fixed_payload(struct ust_event_desc *event,
				const unsigned char *expect, size_t len)
{
	check_last_write(event);
	ck_assert_uint_eq(mock_last.nr_segs, 1);
	ck_assert_uint_eq(mock_last.payload_size, len);
	ck_assert_mem_eq(mock_last.payload, expect, len);
}

START_TEST(test_types_descriptors)
{
	ck_assert_str_eq(__ust_event_types_host_ints.layout, "F49");
	ck_assert_str_eq(__ust_event_types_floats.layout, "F12");
	ck_assert_str_eq(__ust_event_types_enums.layout, "F11");
	ck_assert_str_eq(__ust_event_types_byte_orders.layout, "F29");
	ck_assert_str_eq(__ust_event_types_arrays.layout, "F23");
	ck_assert_str_eq(__ust_event_types_structs.layout, "F17 S F36");
	ck_assert_int_eq(__ust_event_types_host_ints.loglevel, 5);
	ck_assert_str_eq(__ust_event_types_floats.tsdl_fields,
			 "floating_point { exp_dig = 8; mant_dig = 24; align = 8; } _f; "
			 "floating_point { exp_dig = 11; mant_dig = 53; align = 8; } _d;");
	ck_assert_int_eq(TYPES_STATE_DEAD, 255);
	ck_assert_int_eq(TYPES_DELTA_DOWN, -1);
	ck_assert_int_eq(TYPES_WIDE_LOW, INT_MIN);
}
END_TEST

/* Host sizes as the ABI check in the header guarantees: LP64. */
START_TEST(test_host_ints)
{
	unsigned char expect[49];
	size_t off = 0;
	const void *ptr = (const void *)(uintptr_t)0xfedcba9876543210u;

	trace_types_host_ints(INT_MIN, UINT_MAX, LONG_MIN, ULONG_MAX, SIZE_MAX,
			      -1, ptr, CHAR_MIN);
	off = put_le(expect, off, 0x80000000u, 4);
	off = put_le(expect, off, 0xffffffffu, 4);
	off = put_le(expect, off, 0x8000000000000000u, 8);
	off = put_le(expect, off, UINT64_MAX, 8);
	off = put_le(expect, off, UINT64_MAX, 8);
	off = put_le(expect, off, UINT64_MAX, 8);
	off = put_le(expect, off, 0xfedcba9876543210u, 8);
	off = put_le(expect, off, 0x80, 1);
	ck_assert_uint_eq(off, 49);
	check_fixed_payload(&__ust_event_types_host_ints, expect, off);
}
END_TEST

START_TEST(test_floats)
{
	float f = -FLT_MAX;
	double d = DBL_MIN;
	unsigned char expect[12];
	size_t off = 0;

	trace_types_floats(f, d);
	off = put(expect, off, &f, 4);
	off = put(expect, off, &d, 8);
	check_fixed_payload(&__ust_event_types_floats, expect, off);

	trace_types_floats((float)INFINITY, -0.0);
	off = put_le(expect, 0, 0x7f800000u, 4);
	off = put_le(expect, off, 0x8000000000000000u, 8);
	check_fixed_payload(&__ust_event_types_floats, expect, off);
}
END_TEST

/* Enum values at the enum's size: 1, 2 and 8 bytes, sign-extended. */
START_TEST(test_enums)
{
	unsigned char expect[11];
	size_t off = 0;

	trace_types_enums(TYPES_STATE_DEAD, TYPES_DELTA_DOWN, TYPES_WIDE_LOW);
	off = put_le(expect, off, 0xff, 1);
	off = put_le(expect, off, 0xffff, 2);
	off = put_le(expect, off, 0xffffffff80000000u, 8);
	check_fixed_payload(&__ust_event_types_enums, expect, off);

	trace_types_enums(TYPES_STATE_IDLE, TYPES_DELTA_UP, TYPES_WIDE_HIGH);
	off = put_le(expect, 0, 0, 1);
	off = put_le(expect, off, 1, 2);
	off = put_le(expect, off, 0x7fffffff, 8);
	check_fixed_payload(&__ust_event_types_enums, expect, off);
}
END_TEST

/* network/be fields are swapped in the probe, le and host ones are not. */
START_TEST(test_byte_orders)
{
	const void *ptr = (const void *)(uintptr_t)0x1122334455667788u;
	unsigned char expect[29];
	size_t off = 0;

	trace_types_byte_orders(0x1234, INT32_MIN, 0x0102030405060708u,
				0xdeadbeef, 0xbeef, 0xab, ptr);
	off = put_be(expect, off, 0x1234, 2);
	off = put_be(expect, off, 0x80000000u, 4);
	off = put_be(expect, off, 0x0102030405060708u, 8);
	off = put_le(expect, off, 0xdeadbeef, 4);
	off = put_le(expect, off, 0xbeef, 2);
	off = put_le(expect, off, 0xab, 1);
	off = put_be(expect, off, 0x1122334455667788u, 8);
	ck_assert_uint_eq(off, 29);
	check_fixed_payload(&__ust_event_types_byte_orders, expect, off);
	ck_assert_uint_eq(mock_last.payload[0], 0x12);
	ck_assert_uint_eq(mock_last.payload[2], 0x80);

	trace_types_byte_orders(UINT16_MAX, -1, UINT64_MAX, 0, 0, 0, NULL);
	memset(expect, 0xff, 14);
	memset(expect + 14, 0, 15);
	check_fixed_payload(&__ust_event_types_byte_orders, expect, 29);
}
END_TEST

START_TEST(test_arrays)
{
	static const uint8_t bytes[4] = { 1, 2, 3, 0xff };
	static const int16_t matrix[2][3] = { { 1, -1, INT16_MAX },
					      { INT16_MIN, 0, 2 } };
	static const enum types_state states[3] = {
		TYPES_STATE_IDLE, TYPES_STATE_BUSY, TYPES_STATE_DEAD,
	};
	static const uint16_t ports[2] = { 80, 0x1f90 };
	unsigned char expect[23];
	size_t off = 0, i;

	trace_types_arrays(bytes, matrix, states, ports);
	for (i = 0; i < 4; i++)
		off = put_le(expect, off, bytes[i], 1);
	off = put_le(expect, off, 1, 2);
	off = put_le(expect, off, 0xffff, 2);
	off = put_le(expect, off, 0x7fff, 2);
	off = put_le(expect, off, 0x8000, 2);
	off = put_le(expect, off, 0, 2);
	off = put_le(expect, off, 2, 2);
	off = put_le(expect, off, 0, 1);
	off = put_le(expect, off, 1, 1);
	off = put_le(expect, off, 0xff, 1);
	off = put_be(expect, off, 80, 2);
	off = put_be(expect, off, 0x1f90, 2);
	ck_assert_uint_eq(off, 23);
	check_fixed_payload(&__ust_event_types_arrays, expect, off);
}
END_TEST

/* NULL arrays and structs are recorded as zeros, NULL strings as "(null)". */
START_TEST(test_null_compounds)
{
	unsigned char zeros[36] = { 0 }, expect[64] = { 0 };

	trace_types_arrays(NULL, NULL, NULL, NULL);
	check_fixed_payload(&__ust_event_types_arrays, zeros, 23);

	trace_types_structs(NULL, NULL, -1, NULL, NULL, NULL);
	check_last_write(&__ust_event_types_structs);
	put_le(expect, 13, 0xffffffffu, 4);
	memcpy(expect + 17, "(null)", 7);
	ck_assert_uint_eq(mock_last.payload_size, 17 + 7 + 36);
	ck_assert_mem_eq(mock_last.payload, expect, 24);
	ck_assert_mem_eq(mock_last.payload + 24, zeros, 36);
}
END_TEST

/* C structs have natural alignment; the record packs their members. */
START_TEST(test_structs)
{
	struct types_point origin = { 1, -2 };
	struct types_segment seg = { { 3, 4 }, { INT16_MIN, INT16_MAX },
				     TYPES_STATE_BUSY };
	struct types_structs_box box = { { { 7, 8 }, { 9, 10 } }, 0xaabbccdd,
					 { 'a', 'b', 'c', 'd' } };
	struct types_structs_path path[2] = { { 1, 0.5 }, { UINT16_MAX, -2.0 } };
	unsigned char expect[80];
	size_t off = 0;
	double d;

	trace_types_structs(&origin, &seg, 42, "me", &box, path);
	off = put_le(expect, off, 1, 2);
	off = put_le(expect, off, 0xfffe, 2);
	off = put_le(expect, off, 3, 2);
	off = put_le(expect, off, 4, 2);
	off = put_le(expect, off, 0x8000, 2);
	off = put_le(expect, off, 0x7fff, 2);
	off = put_le(expect, off, 1, 1);
	off = put_le(expect, off, 42, 4);
	off = put(expect, off, "me", 3);
	off = put_le(expect, off, 7, 2);
	off = put_le(expect, off, 8, 2);
	off = put_le(expect, off, 9, 2);
	off = put_le(expect, off, 10, 2);
	off = put_be(expect, off, 0xaabbccdd, 4);
	off = put(expect, off, "abcd", 4);
	off = put_le(expect, off, 1, 2);
	d = 0.5;
	off = put(expect, off, &d, 8);
	off = put_le(expect, off, 0xffff, 2);
	d = -2.0;
	off = put(expect, off, &d, 8);
	ck_assert_uint_eq(off, 17 + 3 + 36);
	check_last_write(&__ust_event_types_structs);
	ck_assert_uint_eq(mock_last.nr_segs, 4);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "registration", NULL, NULL, 0, {
			test_providers_registered, test_descriptors,
			test_destructors_unregister, NULL } },
		{ "probes", setup, NULL, 0, {
			test_disabled_writes_nothing, test_signed_ints,
			test_unsigned_ints, test_strings,
			test_strings_gated,
			test_string_terminator_is_ours, test_empty_event,
			test_small_by_value, test_two_facilities, NULL } },
		{ "types", setup, NULL, 0, {
			test_types_descriptors, test_host_ints, test_floats,
			test_enums, test_byte_orders, test_arrays,
			test_null_compounds, test_structs, NULL } },
	};

	return CHECK_RUN_CASES("generated", cases);
}
