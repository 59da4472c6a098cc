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
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "kstate.h"
#include "latency.h"
#include "tasks.h"

struct syscall_stats {
	const char *name;	/* without the prefix; first (report_name_index()) */
	struct latency lat;	/* of every call */
};

struct syscalls {
	struct syscall_stats *calls;
	size_t nr_calls;
	struct syscall_pairs pairs;
	struct latency_case *worst;	/* slowest first, up to top */
	size_t nr_worst;
	uint64_t unpaired_exits;
};

static void *syscalls_create(struct report_ctx *c)
{
	struct syscalls *s = report_zalloc(sizeof(*s));

	s->worst = report_zalloc((c->top + 1) * sizeof(*s->worst));
	return s;
}

/* Tags: 2i + 1 for the entry of call i, 2i + 2 for its exit. */
static int syscalls_classify(void *a, const struct rd_trace *t,
			     const struct rd_event_class *ec, bool *fields)
{
	struct syscalls *s = a;
	bool entry;
	const char *name = kstate_syscall_of(ec->name, &entry);
	size_t i;

	(void)t;
	(void)fields;
	if (!name)
		return 0;
	s->calls = report_name_index(s->calls, &s->nr_calls, sizeof(*s->calls), name, &i);
	return 2 * (int)i + (entry ? 1 : 2);
}

static void record_latency(struct syscalls *s, unsigned int top,
			   const struct latency_case *o)
{
	latency_add(&s->calls[o->call].lat, o->lat);
	latency_note_worst(s->worst, &s->nr_worst, top, o);
}

static void syscalls_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			   int tag, const struct rd_value *v)
{
	struct syscalls *s = a;
	struct latency_case o = { .tid = m->vtid, .call = (tag - 1) / 2 };

	(void)v;
	if (tag % 2) {
		kstate_syscall_entered_on(&s->pairs, m->vtid, o.call, m->ns, m->cpu);
		return;
	}
	if (!kstate_syscall_exited(&s->pairs, m->vtid, o.call, &o.at)) {
		s->unpaired_exits++;
		return;
	}
	o.lat = m->ns - o.at;
	record_latency(s, c->top, &o);
}

/* A loss in a CPU's stream: its calls in progress may have lost their exit. */
static void syscalls_discarded(void *a, struct report_ctx *c, const struct rd_msg *m)
{
	struct syscalls *s = a;

	(void)c;
	kstate_syscall_forget_cpu(&s->pairs, m->cpu);
}

static int by_count_then_name(const void *pa, const void *pb)
{
	const struct syscall_stats *a = pa, *b = pb;

	if (a->lat.n != b->lat.n)
		return a->lat.n > b->lat.n ? -1 : 1;
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
	for (i = 0; i < s->nr_calls && v[i].lat.n; i++) {
		struct latency *l = &v[i].lat;

		fprintf(out, "%-20s %10zu %12s %12s %12s\n", v[i].name, l->n,
			report_usecs(latency_mean(l), b1),
			report_usecs((double)latency_rank(l, 0.99), b2),
			report_usecs((double)l->max, b3));
	}
	free(v);
}

static void print_worst(struct syscalls *s, struct report_ctx *c, FILE *out)
{
	char b1[32], b2[32];
	size_t i;

	fprintf(out, "\nSlowest %zu:\n", s->nr_worst);
	for (i = 0; i < s->nr_worst; i++) {
		const struct latency_case *o = &s->worst[i];
		struct task *k = tasks_find(c->tasks, o->tid);

		fprintf(out, "  [%s] %12s us  %-20s tid %" PRId64 " (%s)\n",
			report_time(c, o->at, b1), report_usecs((double)o->lat, b2),
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
		latency_free(&s->calls[i].lat);
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
