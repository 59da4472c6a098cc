/*
 * calltrack.h - the call stacks of traced threads, rebuilt from the
 * function-tracing events of every layout (ust_func:entry/exit with
 * ust_func:base, ust_cyg_profile:func_entry/exit, LTTng-UST's
 * lttng_ust_cyg_profile(_fast):func_entry/exit; doc/functions.md), with
 * function names resolved from each process's statedump events
 * (analysis/symbols.h).  What `ust report --functions`,
 * `ust export` (folded, chrome) and the tests' funcs tool share.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Feed it the events of the traces in time order: calltrack_classify()
 * once per event class, calltrack_event() per event of a class it took.
 * An entry pushes a frame on its thread's stack and calls ops->enter; an
 * exit (it has no field) calls ops->leave for the top frame, then pops
 * it; an exit on an empty stack calls ops->unmatched.  calltrack_finish()
 * closes the frames still open, at their thread's last event (at_end).
 * Functions are interned by name: one index per distinct name.
 */
#ifndef UST_ANALYSIS_CALLTRACK_H
#define UST_ANALYSIS_CALLTRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"
#include "u64map.h"

/* What calltrack_classify() returns (0: a class of no interest). */
enum ct_kind {
	CT_NONE = 0,
	CT_ENTRY,
	CT_EXIT,
	CT_SYMBOLS,	/* statedump / dl: the loaded objects */
	CT_OTHER,	/* any other user-space event: the thread's last time */
};

struct ct_frame {
	uint32_t func;		/* index of the function */
	int64_t begin_ns;
	int64_t child_ns;	/* time in the functions it called */
	uint64_t user;		/* the caller's, 0 at the push */
};

struct ct_thread {
	const struct rd_trace *trace;
	int64_t tid;
	uint32_t idx;		/* 0, 1, ... in order of first event */
	struct ct_frame *stack;
	size_t depth, cap;
	int64_t last_ns;	/* of its last event */
	void *user;		/* the caller's */
};

struct ct_ops {
	/* After the push: the new frame is th->stack[th->depth - 1]. */
	void (*enter)(void *u, struct ct_thread *th, int64_t ns);
	/* Before the pop of th->stack[th->depth - 1]. */
	void (*leave)(void *u, struct ct_thread *th, int64_t ns, bool at_end);
	void (*unmatched)(void *u, struct ct_thread *th, int64_t ns);
};

struct calltrack {
	const struct ct_ops *ops;
	void *user;
	struct u64map procs;		/* rd_trace -> its symbols and threads */
	struct u64map names;		/* hash of a name -> index + 1 */
	char **funcs;			/* index -> name */
	uint32_t nr_funcs, cap_funcs;
	uint32_t nr_threads;
	const struct rd_trace *last_trace;
	void *last_proc;
	char *error;			/* of a bad statedump event */
};

void calltrack_init(struct calltrack *ct, const struct ct_ops *ops, void *user);
void calltrack_release(struct calltrack *ct);
enum ct_kind calltrack_classify(const struct rd_trace *t,
				const struct rd_event_class *ec);
/*
 * Event `m` of a class of kind `kind`.  Returns 0, or -1 for a bad
 * function or statedump payload (the first such error is kept in
 * ct->error; the event is ignored).
 */
int calltrack_event(struct calltrack *ct, const struct rd_msg *m,
		    enum ct_kind kind);
/* Close every open frame; then call `fn` on each thread (if not NULL). */
void calltrack_finish(struct calltrack *ct,
		      void (*fn)(void *u, struct ct_thread *th));
static inline const char *calltrack_name(const struct calltrack *ct, uint32_t f)
{
	return ct->funcs[f];
}
/* Thread `tid` of trace `t`, NULL before its first function event. */
struct ct_thread *calltrack_thread(struct calltrack *ct, const struct rd_trace *t,
				   int64_t tid);
/* Every thread, in no order, in a new array of ct->nr_threads. */
struct ct_thread **calltrack_threads(const struct calltrack *ct);
/*
 * `arr` (of *cap elements of `size` bytes) grown, zero-filled, to hold
 * element `f`: an array indexed by function.  Aborts when out of memory.
 */
void *calltrack_per_func(void *arr, size_t *cap, size_t size, uint32_t f);
/* FNV-1a of a string. */
uint64_t calltrack_hash(const char *s);

#endif /* UST_ANALYSIS_CALLTRACK_H */
