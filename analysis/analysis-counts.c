/*
 * analysis-counts.c - the report's counting sections: events per type,
 * losses per stream, events per thread.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi/consumerd.h"
#include "analysis.h"
#include "common/shm-ctl.h"
#include "order.h"
#include "tasks.h"
#include "u64map.h"

/* ---- events per type ---- */

struct name_count {
	const char *name;	/* first (report_name_index()) */
	uint64_t count;
};

struct events {
	struct name_count *v;
	size_t nr;
};

static void *events_create(struct report_ctx *c)
{
	(void)c;
	return report_zalloc(sizeof(struct events));
}

/* One tag per distinct name, across traces. */
static int events_classify(void *a, const struct rd_trace *t,
			   const struct rd_event_class *ec, bool *fields)
{
	struct events *e = a;
	size_t i;

	(void)t;
	(void)fields;
	e->v = report_name_index(e->v, &e->nr, sizeof(*e->v), ec->name, &i);
	return (int)i + 1;
}

static void events_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			 int tag, const struct rd_value *v)
{
	(void)c;
	(void)m;
	(void)v;
	((struct events *)a)->v[tag - 1].count++;
}

static int by_count_then_name(const void *pa, const void *pb)
{
	const struct name_count *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void events_print(void *a, struct report_ctx *c, FILE *out)
{
	struct events *e = a;
	size_t i;

	(void)c;
	report_heading(out, "Events per type");
	fprintf(out, "%12s  %s\n", "count", "event");
	if (e->nr)	/* no event, no list: qsort(NULL) is undefined */
		qsort(e->v, e->nr, sizeof(*e->v), by_count_then_name);
	for (i = 0; i < e->nr; i++) {
		if (e->v[i].count)
			fprintf(out, "%12" PRIu64 "  %s\n", e->v[i].count, e->v[i].name);
	}
}

static void events_destroy(void *a)
{
	free(((struct events *)a)->v);
	free(a);
}

const struct analysis analysis_events = {
	.name = "events",
	.help = "events per type",
	.by_default = true,
	.create = events_create,
	.classify = events_classify,
	.event = events_event,
	.print = events_print,
	.destroy = events_destroy,
};

/* ---- losses per stream ---- */

struct stream_loss {
	const struct rd_stream *s;
	uint64_t events, discarded, packets;
	bool maybe;		/* "may have discarded": count unknown */
};

struct losses {
	struct stream_loss *v;
	size_t nr;
	struct u64map index;	/* stream -> entry */
	struct stream_loss *last;
};

static void *losses_create(struct report_ctx *c)
{
	struct losses *l = report_zalloc(sizeof(*l));
	size_t i;

	l->nr = rd_reader_nr_streams(c->reader);
	l->v = report_zalloc((l->nr + 1) * sizeof(*l->v));
	for (i = 0; i < l->nr; i++) {
		l->v[i].s = rd_reader_stream(c->reader, i);
		u64map_set(&l->index, (uintptr_t)l->v[i].s, &l->v[i]);
	}
	return l;
}

static struct stream_loss *loss_of(struct losses *l, const struct rd_stream *s)
{
	if (!l->last || l->last->s != s)
		l->last = u64map_get(&l->index, (uintptr_t)s);
	return l->last;
}

static void losses_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			 int tag, const struct rd_value *v)
{
	(void)c;
	(void)tag;
	(void)v;
	loss_of(a, m->stream)->events++;
}

static void losses_discarded(void *a, struct report_ctx *c, const struct rd_msg *m)
{
	struct stream_loss *s = loss_of(a, m->stream);

	(void)c;
	if (m->kind == RD_MSG_DISCARDED_PACKETS)
		s->packets += m->count;
	else if (m->count == UINT64_MAX)
		s->maybe = true;
	else
		s->discarded += m->count;
}

/*
 * What the gates of a trace's events kept out of it (abi/consumerd.h):
 * the consumer's "rate_limited=N EVENT" and "no_program=N EVENT" lines
 * in the trace directory, printed once per trace.
 */
static void print_not_recorded(FILE *out, const char *stream_path,
			       const char *trace)
{
	const char *slash = strrchr(stream_path, '/');
	char *path, *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (!slash || asprintf(&path, "%.*s/%s", (int)(slash - stream_path),
			       stream_path, UST_NOT_RECORDED_FILE) < 0)
		return;
	f = fopen(path, "re");
	free(path);
	while (f && getline(&line, &cap, f) > 0) {
		char *eq = strchr(line, '='), *name = eq ? strchr(eq, ' ') : NULL;
		bool rate = !strncmp(line, UST_SUMMARY_KEY_RATE_LIMITED "=",
				     strlen(UST_SUMMARY_KEY_RATE_LIMITED) + 1);

		if (!name)
			continue;
		name[strcspn(name, "\n")] = '\0';
		ust__ctl_printable(name);
		fprintf(out, "not recorded: %.*s events of %s %s (%s)\n",
			(int)(name - eq - 1), eq + 1, name + 1,
			rate ? "over its rate limit" :
			"under a filter with no program for its fields", trace);
	}
	free(line);
	if (f)
		fclose(f);
}

