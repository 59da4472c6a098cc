/*
 * pattern.h - the glob rules that select events by "facility:event" name,
 * shared by libust (UST_TRACE, providers registered after `ust ctl`) and
 * the `ust ctl` command, so both always agree on what a pattern matches.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_PATTERN_H
#define UST_PATTERN_H

#include <stdbool.h>

/* fnmatch(3) globbing without flags: `*` also crosses the ':'. */
bool ust__glob_match(const char *pattern, const char *name);

/*
 * A list of UST_TRACE patterns: `name` is selected when it matches an
 * including pattern and no excluding one ("-pattern").  With only
 * excluding patterns, everything else is selected.  NULL entries are
 * skipped.
 */
bool ust__patterns_match(const char *const *patterns, unsigned int nr,
			const char *name);

/*
 * The same, where an including pattern i that matches counts only when
 * counts(i, arg) says so (UST_TRACE's log-level options).
 */
bool ust__patterns_match_when(const char *const *patterns, unsigned int nr,
			     const char *name,
			     bool (*counts)(unsigned int i, const void *arg),
			     const void *arg);

#endif /* UST_PATTERN_H */
