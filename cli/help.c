/*
 * help.c - the help text of the commands that read traces: popt's
 * option list, then what DIR means.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <popt.h>

#include "cli.h"

void cli_trace_help(FILE *out, const char *prog, const struct poptOption *options,
		    const char *usage, const char *extra)
{
	const char *argv[] = { prog, NULL };
	poptContext ctx = poptGetContext(prog, 1, argv, options, 0);

	poptSetOtherOptionHelp(ctx, usage);
	poptPrintHelp(ctx, out, 0);
	poptFreeContext(ctx);
	fputs("\nDIR is a trace directory or a session directory holding traces.\n", out);
	if (extra)
		fputs(extra, out);
}
