/*
 * check_compound.c - run the code tpgen generates for compound.xml
 * (sequences, variants, strings inside compound types) against the
 * stand-in libust of mock-ust.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each test records one event and compares the payload, byte for byte,
 * with the one it builds itself from the format of doc/tpgen.md; every
 * payload must also be walked to its exact end by the consumer's layout
 * walker (shm/layout.c) with the event's layout string.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "../check_run.h"
#include "compound_tp.h"
#include "mock-ust.h"
#include "shm/packet.h"

static unsigned char expect[MOCK_MAX_PAYLOAD];

static size_t put_le(size_t off, uint64_t v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		expect[off + i] = (unsigned char)(v >> (8 * i));
	return off + len;
}

static size_t put_be(size_t off, uint64_t v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		expect[off + i] = (unsigned char)(v >> (8 * (len - 1 - i)));
	return off + len;
}

static size_t put_str(size_t off, const char *s)
{
	memcpy(expect + off, s, strlen(s) + 1);
	return off + strlen(s) + 1;
}

/* The last write is `len` bytes of `expect`, and its layout walks it. */
static void check_payload(struct ust_event_desc *event, size_t len)
{
	ck_assert_ptr_eq(mock_last.event, event);
	ck_assert_int_eq(mock_last.truncated, 0);
	ck_assert_uint_eq(mock_last.payload_size, mock_last.seg_total);
	ck_assert_uint_eq(mock_last.seg_total, len);
	ck_assert_mem_eq(mock_last.payload, expect, len);
	ck_assert_int_eq(shm_layout_check(event->layout), 0);
	ck_assert_int_eq(shm_layout_payload_size(event->layout, mock_last.payload,
						 len), (ssize_t)len);
	/* One byte short never walks. */
	if (len)
		ck_assert_int_eq(shm_layout_payload_size(event->layout,
							 mock_last.payload,
							 len - 1), -1);
}

/* The last write was a dropped record: counted lost, nothing read. */
static void check_dropped(struct ust_event_desc *event)
{
	ck_assert_ptr_eq(mock_last.event, event);
	ck_assert_uint_eq(mock_last.nr_segs, 0);
	ck_assert_uint_eq(mock_last.payload_size, UST_PAYLOAD_DROP);
}

static void setup(void)
{
	mock_enable_all(1);
	mock_reset_writes();
}

START_TEST(test_layouts)
{
	ck_assert_str_eq(__ust_event_compound_flat.layout,
			 "Q1[F1] Q2[F2] Q4[F8] Q8[F8] Q1[F8] Q2[F4]");
	ck_assert_str_eq(__ust_event_compound_packed.layout,
			 "Q1[S] Q2[F1] Q1[F2] Q4[S F4] F1");
	ck_assert_str_eq(__ust_event_compound_nested.layout,
			 "A3[S] S F4 S Q1[F4] F2");
	ck_assert_str_eq(__ust_event_compound_tagged.layout,
			 "F4 T2 V0[65535:F8|0:S|7:S F4|8:Q1[F2]|9:F1] F1");
	ck_assert_str_eq(__ust_event_compound_records.layout,
			 "Q1[T1 V0[0:F1|1:S|200:F8]]");
	ck_assert_int_eq(__ust_event_compound_flat.loglevel, 4);
}
END_TEST

/* Flat sequences: the length, then the caller's elements, not copied. */
START_TEST(test_flat)
{
	static const uint8_t u8[3] = { 1, 2, 0xff };
	static const int16_t i16[2] = { INT16_MIN, -1 };
	static const int64_t i64[1] = { INT64_MIN };
	static const uint64_t u64[1] = { UINT64_MAX };
	static const double d[1] = { 0.5 };
	static const int16_t rows[1][2] = { { 3, -4 } };
	size_t off = 0;

	trace_compound_flat(3, u8, 2, i16, 1, i64, 1, u64, 1, d, 1, rows);
	off = put_le(off, 3, 1);
	off = put_le(off, 0x01, 1);
	off = put_le(off, 0x02, 1);
	off = put_le(off, 0xff, 1);
	off = put_le(off, 2, 2);
	off = put_le(off, 0x8000, 2);
	off = put_le(off, 0xffff, 2);
	off = put_le(off, 1, 4);
	off = put_le(off, (uint64_t)INT64_MIN, 8);
	off = put_le(off, 1, 8);
	off = put_le(off, UINT64_MAX, 8);
	off = put_le(off, 1, 1);
	memcpy(expect + off, &d[0], 8);
	off += 8;
	off = put_le(off, 1, 2);
	off = put_le(off, 3, 2);
	off = put_le(off, 0xfffc, 2);
	check_payload(&__ust_event_compound_flat, off);
	ck_assert_uint_eq(mock_last.nr_segs, 12);
	ck_assert_ptr_eq(mock_last.segs[1].ptr, u8);
	ck_assert_ptr_eq(mock_last.segs[11].ptr, rows);
}
END_TEST

