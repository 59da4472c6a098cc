/*
 * ktrigger.c - `ust record --trigger 'EVENT[ if FILTER]'` on a kernel
 * event: the kernel itself filters (ftrace's per-event `filter`), in an
 * instance of its own that holds only the matching events; the bridge
 * looks at it on its timer and, for a match, asks every traced process
 * for a flight-recorder snapshot cut at the match (each consumer then
 * asks us for the kernel part, flight.c), at most one per --trigger-holdoff.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * EVENT is a glob on LTTng's names (syscall_exit_*), FILTER names LTTng's
 * fields: each becomes the ftrace field it comes from (lttng-names.c's
 * renames, read backwards; a priority compares with MAX_RT_PRIO added).
 * Fields the bridge makes (child_pid...) cannot be filtered on.  The
 * traced processes are those whose environment holds our snapshot socket
 * (UST_KERNELD_SOCKET, inherited from ust record); with none, the bridge
 * writes a kernel-only snapshot in the session directory.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "abi/consumerd.h"
#include "abi/env.h"
#include "abi/flight.h"
#include "kerneld.h"
#include "shm/map.h"
#include "trigger/trigger.h"

#define TRIGGER_BUFFER_KB	64

struct kd_trigger {
	struct trigger spec;
	struct tracefs_instance *inst;
	struct tracefs_cpu **tcpu;
	char **names;		/* LTTng name by ftrace event id */
	int max_id;
	uint64_t holdoff;	/* clock ticks */
	uint64_t last;		/* the last match that fired, 0: none */
	unsigned int nr_snapshots;
};

/* The LTTng field `name` of `ev`: its ftrace field, as trig_map_fn says. */
static int map_field(void *arg, const char *name, char *ftrace, size_t len, int64_t *bias,
		     bool *is_str)
{
	struct tep_event *ev = arg;
	struct tep_format_field *f;

	for (f = ev->format.fields; f; f = f->next) {
		struct kfield k = { .src = f, .base = 10 };

		if (!kd_field_kind(f, &k) || kd_lttng_field(ev->system, ev->name, f, &k) ||
		    (strcmp(k.name, name) && (k.name[0] != '_' || strcmp(k.name + 1, name))))
			continue;
		if (k.kind != KF_INT && k.kind != KF_PRIO && k.kind != KF_CHARS &&
		    k.kind != KF_DYN_CHARS)
			return -1;
		snprintf(ftrace, len, "%s", f->name);
		*bias = k.kind == KF_PRIO ? KD_MAX_RT_PRIO : 0;
		*is_str = k.kind == KF_CHARS || k.kind == KF_DYN_CHARS;
		return 0;
	}
	return -1;
}

/* The LTTng name of the events of ftrace id `id`, for the snapshot's reason. */
static void name_event(struct kd_trigger *t, int id, const char *name)
{
	char **names;

	if (id < 0 || id > 65535)
		return;
	if (id > t->max_id) {
		names = realloc(t->names, (size_t)(id + 1) * sizeof(*names));
		if (!names)
			return;
		memset(names + t->max_id + 1, 0, (size_t)(id - t->max_id) * sizeof(*names));
		t->names = names;
		t->max_id = id;
	}
	free(t->names[id]);
	t->names[id] = strdup(name);
}

/*
 * Enable `ev` in the trigger instance with the filter, and without our
 * own processes' events: the recorder (until it is in set_event_notrace_pid
 * it may match, and adding it there would lose the command it forks) and
 * the consumers (whose exec the bridge sees late in flight mode).  0 or -1.
 */
static int arm_event(const struct kerneld *kd, struct kd_trigger *t, struct tep_event *ev,
		     const char *name, char *err, size_t errlen)
{
	char user[3072], filter[4096];

	if (trig_to_ftrace(&t->spec, map_field, ev, user, sizeof(user), err, errlen))
		return -1;
	snprintf(filter, sizeof(filter), "%s%sCOMM != \"" UST_CONSUMERD_NAME "\"",
		 user[0] ? user : "", user[0] ? " && " : "");
	if (kd->opts.root)
		snprintf(filter + strlen(filter), sizeof(filter) - strlen(filter),
			 " && common_pid != %d", (int)kd->opts.root);
	if (tracefs_event_file_write(t->inst, ev->system, ev->name, "filter", filter) < 0) {
		snprintf(err, errlen, "the kernel refuses the filter '%.160s' of %s:%s", filter,
			 ev->system, ev->name);
		return -1;
	}
	name_event(t, ev->id, name);
	return tracefs_event_file_write(t->inst, ev->system, ev->name, "enable", "1") < 0 ?
	       -1 : 0;
}

