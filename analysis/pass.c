/*
 * pass.c - one pass over the merged events of traces, feeding analyses:
 * each event class is classified once (a tag per analysis, and whether
 * any of them reads the payload), then every event goes to the
 * analyses that asked for its class.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmodel.h"
#include "pass.h"
#include "tasks.h"

/* What the analyses asked of one event class. */
struct class_slot {
	int tags[PASS_MAX];
	bool fields;
};

int pass_open(struct pass *p, const char *const *dirs, size_t n)
{
	size_t i;

	if (p->nr + 1 > PASS_MAX)
		abort();
	memmove(&p->list[1], &p->list[0], p->nr * sizeof(p->list[0]));
	p->list[0] = &analysis_tasks;	/* first: the others read it */
	p->nr++;
	if (rd_reader_open(&p->c.reader, dirs, n, p->error, sizeof(p->error)))
		return -1;
	for (i = 0; i < p->nr; i++)
		p->state[i] = p->list[i]->kernel_parts ?
			kmodel_want(&p->c, p->list[i]->kernel_parts) :
			p->list[i]->create(&p->c);
	return 0;
}

static struct class_slot *classify(struct pass *p, const struct rd_msg *m)
{
	struct class_slot *s;
	size_t i;

	if (m->ec == p->last_ec)
		return p->last_slot;
	s = u64map_get(&p->classes, (uintptr_t)m->ec);
	if (!s) {
		s = report_zalloc(sizeof(*s));
		for (i = 0; i < p->nr; i++) {
			bool fields = false;

			if (p->list[i]->kernel_parts)
				continue;	/* tag 0: it reads the model */
			s->tags[i] = p->list[i]->classify(p->state[i],
				rd_stream_trace(m->stream), m->ec, &fields);
			s->fields |= s->tags[i] && fields;
		}
		u64map_set(&p->classes, (uintptr_t)m->ec, s);
	}
	p->last_ec = m->ec;
	p->last_slot = s;
	return s;
}

static int feed_event(struct pass *p, const struct rd_msg *m)
{
	struct class_slot *s = classify(p, m);
	struct rd_value vals[REPORT_MAX_FIELDS];
	size_t i;

	if (p->c.in_range)
		p->c.nr_events++;
	if (s->fields && rd_reader_event_fields(p->c.reader, m, vals, REPORT_MAX_FIELDS) < 0)
		return -1;
	for (i = 0; i < p->nr; i++) {
		if (s->tags[i] && (p->c.in_range || p->list[i]->sees_all))
			p->list[i]->event(p->state[i], &p->c, m, s->tags[i],
					  s->fields ? vals : NULL);
	}
	return 0;
}

/* Midnight of the day of `ns` (from the epoch), local or UTC. */
static int64_t day_start(int64_t ns, bool gmt)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		return 0;
	return ns - ((int64_t)tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * 1000000000 -
	       ns % 1000000000;
}

static int64_t resolve(enum pass_bound kind, int64_t v, int64_t first, bool gmt)
{
	if (kind == PASS_FROM_FIRST)
		return first + v;
	if (kind == PASS_TIME_OF_DAY)
		return day_start(first, gmt) + v;
	return v;
}

/*
 * Whether `ns` is in --begin/--end.  A bound given relative to the
 * traces' start or as a time of day (pass.h) is resolved at the first
 * message.
 */
static bool in_range(struct pass *p, int64_t ns)
{
	if (!p->started) {
		p->started = true;
		p->c.begin_ns = resolve(p->begin_kind, p->c.begin_ns, ns, p->c.gmt);
		p->c.end_ns = resolve(p->end_kind, p->c.end_ns, ns, p->c.gmt);
	}
	return (!p->has_begin || ns >= p->c.begin_ns) && (!p->has_end || ns <= p->c.end_ns);
}

int pass_run(struct pass *p)
{
	struct rd_msg m;
	size_t i;
	int ret;

	p->c.first_ns = INT64_MAX;
	p->c.last_ns = INT64_MIN;
	while ((ret = rd_reader_next(p->c.reader, &m)) > 0) {
		p->c.in_range = in_range(p, m.ns);
		if (p->c.in_range && p->c.first_ns == INT64_MAX)
			p->c.first_ns = m.ns;
		if (p->c.in_range && m.ns > p->c.last_ns)
			p->c.last_ns = m.ns;
		if (m.kind == RD_MSG_EVENT) {
			if (feed_event(p, &m))
				break;
			continue;
		}
		for (i = 0; i < p->nr; i++) {
			if (p->list[i]->discarded &&
			    (p->c.in_range || p->list[i]->sees_all))
				p->list[i]->discarded(p->state[i], &p->c, &m);
		}
	}
	if (ret == 0)
		return 0;
	snprintf(p->error, sizeof(p->error), "%s", rd_reader_error(p->c.reader));
	return -1;
}

void pass_print(struct pass *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (p->list[i]->print)
			p->list[i]->print(p->state[i], &p->c, p->c.out);
	}
}

void pass_close(struct pass *p)
{
	size_t i;

	u64map_free_all(&p->classes);
	for (i = 0; i < p->nr; i++) {
		if (p->state[i] && !p->list[i]->kernel_parts)
			p->list[i]->destroy(p->state[i]);
	}
	rd_reader_close(p->c.reader);
}
