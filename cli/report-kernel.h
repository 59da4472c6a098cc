/*
 * report-kernel.h - `ust report`'s options for its kernel sections
 * (report-kernel.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_REPORT_KERNEL_H
#define UST_CLI_REPORT_KERNEL_H

#include <popt.h>

#include "analysis/pass.h"

#define REPORT_KERNEL_NR_OPTIONS	5

enum report_kernel_opt {
	OPT_KTHREAD = 200,
	OPT_KBETWEEN,
	OPT_KCSV,
	OPT_KBEGIN,
	OPT_KEND,
};

/* Fill o[0 .. REPORT_KERNEL_NR_OPTIONS). */
void cli_report_kernel_options(struct poptOption *o);
/* Option `rc` into p: 0, -1 for a bad value (printed), 1 when not ours. */
int cli_report_kernel_option(struct pass *p, int rc, const char *arg);
/*
 * Take "--between A B" out of argv (a copy of the caller's: popt frees the
 * words of the array it gave) into p; -1 when malformed (printed).
 */
int cli_report_between(int *argc, const char **argv, struct pass *p);
/*
 * Once the sections are listed: add --thread's and --between's, and the
 * kernel model before the first kernel section; check --csv.  0 or -1.
 */
int cli_report_kernel_list(struct pass *p);

#endif /* UST_CLI_REPORT_KERNEL_H */
