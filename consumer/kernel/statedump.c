/*
 * statedump.c - the state at the start of the recording, as
 * lttng-modules' statedump events: the processes and threads, their open
 * file descriptors and memory maps (this file), the interrupts, network
 * interfaces, block devices and CPUs (statedump-sys.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Everything is read from /proc and /sys before tracing starts and
 * written into the stream of CPU 0, between lttng_statedump_start and
 * lttng_statedump_end, all stamped with the same time, before any ring
 * event, in the context of the bridge (as LTTng's are in the context of
 * its session daemon).  It also fills the tid -> process table
 * (tasks.c).
 *
 * Fields LTTng takes from kernel structures are made from what /proc
 * says: file_table_address (the address of the files_struct, shared by
 * the threads of a process) is the process id, 0 for a kernel thread;
 * fmode has FMODE_READ/FMODE_WRITE from the access mode only; a vm_map's
 * flags are VM_READ/WRITE/EXEC/SHARED from its permissions.
 *
 * No string field is written empty: babeltrace2 2.0.4 prints an empty
 * string as the last non-empty value of the same field (fixed in 2.0.5,
 * "clear_string_field(): set first character to 0"), so an anonymous
 * mapping's filename is "[anonymous]".
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

#define PF_KTHREAD	0x00200000u	/* <linux/sched.h>: a kernel thread */
#define FMODE_READ	0x1u
#define FMODE_WRITE	0x2u

/* lttng-statedump-impl.c's enums, for process_state. */
enum {
	LTTNG_USER_THREAD = 0,
	LTTNG_KERNEL_THREAD = 1,
	LTTNG_MODE_UNKNOWN = 5,
	LTTNG_NONE = 0,
	LTTNG_UNNAMED = 0,
	LTTNG_WAIT_CPU = 2,
	LTTNG_ZOMBIE = 4,
	LTTNG_WAIT = 5,
	LTTNG_DEAD = 7,
};

void kd_payload_int(struct kd_payload *p, uint64_t v, unsigned int size)
{
	if (p->len + size > sizeof(p->buf))
		return;
	memcpy(p->buf + p->len, &v, size);	/* little endian */
	p->len += size;
}

void kd_payload_be32(struct kd_payload *p, uint32_t v)
{
	kd_payload_int(p, __builtin_bswap32(v), 4);
}

void kd_payload_str(struct kd_payload *p, const char *s)
{
	size_t room = sizeof(p->buf) - p->len, n = strlen(s);

	if (!room)
		return;
	if (n >= room)
		n = room - 1;	/* cut: a statedump string is never this long */
	memcpy(p->buf + p->len, s, n);
	p->buf[p->len + n] = '\0';
	p->len += n + 1;
}

/* One statedump event, in the context of thread `tid` of process `pid`. */
static void statedump_write_as(struct kerneld *kd, struct kstream *s,
			       enum kd_statedump_class c, uint64_t ts, int32_t tid,
			       int32_t pid, const struct kd_payload *p)
{
	const struct kclass *k = kd->classes.statedump[c];
	uint8_t *out = kd_event_begin(kd, s, k, ts, tid, pid, p->len);

	if (!out)
		return;
	memcpy(out, p->buf, p->len);
	kd_event_end(s, out + p->len);
}

void kd_statedump_write(struct kerneld *kd, struct kstream *s, enum kd_statedump_class c,
			uint64_t ts, const struct kd_payload *p)
{
	statedump_write_as(kd, s, c, ts, kd->self, kd->self, p);
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

/* What /proc/<pid>/task/<tid>/stat says of a thread. */
struct thread_stat {
	char state;
	unsigned long flags;
	int cpu;
};

static int thread_stat(int32_t pid, int32_t tid, struct thread_stat *st)
{
	char path[64], buf[1024], *p;
	unsigned int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (ust__read_small_file(path, buf, sizeof(buf)))
		return -ENOENT;
	/* After the command's ')': state is field 3, flags 9, processor 39. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c", &st->state) != 1)
		return -EINVAL;
	p += 2;
	for (i = 3; i < 39 && p; i++) {
		if (i == 9)
			st->flags = strtoul(p, NULL, 10);
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	st->cpu = p ? atoi(p) : 0;
	return 0;
}

static int32_t lttng_status(char state)
{
	switch (state) {
	case 'R':
		return LTTNG_WAIT_CPU;	/* LTTng: the viewer sorts out who runs */
	case 'S':
	case 'D':
	case 'I':
		return LTTNG_WAIT;
	case 'Z':
		return LTTNG_ZOMBIE;
	case 'X':
		return LTTNG_DEAD;
	default:
		return LTTNG_UNNAMED;
	}
}

static void dump_thread(struct kerneld *kd, uint64_t ts, int32_t pid, int32_t ppid,
			int32_t tid)
{
	struct kd_payload p = { .len = 0 };
	struct thread_stat st = { 0 };
	char path[64], comm[64];
	bool kthread;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (ust__read_small_file(path, comm, sizeof(comm)) || thread_stat(pid, tid, &st))
		return;		/* gone meanwhile */
	comm[strcspn(comm, "\n")] = '\0';
	kthread = st.flags & PF_KTHREAD;
	kd_tgid_set(kd, tid, pid);
	kd_payload_int(&p, (uint32_t)tid, 4);
	kd_payload_int(&p, (uint32_t)pid, 4);
	kd_payload_int(&p, (uint32_t)ppid, 4);
	kd_payload_str(&p, comm);
	kd_payload_int(&p, kthread ? LTTNG_KERNEL_THREAD : LTTNG_USER_THREAD, 4);
	kd_payload_int(&p, LTTNG_MODE_UNKNOWN, 4);
	kd_payload_int(&p, LTTNG_NONE, 4);
	kd_payload_int(&p, (uint32_t)lttng_status(st.state), 4);
	kd_payload_int(&p, (uint32_t)st.cpu, 4);
	kd_payload_int(&p, kthread ? 0 : (uint64_t)pid, 8);
	kd_statedump_write(kd, &kd->streams[0], SD_PROCESS_STATE, ts, &p);
}

