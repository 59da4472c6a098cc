/*
 * analysis-kthread.c - the report's --thread TID and --between A B
 * sections: where one thread's time went, and the kernel activity of a
 * thread between two of its user-space events (kmodel.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A watched thread is running from the sched_switch that runs it to the
 * one that takes it off; runnable from a wakeup (or a preemption) to
 * running; blocked from a switch away in any other state to its wakeup.
 * A blocked period belongs to the system call it happened in, and ends
 * with a wakeup whose context is the waker: the first step of the
 * thread's critical path, with what the waker was doing then (its own
 * system call).  Time before the thread's first known state is
 * "unknown".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"
#include "order.h"
#include "tasks.h"

static const char *comm_of(struct report_ctx *c, int64_t tid)
{
	struct task *k = tid >= 0 ? tasks_find(c->tasks, tid) : NULL;

	if (tid < 0)
		return "(not seen)";
	if (tid == 0)
		return "(interrupt)";
	return k && k->comm[0] ? k->comm : "?";
}

static struct order_key call_by_time(void *row)
{
	const struct km_call_time *ct = row;

	return (struct order_key){ ct->time, ct->call };
}

static struct order_key waker_by_blocked(void *row)
{
	const struct km_waker *w = row;

	return (struct order_key){ w->blocked, w->tid };
}

static int block_by_length(const void *pa, const void *pb)
{
	const struct km_block *a = pa, *b = pb;

	return order_compare(order_span(a->begin, a->end), order_span(b->begin, b->end));
}

static void calls_table(struct kmodel *m, struct report_ctx *c, struct km_profile *p,
			const char *table, FILE *out)
{
	struct km_call_time **v = (struct km_call_time **)order_values(&p->calls, call_by_time);
	char b1[32], b2[32];
	size_t i;

	if (c->csv)
		fprintf(out, "\ntable,call,count,time_ns,blocked_ns\n");
	else
		fprintf(out, "\nsystem calls (entry to exit; of it blocked):\n%-20s %8s %16s %16s\n",
			"call", "count", "time (s)", "blocked (s)");
	for (i = 0; i < p->calls.nr && (c->csv || i < c->top); i++) {
		if (c->csv)
			fprintf(out, "%s,%s,%" PRIu64 ",%" PRId64 ",%" PRId64 "\n", table,
				kmodel_call_name(m, v[i]->call), v[i]->count, v[i]->time,
				v[i]->blocked);
		else
			fprintf(out, "%-20s %8" PRIu64 " %16s %16s\n", kmodel_call_name(m, v[i]->call),
				v[i]->count, report_secs(v[i]->time, b1), report_secs(v[i]->blocked, b2));
	}
	free(v);
}

static void wakers_table(struct kmodel *m, struct report_ctx *c, struct km_profile *p,
			 const char *table, FILE *out)
{
	struct km_waker **v = (struct km_waker **)order_values(&p->wakers, waker_by_blocked);
	char b[32];
	size_t i;

	if (c->csv)
		fputs("\ntable,waker_tid,command,wakeups,blocked_ns,waker_call\n", out);
	else
		fprintf(out, "\nblocked, by who woke it (and what the waker was in):\n%9s  %-16s %8s"
			" %16s  %s\n", "tid", "command", "wakeups", "blocked (s)", "waker in");
	for (i = 0; i < p->wakers.nr && (c->csv || i < c->top); i++) {
		if (c->csv) {
			fprintf(out, "%s,%" PRId64 ",", table, v[i]->tid);
			report_csv_str(out, comm_of(c, v[i]->tid));
			fprintf(out, ",%" PRIu64 ",%" PRId64 ",%s\n", v[i]->count, v[i]->blocked,
				kmodel_call_name(m, v[i]->waker_call));
		} else {
			fprintf(out, "%9" PRId64 "  %-16s %8" PRIu64 " %16s  %s\n", v[i]->tid,
				comm_of(c, v[i]->tid), v[i]->count, report_secs(v[i]->blocked, b),
				kmodel_call_name(m, v[i]->waker_call));
		}
	}
	free(v);
}

static void states_line(struct report_ctx *c, const struct km_profile *p, const char *table,
			FILE *out)
{
	char b[4][32];

	if (c->csv) {
		fprintf(out, "table,running_ns,runnable_ns,blocked_ns,unknown_ns\n%s,%" PRId64 ",%"
			PRId64 ",%" PRId64 ",%" PRId64 "\n", table, p->running, p->runnable,
			p->blocked, p->unknown);
		return;
	}
	fprintf(out, "running %s s, runnable %s s, blocked %s s, unknown %s s\n",
		report_secs(p->running, b[0]), report_secs(p->runnable, b[1]),
		report_secs(p->blocked, b[2]), report_secs(p->unknown, b[3]));
}

static void longest_blocks(struct kmodel *m, struct report_ctx *c, FILE *out)
{
	char b1[32], b2[32];
	size_t i;

	qsort(m->blocks, m->nr_blocks, sizeof(*m->blocks), block_by_length);
	fprintf(out, "\nlongest blocked periods (top %u):\n", c->top);
	for (i = 0; i < m->nr_blocks && i < c->top; i++) {
		const struct km_block *k = &m->blocks[i];

		fprintf(out, "  [%s] %12s us  in %-16s woken by %" PRId64 " (%s) in %s\n",
			report_time(c, k->begin, b1), report_usecs((double)(k->end - k->begin), b2),
			kmodel_call_name(m, k->call), k->waker, comm_of(c, k->waker),
			kmodel_call_name(m, k->waker_call));
	}
}

static void thread_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct task *k = tasks_find(c->tasks, m->thread_tid);

	if (!c->csv) {
		fprintf(out, "\n== Thread %" PRId64 " (%s, process %" PRId64 ") ==\n",
			m->thread_tid, k && k->comm[0] ? k->comm : "?", k ? k->pid : m->thread_tid);
		kmodel_scope_note(m, out);
	}
	if (!k && !m->thread.calls.nr && !m->thread.running) {
		if (!c->csv)
			fputs("no kernel event of this thread\n", out);
		return;
	}
	states_line(c, &m->thread, "thread-state", out);
	calls_table(m, c, &m->thread, "thread-call", out);
	wakers_table(m, c, &m->thread, "thread-waker", out);
	if (!c->csv)
		longest_blocks(m, c, out);
}

/* No help: --thread TID is an option with an argument (report.c). */
const struct analysis analysis_thread = KMODEL_SECTION("thread", NULL, KM_THREAD, thread_print);

