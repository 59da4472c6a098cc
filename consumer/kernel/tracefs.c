/*
 * tracefs.c - the private ftrace instance: finding (or mounting)
 * tracefs, saying exactly what is missing when we may not use it,
 * creating and configuring the instance, enabling the tracepoints the
 * user asked for, and removing the instance at the end.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The top-level instance, which other tools use, is never touched:
 * every write goes to instances/ust-<pid>/ (libtracefs).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <tracefs.h>

#include "abi/env.h"
#include "kerneld.h"

#define TRACEFS_DEFAULT		"/sys/kernel/tracing"
#define TRACEFS_MAGIC_NR	0x74726163

/* What `--kernel` with no list records (doc/kernel.md). */
static const char default_events[] =
	"sched:sched_switch,sched:sched_wakeup,sched:sched_process_fork,"
	"sched:sched_process_exec,sched:sched_process_exit,"
	"syscalls:sys_enter_*,syscalls:sys_exit_*,"
	"irq:irq_handler_entry,irq:irq_handler_exit,"
	"irq:softirq_entry,irq:softirq_exit,"
	"block:block_rq_issue,block:block_rq_complete,"
	"net:net_dev_xmit,net:netif_receive_skb";

/* The word "memory" of a list: what `ust report --memory` reads. */
static const char memory_events[] =
	"kmem:mm_page_alloc,kmem:mm_page_free,"
	"exceptions:page_fault_user,exceptions:page_fault_kernel";

#define kd_msg(...)	fprintf(stderr, "ust record: " __VA_ARGS__)

static bool is_tracefs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == TRACEFS_MAGIC_NR;
}

/* Not mounted: mount it when we are root, else say how. */
static int tracefs_mount(const char *path)
{
	if (geteuid() != 0) {
		kd_msg("no kernel events: tracefs is not mounted at %s; "
		       "mount it as root ('mount -t tracefs nodev %s') or run "
		       "ust record as root, which mounts it\n", path, path);
		return -KERNELD_EXIT_UNAVAIL;
	}
	if (mount("nodev", path, "tracefs", 0, NULL)) {
		int err = errno;

		/*
		 * Two bridges starting at once both see tracefs missing; the
		 * second mount fails EBUSY once the first has mounted it.
		 */
		if (err == EBUSY && is_tracefs(path))
			return 0;
		if (err == ENODEV)
			kd_msg("no kernel events: this kernel has no tracefs "
			       "(it needs CONFIG_FTRACE and CONFIG_TRACING)\n");
		else
			kd_msg("no kernel events: cannot mount tracefs at %s: %s\n",
			       path, strerror(err));
		return -KERNELD_EXIT_UNAVAIL;
	}
	kd_msg("mounted tracefs at %s\n", path);
	return 0;
}

/* We need to create an instance: write and search access to instances/. */
static int tracefs_check_access(const char *path)
{
	char inst[4096];

	snprintf(inst, sizeof(inst), "%s/instances", path);
	if (!access(path, X_OK) && !access(inst, W_OK | X_OK))
		return 0;
	kd_msg("no kernel events: %s is not writable by uid %u (%s); "
	       "kernel tracing needs root (or CAP_DAC_OVERRIDE): run "
	       "'sudo ust record --kernel ...'\n", inst, (unsigned int)geteuid(),
	       strerror(errno));
	return -KERNELD_EXIT_UNAVAIL;
}

/*
 * Find tracefs at $UST_TRACEFS or /sys/kernel/tracing, mounting it when
 * we are root, and check that we may use it.  Returns 0 or
 * -KERNELD_EXIT_UNAVAIL (reported).
 */
int kd_tracefs_find(struct kerneld *kd)
{
	const char *env = getenv(UST_ENV_TRACEFS);
	const char *path = env && *env ? env : TRACEFS_DEFAULT;
	int ret;

	if (!is_tracefs(path)) {
		if (access(path, F_OK) && errno == EACCES) {
			kd_msg("no kernel events: cannot look at %s (%s); kernel "
			       "tracing needs root: run 'sudo ust record --kernel ...'\n",
			       path, strerror(errno));
			return -KERNELD_EXIT_UNAVAIL;
		}
		ret = tracefs_mount(path);
		if (ret)
			return ret;
	}
	ret = tracefs_check_access(path);
	if (ret)
		return ret;
	kd->tracing_dir = strdup(path);
	if (!kd->tracing_dir || tracefs_set_tracing_dir(kd->tracing_dir)) {
		kd_msg("no kernel events: cannot use tracefs at %s\n", path);
		return -KERNELD_EXIT_UNAVAIL;
	}
	return 0;
}

