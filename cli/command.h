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

/*
 * The kinds of entry of the commands' option tables, popt giving `val`
 * to the parse loop: an option without a value (FLAG), one taking the
 * value named `arg` in the help (ARG, then poptGetOptArg), one whose
 * value may be left out (OPTIONAL_ARG, the value then NULL).  The _SHORT
 * ones also have the one-letter name `letter`.
 */
#define CLI_OPTION_FLAG_SHORT(name, letter, val, help) \
	{ (name), (letter), POPT_ARG_NONE, NULL, (val), (help), NULL }
#define CLI_OPTION_ARG_SHORT(name, letter, val, help, arg) \
	{ (name), (letter), POPT_ARG_STRING, NULL, (val), (help), (arg) }
#define CLI_OPTION_OPTIONAL_ARG_SHORT(name, letter, val, help, arg) \
	{ (name), (letter), POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, \
	  (val), (help), (arg) }
#define CLI_OPTION_FLAG(name, val, help) \
	CLI_OPTION_FLAG_SHORT(name, '\0', val, help)
#define CLI_OPTION_ARG(name, val, help, arg) \
	CLI_OPTION_ARG_SHORT(name, '\0', val, help, arg)
#define CLI_OPTION_OPTIONAL_ARG(name, val, help, arg) \
	CLI_OPTION_OPTIONAL_ARG_SHORT(name, '\0', val, help, arg)

/* The -h/--help entry of every command's option table. */
#define CLI_OPTION_HELP(val) \
	CLI_OPTION_FLAG_SHORT("help", 'h', val, "show this help")

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
