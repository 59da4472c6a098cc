/*
 * view-follow.c - stream positions across reading passes (view-follow.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view-follow.h"

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("ust: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *view_grow_or_die(void *v, size_t n, size_t size)
{
	return check_alloc(realloc(v, (n + 1) * size));
}

double view_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct view_followed *view_follow_stream(const struct view_follow *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		if (!strcmp(f->v[i].path, path))
			return &f->v[i];
	}
	return NULL;
}

const struct rd_stream_pos *view_follow_find(void *arg, const char *path)
{
	const struct view_followed *s = view_follow_stream(arg, path);

	return s ? &s->pos : NULL;
}

void view_follow_save(struct view_follow *f, const struct rd_reader *r)
{
	double now = view_now_s();
	size_t i;

	for (i = 0; i < rd_reader_nr_streams(r); i++) {
		const char *path = rd_stream_path(rd_reader_stream(r, i));
		struct view_followed *s = view_follow_stream(f, path);
		struct rd_stream_pos pos;

		rd_reader_stream_pos(r, i, &pos);
		if (!s) {
			f->v = view_grow_or_die(f->v, f->nr, sizeof(*f->v));
			s = &f->v[f->nr++];
			*s = (struct view_followed){ .path = check_alloc(strdup(path)),
						     .grew_at = now };
		} else if (pos.has_complete != s->pos.has_complete ||
			   pos.complete_end != s->pos.complete_end) {
			s->grew_at = now;
		}
		s->pos = pos;
	}
}

void view_follow_release(struct view_follow *f)
{
	while (f->nr)
		free(f->v[--f->nr].path);
	free(f->v);
	f->v = NULL;
}
