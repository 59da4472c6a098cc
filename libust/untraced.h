/*
 * untraced.h - tell `ust record` that this process is not traced.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_LIBUST_UNTRACED_H
#define UST_LIBUST_UNTRACED_H

/*
 * When `ust record` started this process (it set a summary directory,
 * `summary_dir`), leave there a complete summary of our own saying
 * why tracing is off: "pid", an empty "dir", "error=<why>", "end=1".
 * `ust record` then names the process and the reason and exits 1,
 * where it would otherwise find no summary and exit 0 (a failure to
 * trace is never a silent success).  Best effort: nothing happens
 * without a summary directory or when it cannot be written.
 */
void ust__untraced_report(const char *summary_dir, const char *why);

#endif /* UST_LIBUST_UNTRACED_H */
