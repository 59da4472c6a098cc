/*
 * tasks.h - the kernel's tasks as the report learns them: tid -> pid
 * and command, from the statedump, fork, exec and sched_switch events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_ANALYSIS_TASKS_H
#define UST_ANALYSIS_TASKS_H

#include <stdint.h>

#define TASK_COMM_LEN	32

struct task {
	int64_t tid, pid;	/* pid = tid until known */
	char comm[TASK_COMM_LEN];
};

struct tasks;
struct analysis;

/* The task `tid`, created (pid = tid, comm "") when new. */
struct task *tasks_get(struct tasks *t, int64_t tid);
/* The task `tid` if known, else NULL. */
struct task *tasks_find(struct tasks *t, int64_t tid);
void tasks_set_comm(struct task *k, const char *comm);

extern const struct analysis analysis_tasks;

#endif /* UST_ANALYSIS_TASKS_H */
