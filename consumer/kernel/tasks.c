/*
 * tasks.c - which process each thread belongs to, and which processes
 * the bridge leaves out of the trace.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ftrace names threads only (its "pid" is the thread id).  The `_pid`
 * context and sched_process_fork's parent_pid and child_pid need the
 * process: a tid -> tgid table, filled by the statedump (every task at
 * the start) and kept by the records as they are converted, in time
 * order across the CPUs (merge.c):
 * task_newtask says whether the new thread shares its parent's process
 * (CLONE_THREAD), sched_process_exec makes the thread its process's
 * leader.  sched_process_exit leaves the entry: the thread still runs
 * after it (it wakes its joiner through its clear_child_tid futex and
 * switches out a last time), and a tid used again gets its new entry
 * from its own task_newtask.  A thread the table does not know is asked
 * of /proc; one gone already counts as a process of its own.
 *
 * With --recorder (the traced process tree only) the recorder itself
 * and the consumers of the traced processes are muted: their events are
 * not written, except those that say who runs and who wakes whom
 * (kclass.sched_context), and the consumers are added to the instance's
 * set_event_notrace_pid as soon as their exec is seen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "abi/consumerd.h"
#include "common/fs.h"
#include "kerneld.h"

#define PID_MAX_PATH	"/proc/sys/kernel/pid_max"
#define PID_MAX_DEFAULT	4194304u
#define CLONE_THREAD_FLAG	0x00010000u	/* <linux/sched.h> CLONE_THREAD */
#define MUTED_MAX	256

int kd_tasks_init(struct kerneld *kd)
{
	char buf[32];

	kd->pid_max = PID_MAX_DEFAULT;
	if (!ust__read_small_file(PID_MAX_PATH, buf, sizeof(buf)))
		kd->pid_max = (uint32_t)strtoul(buf, NULL, 10) + 1;
	/* Untouched pages of this table cost nothing. */
	kd->tgid = calloc(kd->pid_max, sizeof(*kd->tgid));
	return kd->tgid ? 0 : -ENOMEM;
}

int kd_proc_status(int32_t tid, int32_t *tgid, int32_t *ppid)
{
	char path[64], buf[2048], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (ust__read_small_file(path, buf, sizeof(buf)))
		return -ENOENT;
	p = strstr(buf, "\nTgid:");
	if (!p || sscanf(p + 6, "%d", tgid) != 1)
		return -EINVAL;
	p = strstr(buf, "\nPPid:");
	if (!p || sscanf(p + 6, "%d", ppid) != 1)
		*ppid = 0;
	return 0;
}

static bool tid_ok(const struct kerneld *kd, int32_t tid)
{
	return kd->tgid && tid > 0 && (uint32_t)tid < kd->pid_max;
}

int32_t kd_tgid_of(struct kerneld *kd, int32_t tid)
{
	int32_t tgid, ppid;

	if (!tid_ok(kd, tid))
		return tid;
	if (kd->tgid[tid])
		return kd->tgid[tid];
	/* Gone already: a process of its own, remembered as such. */
	if (kd_proc_status(tid, &tgid, &ppid))
		tgid = tid;
	kd->tgid[tid] = tgid;
	return tgid;
}

void kd_tgid_set(struct kerneld *kd, int32_t tid, int32_t tgid)
{
	if (tid_ok(kd, tid))
		kd->tgid[tid] = tgid;
}

bool kd_muted(const struct kerneld *kd, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < kd->nr_muted; i++) {
		if (kd->muted[i] == pid)
			return true;
	}
	return false;
}

void kd_mute(struct kerneld *kd, int32_t pid)
{
	int32_t *m;

	if (kd_muted(kd, pid) || kd->nr_muted == MUTED_MAX)
		return;
	m = realloc(kd->muted, (kd->nr_muted + 1) * sizeof(*m));
	if (!m)
		return;		/* its events are written: noise, not loss */
	m[kd->nr_muted++] = pid;
	kd->muted = m;
}

static int64_t field_int(const struct tep_format_field *f, const uint8_t *data)
{
	int64_t v = 0;

	if (!f || f->size > 8)
		return -1;
	memcpy(&v, data + f->offset, (size_t)f->size);
	if (f->size == 4)
		v = (int32_t)v;
	return v;
}

/* A consumer of a traced process: its events are ours, not the program's. */
static void mute_consumer(struct kerneld *kd, const struct kclass *k,
			  const uint8_t *data, unsigned int size, int32_t tid)
{
	const struct tep_format_field *f = k->role_field[1];
	char name[4096], pid[24];
	const char *slash;
	uint32_t loc, off, len;

	if (!kd->opts.root || !f || f->size != 4)
		return;
	memcpy(&loc, data + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off > size || len > size - off || len >= sizeof(name))
		return;
	snprintf(name, sizeof(name), "%.*s", (int)len, (const char *)data + off);
	slash = strrchr(name, '/');
	if (strcmp(slash ? slash + 1 : name, UST_CONSUMERD_NAME))
		return;
	kd_mute(kd, tid);
	snprintf(pid, sizeof(pid), "%d", (int)tid);
	tracefs_instance_file_append(kd->inst, "set_event_notrace_pid", pid);
	kd_trigger_notrace(kd, pid);
}

void kd_tasks_follow(struct kerneld *kd, const struct kclass *k,
		     const uint8_t *data, unsigned int size, int32_t tid)
{
	int64_t child, flags;

	switch (k->role) {
	case KR_NEWTASK:
		child = field_int(k->role_field[0], data);
		flags = field_int(k->role_field[1], data);
		if (child > 0 && child <= INT32_MAX)
			kd_tgid_set(kd, (int32_t)child, (flags & CLONE_THREAD_FLAG) ?
				    kd_tgid_of(kd, tid) : (int32_t)child);
		break;
	case KR_EXEC:
		/* After de_thread() the thread is its process's leader. */
		kd_tgid_set(kd, tid, tid);
		mute_consumer(kd, k, data, size, tid);
		break;
	default:
		break;
	}
}
