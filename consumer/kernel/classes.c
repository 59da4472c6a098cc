/*
 * classes.c - the CTF event classes of the kernel trace, made from the
 * tracepoints' ftrace formats (parsed by libtraceevent), and the
 * classes of the statedump.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Names follow lttng-modules 2.13 (lttng-names.c) so that tools written
 * for it (Trace Compass's kernel analyses, the LTTng analyses, `ust
 * report`) understand the trace.  Any tracepoint LTTng does not rename
 * keeps its ftrace name and fields.  task:task_newtask is always read,
 * for the thread's process, and written only when asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "kerneld.h"

/* TSDL keywords: a field so named gets a leading '_' (readers drop it). */
static const char *const tsdl_keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env",
	"event", "floating_point", "float", "integer", "int", "long", "short",
	"signed", "stream", "string", "struct", "trace", "typealias",
	"typedef", "unsigned", "variant", "void", "_Bool", "_Complex",
	"_Imaginary",
};

/*
 * The statedump classes, as lttng-modules 2.13 declares them
 * (lttng-statedump.h), each field "name:type": iN/uN integers of N
 * bits, xN hexadecimal, oN octal, nN hexadecimal in network byte order,
 * s a string.  file_descriptor's pid and vm_map's filename are ours
 * (LTTng 2.13 links descriptors to processes by file_table_address and
 * has no file names for maps).
 */
static const char *const statedump_specs[SD_NR][2] = {
	[SD_START] = { "lttng_statedump_start", "" },
	[SD_PROCESS_STATE] = { "lttng_statedump_process_state",
		"tid:i32 pid:i32 ppid:i32 name:s type:i32 mode:i32 submode:i32 "
		"status:i32 cpu:u32 file_table_address:x64" },
	[SD_FILE_DESCRIPTOR] = { "lttng_statedump_file_descriptor",
		"file_table_address:x64 fd:i32 flags:o32 fmode:x32 filename:s pid:i32" },
	[SD_VM_MAP] = { "lttng_statedump_vm_map",
		"pid:i32 start:x64 end:x64 flags:x64 inode:u64 pgoff:u64 filename:s" },
	[SD_INTERRUPT] = { "lttng_statedump_interrupt",
		"irq:u32 name:s action:s tid:i32" },
	[SD_NETWORK_INTERFACE] = { "lttng_statedump_network_interface",
		"name:s address_ipv4:n32" },
	[SD_BLOCK_DEVICE] = { "lttng_statedump_block_device", "dev:u32 diskname:s" },
	[SD_CPU_TOPOLOGY] = { "lttng_statedump_cpu_topology",
		"architecture:s cpu_id:u16 vendor:s family:u8 model:u8 model_name:s "
		"physical_id:u16 core_id:u16 cores:u16" },
	[SD_END] = { "lttng_statedump_end", "" },
};

static bool is_keyword(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(tsdl_keywords) / sizeof(*tsdl_keywords); i++) {
		if (!strcmp(s, tsdl_keywords[i]))
			return true;
	}
	return false;
}

void kd_field_name(struct kfield *k, const char *name)
{
	snprintf(k->name, sizeof(k->name), "%s%s", is_keyword(name) ? "_" : "", name);
}

static bool int_size_ok(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static bool is_char_type(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) || strstr(f->type, "char");
}

/*
 * How to carry ftrace field `f` into CTF; false when we cannot (a
 * dynamic array of numbers, an odd size): the field is left out.
 */
bool kd_field_kind(const struct tep_format_field *f, struct kfield *k)
{
	k->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		k->kind = KF_DYN_CHARS;
		return is_char_type(f) && f->size == 4;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		if (is_char_type(f) && f->elementsize == 1) {
			k->kind = KF_CHARS;
			k->size = f->size;
			return true;
		}
		k->kind = KF_INT_ARRAY;
		k->size = f->elementsize;
		k->count = f->arraylen;
		return int_size_ok(k->size) && k->count && k->count * k->size == (unsigned int)f->size;
	}
	k->kind = KF_INT;
	k->size = f->size;
	return int_size_ok(k->size);
}

static struct kfield *field_add(struct kclass *c, const char *name)
{
	struct kfield *f = &c->fields[c->nr_fields++];

	memset(f, 0, sizeof(*f));
	kd_field_name(f, name);
	f->base = 10;
	return f;
}

/* An int32 field made by the bridge (not copied from the record). */
static void add_int32_field(struct kclass *c, const char *name,
			    const struct tep_format_field *src, enum kfield_kind kind)
{
	struct kfield *f = field_add(c, name);

	f->src = src;
	f->kind = kind;
	f->size = 4;
	f->is_signed = true;
}

