/*
 * tasks.c - the report's table of kernel tasks (tid -> pid, command),
 * kept up to date from the kernel trace as the events go by:
 * lttng_statedump_process_state {tid, pid, name} for the tasks running
 * at the start, sched_process_fork {child_tid, child_pid, child_comm},
 * sched_process_exec {tid, filename}, sched_switch {prev_*, next_*}.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "tasks.h"
#include "u64map.h"

enum task_event {
	TASK_STATEDUMP = 1,
	TASK_FORK,
	TASK_EXEC,
	TASK_SWITCH,
};

/* Payload member indexes of one event class, by role. */
struct task_class {
	int kind;
	int tid, pid, comm;		/* statedump, fork (child_*), exec */
	int prev_tid, prev_comm, next_tid, next_comm;	/* switch */
};

struct tasks {
	struct u64map by_tid;
	struct task_class *classes;
	size_t nr_classes;
};

struct task *tasks_find(struct tasks *t, int64_t tid)
{
	return u64map_get(&t->by_tid, (uint64_t)tid);
}

struct task *tasks_get(struct tasks *t, int64_t tid)
{
	struct task *k = tasks_find(t, tid);

	if (!k) {
		k = report_zalloc(sizeof(*k));
		k->tid = k->pid = tid;
		u64map_set(&t->by_tid, (uint64_t)tid, k);
	}
	return k;
}

void tasks_set_comm(struct task *k, const char *comm)
{
	if (*comm)
		snprintf(k->comm, sizeof(k->comm), "%s", comm);
}

static void *tasks_create(struct report_ctx *c)
{
	struct tasks *t = report_zalloc(sizeof(*t));

	c->tasks = t;
	return t;
}

static int tasks_classify(void *a, const struct rd_trace *tr,
			  const struct rd_event_class *ec, bool *fields)
{
	struct tasks *t = a;
	struct task_class k = { 0 };

	(void)tr;
	if (!strcmp(ec->name, "lttng_statedump_process_state")) {
		k = (struct task_class){ .kind = TASK_STATEDUMP,
			.tid = rd_event_field_index(ec, "tid"),
			.pid = rd_event_field_index(ec, "pid"),
			.comm = rd_event_field_index(ec, "name") };
	} else if (!strcmp(ec->name, "sched_process_fork")) {
		k = (struct task_class){ .kind = TASK_FORK,
			.tid = rd_event_field_index(ec, "child_tid"),
			.pid = rd_event_field_index(ec, "child_pid"),
			.comm = rd_event_field_index(ec, "child_comm") };
	} else if (!strcmp(ec->name, "sched_process_exec")) {
		k = (struct task_class){ .kind = TASK_EXEC,
			.tid = rd_event_field_index(ec, "tid"), .pid = -1,
			.comm = rd_event_field_index(ec, "filename") };
	} else if (!strcmp(ec->name, "sched_switch")) {
		k = (struct task_class){ .kind = TASK_SWITCH,
			.prev_tid = rd_event_field_index(ec, "prev_tid"),
			.prev_comm = rd_event_field_index(ec, "prev_comm"),
			.next_tid = rd_event_field_index(ec, "next_tid"),
			.next_comm = rd_event_field_index(ec, "next_comm") };
	} else {
		return 0;
	}
	t->classes = report_realloc(t->classes, t->nr_classes + 1, sizeof(*t->classes));
	t->classes[t->nr_classes++] = k;
	*fields = true;
	return (int)t->nr_classes;
}

/* A task named by `comm` when it has no name yet. */
static void name_task(struct tasks *t, int64_t tid, const char *comm)
{
	struct task *k;

	if (tid < 0)
		return;
	k = tasks_get(t, tid);
	if (!k->comm[0])
		tasks_set_comm(k, comm);
}

static void tasks_event(void *a, struct report_ctx *c, const struct rd_msg *m,
			int tag, const struct rd_value *v)
{
	struct tasks *t = a;
	const struct task_class *k = &t->classes[tag - 1];
	int64_t tid = report_int(v, k->tid, -1);
	struct task *task;
	char buf[256];
	const char *s;

	(void)c;
	(void)m;
	switch (k->kind) {
	case TASK_STATEDUMP:
	case TASK_FORK:
		if (tid < 0)
			return;
		task = tasks_get(t, tid);
		task->pid = report_int(v, k->pid, tid);
		tasks_set_comm(task, report_str(v, k->comm, buf, sizeof(buf)));
		return;
	case TASK_EXEC:
		if (tid < 0)
			return;
		s = report_str(v, k->comm, buf, sizeof(buf));
		tasks_set_comm(tasks_get(t, tid), strrchr(s, '/') ? strrchr(s, '/') + 1 : s);
		return;
	case TASK_SWITCH:
		name_task(t, report_int(v, k->prev_tid, -1), report_str(v, k->prev_comm, buf, sizeof(buf)));
		name_task(t, report_int(v, k->next_tid, -1), report_str(v, k->next_comm, buf, sizeof(buf)));
		return;
	}
}

static void tasks_destroy(void *a)
{
	struct tasks *t = a;

	u64map_free_all(&t->by_tid);
	free(t->classes);
	free(t);
}

/* No section of its own (no help: always on, not an option). */
const struct analysis analysis_tasks = {
	.name = "tasks",
	.sees_all = true,
	.create = tasks_create,
	.classify = tasks_classify,
	.event = tasks_event,
	.destroy = tasks_destroy,
};
