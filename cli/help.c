/*
 * help.c - the help text of the commands that read traces: popt's
 * option list, then what DIR means.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <popt.h>

#include "cli.h"
#include "command.h"

void cli_trace_help(FILE *out, const char *prog, const struct poptOption *options,
		    const char *usage, const char *extra)
{
	cli_print_help(out, prog, options, usage, NULL);
	fputs("\nDIR is a trace directory or a session directory holding traces.\n", out);
	if (extra)
		fputs(extra, out);
}
