/*
 * statedump.c - which process each thread belongs to.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ftrace names threads only (its "pid" is the thread id).  Readers need
 * the process too, so at start the bridge writes one
 * lttng_statedump_process_state { tid, pid, ppid, name } event per task
 * in /proc, as LTTng does, and keeps a tid -> tgid table that
 * sched_process_fork's parent_pid and child_pid come from (with /proc
 * asked about threads the table does not know yet).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fs.h"
#include "kerneld.h"

#define PID_MAX_PATH	"/proc/sys/kernel/pid_max"
#define PID_MAX_DEFAULT	4194304u

/* The "Tgid:" and "PPid:" lines of /proc/<tid>/status; 0 or -errno. */
static int proc_status(int32_t tid, int32_t *tgid, int32_t *ppid)
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
	if (proc_status(tid, &tgid, &ppid))
		return tid;	/* gone already: a process of its own, likely */
	kd->tgid[tid] = tgid;
	return tgid;
}

void kd_tgid_forget(struct kerneld *kd, int32_t tid)
{
	if (tid_ok(kd, tid))
		kd->tgid[tid] = 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
	}
	return true;
}

/* One statedump event into the stream of CPU 0. */
static void dump_task(struct kerneld *kd, uint64_t ts, int32_t tid, int32_t pid,
		      int32_t ppid, const char *name)
{
	const struct kclass *c = kd->classes.statedump;
	size_t nlen = strlen(name) + 1;
	uint8_t *p;

	p = kd_event_begin(kd, &kd->streams[0], c, ts, tid, 12 + nlen);
	if (!p)
		return;
	memcpy(p, &tid, 4);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &ppid, 4);
	memcpy(p + 12, name, nlen);
	kd_event_end(&kd->streams[0], p + 12 + nlen);
}

static void dump_process(struct kerneld *kd, uint64_t ts, int32_t pid)
{
	char path[64], comm[64];
	int32_t tgid, ppid;
	struct dirent *de;
	DIR *d;

	if (proc_status(pid, &tgid, &ppid))
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int32_t tid;

		if (!all_digits(de->d_name))
			continue;
		tid = atoi(de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
		if (ust__read_small_file(path, comm, sizeof(comm)))
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if (tid_ok(kd, tid))
			kd->tgid[tid] = pid;
		dump_task(kd, ts, tid, pid, ppid, comm);
	}
	closedir(d);
}

/*
 * Dump every task, stamped now (before tracing starts, so that every
 * ring event of CPU 0 comes after them in its stream), and write the
 * first packet of every stream.
 */
int kd_statedump(struct kerneld *kd)
{
	char buf[32];
	struct dirent *de;
	unsigned int i;
	uint64_t ts;
	DIR *d;
	int ret;

	kd->pid_max = PID_MAX_DEFAULT;
	if (!ust__read_small_file(PID_MAX_PATH, buf, sizeof(buf)))
		kd->pid_max = (uint32_t)strtoul(buf, NULL, 10) + 1;
	/* Untouched pages of this table cost nothing. */
	kd->tgid = calloc(kd->pid_max, sizeof(*kd->tgid));
	if (!kd->tgid)
		return -ENOMEM;
	d = opendir("/proc");
	if (!d)
		return -errno;
	ts = ust__clock_read(kd->clock.kind);
	while ((de = readdir(d))) {
		if (all_digits(de->d_name))
			dump_process(kd, ts, atoi(de->d_name));
	}
	closedir(d);
	for (i = 0; i < kd->nr_cpus; i++) {
		if (kd->streams[i].last_ts < ts)
			kd->streams[i].last_ts = ts;
		ret = kd_packet_flush(kd, &kd->streams[i]);
		if (ret)
			return ret;
	}
	return 0;
}
