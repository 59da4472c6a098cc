/*
 * command.c - command line helpers shared by the subcommands (command.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "command.h"

void cli_print_help(FILE *out, const char *prog, const struct poptOption *options,
		    const char *usage, const char *text)
{
	const char *argv[] = { prog, NULL };
	poptContext ctx = poptGetContext(prog, 1, argv, options, 0);

	poptSetOtherOptionHelp(ctx, usage);
	poptPrintHelp(ctx, out, 0);
	poptFreeContext(ctx);
	if (text)
		fputs(text, out);
}

void cli_bad_option(poptContext ctx, int rc)
{
	cli_error("%s: %s", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
		  poptStrerror(rc));
}

int cli_keep_copy(char **dst, const char *value)
{
	char *copy = strdup(value);

	if (!copy) {
		cli_error("out of memory");
		return -1;
	}
	free(*dst);
	*dst = copy;
	return 0;
}

const char **cli_trace_dirs(poptContext ctx)
{
	const char **dirs = poptGetArgs(ctx);

	if (dirs && dirs[0])
		return dirs;
	cli_error("no trace directory given (see '%s --help')", cli_prog);
	return NULL;
}
