/*
 * kstate.h - kernel state rebuilt from a kernel trace, shared by the
 * report's analyses and the exports: which task runs on each CPU
 * (sched_switch slices) and which system call each thread is in
 * (syscall_entry_NAME / syscall_exit_NAME pairs).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ANALYSIS_KSTATE_H
#define UST_ANALYSIS_KSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

struct rd_event_class;

#define KSTATE_MAX_CPUS	4096

/* [begin, end) during which `tid` ran on `cpu`. */
struct slice {
	int64_t tid, cpu, begin, end;
};

struct sched_cpus {
	struct {
		bool known;
		int64_t tid, since;
	} cpus[KSTATE_MAX_CPUS];
};

/*
 * A sched_switch on `cpu` at `ns` from prev_tid to next_tid.  Returns 1
 * with *ended set when it ends a slice (the CPU's previous switch is
 * known), else 0.  What ran before a CPU's first switch is unknown.
 */
int kstate_sched_switch_at(struct sched_cpus *s, int64_t cpu, int64_t ns,
		    int64_t prev_tid, int64_t next_tid, struct slice *ended);
/* The slice running on CPU `i` until `end`: 1 when one is known. */
int kstate_sched_running(const struct sched_cpus *s, size_t i, int64_t end,
		  struct slice *slice);

/* Payload member indexes of a sched_switch class. */
struct switch_fields {
	int prev_tid, next_tid;
};
void kstate_switch_fields_of(const struct rd_event_class *ec, struct switch_fields *f);

/*
 * The system call an event names: "syscall_entry_NAME" gives NAME with
 * *entry = true, "syscall_exit_NAME" NAME with *entry = false; NULL for
 * other events.
 */
const char *kstate_syscall_of(const char *event, bool *entry);

/* The calls in progress per thread. */
struct syscall_pairs {
	struct u64map pending;	/* tid -> struct pending */
};

void kstate_syscall_entered(struct syscall_pairs *p, int64_t tid, int call, int64_t ns);
/* The same, made on `cpu`: forgotten when that CPU's stream loses events. */
void kstate_syscall_entered_on(struct syscall_pairs *p, int64_t tid, int call,
			       int64_t ns, int64_t cpu);
/*
 * Events of CPU `cpu` were lost (a discarded-events message of its
 * stream): the exits of the calls entered there may be among them, so
 * these calls are forgotten rather than paired with a later exit.
 * Returns how many.
 */
size_t kstate_syscall_forget_cpu(struct syscall_pairs *p, int64_t cpu);
/* 1 with *begin when thread `tid` was in `call`, which now returns. */
int kstate_syscall_exited(struct syscall_pairs *p, int64_t tid, int call, int64_t *begin);
/* How many threads are still in a call. */
size_t kstate_syscalls_in_progress(const struct syscall_pairs *p);
void kstate_syscall_pairs_free(struct syscall_pairs *p);

#endif /* UST_ANALYSIS_KSTATE_H */