/* The "flags:" line of /proc/<pid>/fdinfo/<fd> (octal, O_CLOEXEC included). */
static unsigned int fd_flags(int32_t pid, const char *fd)
{
	char path[96], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%.20s", (int)pid, fd);
	if (ust__read_small_file(path, buf, sizeof(buf)) || !(p = strstr(buf, "flags:")))
		return 0;
	return (unsigned int)strtoul(p + 6, NULL, 8);
}

static void dump_fd(struct kerneld *kd, uint64_t ts, int32_t pid, const char *fd)
{
	struct kd_payload p = { .len = 0 };
	char path[96], target[4096];
	unsigned int flags;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%.20s", (int)pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	flags = fd_flags(pid, fd);
	kd_payload_int(&p, (uint64_t)pid, 8);
	kd_payload_int(&p, (uint32_t)atoi(fd), 4);
	kd_payload_int(&p, flags, 4);
	kd_payload_int(&p, ((flags & O_ACCMODE) != O_WRONLY ? FMODE_READ : 0) |
		       ((flags & O_ACCMODE) != O_RDONLY ? FMODE_WRITE : 0), 4);
	kd_payload_str(&p, target);
	kd_payload_int(&p, (uint32_t)pid, 4);
	kd_statedump_write(kd, &kd->streams[0], SD_FILE_DESCRIPTOR, ts, &p);
}

static void dump_fds(struct kerneld *kd, uint64_t ts, int32_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return;		/* a kernel thread, or gone */
	while ((de = readdir(d))) {
		if (all_digits(de->d_name))
			dump_fd(kd, ts, pid, de->d_name);
	}
	closedir(d);
}

/*
 * One line of /proc/<pid>/maps: "start-end perms offset dev inode path".
 * The maps of an exec (kd_statedump_vm_maps() during a pass) are in the
 * context of the process itself, so that the thread in the context of
 * its CPU's events stays the one running there.
 */
static void dump_map(struct kerneld *kd, struct kstream *s, uint64_t ts, int32_t pid,
		     int32_t ctx, const char *line)
{
	struct kd_payload p = { .len = 0 };
	unsigned long long start, end, off, inode;
	char perms[8], dev[32];
	int n = 0;
	uint64_t flags;

	if (sscanf(line, "%llx-%llx %7s %llx %31s %llu %n", &start, &end, perms, &off,
		   dev, &inode, &n) < 6)
		return;
	flags = (perms[0] == 'r' ? 0x1 : 0) | (perms[1] == 'w' ? 0x2 : 0) |
		(perms[2] == 'x' ? 0x4 : 0) | (perms[3] == 's' ? 0x8 : 0);
	kd_payload_int(&p, (uint32_t)pid, 4);
	kd_payload_int(&p, start, 8);
	kd_payload_int(&p, end, 8);
	kd_payload_int(&p, flags, 8);
	kd_payload_int(&p, inode, 8);
	kd_payload_int(&p, off, 8);
	kd_payload_str(&p, n > 0 && line[n] ? line + n : "[anonymous]");
	statedump_write_as(kd, s, SD_VM_MAP, ts, ctx, ctx ? pid : kd->self, &p);
}

void kd_statedump_vm_maps(struct kerneld *kd, struct kstream *s, uint64_t ts, int32_t pid,
			  int32_t ctx)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		dump_map(kd, s, ts, pid, ctx ? ctx : kd->self, line);
	}
	free(line);
	fclose(f);
}

/* A process: its threads, then its descriptors and maps (one table each). */
static void dump_process(struct kerneld *kd, uint64_t ts, int32_t pid)
{
	char path[64];
	int32_t tgid, ppid;
	struct dirent *de;
	DIR *d;

	if (kd_proc_status(pid, &tgid, &ppid))
		return;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (all_digits(de->d_name))
			dump_thread(kd, ts, pid, ppid, atoi(de->d_name));
	}
	closedir(d);
	dump_fds(kd, ts, pid);
	/* The traced process tree starts later: its maps come with its exec. */
	if (!kd->opts.root)
		kd_statedump_vm_maps(kd, &kd->streams[0], ts, pid, 0);
}

/*
 * Dump the state, stamped now (before tracing starts, so that every
 * ring event of CPU 0 comes after it in its stream), and write the
 * first packet of every stream.
 */
int kd_statedump(struct kerneld *kd)
{
	struct kd_payload empty = { .len = 0 };
	struct dirent *de;
	unsigned int i;
	uint64_t ts;
	DIR *d;
	int ret;

	d = opendir("/proc");
	if (!d)
		return -errno;
	ts = ust__clock_read(kd->clock.kind);
	kd_statedump_write(kd, &kd->streams[0], SD_START, ts, &empty);
	while ((de = readdir(d))) {
		if (all_digits(de->d_name))
			dump_process(kd, ts, atoi(de->d_name));
	}
	closedir(d);
	kd_statedump_system(kd, ts);
	kd_statedump_write(kd, &kd->streams[0], SD_END, ts, &empty);
	for (i = 0; i < kd->nr_cpus; i++) {
		if (kd->streams[i].last_ts < ts)
			kd->streams[i].last_ts = ts;
		ret = kd_packet_flush(kd, &kd->streams[i]);
		if (ret)
			return ret;
	}
	return 0;
}
