/*
 * analysis-functions.c - `ust report --functions`: a flat profile (per
 * function: calls, total and self time, sorted by self time) and a call
 * graph (per function: its callers and callees with call counts), from
 * the per-thread call stacks of the function-tracing events
 * (calltrack.h, doc/ust-report.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Total time counts only the outermost activation of a function on its
 * thread's stack, so that a recursive function's total is not counted
 * once per level; self time is the time of a call less that of the
 * calls it made.  Calls still open at the end of the trace are closed at
 * their thread's last event, and counted as such.  By default the
 * section is printed only when the traces have function calls.
 *
 * A trace that lost events gives a profile that is wrong, not just
 * smaller: calls are missing, and an exit whose entry was lost closes
 * the wrong call.  The section then says so first, before any number,
 * and again above the tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "calltrack.h"

#define NO_CALLER	0xffffffffu

struct func_stat {
	uint64_t calls;
	int64_t total_ns, self_ns;
};

struct edge {
	uint32_t caller, callee;	/* NO_CALLER: the thread's first frame */
	uint64_t calls;
};

struct functions {
	struct calltrack ct;
	struct func_stat *stats;	/* per function index */
	size_t cap;
	struct u64map active;		/* (thread, function) -> activations + 1 */
	struct u64map edges;		/* (caller + 1, callee) -> edge */
	uint64_t calls, at_end, unmatched;
	/* Losses of the user-space traces (discarded messages). */
	uint64_t lost_events, lost_packets;
	bool lost_unknown;		/* a count babeltrace2 would not know */
};

/* Activations of function `f` on thread `th`'s stack, changed by `d`. */
static uint64_t activations(struct functions *x, const struct ct_thread *th,
			    uint32_t f, int d)
{
	uint64_t key = (uint64_t)th->idx << 32 | f;
	uintptr_t n = (uintptr_t)u64map_get(&x->active, key);

	n = (n ? n - 1 : 0) + (uintptr_t)d;
	u64map_set(&x->active, key, (void *)(n + 1));
	return n;
}

static void count_edge(struct functions *x, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)(uint32_t)(caller + 1) << 32 | callee;
	struct edge *e = u64map_get(&x->edges, key);

	if (!e) {
		e = report_zalloc(sizeof(*e));
		e->caller = caller;
		e->callee = callee;
		u64map_set(&x->edges, key, e);
	}
	e->calls++;
}

static void on_enter(void *a, struct ct_thread *th, int64_t ns)
{
	struct functions *x = a;
	uint32_t f = th->stack[th->depth - 1].func;

	(void)ns;
	x->stats = calltrack_per_func(x->stats, &x->cap, sizeof(*x->stats), f);
	x->stats[f].calls++;
	x->calls++;
	activations(x, th, f, 1);
	count_edge(x, th->depth > 1 ? th->stack[th->depth - 2].func : NO_CALLER, f);
}

static void on_leave(void *a, struct ct_thread *th, int64_t ns, bool at_end)
{
	struct functions *x = a;
	const struct ct_frame *fr = &th->stack[th->depth - 1];
	struct func_stat *s = &x->stats[fr->func];
	int64_t d = ns - fr->begin_ns;

	s->self_ns += d - fr->child_ns;
	if (!activations(x, th, fr->func, -1))
		s->total_ns += d;
	x->at_end += at_end;
}

static void on_unmatched(void *a, struct ct_thread *th, int64_t ns)
{
	(void)th;
	(void)ns;
	((struct functions *)a)->unmatched++;
}

static const struct ct_ops functions_ops = {
	.enter = on_enter,
	.leave = on_leave,
	.unmatched = on_unmatched,
};

static void *functions_create(struct report_ctx *c)
{
	struct functions *x = report_zalloc(sizeof(*x));

	(void)c;
	calltrack_init(&x->ct, &functions_ops, x);
	return x;
}

static int functions_classify(void *a, const struct rd_trace *t,
			      const struct rd_event_class *ec, bool *fields)
{
	(void)a;
	*fields = false;
	return (int)calltrack_classify(t, ec);
}

static void functions_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			    int tag, const struct rd_value *v)
{
	struct functions *x = a;

	(void)c;
	(void)v;
	calltrack_event(&x->ct, m, (enum ct_kind)tag);
}

/* Function indexes by self time, most first, then by name. */
static const struct functions *sort_x;

static int by_self(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t sa = sort_x->stats[a].self_ns, sb = sort_x->stats[b].self_ns;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	return strcmp(calltrack_name(&sort_x->ct, a), calltrack_name(&sort_x->ct, b));
}

static uint32_t *by_self_time(const struct functions *x)
{
	uint32_t *order = report_zalloc((x->ct.nr_funcs + 1) * sizeof(*order));
	uint32_t i;

	for (i = 0; i < x->ct.nr_funcs; i++)
		order[i] = i;
	sort_x = x;
	qsort(order, x->ct.nr_funcs, sizeof(*order), by_self);
	return order;
}

static void print_flat(const struct functions *x, const uint32_t *order,
		       size_t rows, FILE *out)
{
	int64_t all = 0;
	char b1[32], b2[32];
	size_t i;

	for (i = 0; i < x->ct.nr_funcs; i++)
		all += x->stats[i].self_ns;
	fprintf(out, "flat profile, by self time (top %zu):\n", rows);
	fprintf(out, "%7s %14s %14s %12s  %s\n", "self%", "self s", "total s",
		"calls", "function");
	for (i = 0; i < rows; i++) {
		const struct func_stat *s = &x->stats[order[i]];

		fprintf(out, "%6.2f%% %14s %14s %12" PRIu64 "  %s\n",
			all > 0 ? 100.0 * (double)s->self_ns / (double)all : 0.0,
			report_secs(s->self_ns, b1), report_secs(s->total_ns, b2),
			s->calls, calltrack_name(&x->ct, order[i]));
	}
}

