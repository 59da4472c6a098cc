/*
 * export-formats.c - the formats of `ust export`, each an analysis
 * (analysis.h) that writes to c->out: csv (one row per event), chrome
 * (the Trace Event JSON of chrome://tracing and Perfetto) and folded
 * (stack;frames count lines for flame graphs).  doc/ust-export.md.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "calltrack.h"
#include "kstate.h"
#include "tasks.h"
#include "u64map.h"

/* ---- csv ---- */

struct csv {
	struct rd_out payload;
};

static void *csv_create(struct report_ctx *c)
{
	struct csv *x = report_zalloc(sizeof(*x));

	rd_out_init(&x->payload, NULL);
	fputs("time_ns,event,trace,cpu,pid,tid,fields\n", c->out);
	return x;
}

/* RFC 4180: in double quotes, a double quote doubled. */
static void csv_quoted(FILE *out, const char *s, size_t n)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void csv_event(void *a, struct report_ctx *c, const struct rd_msg *m,
		      int tag, const struct rd_value *v)
{
	struct csv *x = a;
	const struct rd_trace *t = rd_stream_trace(m->stream);

	(void)tag;
	(void)v;
	if (!export_keep(c, m->vtid, m->ns, m->ns, true))
		return;
	x->payload.len = 0;
	if (rd_reader_print_payload(c->reader, m, &x->payload))
		x->payload.len = 0;	/* the reader stops at the next event */
	fprintf(c->out, "%" PRId64 ",", m->ns);
	csv_quoted(c->out, m->ec->name, strlen(m->ec->name));
	fputc(',', c->out);
	csv_quoted(c->out, rd_trace_name(t), strlen(rd_trace_name(t)));
	fprintf(c->out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", m->cpu,
		report_pid(c, t, m->vtid), m->vtid);
	csv_quoted(c->out, x->payload.buf, x->payload.len);
	fputc('\n', c->out);
}

static void csv_destroy(void *a)
{
	struct csv *x = a;

	rd_out_release(&x->payload);
	free(x);
}

const struct analysis export_csv = {
	.name = "csv",
	.create = csv_create,
	.classify = report_every_class,
	.event = csv_event,
	.destroy = csv_destroy,
};

/* ---- chrome ---- */

enum chrome_tag {
	CHROME_INSTANT = 1,
	CHROME_SWITCH,
	CHROME_USER,		/* + the calltrack kind of a user event */
	CHROME_SYSCALL = CHROME_USER + CT_OTHER + 1,
				/* + 2 * call (entry), + 2 * call + 1 (exit) */
};

struct thread_seen {
	const struct rd_trace *trace;
	int64_t tid;
};

struct chrome {
	struct report_ctx *c;
	struct calltrack ct;		/* function calls: "B" and "E" events */
	bool any;
	struct sched_cpus cpus;
	struct switch_fields sw;
	const struct rd_trace *kernel;	/* of the sched_switch events */
	struct syscall_pairs pairs;
	const char **calls;		/* system call names (report_name_index()) */
	size_t nr_calls;
	struct u64map threads;		/* (pid, tid) -> thread_seen */
};

static void chrome_leave(void *a, struct ct_thread *th, int64_t ns, bool at_end);

static const struct ct_ops chrome_ops = {
	.leave = chrome_leave,
};

static void *chrome_create(struct report_ctx *c)
{
	struct chrome *x = report_zalloc(sizeof(struct chrome));

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", c->out);
	x->c = c;
	calltrack_init(&x->ct, &chrome_ops, x);
	return x;
}

/* A JSON string: bytes outside printable ASCII as \u00XX. */
static void json_str(FILE *out, const char *s, size_t n)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static int chrome_classify(void *a, const struct rd_trace *t,
			   const struct rd_event_class *ec, bool *fields)
{
	struct chrome *x = a;
	const char *call;
	bool entry;
	size_t i;

	*fields = true;
	if (!report_is_kernel(t))
		return CHROME_USER + (int)calltrack_classify(t, ec);
	if (!strcmp(ec->name, "sched_switch")) {
		kstate_switch_fields_of(ec, &x->sw);
		return CHROME_SWITCH;
	}
	call = kstate_syscall_of(ec->name, &entry);
	if (call) {
		*fields = false;
		x->calls = report_name_index(x->calls, &x->nr_calls, sizeof(*x->calls), call, &i);
		return CHROME_SYSCALL + 2 * (int)i + !entry;
	}
	return CHROME_INSTANT;
}

