/*
 * analysis.h - what `ust report` runs: each analysis sees every event of
 * the classes it asked for, merged by time, then prints its section.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Adding one (e.g. a function profile): write an analysis-NAME.c that
 * defines a `const struct analysis`, list it in report.c's table with
 * its option.  classify() runs once per event class and returns a tag
 * (> 0) for the classes it wants, 0 for the others; event() then gets
 * that tag, so it never compares names per event.
 */
#ifndef UST_ANALYSIS_ANALYSIS_H
#define UST_ANALYSIS_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "reader/reader.h"

struct tasks;
struct kmodel;

#define REPORT_MAX_FIELDS	64	/* payload fields an analysis can read */

/* What every analysis may read. */
struct report_ctx {
	struct rd_reader *reader;
	struct tasks *tasks;		/* tid -> pid and command (tasks.h) */
	int64_t first_ns, last_ns;	/* of every message seen */
	uint64_t nr_events;
	unsigned int top;		/* --top N: rows of the long lists */
	int64_t interval_ns;		/* --interval; 0: a tenth of the trace */
	bool gmt;			/* --clock-gmt */
	bool weight_ns;			/* export --weight=time: folded in ns */
	bool picked;			/* report: some section asked for */
	FILE *out;			/* where print() writes */
	bool csv;			/* --csv: the kernel sections in CSV */
	/*
	 * --begin/--end: only the events in [begin_ns, end_ns] are counted
	 * (analyses with sees_all still see the others, for their state).
	 */
	int64_t begin_ns, end_ns;
	bool in_range;			/* the event being fed is in it */
	int64_t thread_tid;		/* --thread TID, -1 when not given */
	const char *between[2];		/* --between A B */
	struct kmodel *kmodel;		/* the kernel sections' (kmodel.h) */
	/*
	 * export's filters (export_keep()): a window of time (begin_ns,
	 * end_ns above, what overlaps it is kept), one thread, the shortest
	 * call or slice kept (0: all; instant events then go).
	 */
	bool window, only_tid;
	int64_t tid;
	int64_t min_dur_ns;
};

struct analysis {
	const char *name;		/* its option: --NAME */
	const char *help;
	bool by_default;		/* on when no section is picked */
	bool sees_all;			/* gets the events outside --begin/--end */
	/*
	 * A kernel section: the parts of the kernel model (kmodel.h, KM_*)
	 * it prints.  Its state is the model, which analysis_kmodel
	 * computes and frees: it has no create(), classify(), event() or
	 * destroy().
	 */
	unsigned int kernel_parts;
	void *(*create)(struct report_ctx *c);
	/*
	 * Once per event class of trace `t`: a tag > 0 to get its events,
	 * 0 to ignore them.  *fields: event() needs the payload values.
	 */
	int (*classify)(void *a, const struct rd_trace *t,
			const struct rd_event_class *ec, bool *fields);
	/* `v` holds the payload's top-level fields when asked, else NULL. */
	void (*event)(void *a, struct report_ctx *c, const struct rd_msg *m,
		      int tag, const struct rd_value *v);
	/* Discarded events or packets (may be NULL). */
	void (*discarded)(void *a, struct report_ctx *c, const struct rd_msg *m);
	void (*print)(void *a, struct report_ctx *c, FILE *out);
	void (*destroy)(void *a);
};

extern const struct analysis analysis_events;
extern const struct analysis analysis_losses;
extern const struct analysis analysis_threads;
extern const struct analysis analysis_cpu;
extern const struct analysis analysis_syscalls;
extern const struct analysis analysis_functions;

/* Helpers of the sections. */
void report_heading(FILE *out, const char *title);
/* "HH:MM:SS.NNNNNNNNN" of `ns` (local time or c->gmt) into buf[32]. */
const char *report_time(const struct report_ctx *c, int64_t ns, char *buf);
/*
 * c->last_ns - c->first_ns: 0 before any message, INT64_MAX when the
 * difference does not fit (corrupt timestamps).
 */
int64_t report_span(const struct report_ctx *c);
/* "S.NNNNNNNNN" of a duration into buf[32]. */
const char *report_secs(int64_t ns, char *buf);
/* Microseconds with 3 decimals ("12.345") of `ns` into buf[32]. */
const char *report_usecs(double ns, char *buf);
/* The value of field `idx` when it is an integer, else `dflt`. */
int64_t report_int(const struct rd_value *v, int idx, int64_t dflt);
/* Field `idx` when it is text, else "", as a C string in buf[size]. */
const char *report_str(const struct rd_value *v, int idx, char *buf, size_t size);
/*
 * The process of thread `tid` of trace `t`: the trace's vpid and
 * procname for a user trace; the tasks table's for the kernel trace
 * (pid = tid and "" when unknown).
 */
int64_t report_pid(const struct report_ctx *c, const struct rd_trace *t, int64_t tid);
const char *report_comm(const struct report_ctx *c, const struct rd_trace *t,
			int64_t tid);
bool report_is_kernel(const struct rd_trace *t);
/* A classify() that takes every event, without its fields. */
int report_every_class(void *a, const struct rd_trace *t,
		       const struct rd_event_class *ec, bool *fields);
/*
 * Whether a call or slice of thread `tid` over [begin, end] (an instant
 * event: begin == end) passes export's filters: it overlaps the window,
 * is the thread's, lasts long enough (instants only without
 * --min-duration).
 */
bool export_keep(const struct report_ctx *c, int64_t tid, int64_t begin,
		 int64_t end, bool instant);
/* malloc() that aborts on memory exhaustion, zeroed. */
void *report_zalloc(size_t size);
/* p resized to nmemb elements of `size` bytes; aborts like report_zalloc(). */
void *report_realloc(void *p, size_t nmemb, size_t size);
/*
 * The place of `name` in array `v` of *nr elements of `size` bytes that
 * each begin with their name (a const char *), into *index.  A name not
 * there yet gets a new zeroed element holding it, at the end (*nr grows).
 * Returns the array, which may have moved (as with report_realloc()).
 */
void *report_name_index(void *v, size_t *nr, size_t size, const char *name,
			size_t *index);

#endif /* UST_ANALYSIS_ANALYSIS_H */