/*
 * Fields the bridge adds where LTTng has them: the processes of
 * sched_process_fork's threads, after each thread, and the thread of a
 * block request, before rwbs.
 */
static void added_before(struct kclass *c, const struct tep_event *ev,
			 const struct tep_format_field *f)
{
	if (kd_lttng_tid_before(ev->system, ev->name, f->name))
		add_int32_field(c, "tid", f, KF_CUR_TID);
}

static void added_after(struct kclass *c, const struct tep_event *ev,
			const struct tep_format_field *f)
{
	if (strcmp(ev->name, "sched_process_fork"))
		return;
	if (!strcmp(f->name, "parent_pid"))
		add_int32_field(c, "parent_pid", f, KF_TGID);
	else if (!strcmp(f->name, "child_pid"))
		add_int32_field(c, "child_pid", f, KF_TGID);
}

/*
 * A wakeup's context, ours (the last field, which LTTng's readers skip):
 * whether the waker was a task or an interrupt handler, which the ring
 * record's flags say and no LTTng field does.  `ust report --thread`
 * credits the wakeup to the interrupt, not to the task it interrupted.
 */
static void added_last(struct kclass *c, struct tep_event *ev)
{
	struct tep_format_field *flags;
	struct kfield *f;

	if (strcmp(ev->system, "sched") || (strcmp(ev->name, "sched_wakeup") &&
	    strcmp(ev->name, "sched_waking") && strcmp(ev->name, "sched_wakeup_new")))
		return;
	flags = tep_find_common_field(ev, "common_flags");
	if (!flags || flags->size != 1)
		return;
	f = field_add(c, "ust_in_interrupt");
	f->src = flags;
	f->kind = KF_IN_INTERRUPT;
	f->size = 1;
}

static int class_fields(struct kclass *c, struct tep_event *ev)
{
	struct tep_format_field *f;
	unsigned int n = 0;

	for (f = ev->format.fields; f; f = f->next)
		n++;
	c->fields = calloc(2 * n + 1, sizeof(*c->fields));
	if (!c->fields)
		return -ENOMEM;
	for (f = ev->format.fields; f; f = f->next) {
		struct kfield k = { .src = f, .base = 10 };

		if (!kd_field_kind(f, &k) || kd_lttng_field(ev->system, ev->name, f, &k))
			continue;
		if (kd_paths_field(ev->system, ev->name, f->name) && k.size == 8) {
			k.kind = KF_USER_PATH;
			c->user_path = true;
		}
		added_before(c, ev, f);
		c->fields[c->nr_fields++] = k;
		added_after(c, ev, f);
	}
	added_last(c, ev);
	return 0;
}

static int classes_add(struct kclasses *t, struct kclass *c)
{
	struct kclass **all = realloc(t->all, (t->nr + 1) * sizeof(*all));

	if (!all)
		return -ENOMEM;
	c->ctf_id = t->nr;
	all[t->nr++] = c;
	t->all = all;
	return 0;
}

static void class_free(struct kclass *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->fields);
	free(c);
}

/* One "name:type" of a statedump spec into a new field of `c`. */
static int spec_field(struct kclass *c, const char *tok)
{
	const char *colon = strchr(tok, ':');
	char name[64], type;
	unsigned int bits = 0;
	struct kfield *f;

	if (!colon || colon - tok >= (long)sizeof(name))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(colon - tok), tok);
	type = colon[1];
	if (type != 's' && (sscanf(colon + 2, "%u", &bits) != 1 || !bits || bits % 8))
		return -EINVAL;
	f = field_add(c, name);
	f->kind = type == 's' ? KF_DYN_CHARS : KF_INT;
	f->size = bits / 8;
	f->is_signed = type == 'i';
	f->base = type == 'x' || type == 'n' ? 16 : type == 'o' ? 8 : 10;
	f->network_order = type == 'n';
	return 0;
}

static struct kclass *statedump_class(const char *name, const char *spec)
{
	struct kclass *c = calloc(1, sizeof(*c));
	char *copy = strdup(spec), *save = NULL, *tok;
	int ret = 0;

	if (!c || !copy || !(c->name = strdup(name)) ||
	    !(c->fields = calloc(strlen(spec) / 2 + 1, sizeof(*c->fields)))) {
		free(copy);
		class_free(c);
		return NULL;
	}
	for (tok = strtok_r(copy, " ", &save); tok && !ret; tok = strtok_r(NULL, " ", &save))
		ret = spec_field(c, tok);
	free(copy);
	if (ret) {
		class_free(c);
		return NULL;
	}
	return c;
}

