/*
 * kmodel.h - the kernel as `ust report`'s kernel sections see it: one
 * model fed by one pass over the kernel trace, from which the sections
 * --io, --net, --block, --sched, --irq, --memory, --thread and
 * --between print (analysis-kio.c, analysis-kblock.c, analysis-ksched.c,
 * analysis-kthread.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The model is an analysis of its own (analysis_kmodel, no section),
 * listed before the sections: it pairs system call entries and exits
 * per thread, keeps every process's file descriptors (statedump,
 * open/close/dup/fork/exec), who runs on each CPU and what state each
 * thread is in (running, runnable, blocked in a system call, and who
 * woke it), and accumulates the figures of the parts a section asked
 * for (kmodel_want()).  doc/kernel-analyses.md says which events feed
 * which figure and what each cannot see.
 */
#ifndef UST_ANALYSIS_KMODEL_H
#define UST_ANALYSIS_KMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "latency.h"
#include "u64map.h"

/* The parts a section asks the model to compute. */
enum kmodel_part {
	KM_IO = 1 << 0,
	KM_NET = 1 << 1,
	KM_BLOCK = 1 << 2,
	KM_SCHED = 1 << 3,
	KM_IRQ = 1 << 4,
	KM_MEMORY = 1 << 5,
	KM_THREAD = 1 << 6,
	KM_BETWEEN = 1 << 7,
};

enum km_ftype {
	KM_FILE,	/* a path */
	KM_SOCKET,
	KM_PIPE,
	KM_OTHER,	/* anon_inode:..., a device without a path */
	KM_UNKNOWN,	/* opened before the trace, not in the statedump */
};

/* Bytes and operations through read-like and write-like system calls. */
struct km_io {
	uint64_t rbytes, wbytes, rops, wops;
	struct latency lat;	/* of every read and write */
};

/* A file, by name, across processes. */
struct km_file {
	char *name;
	enum km_ftype type;
	struct km_io io;
	struct km_file *next;	/* same hash */
};

/* One process's figures. */
struct km_proc {
	int64_t pid;
	struct km_io file, sock;	/* files (and pipes...), sockets */
	uint64_t opens, closes;
	uint64_t blk_rq, blk_rbytes, blk_wbytes;
	struct latency blk_lat;
	struct latency wakeup;		/* wakeup to running, its threads */
	uint64_t pages_alloc, pages_free, faults_user, faults_kernel;
	uint64_t *alloc_ms;		/* pages allocated per millisecond */
	size_t nr_ms;
};

/* Where a thread is. */
enum km_state {
	KS_UNKNOWN,
	KS_RUNNING,
	KS_RUNNABLE,
	KS_BLOCKED,
};

/* What a watched thread's time went to (--thread, --between). */
struct km_profile {
	int64_t running, runnable, blocked, unknown;
	struct u64map calls;		/* call -> struct km_call_time */
	struct u64map wakers;		/* waker tid -> struct km_waker */
	uint64_t rbytes, wbytes;
};

struct km_call_time {
	int call;
	uint64_t count;
	int64_t time;		/* entry to exit */
	int64_t blocked;	/* of it, switched out */
};

struct km_waker {
	int64_t tid;
	uint64_t count;
	int64_t blocked;	/* blocked time these wakeups ended */
	int waker_call;		/* what it was in at its last wakeup: -1 none */
};

/* A blocked period of the --thread thread, and who ended it. */
struct km_block {
	int64_t begin, end, waker;
	int call, waker_call;
};

/* A thread. */
struct km_thread {
	int64_t tid;
	int call;		/* system call in progress, -1 none */
	int64_t call_begin, call_blocked, call_cpu;
	int64_t arg[3];		/* fd, second fd or flags... (kmodel.c) */
	char *path;		/* open()'s file name */
	enum km_state state;
	int64_t since;		/* of state */
	int64_t woken_at;	/* sched_wakeup while blocked, -1 none */
	int64_t waker;		/* 0: an interrupt (KM_IN_*) */
	int waker_call;
	signed char user;	/* a user thread 1, a kernel thread 0, -1 unknown */
	struct km_profile *interval;	/* --between: the open interval */
	int64_t interval_begin;
};

/* One interval between the two user events of --between. */
struct km_interval {
	int64_t tid, begin, end;
	struct km_profile prof;
};