/* The common members of an event: name, category, phase, time, ids. */
static void chrome_head(struct chrome *x, struct report_ctx *c, const char *name,
			const char *cat, char ph, int64_t ns, const struct rd_trace *t,
			int64_t tid)
{
	int64_t rel = ns - c->first_ns, pid = report_pid(c, t, tid);
	struct thread_seen *seen;
	uint64_t key = ((uint64_t)pid << 32) ^ (uint32_t)tid;

	fputs(x->any ? ",\n{\"name\":" : "\n{\"name\":", c->out);
	x->any = true;
	json_str(c->out, name, strlen(name));
	fprintf(c->out, ",\"cat\":\"%s\",\"ph\":\"%c\",\"ts\":%" PRId64 ".%03" PRId64
		",\"pid\":%" PRId64 ",\"tid\":%" PRId64, cat, ph, rel / 1000, rel % 1000,
		pid, tid);
	if (!u64map_get(&x->threads, key)) {
		seen = report_zalloc(sizeof(*seen));
		seen->trace = t;
		seen->tid = tid;
		u64map_set(&x->threads, key, seen);
	}
}

/*
 * A complete ("X") event of [begin, end), when export's filters keep it:
 * cut to the window.
 */
static void chrome_slice(struct chrome *x, struct report_ctx *c, const char *name,
			 const char *cat, const struct rd_trace *t, int64_t tid,
			 int64_t begin, int64_t end)
{
	int64_t d;

	if (!export_keep(c, tid, begin, end, false))
		return;
	if (c->window && begin < c->begin_ns)
		begin = c->begin_ns;
	if (c->window && end > c->end_ns)
		end = c->end_ns;
	d = end - begin;
	chrome_head(x, c, name, cat, 'X', begin, t, tid);
	fprintf(c->out, ",\"dur\":%" PRId64 ".%03" PRId64 "}", d / 1000, d % 1000);
}

/*
 * A function call, one complete event when it returns (or at the end of
 * the trace): half the size of a begin and an end event, and its length
 * known for --min-duration.  Readers take them in any order.
 */
static void chrome_leave(void *a, struct ct_thread *th, int64_t ns, bool at_end)
{
	struct chrome *x = a;
	const struct ct_frame *fr = &th->stack[th->depth - 1];

	(void)at_end;
	chrome_slice(x, x->c, calltrack_name(&x->ct, fr->func), "function",
		     th->trace, th->tid, fr->begin_ns, ns);
}

static void chrome_args(struct report_ctx *c, const struct rd_event_class *ec,
			const struct rd_value *v)
{
	size_t i, n = ec->fields ? ec->fields->u.s.nr : 0;
	const char *sep = "";

	fputs(",\"args\":{", c->out);
	for (i = 0; i < n && i < REPORT_MAX_FIELDS; i++) {
		const struct rd_member *mb = &ec->fields->u.s.members[i];
		const struct rd_type *ty = mb->type->kind == RD_ENUM ?
			mb->type->u.e.container : mb->type;

		if (v[i].kind == RD_VAL_OTHER)
			continue;
		fputs(sep, c->out);
		json_str(c->out, mb->name, mb->name_len);
		fputc(':', c->out);
		if (v[i].kind == RD_VAL_STRING)
			json_str(c->out, v[i].str, v[i].len);
		else if (ty->u.i.is_signed)
			fprintf(c->out, "%" PRId64, v[i].i);
		else
			fprintf(c->out, "%" PRIu64, v[i].u);
		sep = ",";
	}
	fputs("}}", c->out);
}