/* The edges into (callees = false) or out of function `f`, most first. */
static int by_calls(const void *pa, const void *pb)
{
	const struct edge *a = *(struct edge *const *)pa, *b = *(struct edge *const *)pb;

	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return a->caller != b->caller ? (a->caller < b->caller ? -1 : 1) :
		(a->callee < b->callee ? -1 : a->callee > b->callee);
}

static void print_edges(const struct functions *x, struct edge **all, uint32_t f,
			bool callees, FILE *out)
{
	size_t i;

	for (i = 0; i < x->edges.nr; i++) {
		const struct edge *e = all[i];
		uint32_t other = callees ? e->callee : e->caller;

		if ((callees ? e->caller : e->callee) != f)
			continue;
		fprintf(out, "    %-6s %12" PRIu64 "  %s\n", callees ? "calls" : "from",
			e->calls, other == NO_CALLER ? "(thread start)" :
			calltrack_name(&x->ct, other));
	}
}

static void print_graph(const struct functions *x, const uint32_t *order,
			size_t rows, FILE *out)
{
	struct edge **all = (struct edge **)u64map_values(&x->edges);
	size_t i;

	qsort(all, x->edges.nr, sizeof(*all), by_calls);
	fprintf(out, "\ncall graph (top %zu): callers (from) and callees (calls)"
		" with call counts\n", rows);
	for (i = 0; i < rows; i++) {
		fprintf(out, "%s: %" PRIu64 " calls\n", calltrack_name(&x->ct, order[i]),
			x->stats[order[i]].calls);
		print_edges(x, all, order[i], false, out);
		print_edges(x, all, order[i], true, out);
	}
	free(all);
}

/* Discarded events or packets of a user-space trace. */
static void functions_discarded(void *a, struct report_ctx *c, const struct rd_msg *m)
{
	struct functions *x = a;

	(void)c;
	if (report_is_kernel(rd_stream_trace(m->stream)))
		return;
	if (m->count == UINT64_MAX)
		x->lost_unknown = true;
	else if (m->kind == RD_MSG_DISCARDED_EVENTS)
		x->lost_events += m->count;
	else
		x->lost_packets += m->count;
}

static bool lossy(const struct functions *x)
{
	return x->lost_events || x->lost_packets || x->lost_unknown;
}

/* The warning of a lossy trace, where the numbers are. */
static void print_loss_warning(const struct functions *x, const struct report_ctx *c,
			       FILE *out)
{
	fputs("WARNING: INCOMPLETE PROFILE: the trace lost ", out);
	if (x->lost_events)
		fprintf(out, "%" PRIu64 " events (%.1f%% of %" PRIu64 " recorded + lost)",
			x->lost_events, 100.0 * (double)x->lost_events /
			(double)(x->lost_events + c->nr_events), x->lost_events + c->nr_events);
	if (x->lost_events && (x->lost_packets || x->lost_unknown))
		fputs(" and ", out);
	if (x->lost_packets)
		fprintf(out, "%" PRIu64 " packets", x->lost_packets);
	else if (x->lost_unknown)
		fputs("an unknown number of events", out);
	fputs(".\nWARNING: the calls and times below miss what was lost, and an exit whose "
	      "entry was lost\nWARNING: closed another call: record again without loss "
	      "(ust record --functions blocks\nWARNING: rather than lose; else raise "
	      "--subbuf-size or --subbuf-count).\n", out);
}

static void functions_print(void *a, struct report_ctx *c, FILE *out)
{
	struct functions *x = a;
	uint32_t *order;
	size_t rows;

	calltrack_finish(&x->ct, NULL);
	if (!x->calls && !c->picked)
		return;		/* by default: only for traces with calls */
	report_heading(out, "Functions");
	if (!x->calls) {
		fputs("no function events (record with --functions)\n", out);
		return;
	}
	if (lossy(x))
		print_loss_warning(x, c, out);
	fprintf(out, "%" PRIu64 " calls of %" PRIu32 " functions in %" PRIu32
		" thread%s%s\n", x->calls, x->ct.nr_funcs, x->ct.nr_threads,
		x->ct.nr_threads == 1 ? "" : "s", lossy(x) ? " (INCOMPLETE: events lost)" : "");
	fprintf(out, "unpaired: %" PRIu64 " calls not returned by the end (closed at"
		" their thread's last event), %" PRIu64 " exits without their entry\n",
		x->at_end, x->unmatched);
	if (x->ct.error)
		fprintf(out, "warning: %s (ignored)\n", x->ct.error);
	order = by_self_time(x);
	rows = x->ct.nr_funcs < c->top ? x->ct.nr_funcs : c->top;
	if (lossy(x))
		fputs("WARNING: INCOMPLETE PROFILE (events lost, above): the counts and "
		      "times below are wrong\n", out);
	print_flat(x, order, rows, out);
	print_graph(x, order, rows, out);
	free(order);
}

static void functions_destroy(void *a)
{
	struct functions *x = a;

	calltrack_release(&x->ct);
	u64map_free(&x->active);
	u64map_free_all(&x->edges);
	free(x->stats);
	free(x);
}

const struct analysis analysis_functions = {
	.name = "functions",
	.help = "function profile and call graph (ust record --functions)",
	.by_default = true,
	.create = functions_create,
	.classify = functions_classify,
	.event = functions_event,
	.discarded = functions_discarded,
	.print = functions_print,
	.destroy = functions_destroy,
};
