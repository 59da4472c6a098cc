/*
 * so-target.c - a program without any tracepoint or libust: it calls
 * getppid() three times, which the preloaded so-preload.c records.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		if (getppid() < 0)
			return 1;
	printf("attempted=3 handler=0\n");
	return 0;
}
