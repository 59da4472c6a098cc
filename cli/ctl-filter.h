/*
 * ctl-filter.h - `ust ctl PID filter|unfilter` (ctl-filter.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_CTL_FILTER_H
#define UST_CLI_CTL_FILTER_H

struct ctl_process;

/*
 * With the control lock held: filter the events matching `pattern` with
 * `expr`, or remove their filters when `expr` is NULL.  The exit status
 * (0, 1, or 2 for an expression that does not compile), after printing
 * what was done or why not.
 */
int ctl_filter_locked(struct ctl_process *p, const char *pattern,
		      const char *expr);

#endif /* UST_CLI_CTL_FILTER_H */
