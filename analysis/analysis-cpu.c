/*
 * analysis-cpu.c - CPU usage per process, in total and over time, from
 * the kernel's sched_switch events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * On each CPU, a sched_switch at time T ends the slice of prev_tid
 * (begun at the previous sched_switch of that CPU) and begins the slice
 * of next_tid (kstate.h).  What ran before a CPU's first sched_switch
 * is unknown and not counted; the last slice of each CPU runs to the
 * last event of the report.  Thread slices go to their process
 * (tasks.h) when the report prints; tid 0 is the idle task.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "kstate.h"
#include "order.h"
#include "tasks.h"

#define MAX_COLUMNS	8	/* processes in the over-time table */

struct cpu_usage {
	struct switch_fields *classes;
	size_t nr_classes;
	struct sched_cpus cpus;
	struct slice *slices;
	size_t nr_slices, cap_slices;
};

struct proc_usage {
	int64_t pid;
	const char *comm;
	int64_t total;
	int64_t *buckets;
};

static void *cpu_create(struct report_ctx *c)
{
	(void)c;
	return report_zalloc(sizeof(struct cpu_usage));
}

static int cpu_classify(void *a, const struct rd_trace *t,
			const struct rd_event_class *ec, bool *fields)
{
	struct cpu_usage *u = a;

	(void)t;
	if (strcmp(ec->name, "sched_switch"))
		return 0;
	u->classes = report_realloc(u->classes, u->nr_classes + 1, sizeof(*u->classes));
	kstate_switch_fields_of(ec, &u->classes[u->nr_classes]);
	*fields = true;
	return (int)++u->nr_classes;
}

static void add_slice(struct cpu_usage *u, const struct slice *s)
{
	if (s->end <= s->begin)
		return;
	if (u->nr_slices == u->cap_slices) {
		u->cap_slices = u->cap_slices ? 2 * u->cap_slices : 1024;
		u->slices = report_realloc(u->slices, u->cap_slices, sizeof(*u->slices));
	}
	u->slices[u->nr_slices++] = *s;
}

static void cpu_event(void *a, struct report_ctx *c, const struct rd_msg *m,
		      int tag, const struct rd_value *v)
{
	struct cpu_usage *u = a;
	const struct switch_fields *k = &u->classes[tag - 1];
	struct slice s;

	(void)c;
	if (kstate_sched_switch_at(&u->cpus, m->cpu, m->ns, report_int(v, k->prev_tid, -1),
			    report_int(v, k->next_tid, -1), &s))
		add_slice(u, &s);
}

/* The process of thread `tid`, with its name. */
static struct proc_usage *proc_of(struct u64map *procs, struct tasks *tasks,
				  int64_t tid, size_t nb)
{
	struct task *k = tasks_find(tasks, tid), *leader;
	int64_t pid = k ? k->pid : tid;
	struct proc_usage *p = u64map_get(procs, (uint64_t)pid);

	if (!p) {
		p = report_zalloc(sizeof(*p));
		p->buckets = report_zalloc((nb + 1) * sizeof(*p->buckets));
		p->pid = pid;
		leader = tasks_find(tasks, pid);
		p->comm = leader && leader->comm[0] ? leader->comm : k ? k->comm : "";
		u64map_set(procs, (uint64_t)pid, p);
	}
	return p;
}

/* Add [b, e) to the buckets of `interval` ns from `origin` it overlaps. */
static void spread(int64_t *buckets, size_t nb, int64_t origin, int64_t interval,
		   int64_t b, int64_t e)
{
	size_t i = (size_t)((b - origin) / interval);

	for (; i < nb && origin + (int64_t)i * interval < e; i++) {
		int64_t lo = origin + (int64_t)i * interval, hi = lo + interval;

		buckets[i] += (e < hi ? e : hi) - (b > lo ? b : lo);
	}
}

static struct order_key proc_rank(void *row)
{
	const struct proc_usage *p = row;

	return (struct order_key){ p->total, p->pid };
}

