/*
 * roundtrip.c - record events of every type of tests/tpgen/types.xml
 * (fixed-size types) and tests/tpgen/compound.xml (sequences, variants,
 * strings inside compound types) with known values; check_roundtrip.py
 * reads them back through babeltrace2 and compares.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "compound_tp.h"
#include "types_tp.h"

static void record_scalars(void)
{
	trace_types_host_ints(INT_MIN, UINT_MAX, LONG_MIN, ULONG_MAX, SIZE_MAX,
			      -1, (const void *)(uintptr_t)0xdeadbeefcafeull,
			      'A');
	trace_types_host_ints(INT_MAX, 0, LONG_MAX, 0, 0, SSIZE_MAX, NULL,
			      CHAR_MIN);
	trace_types_floats(-FLT_MAX, 1.5);
	trace_types_floats((float)INFINITY, -0.0);
	trace_types_floats(FLT_MIN, -DBL_MAX);
	trace_types_enums(TYPES_STATE_BUSY, TYPES_DELTA_DOWN, TYPES_WIDE_LOW);
	trace_types_enums(TYPES_STATE_DEAD, TYPES_DELTA_UP, TYPES_WIDE_HIGH);
	trace_types_byte_orders(0x1234, -2, 0x0102030405060708ull, 0xA1B2C3D4u,
				0xBEEF, 0x7f,
				(const void *)(uintptr_t)0x1122334455667788ull);
}

static void record_compounds(void)
{
	static const uint8_t bytes[4] = { 1, 2, 3, 0xff };
	static const int16_t matrix[2][3] = { { 1, 2, 3 }, { -4, -5, -32768 } };
	static const enum types_state states[3] = {
		TYPES_STATE_IDLE, TYPES_STATE_BUSY, TYPES_STATE_DEAD,
	};
	static const uint16_t ports[2] = { 80, 443 };
	static const struct types_point origin = { 1, -1 };
	static const struct types_segment seg = {
		{ 2, 3 }, { 4, 5 }, TYPES_STATE_DEAD,
	};
	static const struct types_structs_box box = {
		{ { 10, 20 }, { 30, 40 } }, 0xff00ff00u, { 'a', 'b', 'c', 'd' },
	};
	static const struct types_structs_path path[2] = {
		{ 7, 0.25 }, { 8, -1e300 },
	};

	trace_types_arrays(bytes, matrix, states, ports);
	trace_types_arrays(NULL, NULL, NULL, NULL);	/* recorded as zeros */
	trace_types_structs(&origin, &seg, 1234, "me", &box, path);
	trace_types_structs(NULL, NULL, -1, NULL, NULL, NULL);
}

/* Flat sequences: extremes, empty ones, a NULL one, a clamped one. */
static void record_flat(void)
{
	static const uint8_t u8[3] = { 0, 0x7f, 0xff };
	static const int16_t i16[3] = { INT16_MIN, -1, INT16_MAX };
	static const int64_t i64[2] = { INT64_MIN, INT64_MAX };
	static const uint64_t u64[2] = { UINT64_MAX, 0 };
	static const double d[2] = { -0.0, DBL_MAX };
	static const int16_t rows[2][2] = { { 1, -2 }, { 3, -4 } };
	uint8_t many[300];
	size_t i;

	for (i = 0; i < sizeof(many); i++)
		many[i] = (uint8_t)i;
	trace_compound_flat(3, u8, 3, i16, 2, i64, 2, u64, 2, d, 2, rows);
	trace_compound_flat(0, u8, 0, i16, 0, NULL, 5, NULL, 0, d, 0, NULL);
	/* 300 elements for a 1-byte length: the first 255 are recorded. */
	trace_compound_flat(sizeof(many), many, 0, NULL, 0, NULL, 0, NULL,
			    0, NULL, 0, NULL);
}

/* Sequences of strings, enums, big-endian integers and structs. */
static void record_packed(void)
{
	static const char *const names[3] = { "a", NULL, "" };
	static const enum compound_color colors[3] = {
		COMPOUND_COLOR_RED, COMPOUND_COLOR_BLUE, COMPOUND_COLOR_GREEN,
	};
	static const uint16_t ports[2] = { 80, 0x1234 };
	static const struct compound_pair pairs[2] = {
		{ "k1", INT32_MIN }, { NULL, INT32_MAX },
	};

	trace_compound_packed(3, names, 3, colors, 2, ports, 2, pairs, 0xff);
	trace_compound_packed(0, NULL, 0, colors, 0, NULL, 0, pairs, 0);
}

/* Strings in arrays and structs, a sequence in a struct; NULL ones. */
static void record_nested(void)
{
	static const char *const argv[3] = { "ls", NULL, "-l" };
	static const struct compound_pair pair = { "key", -7 };
	static const int32_t values[3] = { 1, -2, INT32_MAX };
	static const struct compound_nested_item item = {
		"lbl", 3, values, 0xbeef,
	};

	trace_compound_nested(argv, &pair, &item);
	trace_compound_nested(NULL, NULL, NULL);
}

/* A variant on each option, then a tag that selects none: dropped. */
static void record_tagged(void)
{
	static const uint16_t items[2] = { 1, 65535 };
	union compound_tagged_value v;

	v.NUM = INT64_MIN;
	trace_compound_tagged(1, COMPOUND_KIND_NUM, &v, 1);
	v.TEXT = "hello";
	trace_compound_tagged(2, COMPOUND_KIND_TEXT, &v, 2);
	trace_compound_tagged(3, COMPOUND_KIND_TEXT, NULL, 3);
	v.PAIR.key = "p";
	v.PAIR.value = 42;
	trace_compound_tagged(4, COMPOUND_KIND_PAIR, &v, 4);
	v.LIST.items_len = 2;
	v.LIST.items = items;
	trace_compound_tagged(5, COMPOUND_KIND_LIST, &v, 5);
	v.SHADE = COMPOUND_COLOR_BLUE;
	trace_compound_tagged(6, COMPOUND_KIND_SHADE, &v, 6);
	trace_compound_tagged(7, (enum compound_kind)42, &v, 7);
}

/* Tags and variants inside the structs of a sequence. */
static void record_records(void)
{
	struct compound_records_list list[3];

	list[0].kind = COMPOUND_COLOR_RED;
	list[0].data.RED = 7;
	list[1].kind = COMPOUND_COLOR_GREEN;
	list[1].data.GREEN = "g";
	list[2].kind = COMPOUND_COLOR_BLUE;
	list[2].data.BLUE = 2.5;
	trace_compound_records(3, list);
	trace_compound_records(0, NULL);
}

int main(void)
{
	record_scalars();
	record_compounds();
	record_flat();
	record_packed();
	record_nested();
	record_tagged();
	record_records();
	/* 12 + 3 + 2 + 2 + 7 + 2 events, the last tagged one dropped. */
	printf("attempted=28 handler=0\n");
	return 0;
}
