/*
 * pass.h - one pass over the merged events of traces, feeding a list of
 * analyses (analysis.h): what `ust report` and `ust export` share.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ANALYSIS_PASS_H
#define UST_ANALYSIS_PASS_H

#include "analysis.h"
#include "u64map.h"

#define PASS_MAX	16	/* analyses in one pass */

struct pass {
	struct report_ctx c;
	const struct analysis *list[PASS_MAX];
	void *state[PASS_MAX];
	size_t nr;
	struct u64map classes;		/* event class -> what each asked */
	const struct rd_event_class *last_ec;
	void *last_slot;
	char error[512];		/* why pass_open() or pass_run() failed */
	/*
	 * --begin/--end: whether given, and what c.begin_ns/end_ns are until
	 * the first message: ns from it, or a time of its day.
	 */
	bool has_begin, has_end, started;
	enum pass_bound { PASS_ABS, PASS_FROM_FIRST, PASS_TIME_OF_DAY } begin_kind, end_kind;
};

/*
 * Open the traces under dirs[0..n) into p->c.reader and create the
 * analyses of p->list (p->c must be set up).  The tasks table is always
 * added first.  Returns 0, or -1 with the reason in p->error.
 */
int pass_open(struct pass *p, const char *const *dirs, size_t n);
/* Feed every message; 0, or -1 with the reason in p->error. */
int pass_run(struct pass *p);
/* Call print() of every analysis, in order, on p->c.out. */
void pass_print(struct pass *p);
void pass_close(struct pass *p);

#endif /* UST_ANALYSIS_PASS_H */
