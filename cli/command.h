/*
 * command.h - what the subcommands do alike with their command line,
 * beyond cli.h: the help page, the error for an option popt refused,
 * keeping an option's value, the trace directories of the commands that
 * read traces.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_COMMAND_H
#define UST_CLI_COMMAND_H

#include <popt.h>
#include <stdio.h>

/* The -h/--help entry of every command's option table, popt giving `val`. */
#define CLI_OPTION_HELP(val) \
	{ "help", 'h', POPT_ARG_NONE, NULL, (val), "show this help", NULL }

/*
 * The help page of command `prog`: its usage line (`usage` after the
 * command), popt's list of `options`, then `text` (may be NULL).
 */
void cli_print_help(FILE *out, const char *prog, const struct poptOption *options,
		    const char *usage, const char *text);

/* The message for the option popt stopped on with error `rc` (< -1). */
void cli_bad_option(poptContext ctx, int rc);

/* *dst becomes a copy of `value` (freeing the old one); -1 if out of memory. */
int cli_keep_copy(char **dst, const char *value);

/* The DIR... words, or NULL after saying that there are none. */
const char **cli_trace_dirs(poptContext ctx);

#endif /* UST_CLI_COMMAND_H */