static void print_over_time(struct proc_usage **v, size_t n, size_t nb,
			    const struct report_ctx *c, int64_t interval, FILE *out)
{
	char buf[32];
	size_t i, j;

	if (n > MAX_COLUMNS)
		n = MAX_COLUMNS;
	fprintf(out, "\nOver time: %% of one CPU per %s s, from the first event:\n%14s",
		report_secs(interval, buf), "start (s)");
	for (j = 0; j < n; j++)
		fprintf(out, " %9" PRId64, v[j]->pid);
	fputc('\n', out);
	for (i = 0; i < nb; i++) {
		int64_t start = (int64_t)i * interval, len = report_span(c) - start;

		if (len > interval)
			len = interval;
		fprintf(out, "%14s", report_secs(start, buf));
		for (j = 0; j < n; j++)
			fprintf(out, " %9.1f", 100.0 * (double)v[j]->buckets[i] / (double)len);
		fputc('\n', out);
	}
}

/* Per-process totals and buckets of every slice; the idle time. */
static int64_t tally(struct cpu_usage *u, struct report_ctx *c, struct u64map *procs,
		     int64_t interval, size_t nb, int64_t *busy)
{
	int64_t idle = 0;
	size_t i;

	for (i = 0; i < u->nr_slices; i++) {
		const struct slice *s = &u->slices[i];
		struct proc_usage *p;

		if (s->tid == 0) {
			idle += s->end - s->begin;
			continue;
		}
		p = proc_of(procs, c->tasks, s->tid, nb);
		p->total += s->end - s->begin;
		*busy += s->end - s->begin;
		spread(p->buckets, nb, c->first_ns, interval, s->begin, s->end);
	}
	return idle;
}

static void cpu_print(void *a, struct report_ctx *c, FILE *out)
{
	struct cpu_usage *u = a;
	int64_t span = report_span(c), interval, idle, busy = 0;
	struct u64map procs = { 0 };
	struct proc_usage **v;
	size_t i, nb, nr_cpus = 0;
	char b1[32], b2[32], b3[32];
	struct slice s;

	report_heading(out, "CPU usage per process (sched_switch)");
	for (i = 0; i < KSTATE_MAX_CPUS; i++) {
		if (kstate_sched_running(&u->cpus, i, c->last_ns, &s)) {
			nr_cpus++;
			add_slice(u, &s);
		}
	}
	if (!nr_cpus || span <= 0) {
		fputs("no sched_switch events (record with --kernel)\n", out);
		return;
	}
	interval = c->interval_ns ? c->interval_ns : (span + 9) / 10;
	nb = (size_t)((span + interval - 1) / interval);
	idle = tally(u, c, &procs, interval, nb, &busy);
	fprintf(out, "%zu CPU%s over %s s: %s s busy, %s s idle\n", nr_cpus,
		nr_cpus == 1 ? "" : "s", report_secs(span, b1), report_secs(busy, b2),
		report_secs(idle, b3));
	fprintf(out, "%9s  %-16s %16s %7s\n", "pid", "command", "cpu time (s)", "share");
	v = (struct proc_usage **)order_values(&procs, proc_rank);
	for (i = 0; i < procs.nr && i < c->top; i++)
		fprintf(out, "%9" PRId64 "  %-16s %16s %6.1f%%\n", v[i]->pid, v[i]->comm,
			report_secs(v[i]->total, b1),
			100.0 * (double)v[i]->total / ((double)span * (double)nr_cpus));
	if (procs.nr > c->top)
		fprintf(out, "(%zu more processes; see --top)\n", procs.nr - c->top);
	print_over_time(v, procs.nr < c->top ? procs.nr : c->top, nb, c, interval, out);
	for (i = 0; i < procs.nr; i++) {
		free(v[i]->buckets);
		free(v[i]);
	}
	free(v);
	u64map_free(&procs);
}

static void cpu_destroy(void *a)
{
	struct cpu_usage *u = a;

	free(u->classes);
	free(u->slices);
	free(u);
}

const struct analysis analysis_cpu = {
	.name = "cpu",
	.help = "CPU usage per process over time (kernel sched_switch)",
	.by_default = true,
	.create = cpu_create,
	.classify = cpu_classify,
	.event = cpu_event,
	.print = cpu_print,
	.destroy = cpu_destroy,
};