static void chrome_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			 int tag, const struct rd_value *v)
{
	struct chrome *x = a;
	const struct rd_trace *t = rd_stream_trace(m->stream);
	struct slice s;
	int64_t begin;

	if (tag >= CHROME_USER && tag < CHROME_SYSCALL) {
		calltrack_event(&x->ct, m, (enum ct_kind)(tag - CHROME_USER));
		if (tag == CHROME_USER + CT_ENTRY || tag == CHROME_USER + CT_EXIT)
			return;
		tag = CHROME_INSTANT;
	}
	if (tag == CHROME_INSTANT) {
		if (!export_keep(c, m->vtid, m->ns, m->ns, true))
			return;
		chrome_head(x, c, m->ec->name, report_is_kernel(t) ? "kernel" : "ust",
			    'i', m->ns, t, m->vtid);
		fputs(",\"s\":\"t\"", c->out);
		chrome_args(c, m->ec, v);
	} else if (tag == CHROME_SWITCH) {
		x->kernel = t;
		if (kstate_sched_switch_at(&x->cpus, m->cpu, m->ns, report_int(v, x->sw.prev_tid, -1),
				    report_int(v, x->sw.next_tid, -1), &s) && s.tid > 0)
			chrome_slice(x, c, "running", "sched", t, s.tid, s.begin, s.end);
	} else if ((tag - CHROME_SYSCALL) % 2 == 0) {
		kstate_syscall_entered(&x->pairs, m->vtid, (tag - CHROME_SYSCALL) / 2, m->ns);
	} else if (kstate_syscall_exited(&x->pairs, m->vtid, (tag - CHROME_SYSCALL) / 2, &begin)) {
		chrome_slice(x, c, x->calls[(tag - CHROME_SYSCALL) / 2], "syscall", t,
			     m->vtid, begin, m->ns);
	}
}