/* Empty and NULL sequences record a zero length; long ones are clamped. */
START_TEST(test_flat_empty_and_clamped)
{
	static uint8_t many[300];
	size_t off = 0, i;

	trace_compound_flat(0, many, 7, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
			    NULL);
	off = put_le(off, 0, 1);
	off = put_le(off, 0, 2);
	off = put_le(off, 0, 4);
	off = put_le(off, 0, 8);
	off = put_le(off, 0, 1);
	off = put_le(off, 0, 2);
	check_payload(&__ust_event_compound_flat, off);

	for (i = 0; i < sizeof(many); i++)
		many[i] = (uint8_t)i;
	trace_compound_flat(sizeof(many), many, 0, NULL, 0, NULL, 0, NULL, 0,
			    NULL, 0, NULL);
	off = put_le(0, 255, 1);
	for (i = 0; i < 255; i++)
		off = put_le(off, i, 1);
	off = put_le(off, 0, 2);
	off = put_le(off, 0, 4);
	off = put_le(off, 0, 8);
	off = put_le(off, 0, 1);
	off = put_le(off, 0, 2);
	check_payload(&__ust_event_compound_flat, off);
}
END_TEST

/* Sequences of strings, enums, big-endian integers and structs. */
START_TEST(test_packed)
{
	static const char *const names[3] = { "a", NULL, "" };
	static const enum compound_color colors[2] = {
		COMPOUND_COLOR_BLUE, COMPOUND_COLOR_GREEN,
	};
	static const uint16_t ports[2] = { 80, 0x1234 };
	static const struct compound_pair pairs[2] = {
		{ "k", INT32_MIN }, { NULL, 7 },
	};
	size_t off = 0;

	trace_compound_packed(3, names, 2, colors, 2, ports, 2, pairs, 0xee);
	off = put_le(off, 3, 1);
	off = put_str(off, "a");
	off = put_str(off, "(null)");
	off = put_str(off, "");
	off = put_le(off, 2, 2);
	off = put_le(off, 200, 1);
	off = put_le(off, 1, 1);
	off = put_le(off, 2, 1);
	off = put_be(off, 80, 2);
	off = put_be(off, 0x1234, 2);
	off = put_le(off, 2, 4);
	off = put_str(off, "k");
	off = put_le(off, 0x80000000u, 4);
	off = put_str(off, "(null)");
	off = put_le(off, 7, 4);
	off = put_le(off, 0xee, 1);
	check_payload(&__ust_event_compound_packed, off);
}
END_TEST

/* Strings in arrays and structs, a sequence in a struct; NULL ones. */
START_TEST(test_nested)
{
	static const char *const argv[3] = { "ls", NULL, "-l" };
	static const struct compound_pair pair = { "key", -7 };
	static const int32_t values[2] = { 1, -2 };
	static const struct compound_nested_item item = {
		"lbl", 2, values, 0xbeef,
	};
	size_t off = 0;

	trace_compound_nested(argv, &pair, &item);
	off = put_str(off, "ls");
	off = put_str(off, "(null)");
	off = put_str(off, "-l");
	off = put_str(off, "key");
	off = put_le(off, (uint32_t)-7, 4);
	off = put_str(off, "lbl");
	off = put_le(off, 2, 1);
	off = put_le(off, 1, 4);
	off = put_le(off, 0xfffffffe, 4);
	off = put_le(off, 0xbeef, 2);
	check_payload(&__ust_event_compound_nested, off);

	trace_compound_nested(NULL, NULL, NULL);
	off = put_str(0, "(null)");
	off = put_str(off, "(null)");
	off = put_str(off, "(null)");
	off = put_str(off, "(null)");
	off = put_le(off, 0, 4);
	off = put_str(off, "(null)");
	off = put_le(off, 0, 1);
	off = put_le(off, 0, 2);
	check_payload(&__ust_event_compound_nested, off);
}
END_TEST

