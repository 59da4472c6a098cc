/*
 * lttng-names.c - the names and encodings lttng-modules 2.13 gives the
 * kernel's events and fields, applied to the ftrace tracepoints.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The tools written for LTTng kernel traces (Trace Compass's kernel
 * analyses, the LTTng analyses, `ust report`) key on event and field
 * names: lttng-modules renames some tracepoints (softirq_entry is
 * irq_softirq_entry, mm_page_alloc is kmem_mm_page_alloc...), calls a
 * thread `tid` where ftrace says `pid`, stores priorities less
 * MAX_RT_PRIO and the block layer's request type as RWBS_FLAG_* bits
 * where ftrace writes "WS".  The tables below say which, taken from
 * lttng-modules' instrumentation headers (include/instrumentation/events/);
 * doc/compatibility.md lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kerneld.h"

/* An event whose ftrace name starts with `prefix` in `sys`. */
struct event_rule {
	const char *sys;
	const char *prefix;
	const char *replace;	/* what the prefix becomes */
};

static const struct event_rule event_rules[] = {
	{ "syscalls", "sys_enter_", "syscall_entry_" },
	{ "syscalls", "sys_exit_", "syscall_exit_" },
	{ "irq", "softirq_", "irq_softirq_" },
	{ "timer", "hrtimer_", "timer_hrtimer_" },
	{ "timer", "itimer_", "timer_itimer_" },
	{ "kmem", "mm_page", "kmem_mm_page" },
	{ "kmem", "kmalloc", "kmem_kmalloc" },
	{ "kmem", "kfree", "kmem_kfree" },
	{ "net", "netif_", "net_if_" },
	{ "net", "napi_", "net_napi_" },
	{ "exceptions", "", "x86_exceptions_" },
	{ "irq_vectors", "", "x86_irq_vectors_" },
	{ "power", "cpu_", "power_cpu_" },
	{ "power", "clock_", "power_clock_" },
	{ "power", "wakeup_source_", "power_wakeup_source_" },
	{ "power", "machine_suspend", "power_machine_suspend" },
	{ "skb", "consume_skb", "skb_consume" },
	{ "skb", "kfree_skb", "skb_kfree" },
	{ "printk", "console", "printk_console" },
	{ "random", "", "random_" },
};

enum field_conv {
	FC_RENAME,
	FC_DROP,
	FC_PRIO,
	FC_RWBS,
};

/* A field of the events of `sys` named `event` ("*": any). */
struct field_rule {
	const char *sys;
	const char *event;
	const char *from;
	const char *to;		/* FC_RENAME */
	enum field_conv conv;
};

/* The first rule that matches applies. */
static const struct field_rule field_rules[] = {
	{ "sched", "sched_switch", "prev_pid", "prev_tid", FC_RENAME },
	{ "sched", "sched_switch", "next_pid", "next_tid", FC_RENAME },
	{ "sched", "sched_process_fork", "parent_pid", "parent_tid", FC_RENAME },
	{ "sched", "sched_process_fork", "child_pid", "child_tid", FC_RENAME },
	{ "sched", "sched_process_exec", "old_pid", "old_tid", FC_RENAME },
	{ "sched", "*", "pid", "tid", FC_RENAME },
	{ "sched", "*", "prio", NULL, FC_PRIO },
	{ "sched", "*", "prev_prio", NULL, FC_PRIO },
	{ "sched", "*", "next_prio", NULL, FC_PRIO },
	{ "sched", "*", "oldprio", NULL, FC_PRIO },
	{ "sched", "*", "newprio", NULL, FC_PRIO },
	{ "block", "*", "rwbs", NULL, FC_RWBS },
	{ "block", "*", "cmd", NULL, FC_DROP },	/* not in LTTng for kernels >= 5.17 */
	{ "syscalls", "*", "__syscall_nr", NULL, FC_DROP },
};

/* The block requests whose LTTng class records the thread (block_rq). */
static const char *const block_rq_events[] = {
	"block_rq_issue", "block_rq_insert", "block_rq_merge",
};

/* System call argument types narrower than ftrace's 8 bytes. */
struct arg_type {
	const char *ctype;
	unsigned int size;
	bool is_signed;
};

static const struct arg_type arg_types[] = {
	{ "int", 4, true },
	{ "unsigned int", 4, false },
	{ "unsigned", 4, false },
	{ "u32", 4, false },
	{ "pid_t", 4, true },
	{ "uid_t", 4, false },
	{ "gid_t", 4, false },
	{ "key_serial_t", 4, true },
	{ "clockid_t", 4, true },
	{ "timer_t", 4, true },
	{ "mqd_t", 4, true },
	{ "rwf_t", 4, true },
	{ "qid_t", 4, false },
	{ "umode_t", 2, false },
	{ "long", 8, true },
	{ "loff_t", 8, true },
	{ "off_t", 8, true },
	{ "ssize_t", 8, true },
	{ "time_t", 8, true },
};