static int inst_write(struct kerneld *kd, const char *file, const char *val)
{
	if (tracefs_instance_file_write(kd->inst, file, val) < 0) {
		kd_msg("kernel events: cannot write '%s' to %s/%s: %s\n", val,
		       tracefs_instance_get_name(kd->inst), file, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * --recorder PID: the instance records the tasks of set_event_pid, which
 * holds PID and, with options/event-fork, every task they fork from now
 * on: the command `ust record` (PID) starts next and its descendants.
 * sched_switch and sched_wakeup are recorded when either task is in the
 * set (the kernel's rule), which gives the context of every switch.
 * The recorder's own events are muted (tasks.c), and once the command
 * runs, the recorder goes to set_event_notrace_pid (main.c).
 */
static int follow_process_tree(struct kerneld *kd)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%d", (int)kd->opts.root);
	if (!tracefs_file_exists(kd->inst, "set_event_pid") ||
	    !tracefs_file_exists(kd->inst, "options/event-fork")) {
		kd_msg("kernel events: this kernel cannot follow a process tree "
		       "(no set_event_pid or options/event-fork); use --kernel-all\n");
		return -1;
	}
	if (inst_write(kd, "options/event-fork", "1") ||
	    inst_write(kd, "set_event_pid", pid))
		return -1;
	kd_mute(kd, kd->opts.root);
	return 0;
}

/*
 * The instance stamps events with the session's counter: the raw TSC
 * (x86-tsc) when libust uses the TSC, else CLOCK_MONOTONIC (mono).
 */
static int instance_configure(struct kerneld *kd)
{
	const char *clock = kd->clock.kind == UST_CLOCK_TSC ? "x86-tsc" : "mono";
	char pid[24];
	char *now;

	if (tracefs_trace_off(kd->inst) || inst_write(kd, "trace_clock", clock))
		return -1;
	now = tracefs_get_clock(kd->inst);
	if (!now || strcmp(now, clock)) {
		kd_msg("kernel events: the instance's trace_clock is '%s', not '%s'\n",
		       now ? now : "?", clock);
		free(now);
		return -1;
	}
	free(now);
	if (tracefs_instance_set_buffer_size(kd->inst, kd->opts.buffer_kb, -1)) {
		kd_msg("kernel events: cannot set a %llu KiB buffer per CPU: %s\n",
		       (unsigned long long)kd->opts.buffer_kb, strerror(errno));
		return -1;
	}
	/* Our own reads are not traced: no feedback loop. */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (tracefs_file_exists(kd->inst, "set_event_notrace_pid") &&
	    inst_write(kd, "set_event_notrace_pid", pid))
		return -1;
	return kd->opts.root ? follow_process_tree(kd) : 0;
}

int kd_instance_create(struct kerneld *kd)
{
	char name[64];

	snprintf(name, sizeof(name), "ust-%d", (int)getpid());
	kd->inst = tracefs_instance_create(name);
	if (!kd->inst) {
		kd_msg("no kernel events: cannot create the ftrace instance "
		       "%s/instances/%s: %s\n", kd->tracing_dir, name, strerror(errno));
		return -KERNELD_EXIT_UNAVAIL;
	}
	if (!tracefs_instance_is_new(kd->inst)) {
		kd_msg("kernel events: ftrace instance %s already exists; not ours, "
		       "left alone\n", name);
		tracefs_instance_free(kd->inst);
		kd->inst = NULL;
		return -1;
	}
	return instance_configure(kd) ? -1 : 0;
}

int kd_tracing_on(struct kerneld *kd, bool on)
{
	return on ? tracefs_trace_on(kd->inst) : tracefs_trace_off(kd->inst);
}

/*
 * The events CPU `cpu`'s ring lost since the instance was made: those
 * overwritten before they were read ("overrun") and those refused when
 * the ring was not in overwrite mode ("dropped events").  A sub-buffer
 * flagged with missed events does not always say how many (no room left
 * at its end): these counters do.  0 when the file cannot be read.
 */
uint64_t kd_cpu_lost(struct kerneld *kd, unsigned int cpu)
{
	unsigned long long overrun = 0, dropped = 0;
	char file[48];
	char *text, *p;

	snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", cpu);
	text = tracefs_instance_file_read(kd->inst, file, NULL);
	if (!text)
		return 0;
	p = strstr(text, "\noverrun:");	/* not "commit overrun:" */
	if (p)
		overrun = strtoull(p + 9, NULL, 10);
	p = strstr(text, "dropped events:");
	if (p)
		dropped = strtoull(p + 15, NULL, 10);
	free(text);
	return overrun + dropped;
}

void kd_instance_destroy(struct kerneld *kd)
{
	if (!kd->inst)
		return;
	tracefs_trace_off(kd->inst);
	if (tracefs_instance_destroy(kd->inst))
		kd_msg("kernel events: cannot remove the ftrace instance %s: %s\n",
		       tracefs_instance_get_name(kd->inst), strerror(errno));
	tracefs_instance_free(kd->inst);
	kd->inst = NULL;
}

/* A list of strings, NULL-terminated, grown one at a time. */
static int list_add(char ***list, size_t *n, char *s)
{
	char **l = realloc(*list, (*n + 2) * sizeof(*l));

	if (!l || !s) {
		free(s);
		return -ENOMEM;
	}
	l[(*n)++] = s;
	l[*n] = NULL;
	*list = l;
	return 0;
}

/* "sys:event" against a glob; a glob without ':' is on the event name. */
static bool glob_matches(const char *glob, const char *sys, const char *ev)
{
	char full[512];

	if (!strchr(glob, ':'))
		return !fnmatch(glob, ev, 0);
	snprintf(full, sizeof(full), "%s:%s", sys, ev);
	return !fnmatch(glob, full, 0);
}

/* Whether any glob of the list matches; marks the ones that did. */
static bool list_matches(char **globs, bool *hit, const char *sys, const char *ev)
{
	bool any = false;
	size_t i;

	for (i = 0; globs[i]; i++) {
		if (glob_matches(globs[i], sys, ev)) {
			hit[i] = true;
			any = true;
		}
	}
	return any;
}

/* Split the user's list, expanding the word "default". */
static int split_globs(const char *list, char ***globs, size_t *n)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = copy ? 0 : -ENOMEM;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "default"))
			ret = split_globs(default_events, globs, n);
		else if (!strcmp(tok, "memory"))
			ret = split_globs(memory_events, globs, n);
		else
			ret = list_add(globs, n, strdup(tok));
	}
	free(copy);
	return ret;
}