/* A metadata event naming a thread (tid >= 0) or a process. */
static void chrome_name(FILE *out, const char *what, int64_t pid, int64_t tid,
			const char *name)
{
	fprintf(out, ",\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRId64, what, pid);
	if (tid >= 0)
		fprintf(out, ",\"tid\":%" PRId64, tid);
	fputs(",\"args\":{\"name\":", out);
	json_str(out, name, strlen(name));
	fputs("}}", out);
}

/* The slices still running, then the names of processes and threads. */
static void chrome_print(void *a, struct report_ctx *c, FILE *out)
{
	struct chrome *x = a;
	struct u64map pids = { 0 };
	struct thread_seen **v;
	struct slice s;
	size_t i;

	(void)out;
	calltrack_finish(&x->ct, NULL);
	for (i = 0; i < KSTATE_MAX_CPUS; i++) {
		if (kstate_sched_running(&x->cpus, i, c->last_ns, &s) && s.tid > 0 && s.end > s.begin)
			chrome_slice(x, c, "running", "sched", x->kernel, s.tid,
				     s.begin, s.end);
	}
	v = (struct thread_seen **)u64map_values(&x->threads);
	for (i = 0; i < x->threads.nr; i++) {
		int64_t pid = report_pid(c, v[i]->trace, v[i]->tid);

		chrome_name(c->out, "thread_name", pid, v[i]->tid,
			    report_comm(c, v[i]->trace, v[i]->tid));
		if (u64map_get(&pids, (uint64_t)pid))
			continue;
		u64map_set(&pids, (uint64_t)pid, v[i]);
		chrome_name(c->out, "process_name", pid, -1,
			    *report_comm(c, v[i]->trace, pid) ?
			    report_comm(c, v[i]->trace, pid) :
			    report_comm(c, v[i]->trace, v[i]->tid));
	}
	u64map_free(&pids);
	free(v);
	fputs("\n]}\n", c->out);
}

static void chrome_destroy(void *a)
{
	struct chrome *x = a;

	calltrack_release(&x->ct);
	kstate_syscall_pairs_free(&x->pairs);
	u64map_free_all(&x->threads);
	free(x->calls);
	free(x);
}

const struct analysis export_chrome = {
	.name = "chrome",
	.create = chrome_create,
	.classify = chrome_classify,
	.event = chrome_event,
	.print = chrome_print,
	.destroy = chrome_destroy,
};

/* ---- folded ---- */

/*
 * One line per stack: "COMMAND-PID;TID;FRAMES;LEAF COUNT".  A function
 * call counts 1 (or its self time in ns, --weight=time) on the stack of
 * its thread at the call, the function being the leaf; any other event
 * counts 1 on its thread's stack at the time, its name being the leaf
 * (not with --weight=time: only the calls then).  Without function
 * events the stack is just the thread and the event name.
 */
struct stack_count {
	char *stack;
	uint64_t count;
};

enum folded_tag {
	FOLDED_KERNEL = CT_OTHER + 1,	/* after the calltrack kinds */
};

/*
 * The calls are counted on a tree, each node a function under its
 * caller's node (or a thread's root), so that a call costs a lookup
 * rather than a string; print() turns the nodes into stacks.
 */
#define NO_NODE		0xffffffffu

struct call_node {
	uint32_t parent;		/* NO_NODE: the root of thread `th` */
	uint32_t func;
	const struct ct_thread *th;
	uint64_t count;
};

struct folded {
	struct report_ctx *c;
	struct calltrack ct;
	struct call_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct u64map children;		/* parent << 32 | func -> node + 1 */
	struct u64map stacks;		/* hash of the stack -> stack_count */
	const struct rd_stream *last_stream;
	const struct rd_event_class *last_ec;
	int64_t last_tid;
	struct stack_count *last;
};

static struct stack_count *stack_of(struct folded *x, char *stack)
{
	uint64_t h = calltrack_hash(stack);
	struct stack_count *sc;

	/* probe on, past other stacks of the same hash */
	while ((sc = u64map_get(&x->stacks, h)) && strcmp(sc->stack, stack))
		h++;
	if (sc) {
		free(stack);
		return sc;
	}
	sc = report_zalloc(sizeof(*sc));
	sc->stack = stack;
	u64map_set(&x->stacks, h, sc);
	return sc;
}

/* "COMMAND-PID;TID" of thread `tid` of trace `t`. */
static void thread_frames(struct folded *x, FILE *f, const struct rd_trace *t,
			  int64_t tid)
{
	const char *comm = report_comm(x->c, t, tid);

	fprintf(f, "%s-%" PRId64 ";%" PRId64, *comm ? comm : "?",
		report_pid(x->c, t, tid), tid);
}

/* "COMMAND-PID;TID" + the first `depth` frames of th + ";leaf". */
static char *folded_stack(struct folded *x, const struct rd_trace *t, int64_t tid,
			  const struct ct_thread *th, size_t depth, const char *leaf)
{
	char *stack;
	size_t len, i;
	FILE *f = open_memstream(&stack, &len);

	if (!f)
		abort();
	thread_frames(x, f, t, tid);
	for (i = 0; i < depth; i++)
		fprintf(f, ";%s", calltrack_name(&x->ct, th->stack[i].func));
	fprintf(f, ";%s", leaf);
	if (fclose(f))
		abort();
	return stack;
}

static uint32_t new_node(struct folded *x, uint32_t parent, uint32_t func,
			 const struct ct_thread *th)
{
	if (x->nr_nodes == x->cap_nodes) {
		x->cap_nodes = x->cap_nodes ? 2 * x->cap_nodes : 256;
		x->nodes = report_realloc(x->nodes, x->cap_nodes, sizeof(*x->nodes));
	}
	x->nodes[x->nr_nodes] = (struct call_node){ parent, func, th, 0 };
	return (uint32_t)x->nr_nodes++;
}

/* The node of the call just pushed on th, made on first sight. */
static void folded_enter(void *a, struct ct_thread *th, int64_t ns)
{
	struct folded *x = a;
	struct ct_frame *fr = &th->stack[th->depth - 1];
	uint32_t parent;
	uint64_t key;
	void *v;

	(void)ns;
	if (!th->user)
		th->user = (void *)(uintptr_t)(new_node(x, NO_NODE, 0, th) + 1);
	parent = th->depth > 1 ? (uint32_t)fr[-1].user :
		(uint32_t)((uintptr_t)th->user - 1);
	key = (uint64_t)parent << 32 | fr->func;
	v = u64map_get(&x->children, key);
	if (!v) {
		v = (void *)(uintptr_t)(new_node(x, parent, fr->func, th) + 1);
		u64map_set(&x->children, key, v);
	}
	fr->user = (uintptr_t)v - 1;
}

/*
 * A call, counted when it returns (or at the end of the trace): 1, or
 * its self time in ns with --weight=time.
 */
static void folded_leave(void *a, struct ct_thread *th, int64_t ns, bool at_end)
{
	struct folded *x = a;
	const struct ct_frame *fr = &th->stack[th->depth - 1];

	(void)at_end;
	if (!export_keep(x->c, th->tid, fr->begin_ns, ns, false))
		return;
	x->nodes[fr->user].count += x->c->weight_ns ?
		(uint64_t)(ns - fr->begin_ns - fr->child_ns) : 1;
}

static const struct ct_ops folded_ops = {
	.enter = folded_enter,
	.leave = folded_leave,
};

/* The counted nodes into the stacks: the thread's prefix, then frames. */
static void nodes_to_stacks(struct folded *x)
{
	uint32_t *path = NULL;
	size_t i, n, cap = 0;

	for (i = 0; i < x->nr_nodes; i++) {
		const struct call_node *nd = &x->nodes[i];
		char *stack;
		size_t len;
		FILE *f;

		if (!nd->count)
			continue;
		for (n = 0; nd->parent != NO_NODE; nd = &x->nodes[nd->parent]) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				path = report_realloc(path, cap, sizeof(*path));
			}
			path[n++] = nd->func;
		}
		f = open_memstream(&stack, &len);
		if (!f)
			abort();
		thread_frames(x, f, nd->th->trace, nd->th->tid);
		while (n)
			fprintf(f, ";%s", calltrack_name(&x->ct, path[--n]));
		if (fclose(f))
			abort();
		stack_of(x, stack)->count += x->nodes[i].count;
	}
	free(path);
}

