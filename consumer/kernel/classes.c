/*
 * classes.c - the CTF event classes of the kernel trace, made from the
 * tracepoints' ftrace formats (parsed by libtraceevent).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Names follow LTTng's kernel tracer so that tools written for it (Trace
 * Compass's kernel analyses, `ust report`) understand the trace:
 * syscalls:sys_enter_X becomes syscall_entry_X (arguments named as in
 * the kernel, __syscall_nr dropped), sys_exit_X becomes syscall_exit_X
 * { int64 ret }, irq:softirq_* becomes irq_softirq_*, and the sched
 * events name threads `tid` where ftrace says `pid`.  Any other
 * tracepoint keeps its ftrace name and fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "kerneld.h"

/* A field rename: ftrace name to CTF name, within one event. */
struct rename {
	const char *event;	/* ftrace event name */
	const char *from;
	const char *to;		/* NULL: drop the field */
};

static const struct rename renames[] = {
	{ "sched_switch", "prev_pid", "prev_tid" },
	{ "sched_switch", "next_pid", "next_tid" },
	{ "sched_wakeup", "pid", "tid" },
	{ "sched_wakeup_new", "pid", "tid" },
	{ "sched_waking", "pid", "tid" },
	{ "sched_process_fork", "parent_pid", "parent_tid" },
	{ "sched_process_fork", "child_pid", "child_tid" },
	{ "sched_process_exec", "pid", "tid" },
	{ "sched_process_exec", "old_pid", "old_tid" },
	{ "sched_process_exit", "pid", "tid" },
	{ "sched_process_exit", "group_dead", NULL },
	{ "sched_process_free", "pid", "tid" },
	{ "sched_process_wait", "pid", "tid" },
};

/* TSDL keywords: a field so named gets a leading '_' (readers drop it). */
static const char *const tsdl_keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env",
	"event", "floating_point", "float", "integer", "int", "long", "short",
	"signed", "stream", "string", "struct", "trace", "typealias",
	"typedef", "unsigned", "variant", "void", "_Bool", "_Complex",
	"_Imaginary",
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

/* The CTF name of field `name` of ftrace event `event`; NULL: dropped. */
static const char *field_ctf_name(const char *event, const char *name)
{
	size_t i;

	if (!strcmp(name, "__syscall_nr"))
		return NULL;
	for (i = 0; i < sizeof(renames) / sizeof(*renames); i++) {
		if (!strcmp(renames[i].event, event) && !strcmp(renames[i].from, name))
			return renames[i].to;
	}
	return name;
}

/* The CTF event name of ftrace event sys:name, malloc'ed. */
static char *event_ctf_name(const char *sys, const char *name)
{
	char *out = NULL;

	if (!strcmp(sys, "syscalls") && !strncmp(name, "sys_enter_", 10))
		return asprintf(&out, "syscall_entry_%s", name + 10) < 0 ? NULL : out;
	if (!strcmp(sys, "syscalls") && !strncmp(name, "sys_exit_", 9))
		return asprintf(&out, "syscall_exit_%s", name + 9) < 0 ? NULL : out;
	if (!strcmp(sys, "irq") && !strncmp(name, "softirq_", 8))
		return asprintf(&out, "irq_%s", name) < 0 ? NULL : out;
	return strdup(name);
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
static bool field_kind(const struct tep_format_field *f, struct kfield *k)
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
	snprintf(f->name, sizeof(f->name), "%s%s", is_keyword(name) ? "_" : "", name);
	return f;
}

/* The thread fields of sched_process_fork get their process next to them. */
static void add_tgid_field(struct kclass *c, const struct tep_format_field *src,
			   const char *ctf_name)
{
	struct kfield *f;

	if (!strcmp(ctf_name, "parent_tid"))
		f = field_add(c, "parent_pid");
	else if (!strcmp(ctf_name, "child_tid"))
		f = field_add(c, "child_pid");
	else
		return;
	f->src = src;
	f->kind = KF_TGID;
	f->size = 4;
	f->is_signed = true;
}

static int class_fields(struct kclass *c, struct tep_event *ev)
{
	struct tep_format_field *f;
	bool fork = !strcmp(ev->name, "sched_process_fork");
	unsigned int n = 0;

	for (f = ev->format.fields; f; f = f->next)
		n++;
	c->fields = calloc(2 * n + 1, sizeof(*c->fields));
	if (!c->fields)
		return -ENOMEM;
	for (f = ev->format.fields; f; f = f->next) {
		const char *name = field_ctf_name(ev->name, f->name);
		struct kfield k = { .src = f };

		if (!name || !field_kind(f, &k))
			continue;
		snprintf(k.name, sizeof(k.name), "%s%s", is_keyword(name) ? "_" : "", name);
		c->fields[c->nr_fields++] = k;
		if (fork)
			add_tgid_field(c, f, name);
	}
	/* LTTng's syscall_exit_* ret is an int64, whatever the kernel's long. */
	if (!strcmp(ev->system, "syscalls") && !strncmp(ev->name, "sys_exit_", 9)) {
		for (n = 0; n < c->nr_fields; n++) {
			if (!strcmp(c->fields[n].name, "ret") && c->fields[n].size == 8)
				c->fields[n].is_signed = true;
		}
	}
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

/* lttng_statedump_process_state { tid, pid, ppid, name }: statedump.c. */
static int add_statedump_class(struct kclasses *t)
{
	static const char *const ints[] = { "tid", "pid", "ppid" };
	struct kclass *c = calloc(1, sizeof(*c));
	unsigned int i;

	if (!c || !(c->fields = calloc(4, sizeof(*c->fields))) ||
	    !(c->name = strdup("lttng_statedump_process_state"))) {
		if (c)
			free(c->fields);
		free(c);
		return -ENOMEM;
	}
	for (i = 0; i < 3; i++) {
		struct kfield *f = field_add(c, ints[i]);

		f->kind = KF_INT;
		f->size = 4;
		f->is_signed = true;
	}
	field_add(c, "name")->kind = KF_DYN_CHARS;
	t->statedump = c;
	return classes_add(t, c);
}

static int add_event_class(struct kclasses *t, struct tep_event *ev)
{
	struct kclass *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->ev = ev;
	c->name = event_ctf_name(ev->system, ev->name);
	c->is_exit = !strcmp(ev->name, "sched_process_exit");
	if (!c->name || class_fields(c, ev) || classes_add(t, c)) {
		free(c->name);
		free(c->fields);
		free(c);
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
 * class per enabled tracepoint, after the statedump class (id 0).
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
	ret = add_statedump_class(t);
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
		ret = add_event_class(t, ev);
	}
	return ret;
}

void kd_classes_release(struct kclasses *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		free(t->all[i]->name);
		free(t->all[i]->fields);
		free(t->all[i]);
	}
	free(t->all);
	free(t->by_id);
	memset(t, 0, sizeof(*t));
}
