/*
 * hello.c - the smallest traced program: `hello [N]` greets N times.
 *
 * SPDX-License-Identifier: MIT
 *
 * Build: tpgen hello.xml && cc hello.c hello_tp.c $(pkg-config --cflags --libs libust)
 * Trace: ust record -- ./hello 10
 */
#include <stdio.h>
#include <stdlib.h>

#include "hello_tp.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	int i;

	for (i = 0; i < n; i++)
		trace_hello_greeting(i, "hello, world");
	trace_hello_done((uint64_t)n);
	printf("hello: %d greetings traced\n", n);
	return 0;
}