struct km_disk {
	uint64_t dev;
	char *name;
	uint64_t rq, rbytes, wbytes;
	struct latency lat;
};

struct km_irq {
	int64_t irq;		/* a softirq: its vector + KM_SOFTIRQ */
	char *name;
	uint64_t count;
	struct latency dur;
	struct latency raise;	/* softirq: raise to entry */
};

#define KM_SOFTIRQ	1000000

/*
 * What a waker was in when it was not a system call (waker_call): a
 * hard irq or softirq handler of the CPU, or an interrupt the trace does
 * not show (a user thread outside any system call cannot wake anyone
 * itself: a timer or another interrupt did).
 */
#define KM_IN_IRQ	(-2)
#define KM_IN_SOFTIRQ	(-3)
#define KM_IN_INTERRUPT	(-4)

struct km_iface {
	char *name;
	uint64_t tx_bytes, tx_packets, rx_bytes, rx_packets;
};

/* A system call name, and what it does to files. */
struct km_call {
	const char *name;	/* first (report_name_index()) */
	int kind;		/* enum km_call_kind (kmodel.c) */
};

struct kmodel {
	unsigned int want;
	bool kernel_seen, pid_scope;
	int64_t root_pid;
	/* what classify() found, by tag */
	struct km_class *classes;
	size_t nr_classes;
	struct km_call *calls;
	size_t nr_calls;
	/* state */
	struct u64map threads;		/* tid -> struct km_thread */
	struct u64map fdtables;		/* pid -> struct u64map of fd -> km_fd */
	struct u64map cpus;		/* cpu + 1 -> struct km_cpu */
	struct u64map pending_rq;	/* (dev, sector) -> struct km_rq */
	/* figures */
	struct u64map procs;		/* pid -> struct km_proc */
	struct km_file **file_hash;
	size_t nr_files;
	struct u64map disks, irqs, ifaces;
	struct latency wakeup;		/* all threads */
	struct latency_case *worst;	/* slowest wakeups, --top */
	size_t nr_worst;
	/* --thread */
	int64_t thread_tid;
	struct km_profile thread;
	struct km_block *blocks;
	size_t nr_blocks, cap_blocks;
	/* --between */
	const char *between[2];
	struct km_interval *intervals;
	size_t nr_intervals, cap_intervals;
	int64_t origin_ns;		/* the first event counted */
};

/* The model of report `c` (NULL until analysis_kmodel is created). */
struct kmodel *kmodel_of(struct report_ctx *c);
/* Ask the model to compute `parts` (a section's kernel_parts). */
struct kmodel *kmodel_want(struct report_ctx *c, unsigned int parts);

struct km_proc *kmodel_proc(struct kmodel *m, int64_t pid);
const char *kmodel_call_name(const struct kmodel *m, int call);
/* Every file, in no order, in a new array of m->nr_files. */
struct km_file **kmodel_files(const struct kmodel *m);
/* The figures' values of a u64map, sorted by `cmp`, in a new array. */
void **kmodel_sorted(const struct u64map *map, int (*cmp)(const void *, const void *));
/* A line saying the trace holds only a process tree, or nothing. */
void kmodel_scope_note(const struct kmodel *m, FILE *out);
/*
 * A kernel section's start: its heading and the scope note (not in
 * CSV); false, having said so, when there is no kernel trace.
 */
bool kmodel_heading(const struct kmodel *m, const struct report_ctx *c, const char *title,
		    FILE *out);

/* CSV: a field quoted when it needs to be. */
void report_csv_str(FILE *out, const char *s);

/*
 * A kernel section (analysis.h): its option --NAME and help, the parts
 * of the model it prints and its print(), which gets the model as `a`.
 */
#define KMODEL_SECTION(option, help_text, parts, print_fn)		\
	{ .name = (option), .help = (help_text), .kernel_parts = (parts),	\
	  .print = (print_fn) }

extern const struct analysis analysis_kmodel;
extern const struct analysis analysis_io;
extern const struct analysis analysis_net;
extern const struct analysis analysis_block;
extern const struct analysis analysis_sched;
extern const struct analysis analysis_irq;
extern const struct analysis analysis_memory;
extern const struct analysis analysis_thread;
extern const struct analysis analysis_between;

#endif /* UST_ANALYSIS_KMODEL_H */
