/*
 * roundtrip.c - record one event of every fixed-size type of
 * tests/tpgen/types.xml with known values; check_roundtrip.py reads them
 * back through babeltrace2 and compares.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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

int main(void)
{
	record_scalars();
	record_compounds();
	printf("attempted=12 handler=0\n");
	return 0;
}
