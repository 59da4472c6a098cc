/*
 * ctllinked.c - a program whose events all come from a library it links
 * (libctllate), for `ust list PROGRAM`.  It emits only when given an
 * argument, and the tests never run it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdint.h>

void late_emit(uint32_t phase, uint32_t n);

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		late_emit(1, 1);
	return 0;
}
