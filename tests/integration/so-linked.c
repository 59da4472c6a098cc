/*
 * so-linked.c - two facilities in one program: "types" compiled into the
 * program, "other" in a shared object it links (libsoprovider.la).
 * so-providers.sh reads the trace back.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>

#include "other_tp.h"
#include "types_tp.h"

int main(void)
{
	trace_other_strings(-5);
	trace_types_floats(0.5f, -2.0);
	trace_other_empty();
	trace_other_strings(2147483647);
	printf("attempted=4 handler=0\n");
	return 0;
}
