/*
 * analysis-syscalls.c - system call latency from the kernel's
 * syscall_entry_NAME / syscall_exit_NAME events: count, mean, p99 and
 * max per system call, and the slowest calls with their times.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An exit pairs with the last entry of the same thread (the stream
 * event context's tid) when it names the same call (kstate.h).  Exits
 * without their entry (the call began before the trace) and calls not
 * returned by the end are counted apart.  p99 is the nearest rank: the
 * ceil(0.99 n)-th smallest latency.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "kstate.h"
#include "tasks.h"

struct syscall_stats {
	const char *name;	/* without the prefix */
	uint64_t count;
	int64_t sum, max;
	int64_t *lat;		/* every latency, sorted when printing */
	size_t cap;
};

struct occurrence {
	int64_t begin, lat, tid;
	int call;
};

struct syscalls {
	struct syscall_stats *calls;
	size_t nr_calls;
	struct syscall_pairs pairs;
	struct occurrence *worst;	/* slowest first, up to top */
	size_t nr_worst;
	uint64_t unpaired_exits;
};

static void *syscalls_create(struct report_ctx *c)
{
	struct syscalls *s = report_zalloc(sizeof(*s));

	s->worst = report_zalloc((c->top + 1) * sizeof(*s->worst));
	return s;
}

static int call_index(struct syscalls *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_calls; i++) {
		if (!strcmp(s->calls[i].name, name))
			return (int)i;
	}
	s->calls = realloc(s->calls, (s->nr_calls + 1) * sizeof(*s->calls));
	if (!s->calls)
		abort();
	s->calls[s->nr_calls] = (struct syscall_stats){ .name = name };
	return (int)s->nr_calls++;
}

/* Tags: 2i + 1 for the entry of call i, 2i + 2 for its exit. */
static int syscalls_classify(void *a, const struct rd_trace *t,
			     const struct rd_event_class *ec, bool *fields)
{
	bool entry;
	const char *name = kstate_syscall_of(ec->name, &entry);

	(void)t;
	(void)fields;
	if (!name)
		return 0;
	return 2 * call_index(a, name) + (entry ? 1 : 2);
}

/* Keep the `top` slowest calls, slowest first (ties: earliest first). */
static void note_worst(struct syscalls *s, unsigned int top, const struct occurrence *o)
{
	size_t i = s->nr_worst;

	if (i == top && s->worst[i - 1].lat >= o->lat)
		return;
	if (i < top)
		s->nr_worst++;
	else
		i--;
	while (i > 0 && s->worst[i - 1].lat < o->lat) {
		s->worst[i] = s->worst[i - 1];
		i--;
	}
	s->worst[i] = *o;
}

static void record_latency(struct syscalls *s, unsigned int top,
			   const struct occurrence *o)
{
	struct syscall_stats *st = &s->calls[o->call];

	if (st->count == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 64;
		st->lat = realloc(st->lat, st->cap * sizeof(*st->lat));
		if (!st->lat)
			abort();
	}
	st->lat[st->count++] = o->lat;
	st->sum += o->lat;
	if (o->lat > st->max)
		st->max = o->lat;
	note_worst(s, top, o);
}

static void syscalls_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			   int tag, const struct rd_value *v)
{
	struct syscalls *s = a;
	struct occurrence o = { .tid = m->vtid, .call = (tag - 1) / 2 };

	(void)v;
	if (tag % 2) {
		kstate_syscall_entered_on(&s->pairs, m->vtid, o.call, m->ns, m->cpu);
		return;
	}
	if (!kstate_syscall_exited(&s->pairs, m->vtid, o.call, &o.begin)) {
		s->unpaired_exits++;
		return;
	}
	o.lat = m->ns - o.begin;
	record_latency(s, c->top, &o);
}

/* A loss in a CPU's stream: its calls in progress may have lost their exit. */
static void syscalls_discarded(void *a, struct report_ctx *c, const struct rd_msg *m)
{
	struct syscalls *s = a;

	(void)c;
	kstate_syscall_forget_cpu(&s->pairs, m->cpu);
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

static int by_count_then_name(const void *pa, const void *pb)
{
	const struct syscall_stats *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void print_calls(struct syscalls *s, FILE *out)
{
	struct syscall_stats *v = report_zalloc((s->nr_calls + 1) * sizeof(*v));
	char b1[32], b2[32], b3[32];
	size_t i;

	memcpy(v, s->calls, s->nr_calls * sizeof(*v));
	qsort(v, s->nr_calls, sizeof(*v), by_count_then_name);
	fprintf(out, "%-20s %10s %12s %12s %12s\n", "syscall", "count",
		"mean (us)", "p99 (us)", "max (us)");
	for (i = 0; i < s->nr_calls && v[i].count; i++) {
		size_t rank = (size_t)ceil(0.99 * (double)v[i].count);

		qsort(v[i].lat, v[i].count, sizeof(*v[i].lat), cmp_i64);
		fprintf(out, "%-20s %10" PRIu64 " %12s %12s %12s\n", v[i].name, v[i].count,
			report_usecs((double)v[i].sum / (double)v[i].count, b1),
			report_usecs((double)v[i].lat[rank - 1], b2),
			report_usecs((double)v[i].max, b3));
	}
	free(v);
}

static void print_worst(struct syscalls *s, struct report_ctx *c, FILE *out)
{
	char b1[32], b2[32];
	size_t i;

	fprintf(out, "\nSlowest %zu:\n", s->nr_worst);
	for (i = 0; i < s->nr_worst; i++) {
		const struct occurrence *o = &s->worst[i];
		struct task *k = tasks_find(c->tasks, o->tid);

		fprintf(out, "  [%s] %12s us  %-20s tid %" PRId64 " (%s)\n",
			report_time(c, o->begin, b1), report_usecs((double)o->lat, b2),
			s->calls[o->call].name, o->tid, k ? k->comm : "");
	}
}

static void syscalls_print(void *a, struct report_ctx *c, FILE *out)
{
	struct syscalls *s = a;

	report_heading(out, "System call latency");
	if (!s->nr_calls) {
		fputs("no syscall events (record with --kernel)\n", out);
		return;
	}
	print_calls(s, out);
	fprintf(out, "unpaired: %" PRIu64 " exits without their entry, %zu"
		" calls not returned by the end\n", s->unpaired_exits,
		kstate_syscalls_in_progress(&s->pairs));
	print_worst(s, c, out);
}

static void syscalls_destroy(void *a)
{
	struct syscalls *s = a;
	size_t i;

	for (i = 0; i < s->nr_calls; i++)
		free(s->calls[i].lat);
	kstate_syscall_pairs_free(&s->pairs);
	free(s->calls);
	free(s->worst);
	free(s);
}

const struct analysis analysis_syscalls = {
	.name = "syscalls",
	.help = "system call latency: count, mean, p99, max, slowest calls",
	.by_default = true,
	.create = syscalls_create,
	.classify = syscalls_classify,
	.event = syscalls_event,
	.discarded = syscalls_discarded,
	.print = syscalls_print,
	.destroy = syscalls_destroy,
};