static int add_statedump_classes(struct kclasses *t)
{
	unsigned int i;

	for (i = 0; i < SD_NR; i++) {
		struct kclass *c = statedump_class(statedump_specs[i][0], statedump_specs[i][1]);

		if (!c)
			return -ENOMEM;
		if (classes_add(t, c)) {
			class_free(c);
			return -ENOMEM;
		}
		t->statedump[i] = c;
	}
	return 0;
}

/* The sched events that say who runs and who wakes whom. */
static const char *const sched_context_events[] = {
	"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking",
	"sched_process_fork", "sched_migrate_task",
};

/* What converting a record of `ev` tells the task table (tasks.c). */
static void role_of(struct kclass *c, struct tep_event *ev)
{
	size_t i;

	c->role = KR_PLAIN;
	if (!strcmp(ev->system, "sched")) {
		for (i = 0; i < sizeof(sched_context_events) / sizeof(*sched_context_events); i++)
			c->sched_context |= !strcmp(ev->name, sched_context_events[i]);
		if (!strcmp(ev->name, "sched_process_exec")) {
			c->role = KR_EXEC;
			c->role_field[1] = tep_find_field(ev, "filename");
		}
	} else if (!strcmp(ev->system, "task") && !strcmp(ev->name, "task_newtask")) {
		c->role = KR_NEWTASK;
		c->role_field[0] = tep_find_field(ev, "pid");
		c->role_field[1] = tep_find_field(ev, "clone_flags");
	}
}

static int add_event_class(struct kclasses *t, struct tep_event *ev, bool hidden)
{
	struct kclass *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->ev = ev;
	c->hidden = hidden;
	c->name = kd_lttng_event_name(ev->system, ev->name);
	role_of(c, ev);
	if (!c->name || class_fields(c, ev) || classes_add(t, c)) {
		class_free(c);
		return -ENOMEM;
	}
	if (ev->id >= 0 && ev->id <= t->max_id)
		t->by_id[ev->id] = c;
	return 0;
}

/* The distinct systems of the "sys:event" list, NULL-terminated. */
static char **systems_of(char **enabled)
{
	size_t n = 0, i, j;
	char **sys = calloc(1, sizeof(*sys));

	for (i = 0; sys && enabled[i]; i++) {
		size_t len = strcspn(enabled[i], ":");
		char **grown;

		for (j = 0; j < n; j++) {
			if (strlen(sys[j]) == len && !strncmp(sys[j], enabled[i], len))
				break;
		}
		if (j < n)
			continue;
		grown = realloc(sys, (n + 2) * sizeof(*sys));
		if (!grown || !(grown[n] = strndup(enabled[i], len))) {
			sys = grown ? grown : sys;
			sys[n] = NULL;
			kd_list_free(sys);
			return NULL;
		}
		sys = grown;
		sys[++n] = NULL;
	}
	return sys;
}

static int max_event_id(struct tep_handle *tep)
{
	int i, n = tep_get_events_count(tep), max = 0;

	for (i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id > max)
			max = ev->id;
	}
	return max;
}

/*
 * Parse the formats of the enabled tracepoints' systems and make one
 * class per enabled tracepoint, after the statedump classes.  Those the
 * bridge enabled for itself (kd->hidden) are read, not written.
 */
int kd_classes_build(struct kerneld *kd, char **enabled)
{
	struct kclasses *t = &kd->classes;
	char **systems = systems_of(enabled);
	size_t i;
	int ret;

	if (!systems)
		return -ENOMEM;
	kd->tep = tracefs_local_events_system(kd->tracing_dir, (const char *const *)systems);
	kd_list_free(systems);
	if (!kd->tep)
		return -EIO;
	t->max_id = max_event_id(kd->tep);
	t->by_id = calloc(t->max_id + 1, sizeof(*t->by_id));
	if (!t->by_id)
		return -ENOMEM;
	ret = add_statedump_classes(t);
	for (i = 0; !ret && enabled[i]; i++) {
		char sys[256];
		size_t len = strcspn(enabled[i], ":");
		struct tep_event *ev;

		snprintf(sys, sizeof(sys), "%.*s", (int)len, enabled[i]);
		ev = tep_find_event_by_name(kd->tep, sys, enabled[i] + len + 1);
		if (!ev) {
			fprintf(stderr, "ust record: kernel events: no format for %s; "
				"left out\n", enabled[i]);
			continue;
		}
		ret = add_event_class(t, ev, kd_list_has(kd->hidden, enabled[i]));
	}
	return ret;
}

void kd_classes_release(struct kclasses *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		class_free(t->all[i]);
	free(t->all);
	free(t->by_id);
	memset(t, 0, sizeof(*t));
}