static void *folded_create(struct report_ctx *c)
{
	struct folded *x = report_zalloc(sizeof(struct folded));

	x->c = c;
	calltrack_init(&x->ct, &folded_ops, x);
	return x;
}

static int folded_classify(void *a, const struct rd_trace *t,
			   const struct rd_event_class *ec, bool *fields)
{
	enum ct_kind k = calltrack_classify(t, ec);

	(void)a;
	*fields = false;
	return k == CT_NONE ? FOLDED_KERNEL : (int)k;
}

static void folded_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			 int tag, const struct rd_value *v)
{
	struct folded *x = a;
	const struct rd_trace *t = rd_stream_trace(m->stream);
	const struct ct_thread *th = NULL;

	(void)v;
	if (tag != FOLDED_KERNEL) {
		calltrack_event(&x->ct, m, (enum ct_kind)tag);
		if (tag == CT_ENTRY || tag == CT_EXIT)
			return;
		th = calltrack_thread(&x->ct, t, m->vtid);
	}
	if (c->weight_ns || !export_keep(c, m->vtid, m->ns, m->ns, true))
		return;		/* ns and event counts do not add up */
	if (th && th->depth) {
		stack_of(x, folded_stack(x, t, m->vtid, th, th->depth, m->ec->name))->count++;
		x->last = NULL;
		return;
	}
	if (!x->last || x->last_stream != m->stream || x->last_ec != m->ec ||
	    x->last_tid != m->vtid) {
		x->last = stack_of(x, folded_stack(x, t, m->vtid, NULL, 0, m->ec->name));
		x->last_stream = m->stream;
		x->last_ec = m->ec;
		x->last_tid = m->vtid;
	}
	x->last->count++;
}

static int by_stack(const void *pa, const void *pb)
{
	return strcmp((*(struct stack_count *const *)pa)->stack,
		      (*(struct stack_count *const *)pb)->stack);
}

static void folded_print(void *a, struct report_ctx *c, FILE *out)
{
	struct folded *x = a;
	struct stack_count **v;
	size_t i;

	(void)c;
	calltrack_finish(&x->ct, NULL);
	nodes_to_stacks(x);
	v = (struct stack_count **)u64map_values(&x->stacks);
	qsort(v, x->stacks.nr, sizeof(*v), by_stack);
	for (i = 0; i < x->stacks.nr; i++)
		fprintf(out, "%s %" PRIu64 "\n", v[i]->stack, v[i]->count);
	free(v);
}

static void folded_destroy(void *a)
{
	struct folded *x = a;
	struct stack_count **v = (struct stack_count **)u64map_values(&x->stacks);
	size_t i;

	for (i = 0; i < x->stacks.nr; i++)
		free(v[i]->stack);
	free(v);
	u64map_free_all(&x->stacks);
	u64map_free(&x->children);
	free(x->nodes);
	calltrack_release(&x->ct);
	free(x);
}

const struct analysis export_folded = {
	.name = "folded",
	.create = folded_create,
	.classify = folded_classify,
	.event = folded_event,
	.print = folded_print,
	.destroy = folded_destroy,
};
