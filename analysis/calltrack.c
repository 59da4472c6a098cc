/*
 * calltrack.c - per-thread call stacks from the function-tracing events,
 * names from the statedump (calltrack.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each trace is one process: it has its own symbol table and a cache of
 * the entry addresses already resolved.  The cache is dropped on every
 * statedump or dl event, so an address that a later dlopen() reuses
 * gets the new object's name, while the functions of a library that was
 * unloaded after its calls keep theirs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "calltrack.h"
#include "reader/payload.h"
#include "symbols.h"

struct proc {
	struct sym_table *syms;
	uint64_t base;			/* ust_func:base, for compact entries */
	struct u64map addrs;		/* entry address -> function index + 1 */
	struct u64map threads;		/* tid -> ct_thread */
};

#define FUNC_NAME_MAX	512

uint64_t calltrack_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

void *calltrack_per_func(void *arr, size_t *cap, size_t size, uint32_t f)
{
	size_t n = *cap;

	if (f < n)
		return arr;
	*cap = 2 * (size_t)f + 64;
	arr = report_realloc(arr, *cap, size);
	memset((char *)arr + n * size, 0, (*cap - n) * size);
	return arr;
}

void calltrack_init(struct calltrack *ct, const struct ct_ops *ops, void *user)
{
	memset(ct, 0, sizeof(*ct));
	ct->ops = ops;
	ct->user = user;
}

enum ct_kind calltrack_classify(const struct rd_trace *t,
				const struct rd_event_class *ec)
{
	const struct rd_env *d = rd_metadata_env(rd_trace_metadata(t), "domain");

	/* Every layout of function tracing (libust/functions.c), old ones too. */
	static const char *const entries[] = {
		"ust_func:entry", "ust_func:entry_addr", "ust_cyg_profile:func_entry",
		"lttng_ust_cyg_profile_fast:func_entry", "lttng_ust_cyg_profile:func_entry",
	};
	static const char *const exits[] = {
		"ust_func:exit", "ust_cyg_profile:func_exit",
		"lttng_ust_cyg_profile_fast:func_exit", "lttng_ust_cyg_profile:func_exit",
	};
	size_t i;

	if (d && d->str && !strcmp(d->str, "kernel"))
		return CT_NONE;
	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(ec->name, entries[i]))
			return CT_ENTRY;
	for (i = 0; i < sizeof(exits) / sizeof(exits[0]); i++)
		if (!strcmp(ec->name, exits[i]))
			return CT_EXIT;
	if (!strncmp(ec->name, "lttng_ust_statedump:", 20) ||
	    !strncmp(ec->name, "lttng_ust_dl:", 13) ||
	    !strcmp(ec->name, "ust_func:base"))
		return CT_SYMBOLS;
	return CT_OTHER;
}

static struct proc *proc_of(struct calltrack *ct, const struct rd_trace *t)
{
	struct proc *p;

	if (t == ct->last_trace)
		return ct->last_proc;
	p = u64map_get(&ct->procs, (uintptr_t)t);
	if (!p) {
		p = report_zalloc(sizeof(*p));
		p->syms = sym_table_new();
		if (!p->syms)
			abort();
		u64map_set(&ct->procs, (uintptr_t)t, p);
	}
	ct->last_trace = t;
	ct->last_proc = p;
	return p;
}

static struct ct_thread *thread_of(struct calltrack *ct, struct proc *p,
				   const struct rd_trace *t, int64_t tid)
{
	struct ct_thread *th = u64map_get(&p->threads, (uint64_t)tid);

	if (!th) {
		th = report_zalloc(sizeof(*th));
		th->trace = t;
		th->tid = tid;
		th->idx = ct->nr_threads++;
		u64map_set(&p->threads, (uint64_t)tid, th);
	}
	return th;
}

/* The index of function `name`, interned on first sight. */
static uint32_t intern(struct calltrack *ct, const char *name)
{
	uint64_t h = calltrack_hash(name);
	void *v;

	/* probe on, past other names of the same hash */
	while ((v = u64map_get(&ct->names, h)) &&
	       strcmp(ct->funcs[(uintptr_t)v - 1], name))
		h++;
	if (v)
		return (uint32_t)((uintptr_t)v - 1);
	if (ct->nr_funcs == ct->cap_funcs) {
		ct->cap_funcs = ct->cap_funcs ? 2 * ct->cap_funcs : 64;
		ct->funcs = report_realloc(ct->funcs, ct->cap_funcs, sizeof(*ct->funcs));
	}
	ct->funcs[ct->nr_funcs] = strdup(name);
	if (!ct->funcs[ct->nr_funcs])
		abort();
	u64map_set(&ct->names, h, (void *)(uintptr_t)(ct->nr_funcs + 1));
	return ct->nr_funcs++;
}

static uint32_t func_at(struct calltrack *ct, struct proc *p, uint64_t addr)
{
	void *v = u64map_get(&p->addrs, addr);
	char name[FUNC_NAME_MAX];
	uint32_t f;

	if (v)
		return (uint32_t)((uintptr_t)v - 1);
	sym_format(p->syms, addr, name, sizeof(name));
	f = intern(ct, name);
	u64map_set(&p->addrs, addr, (void *)(uintptr_t)(f + 1));
	return f;
}

