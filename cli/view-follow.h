/*
 * view-follow.h - where each stream of traces being written goes on, from
 * one reading pass to the next: shared by `ust view --live DIR`
 * (view-live.c) and `ust view --live net://...` (view-relay.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_VIEW_FOLLOW_H
#define UST_CLI_VIEW_FOLLOW_H

#include <stddef.h>

#include "reader/reader.h"

struct view_followed {
	char *path;
	struct rd_stream_pos pos;
	double grew_at;		/* when its last whole packet changed (monotonic s) */
};

/* Every stream file seen. */
struct view_follow {
	struct view_followed *v;
	size_t nr;
};

struct view_followed *view_follow_stream(const struct view_follow *f, const char *path);

/* The rd_live hook: `arg` is the struct view_follow. */
const struct rd_stream_pos *view_follow_find(void *arg, const char *path);

/* Remember where each stream of `r` goes on, for the next pass. */
void view_follow_save(struct view_follow *f, const struct rd_reader *r);

void view_follow_release(struct view_follow *f);

/* CLOCK_MONOTONIC in seconds. */
double view_now_s(void);

/* realloc(v) to n + 1 elements of `size`, or abort with a message. */
void *view_grow_or_die(void *v, size_t n, size_t size);

#endif /* UST_CLI_VIEW_FOLLOW_H */
