/*
 * error.c - the message prefix shared by every `ust` command.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

const char *cli_prog = "ust";

/* Print "<prog>: <message>\n" on stderr. */
void cli_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