/*
 * Every tracepoint of `system` whose LTTng name matches, added to *n (-1
 * on an error).  Only the formats of a system holding a match are parsed:
 * parsing all of them is slow, and libtraceevent 1.7 leaks a string
 * parsing the kvm system's (doc/reliability.md, finding A2).
 */
static void arm_system_events(const struct kerneld *kd, struct kd_trigger *t,
			      const char *system, int *n, char *err, size_t errlen)
{
	char **events = tracefs_system_events(kd->tracing_dir, system);
	const char *one[] = { system, NULL };
	struct tep_handle *tep = NULL;
	size_t j;

	for (j = 0; events && events[j] && *n >= 0; j++) {
		char *name = kd_lttng_event_name(system, events[j]);
		struct tep_event *ev;

		if (!name || !trig_event_matches(&t->spec, name)) {
			free(name);
			continue;
		}
		if (!tep)
			tep = tracefs_local_events_system(kd->tracing_dir, one);
		ev = tep ? tep_find_event_by_name(tep, system, events[j]) : NULL;
		if (!ev || arm_event(kd, t, ev, name, err, errlen))
			*n = -1;
		else
			(*n)++;
		free(name);
	}
	tracefs_list_free(events);
	if (tep)
		tep_free(tep);
}

/* Every tracepoint whose LTTng name matches; the count, or -1. */
static int arm_events(const struct kerneld *kd, struct kd_trigger *t, char *err,
		      size_t errlen)
{
	char **systems = tracefs_event_systems(kd->tracing_dir);
	int n = 0;
	size_t i;

	for (i = 0; systems && systems[i] && n >= 0; i++)
		arm_system_events(kd, t, systems[i], &n, err, errlen);
	tracefs_list_free(systems);
	if (!n)
		snprintf(err, errlen, "no kernel event matches '%s'", t->spec.event);
	return n;
}

static int make_instance(struct kerneld *kd, struct kd_trigger *t)
{
	char name[64], pid[24];
	unsigned int i;

	snprintf(name, sizeof(name), "ust-%d-trigger", (int)getpid());
	t->inst = tracefs_instance_create(name);
	if (!t->inst)
		return -1;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (tracefs_instance_file_write(t->inst, "trace_clock",
					kd->clock.kind == UST_CLOCK_TSC ? "x86-tsc" : "mono") < 0 ||
	    tracefs_instance_set_buffer_size(t->inst, TRIGGER_BUFFER_KB, -1) ||
	    tracefs_instance_file_write(t->inst, "set_event_notrace_pid", pid) < 0)
		return -1;
	if (kd->opts.root) {
		snprintf(pid, sizeof(pid), "%d", (int)kd->opts.root);
		if (tracefs_instance_file_write(t->inst, "options/event-fork", "1") < 0 ||
		    tracefs_instance_file_write(t->inst, "set_event_pid", pid) < 0)
			return -1;
	}
	t->tcpu = calloc(kd->nr_cpus, sizeof(*t->tcpu));
	for (i = 0; t->tcpu && i < kd->nr_cpus; i++) {
		t->tcpu[i] = tracefs_cpu_open(t->inst, (int)i, true);
		if (!t->tcpu[i])
			return -1;
	}
	return t->tcpu ? 0 : -1;
}

int kd_trigger_open(struct kerneld *kd)
{
	char err[TRIG_ERROR_MAX];
	struct kd_trigger *t;
	double holdoff = 1.0;

	if (!kd->opts.trigger)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->max_id = -1;
	kd->trigger = t;
	if (trig_parse(kd->opts.trigger, &t->spec, err, sizeof(err)) || trig_is_user(&t->spec)) {
		fprintf(stderr, "ust record: invalid --trigger '%s': %s\n", kd->opts.trigger,
			trig_is_user(&t->spec) ? "a user-space event" : err);
		return -KERNELD_EXIT_USAGE;
	}
	if (kd->opts.holdoff)
		holdoff = strtod(kd->opts.holdoff, NULL);
	t->holdoff = (uint64_t)(holdoff * (double)kd->clock.freq);
	if (make_instance(kd, t)) {
		fprintf(stderr, "ust record: --trigger: cannot make its ftrace instance: %s\n",
			strerror(errno));
		return -1;
	}
	if (arm_events(kd, t, err, sizeof(err)) <= 0) {
		fprintf(stderr, "ust record: invalid --trigger '%s': %s\n", kd->opts.trigger, err);
		return -KERNELD_EXIT_USAGE;
	}
	return tracefs_trace_on(t->inst) ? -1 : 0;
}