static void losses_print(void *a, struct report_ctx *c, FILE *out)
{
	struct losses *l = a;
	uint64_t discarded = 0, packets = 0;
	size_t i;

	(void)c;
	report_heading(out, "Losses per stream");
	fprintf(out, "%12s %12s %12s  %s\n", "events", "discarded", "packets lost",
		"stream");
	for (i = 0; i < l->nr; i++) {
		const struct stream_loss *s = &l->v[i];
		const char *path = rd_stream_path(s->s), *base = strrchr(path, '/');

		fprintf(out, "%12" PRIu64 " %11" PRIu64 "%s %12" PRIu64 "  %s/%s\n",
			s->events, s->discarded, s->maybe ? "+" : " ", s->packets,
			rd_trace_name(rd_stream_trace(s->s)), base ? base + 1 : path);
		discarded += s->discarded;
		packets += s->packets;
	}
	fprintf(out, "total: %" PRIu64 " events discarded, %" PRIu64 " packets lost%s\n",
		discarded, packets, l->nr ? "" : " (no streams)");
	for (i = 0; i < l->nr; i++) {
		const struct rd_trace *t = rd_stream_trace(l->v[i].s);
		size_t j;

		for (j = 0; j < i && rd_stream_trace(l->v[j].s) != t; j++)
			;
		if (j == i)	/* the trace's first stream */
			print_not_recorded(out, rd_stream_path(l->v[i].s),
					   rd_trace_name(t));
	}
}

static void losses_destroy(void *a)
{
	struct losses *l = a;

	u64map_free(&l->index);
	free(l->v);
	free(l);
}

const struct analysis analysis_losses = {
	.name = "losses",
	.help = "events discarded and packets lost per stream",
	.by_default = true,
	.create = losses_create,
	.classify = report_every_class,
	.event = losses_event,
	.discarded = losses_discarded,
	.print = losses_print,
	.destroy = losses_destroy,
};

/* ---- events per thread ---- */

struct thread_count {
	const struct rd_trace *trace;
	int64_t tid;
	uint64_t count;
};

struct threads {
	struct u64map by_key;		/* (trace number, tid) -> thread_count */
	struct u64map trace_nr;		/* trace -> its number + 1 */
	struct thread_count *last;
	const struct rd_stream *last_stream;
};

static void *threads_create(struct report_ctx *c)
{
	struct threads *th = report_zalloc(sizeof(*th));
	size_t i;

	for (i = 0; i < rd_reader_nr_traces(c->reader); i++)
		u64map_set(&th->trace_nr, (uintptr_t)rd_reader_trace(c->reader, i),
			   (void *)(uintptr_t)(i + 1));
	return th;
}

static void threads_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			  int tag, const struct rd_value *v)
{
	struct threads *th = a;
	const struct rd_trace *t;
	uint64_t key;

	(void)c;
	(void)tag;
	(void)v;
	if (th->last && th->last_stream == m->stream && th->last->tid == m->vtid) {
		th->last->count++;
		return;
	}
	t = rd_stream_trace(m->stream);
	key = ((uint64_t)(uintptr_t)u64map_get(&th->trace_nr, (uintptr_t)t) << 32) ^
	      (uint32_t)m->vtid;
	th->last = u64map_get(&th->by_key, key);
	if (!th->last) {
		th->last = report_zalloc(sizeof(*th->last));
		th->last->trace = t;
		th->last->tid = m->vtid;
		u64map_set(&th->by_key, key, th->last);
	}
	th->last_stream = m->stream;
	th->last->count++;
}

static struct order_key thread_rank(void *row)
{
	const struct thread_count *tc = row;

	return (struct order_key){ (int64_t)tc->count, tc->tid };
}

static void print_thread(const struct thread_count *tc, struct report_ctx *c,
			 FILE *out)
{
	fprintf(out, "%12" PRIu64 " %8" PRId64 " %8" PRId64 "  %s%s\n", tc->count,
		report_pid(c, tc->trace, tc->tid), tc->tid,
		report_comm(c, tc->trace, tc->tid),
		report_is_kernel(tc->trace) ? " [kernel]" : "");
}

static void threads_print(void *a, struct report_ctx *c, FILE *out)
{
	struct threads *th = a;
	struct thread_count **v =
		(struct thread_count **)order_values(&th->by_key, thread_rank);
	size_t i, n = th->by_key.nr;

	report_heading(out, "Events per thread");
	fprintf(out, "%12s %8s %8s  %s\n", "count", "pid", "tid", "command");
	for (i = 0; i < n && i < c->top; i++)
		print_thread(v[i], c, out);
	if (n > c->top)
		fprintf(out, "(%zu more threads; see --top)\n", n - c->top);
	free(v);
}

static void threads_destroy(void *a)
{
	struct threads *th = a;

	u64map_free_all(&th->by_key);
	u64map_free(&th->trace_nr);
	free(th);
}

const struct analysis analysis_threads = {
	.name = "threads",
	.help = "events per thread",
	.by_default = true,
	.create = threads_create,
	.classify = report_every_class,
	.event = threads_event,
	.print = threads_print,
	.destroy = threads_destroy,
};
