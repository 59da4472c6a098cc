/*
 * selection.h - what `ust record` asks the traced program to record: the
 * -e patterns, each with its --filter and --loglevel, and the rate
 * limits; passed on in UST_TRACE and UST_RATE_LIMIT (abi/env.h,
 * doc/filters.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_SELECTION_H
#define UST_CLI_SELECTION_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/shm.h"

/* One -e PATTERN and the options that follow it. */
struct cli_sel_event {
	char *pattern;
	char *filter;		/* --filter EXPR */
	uint32_t loglevel_op;	/* enum ust_ctl_loglevel_op */
	int32_t loglevel;
	char *compiled;		/* the filter's blob in base64, once compiled */
};

struct cli_selection {
	struct cli_sel_event ev[UST_MAX_PATTERNS];
	unsigned int nr;
	char *rates;		/* UST_RATE_LIMIT: "PATTERN=N,..." */
};

/*
 * The options; each returns 0, or -1 after printing why the command line
 * is wrong (exit status 2).  --filter and --loglevel[-only] apply to the
 * -e before them.
 */
int cli_sel_event(struct cli_selection *s, const char *pattern);
int cli_sel_filter(struct cli_selection *s, const char *expr);
int cli_sel_loglevel(struct cli_selection *s, const char *level, bool only);
int cli_sel_rate_limit(struct cli_selection *s, const char *arg);

/*
 * Compile the filters for the events of `cmd` (searched in PATH) and the
 * libraries it loads: 0, or -1 after printing the error (exit status 2,
 * nothing started).
 */
int cli_sel_compile(struct cli_selection *s, const char *cmd);

/* The value of UST_TRACE, malloc'ed ("*" when no -e), or NULL. */
char *cli_sel_trace(const struct cli_selection *s);

void cli_sel_release(struct cli_selection *s);

#endif /* UST_CLI_SELECTION_H */