void kd_trigger_close(struct kerneld *kd)
{
	struct kd_trigger *t = kd->trigger;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; t->tcpu && i < kd->nr_cpus; i++) {
		if (t->tcpu[i])
			tracefs_cpu_close(t->tcpu[i]);
	}
	free(t->tcpu);
	if (t->inst) {
		tracefs_trace_off(t->inst);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	for (i = 0; t->names && (int)i <= t->max_id; i++)
		free(t->names[i]);
	free(t->names);
	trig_free(&t->spec);
	free(t);
	kd->trigger = NULL;
}

/* Whether process `pid`'s environment holds our snapshot socket. */
static bool ours(int pid, const char *want)
{
	char path[64], buf[65536];
	FILE *f;
	size_t n, i;

	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1) {
		if (!strcmp(buf + i, want))
			return true;
	}
	return false;
}

/* Ask process `pid`'s consumer for a snapshot; true when asked. */
static bool ask(int pid, uint64_t cut, const char *reason)
{
	struct shm_map m;
	struct ust_flight *f;
	char err[256];
	bool asked = false;

	if (shm_map_attach(&m, pid, err, sizeof(err)))
		return false;	/* not traced by libust */
	f = &((struct ust_shm_header *)m.base)->flight;
	if (m.chan[0].mode == UST_MODE_FLIGHT && ust__flight_claim(f)) {
		ust__flight_publish(f, cut, reason, "");
		asked = true;
	}
	shm_map_close(&m);
	return asked;
}

/* A match at `cut` of event `name`: snapshots of both sides. */
static void fire(struct kerneld *kd, struct kd_trigger *t, uint64_t cut, const char *name)
{
	char want[128], reason[UST_FLIGHT_REASON_MAX], dir[4096];
	struct dirent *de;
	unsigned int asked = 0;
	uint64_t events;
	size_t i;
	DIR *d;

	/* The cause: the event's name (the flight request holds 31 bytes). */
	snprintf(reason, sizeof(reason), "%s", name);
	for (i = 0; reason[i]; i++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    reason[i]))
			reason[i] = '_';
	}
	snprintf(want, sizeof(want), UST_ENV_KERNELD_SOCKET "=" UST_KERNELD_SOCKET_FMT,
		 (int)getpid());
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		int pid = atoi(de->d_name);

		if (pid > 0 && pid != (int)getpid() && ours(pid, want))
			asked += ask(pid, cut, reason);
	}
	if (d)
		closedir(d);
	fprintf(stderr, KERNELD_NAME ": trigger %s: %u traced process%s asked for a snapshot\n",
		name, asked, asked == 1 ? "" : "es");
	if (asked)
		return;
	snprintf(dir, sizeof(dir), "%s/kernel-snapshot-%u-%s", kd->opts.output,
		 ++t->nr_snapshots, reason);
	if (kd_flight_snapshot(kd, cut, dir, &events))
		fprintf(stderr, KERNELD_NAME ": snapshot %s failed\n", dir);
	else
		fprintf(stderr, "ust record: kernel snapshot %s: %" PRIu64 " events\n", dir, events);
}

/* The matches of one sub-buffer of the trigger instance. */
static void matches(struct kerneld *kd, struct kd_trigger *t, void *page)
{
	unsigned long long ts;
	void *data;

	if (kbuffer_load_subbuffer(kd->kbuf, page))
		return;
	for (data = kbuffer_read_event(kd->kbuf, &ts); data;
	     data = kbuffer_next_event(kd->kbuf, &ts)) {
		uint16_t type;

		if (t->last && ts < t->last + t->holdoff)
			continue;	/* a storm: one snapshot per hold-off */
		memcpy(&type, data, sizeof(type));	/* common_type */
		t->last = ts;
		fire(kd, t, ts, (int)type <= t->max_id && t->names[type] ? t->names[type] : "kernel");
	}
}

void kd_trigger_poll(struct kerneld *kd)
{
	struct kd_trigger *t = kd->trigger;
	unsigned int i;
	int n;

	for (i = 0; t && i < kd->nr_cpus; i++) {
		while ((n = tracefs_cpu_read(t->tcpu[i], kd->page, true)) > 0) {
			if (n < kd->page_size)
				memset((uint8_t *)kd->page + n, 0, kd->page_size - n);
			matches(kd, t, kd->page);
		}
	}
}

void kd_trigger_notrace(struct kerneld *kd, const char *pid)
{
	if (kd->trigger)
		tracefs_instance_file_append(kd->trigger->inst, "set_event_notrace_pid", pid);
}
