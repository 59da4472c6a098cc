/*
 * cli.h - what the `ust` subcommands share: their entry points and the
 * one error format.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every message starts with the command ("ust record: ...") and says what
 * went wrong first, lowercase, without a final period.
 */
#ifndef UST_CLI_H
#define UST_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses shared by every command. */
#define UST_EXIT_FAILURE	1	/* the command could not do its job */
#define UST_EXIT_USAGE		2	/* bad command line */

/*
 * The subcommands, one file each (the table of ust.c names them).
 * cli_CMD_run() runs `ust CMD`: argv[0] is the command name and
 * argv[argc] is NULL; it returns the exit status of `ust`.
 * cli_CMD_help() writes the full help, for `ust CMD --help` and
 * `ust help CMD`.
 */
typedef int cli_run_fn(int argc, const char **argv);
typedef void cli_help_fn(FILE *out);

cli_run_fn cli_record_run, cli_view_run, cli_report_run, cli_export_run,
	cli_list_run, cli_ctl_run, cli_snapshot_run;
cli_help_fn cli_record_help, cli_view_help, cli_report_help, cli_export_help,
	cli_list_help, cli_ctl_help, cli_snapshot_help;

struct poptOption;
/*
 * The help of a command reading traces: usage line `usage` after the
 * command, popt's options list, what DIR is, then `extra` (may be NULL).
 */
void cli_trace_help(FILE *out, const char *prog, const struct poptOption *options,
		    const char *usage, const char *extra);

/* Prefix of every message: "ust", then "ust record" once dispatched. */
extern const char *cli_prog;

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A time of --begin/--end (view.c): "SEC[.NNNNNNNNN]" from the clock's
 * origin, or "[YYYY-MM-DD ]HH:MM:SS[.N]" (the day of `first_ns`, the
 * trace's first event, when not given), local time or UTC (`gmt`).
 * 0, or -1 when it is not one.
 */
int cli_parse_time(const char *s, int64_t first_ns, bool gmt, int64_t *ns);

/* functions.c: `ust record --functions` (doc/functions.md). */
extern const char *const cli_functions_patterns[];
int cli_functions_preload(void);

/* --functions[=LAYOUT] and the hooks' filters, as given. */
struct cli_func_opts {
	const char *layout;	/* UST_FUNCTIONS_NAME_*, NULL: the default */
	uint64_t time_ns;	/* --time-filter, 0: none */
	uint32_t depth;		/* --depth, 0: none */
	char *only;		/* --filter-func globs, comma-separated, or NULL */
	char *exclude;		/* --exclude-func */
};

enum cli_func_opt {
	CLI_FUNC_LAYOUT,
	CLI_FUNC_TIME,
	CLI_FUNC_DEPTH,
	CLI_FUNC_ONLY,
	CLI_FUNC_EXCLUDE,
};

/* Take option `which` with argument `arg` (NULL: none); 0 or -1 (said). */
int cli_functions_option(struct cli_func_opts *f, enum cli_func_opt which,
			 const char *arg);
/* Whether a filter of the hooks was asked for (they need per-thread buffers). */
bool cli_functions_filtered(const struct cli_func_opts *f);
/* UST_FUNCTIONS and UST_FUNC_* for CMD; 0 or -1 (said). */
int cli_functions_env(const struct cli_func_opts *f);
void cli_functions_release(struct cli_func_opts *f);

#endif /* UST_CLI_H */
