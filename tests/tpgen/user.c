/*
 * user.c - an application of the generated tracepoints, for compile.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * It includes both generated headers, calls every trace function, and is
 * compiled as C and as C++ with strict warnings.  Linked with the
 * generated sources compiled as C++ and with mock-ust.c compiled as C, it
 * shows that the two languages agree on every symbol, and it checks that
 * the constructors registered both providers and that enabled events
 * reached ust_event_write().
 */
#include <stdio.h>

#include "mock-ust.h"
#include "other_tp.h"
#include "tpt_tp.h"

static void trace_everything(void)
{
	trace_tpt_signed_ints(-1, -2, -3, -4);
	trace_tpt_unsigned_ints(1, 2, 3, 4);
	trace_tpt_bases(0xf00d, 5, 8, 10);
	trace_tpt_strings("first", 2, -3, "second", NULL, 4);
	trace_tpt_empty();
	trace_tpt_one_string("msg");
	trace_other_strings(7);
	trace_other_empty();
}

int main(void)
{
	trace_everything();
	if (mock_nr_providers != 2 || mock_nr_writes != 0) {
		fprintf(stderr, "user: %u providers, %u writes while disabled\n",
			mock_nr_providers, mock_nr_writes);
		return 1;
	}
	mock_enable_all(1);
	trace_everything();
	if (mock_nr_writes != 8) {
		fprintf(stderr, "user: %u writes, expected 8\n", mock_nr_writes);
		return 1;
	}
	return 0;
}