/* ---- --between ---- */

static uint64_t calls_of(const struct km_profile *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->calls.cap; i++) {
		if (p->calls.vals[i])
			n += ((const struct km_call_time *)p->calls.vals[i])->count;
	}
	return n;
}

static int interval_by_length(const void *pa, const void *pb)
{
	const struct km_interval *a = pa, *b = pb;

	return order_compare(order_span(a->begin, a->end), order_span(b->begin, b->end));
}

static void interval_row(struct kmodel *m, struct report_ctx *c, const struct km_interval *iv,
			 FILE *out)
{
	const struct km_profile *p = &iv->prof;
	char b[6][32];

	(void)m;
	if (c->csv) {
		fprintf(out, "between-interval,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%"
			PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			iv->begin, iv->end, iv->tid, p->running, p->runnable, p->blocked,
			p->unknown, calls_of(p), p->rbytes, p->wbytes);
		return;
	}
	fprintf(out, "  [%s] %12s %8" PRId64 " %12s %12s %12s %8" PRIu64 " %10" PRIu64 " %10"
		PRIu64 "\n", report_time(c, iv->begin, b[0]),
		report_usecs((double)(iv->end - iv->begin), b[1]), iv->tid,
		report_usecs((double)p->running, b[2]), report_usecs((double)p->runnable, b[3]),
		report_usecs((double)p->blocked, b[4]), calls_of(p), p->rbytes, p->wbytes);
}

/* Every interval's profile added up (calls and wakers merged). */
static void sum_profiles(struct kmodel *m, struct km_profile *sum)
{
	size_t i, j;

	for (i = 0; i < m->nr_intervals; i++) {
		const struct km_profile *p = &m->intervals[i].prof;

		sum->running += p->running;
		sum->runnable += p->runnable;
		sum->blocked += p->blocked;
		sum->unknown += p->unknown;
		sum->rbytes += p->rbytes;
		sum->wbytes += p->wbytes;
		for (j = 0; j < p->calls.cap; j++) {
			const struct km_call_time *ct = p->calls.vals[j];
			struct km_call_time *to;

			if (!ct)
				continue;
			to = u64map_get(&sum->calls, (uint64_t)ct->call + 1);
			if (!to) {
				to = report_zalloc(sizeof(*to));
				to->call = ct->call;
				u64map_set(&sum->calls, (uint64_t)ct->call + 1, to);
			}
			to->count += ct->count;
			to->time += ct->time;
			to->blocked += ct->blocked;
		}
	}
}

static void between_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_profile sum = { 0 };
	size_t i;

	if (c->csv) {
		fputs("table,begin_ns,end_ns,tid,running_ns,runnable_ns,blocked_ns,unknown_ns,"
		      "syscalls,read_bytes,written_bytes\n", out);
	} else {
		fprintf(out, "\n== Between %s and %s ==\n", m->between[0], m->between[1]);
		kmodel_scope_note(m, out);
		fprintf(out, "%zu intervals (each thread from %s to its next %s)\n", m->nr_intervals,
			m->between[0], m->between[1]);
		if (!m->nr_intervals)
			return;
	}
	qsort(m->intervals, m->nr_intervals, sizeof(*m->intervals), interval_by_length);
	if (!c->csv)
		fprintf(out, "slowest %u (us; bytes read and written by system calls):\n"
			"  %-20s %12s %8s %12s %12s %12s %8s %10s %10s\n", c->top, "begin",
			"duration", "tid", "running", "runnable", "blocked", "syscalls", "read",
			"written");
	for (i = 0; i < m->nr_intervals && (c->csv || i < c->top); i++)
		interval_row(m, c, &m->intervals[i], out);
	sum_profiles(m, &sum);
	if (!c->csv)
		fputs("\nall intervals: ", out);
	else
		fputc('\n', out);
	states_line(c, &sum, "between-state", out);
	calls_table(m, c, &sum, "between-call", out);
	u64map_free_all(&sum.calls);
}

/* No help: --between A B takes two arguments (report.c). */
const struct analysis analysis_between = KMODEL_SECTION("between", NULL, KM_BETWEEN, between_print);
