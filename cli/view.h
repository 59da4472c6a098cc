/*
 * view.h - what `ust view` (view.c) and its follow mode (view-live.c)
 * share: the options and the printing of a reader's messages.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_VIEW_H
#define UST_CLI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

#define VIEW_MAX_GLOBS	64

struct view_opts {
	const char *begin_s, *end_s;
	int64_t begin, end;		/* set from the strings at the first event */
	bool times_set;
	const char *globs[VIEW_MAX_GLOBS];
	unsigned int nr_globs;
	int64_t tid, pid;
	bool gmt, live;
	int64_t last;			/* time of the last printed event */
};

/*
 * Print the messages of `r` that `o` selects, on stdout (events) and
 * stderr (losses).  Returns the exit status of `ust view`.
 */
int view_batch(struct rd_reader *r, struct view_opts *o);

/* --live: follow the traces under dirs[0..n) until the session ends. */
int view_live(const char *const *dirs, size_t n, struct view_opts *o);

/* --live net://HOST[:PORT]/host/HOSTNAME/SESSION: a session on lttng-relayd. */
int view_live_relay(const char *url, struct view_opts *o);

#endif /* UST_CLI_VIEW_H */