static int bad_event(struct calltrack *ct, const struct rd_msg *m)
{
	if (!ct->error && asprintf(&ct->error, "bad %s event in %s", m->ec->name,
				   rd_trace_name(rd_stream_trace(m->stream))) < 0)
		ct->error = NULL;
	return -1;
}

static void push(struct calltrack *ct, struct ct_thread *th, uint32_t f,
		 int64_t ns)
{
	if (th->depth == th->cap) {
		th->cap = th->cap ? 2 * th->cap : 64;
		th->stack = report_realloc(th->stack, th->cap, sizeof(*th->stack));
	}
	th->stack[th->depth++] = (struct ct_frame){ .func = f, .begin_ns = ns };
	if (ct->ops->enter)
		ct->ops->enter(ct->user, th, ns);
}

static void pop(struct calltrack *ct, struct ct_thread *th, int64_t ns,
		bool at_end)
{
	struct ct_frame *fr = &th->stack[th->depth - 1];

	if (ct->ops->leave)
		ct->ops->leave(ct->user, th, ns, at_end);
	if (th->depth > 1)
		fr[-1].child_ns += ns - fr->begin_ns;
	th->depth--;
}

int calltrack_event(struct calltrack *ct, const struct rd_msg *m,
		    enum ct_kind kind)
{
	const struct rd_trace *t = rd_stream_trace(m->stream);
	struct proc *p = proc_of(ct, t);
	struct ct_thread *th;
	const uint8_t *pl;
	size_t len;

	if (kind == CT_SYMBOLS && !strcmp(m->ec->name, "ust_func:base")) {
		if (rd_event_payload(m, &pl, &len) || len != 8)
			return bad_event(ct, m);
		p->base = rd_le64(pl);
	} else if (kind == CT_SYMBOLS) {
		u64map_free(&p->addrs);
		if (sym_table_observe(p->syms, m))
			return bad_event(ct, m);
	}
	if (kind == CT_OTHER || kind == CT_SYMBOLS) {
		th = calltrack_thread(ct, t, m->vtid);
		if (th)
			th->last_ns = m->ns;
		return 0;
	}
	th = thread_of(ct, p, t, m->vtid);
	th->last_ns = m->ns;
	if (kind == CT_EXIT) {
		if (th->depth)
			pop(ct, th, m->ns, false);
		else if (ct->ops->unmatched)
			ct->ops->unmatched(ct->user, th, m->ns);
		return 0;
	}
	/*
	 * The function: an offset from ust_func:base (4 bytes, the compact
	 * layout), or an address first (8 bytes: ust_func:entry_addr,
	 * lttng_ust_cyg_profile_fast; 16: with the call site).
	 */
	if (rd_event_payload(m, &pl, &len) || (len != 4 && len != 8 && len != 16))
		return bad_event(ct, m);
	push(ct, th, func_at(ct, p, len == 4 ? p->base + rd_le32(pl) : rd_le64(pl)),
	     m->ns);
	return 0;
}

struct ct_thread *calltrack_thread(struct calltrack *ct, const struct rd_trace *t,
				   int64_t tid)
{
	return u64map_get(&proc_of(ct, t)->threads, (uint64_t)tid);
}

struct ct_thread **calltrack_threads(const struct calltrack *ct)
{
	struct ct_thread **all = report_zalloc((ct->nr_threads + 1) * sizeof(*all));
	struct proc **procs = (struct proc **)u64map_values(&ct->procs);
	size_t i, j, n = 0;

	for (i = 0; i < ct->procs.nr; i++) {
		struct ct_thread **th = (struct ct_thread **)
			u64map_values(&procs[i]->threads);

		for (j = 0; j < procs[i]->threads.nr; j++)
			all[n++] = th[j];
		free(th);
	}
	free(procs);
	return all;
}

void calltrack_finish(struct calltrack *ct,
		      void (*fn)(void *u, struct ct_thread *th))
{
	struct ct_thread **all = calltrack_threads(ct);
	uint32_t i;

	for (i = 0; i < ct->nr_threads; i++) {
		while (all[i]->depth)
			pop(ct, all[i], all[i]->last_ns, true);
		if (fn)
			fn(ct->user, all[i]);
	}
	free(all);
}

void calltrack_release(struct calltrack *ct)
{
	struct proc **procs = (struct proc **)u64map_values(&ct->procs);
	size_t i, j;

	for (i = 0; i < ct->procs.nr; i++) {
		struct ct_thread **th = (struct ct_thread **)
			u64map_values(&procs[i]->threads);

		for (j = 0; j < procs[i]->threads.nr; j++)
			free(th[j]->stack);
		free(th);
		u64map_free_all(&procs[i]->threads);
		u64map_free(&procs[i]->addrs);
		sym_table_free(procs[i]->syms);
	}
	free(procs);
	u64map_free_all(&ct->procs);
	u64map_free(&ct->names);
	for (i = 0; i < ct->nr_funcs; i++)
		free(ct->funcs[i]);
	free(ct->funcs);
	free(ct->error);
	memset(ct, 0, sizeof(*ct));
}