char *kd_lttng_event_name(const char *sys, const char *name)
{
	size_t i, n;
	char *out;

	for (i = 0; i < sizeof(event_rules) / sizeof(*event_rules); i++) {
		const struct event_rule *r = &event_rules[i];

		n = strlen(r->prefix);
		if (strcmp(sys, r->sys) || strncmp(name, r->prefix, n))
			continue;
		if (asprintf(&out, "%s%s", r->replace, name + n) < 0)
			return NULL;
		return out;
	}
	return strdup(name);
}

static const struct field_rule *field_rule_of(const char *sys, const char *event,
					      const char *field)
{
	size_t i;

	for (i = 0; i < sizeof(field_rules) / sizeof(*field_rules); i++) {
		const struct field_rule *r = &field_rules[i];

		if (!strcmp(r->sys, sys) && !strcmp(r->from, field) &&
		    (!strcmp(r->event, "*") || !strcmp(r->event, event)))
			return r;
	}
	return NULL;
}

/* "const int" is "int": the qualifier says nothing of the size. */
static const char *unqualified(const char *ctype)
{
	return strncmp(ctype, "const ", 6) ? ctype : ctype + 6;
}

/*
 * A system call argument: ftrace stores each in 8 bytes; LTTng declares
 * it with its C type's size and sign (an `int fd` is an int32, so that
 * AT_FDCWD reads -100, not 4294967196).  Pointers stay 64-bit.
 */
static void syscall_arg(const struct tep_format_field *f, struct kfield *k)
{
	const char *t = unqualified(f->type);
	size_t i;

	if (strchr(t, '*') || f->size != 8)
		return;
	for (i = 0; i < sizeof(arg_types) / sizeof(*arg_types); i++) {
		if (!strcmp(t, arg_types[i].ctype)) {
			k->size = arg_types[i].size;
			k->is_signed = arg_types[i].is_signed;
			return;
		}
	}
}

int kd_lttng_field(const char *sys, const char *event,
		   const struct tep_format_field *f, struct kfield *k)
{
	const struct field_rule *r = field_rule_of(sys, event, f->name);
	const char *name = r && r->conv == FC_RENAME ? r->to : f->name;

	if (r && r->conv == FC_DROP)
		return 1;
	kd_field_name(k, name);
	if (r && r->conv == FC_PRIO && k->kind == KF_INT && k->size == 4)
		k->kind = KF_PRIO;
	if (r && r->conv == FC_RWBS && k->kind == KF_CHARS) {
		k->kind = KF_RWBS;
		k->count = k->size;	/* the char array's length */
		k->size = 4;
		k->is_signed = false;
	}
	if (!strcmp(sys, "syscalls") && k->kind == KF_INT) {
		if (!strncmp(event, "sys_exit_", 9) && !strcmp(name, "ret"))
			k->is_signed = true;	/* int64 ret, as LTTng */
		else
			syscall_arg(f, k);
	}
	return 0;
}

bool kd_lttng_tid_before(const char *sys, const char *event, const char *field)
{
	size_t i;

	if (strcmp(sys, "block") || strcmp(field, "rwbs"))
		return false;
	for (i = 0; i < sizeof(block_rq_events) / sizeof(*block_rq_events); i++) {
		if (!strcmp(event, block_rq_events[i]))
			return true;
	}
	return false;
}

/*
 * The kernel's blk_fill_rwbs() text: an optional 'F' (preflush), the
 * operation (W write, D discard, DE secure erase, F flush, R read, N
 * none), then F (FUA), A (readahead), S (sync), M (meta), in that order.
 */
uint32_t kd_lttng_rwbs(const char *s, size_t len)
{
	enum {
		WRITE = 1 << 0, DISCARD = 1 << 1, READ = 1 << 2, RAHEAD = 1 << 3,
		SYNC = 1 << 5, META = 1 << 6, SECURE = 1 << 7, FLUSH = 1 << 8,
		FUA = 1 << 9, PREFLUSH = 1 << 10,
	};
	uint32_t v = 0;
	size_t i = 0;

	len = strnlen(s, len);
	if (len > 1 && s[0] == 'F' && strchr("WDFRN", s[1])) {
		v |= PREFLUSH;
		i = 1;
	}
	if (i < len) {
		switch (s[i++]) {
		case 'W': v |= WRITE; break;
		case 'D': v |= DISCARD; break;
		case 'F': v |= FLUSH; break;
		case 'R': v |= READ; break;
		default: break;
		}
	}
	if (i < len && s[i] == 'E' && (v & DISCARD)) {
		v |= SECURE;
		i++;
	}
	for (; i < len; i++) {
		switch (s[i]) {
		case 'F': v |= FUA; break;
		case 'A': v |= RAHEAD; break;
		case 'S': v |= SYNC; break;
		case 'M': v |= META; break;
		default: break;
		}
	}
	return v;
}