/* The id and tag, the selected option only, then the last field. */
static size_t tagged_head(uint32_t id, uint16_t kind)
{
	return put_le(put_le(0, id, 4), kind, 2);
}

START_TEST(test_variant_options)
{
	static const uint16_t items[2] = { 1, 65535 };
	union compound_tagged_value v;
	size_t off;

	v.NUM = INT64_MIN;
	trace_compound_tagged(1, COMPOUND_KIND_NUM, &v, 9);
	off = put_le(tagged_head(1, 0xffff), (uint64_t)INT64_MIN, 8);
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));

	v.TEXT = "hi";
	trace_compound_tagged(2, COMPOUND_KIND_TEXT, &v, 9);
	off = put_str(tagged_head(2, 0), "hi");
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));

	trace_compound_tagged(3, COMPOUND_KIND_TEXT, NULL, 9);
	off = put_str(tagged_head(3, 0), "(null)");
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));

	v.PAIR.key = "p";
	v.PAIR.value = 42;
	trace_compound_tagged(4, COMPOUND_KIND_PAIR, &v, 9);
	off = put_le(put_str(tagged_head(4, 7), "p"), 42, 4);
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));

	v.LIST.items_len = 2;
	v.LIST.items = items;
	trace_compound_tagged(5, COMPOUND_KIND_LIST, &v, 9);
	off = put_le(put_le(put_le(tagged_head(5, 8), 2, 1), 1, 2), 65535, 2);
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));

	v.SHADE = COMPOUND_COLOR_BLUE;
	trace_compound_tagged(6, COMPOUND_KIND_SHADE, &v, 9);
	off = put_le(tagged_head(6, 9), 200, 1);
	check_payload(&__ust_event_compound_tagged, put_le(off, 9, 1));
}
END_TEST

/* A tag value that is no label selects no option: the record is dropped. */
START_TEST(test_variant_bad_tag)
{
	union compound_tagged_value v;

	v.NUM = 1;
	trace_compound_tagged(1, (enum compound_kind)42, &v, 9);
	check_dropped(&__ust_event_compound_tagged);
}
END_TEST

START_TEST(test_variants_in_sequence)
{
	struct compound_records_list list[3];
	double blue = 2.5;
	size_t off;

	list[0].kind = COMPOUND_COLOR_RED;
	list[0].data.RED = 7;
	list[1].kind = COMPOUND_COLOR_GREEN;
	list[1].data.GREEN = "g";
	list[2].kind = COMPOUND_COLOR_BLUE;
	list[2].data.BLUE = blue;
	trace_compound_records(3, list);
	off = put_le(put_le(put_le(0, 3, 1), 0, 1), 7, 1);
	off = put_str(put_le(off, 1, 1), "g");
	off = put_le(off, 200, 1);
	memcpy(expect + off, &blue, 8);
	check_payload(&__ust_event_compound_records, off + 8);

	trace_compound_records(0, list);
	check_payload(&__ust_event_compound_records, put_le(0, 0, 1));
}
END_TEST

/* Packed fields beyond the probe's 64 KiB stack buffer: dropped. */
START_TEST(test_too_big_dropped)
{
	static struct compound_pair pairs[20000];

	trace_compound_packed(0, NULL, 0, NULL, 0, NULL, 20000, pairs, 0);
	check_dropped(&__ust_event_compound_packed);
	/* 5000 pairs of "(null)" and 4 bytes, 55000 bytes, fit. */
	trace_compound_packed(0, NULL, 0, NULL, 0, NULL, 5000, pairs, 0);
	ck_assert_uint_eq(mock_last.nr_segs, 5);
	ck_assert_uint_eq(mock_last.payload_size, 1 + 2 + 1 + 4 + 5000 * 11 + 1);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "probes", setup, NULL, 0, {
			test_layouts, test_flat, test_flat_empty_and_clamped,
			test_packed, test_nested, test_variant_options,
			test_variant_bad_tag, test_variants_in_sequence,
			test_too_big_dropped, NULL } },
	};

	return CHECK_RUN_CASES("compound", cases);
}