bool kd_list_has(char **l, const char *s)
{
	size_t i;

	for (i = 0; l && l[i]; i++) {
		if (!strcmp(l[i], s))
			return true;
	}
	return false;
}

void kd_list_free(char **l)
{
	size_t i;

	for (i = 0; l && l[i]; i++)
		free(l[i]);
	free(l);
}

/* Enable every tracepoint of system `sys` that a glob matches. */
static int enable_system(struct kerneld *kd, const char *sys, char **globs,
			 bool *hit, char ***enabled, size_t *n)
{
	char **events = tracefs_system_events(kd->tracing_dir, sys);
	char *full;
	int ret = 0;
	size_t i;

	for (i = 0; events && events[i] && !ret; i++) {
		if (!list_matches(globs, hit, sys, events[i]))
			continue;
		if (tracefs_event_file_write(kd->inst, sys, events[i], "enable", "1") < 0) {
			kd_msg("kernel events: cannot enable %s:%s: %s\n", sys,
			       events[i], strerror(errno));
			ret = -1;
			break;
		}
		if (asprintf(&full, "%s:%s", sys, events[i]) < 0)
			full = NULL;
		ret = list_add(enabled, n, full);
	}
	tracefs_list_free(events);
	return ret;
}

/*
 * task:task_newtask says whether a new thread shares its parent's
 * process (CLONE_THREAD): the bridge reads it for the `_pid` context and
 * sched_process_fork's child_pid even when the list does not ask for it
 * (then it is in kd->hidden and not written).  A kernel without it
 * leaves the bridge to ask /proc.
 */
static int enable_own_events(struct kerneld *kd, char ***enabled, size_t *n)
{
	static const char newtask[] = "task:task_newtask";
	size_t nh = 0;

	if (kd_list_has(*enabled, newtask) ||
	    tracefs_event_file_write(kd->inst, "task", "task_newtask", "enable", "1") < 0)
		return 0;
	if (list_add(&kd->hidden, &nh, strdup(newtask)))
		return -ENOMEM;
	return list_add(enabled, n, strdup(newtask));
}

/*
 * Enable the tracepoints of the list (or the default set) in the
 * instance; *enabled gets their "sys:event" names.  A glob that matches
 * nothing is a usage error: -KERNELD_EXIT_USAGE, reported.
 */
int kd_enable_events(struct kerneld *kd, char ***enabled)
{
	char **globs = NULL, **systems;
	size_t nglobs = 0, nen = 0, i;
	bool *hit;
	int ret;

	*enabled = NULL;
	ret = split_globs(kd->opts.events ? kd->opts.events : default_events,
			  &globs, &nglobs);
	if (ret || !nglobs) {
		kd_msg("invalid --kernel list '%s'\n", kd->opts.events ? kd->opts.events : "");
		kd_list_free(globs);
		return -KERNELD_EXIT_USAGE;
	}
	hit = calloc(nglobs, sizeof(*hit));
	systems = tracefs_event_systems(kd->tracing_dir);
	for (i = 0; hit && systems && systems[i] && !ret; i++)
		ret = enable_system(kd, systems[i], globs, hit, enabled, &nen);
	for (i = 0; !ret && i < nglobs; i++) {
		if (!hit || !hit[i]) {
			kd_msg("--kernel: no kernel tracepoint matches '%s' "
			       "(see %s/available_events)\n", globs[i], kd->tracing_dir);
			ret = -KERNELD_EXIT_USAGE;
		}
	}
	if (!ret)
		ret = enable_own_events(kd, enabled, &nen);
	tracefs_list_free(systems);
	free(hit);
	kd_list_free(globs);
	return ret;
}
