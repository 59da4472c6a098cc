/*
 * kmodel.c - the kernel model of `ust report` (kmodel.h): what each
 * event class is, and the state the kernel events keep up to date.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every event of a kernel trace reaches the model: besides its own
 * role, its stream event context names the thread that was running on
 * its CPU.  When that thread is not the one the last sched_switch put
 * there, the switch was not recorded (the kernel drops a few, and a
 * process-tree trace records only those involving the tree): the model
 * switches the CPU to it at that event, so that a missing switch costs
 * at most the time to the CPU's next event.
 *
 * Figures are counted only for events inside --begin/--end; state
 * (descriptors, who runs, calls in progress) follows every event.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"
#include "kstate.h"
#include "tasks.h"

#define F_DUPFD_CMD		0
#define F_DUPFD_CLOEXEC_CMD	1030
#define TASK_REPORT_MAX_BIT	0x100	/* prev_state of a preempted task */

enum km_role {
	R_NONE,
	R_KERNEL,		/* any other kernel event: its context only */
	R_SYS_ENTRY,
	R_SYS_EXIT,
	R_SWITCH,
	R_WAKEUP,
	R_FORK,
	R_EXEC,
	R_SD_PROCESS,
	R_SD_FD,
	R_SD_BLOCK,
	R_SD_IRQ,
	R_BLK_ISSUE,
	R_BLK_COMPLETE,
	R_NET_TX,
	R_NET_RX,
	R_IRQ_ENTRY,
	R_IRQ_EXIT,
	R_SOFTIRQ_ENTRY,
	R_SOFTIRQ_EXIT,
	R_SOFTIRQ_RAISE,
	R_PAGE_ALLOC,
	R_PAGE_FREE,
	R_FAULT_USER,
	R_FAULT_KERNEL,
	R_USER_BEGIN,		/* --between A */
	R_USER_END,		/* --between B */
};

enum km_call_kind {
	K_OTHER,
	K_READ,
	K_WRITE,
	K_SENDFILE,
	K_OPEN,
	K_CLOSE,
	K_DUP,
	K_FCNTL,
	K_SOCKET,
};

struct km_class {
	enum km_role role;
	int call;
	int f[5];		/* payload indexes, by role */
	bool statedump;		/* its context is the dumper's, not its CPU's */
};

/* Which system calls move bytes or descriptors, and their fields. */
struct call_rule {
	const char *name;
	enum km_call_kind kind;
	const char *f[3];	/* what on_entry() keeps as arg[0..2] */
};

static const struct call_rule call_rules[] = {
	{ "read", K_READ, { "fd" } }, { "pread64", K_READ, { "fd" } },
	{ "readv", K_READ, { "fd" } }, { "preadv", K_READ, { "fd" } },
	{ "preadv2", K_READ, { "fd" } }, { "recvfrom", K_READ, { "fd" } },
	{ "recvmsg", K_READ, { "fd" } },
	{ "write", K_WRITE, { "fd" } }, { "pwrite64", K_WRITE, { "fd" } },
	{ "writev", K_WRITE, { "fd" } }, { "pwritev", K_WRITE, { "fd" } },
	{ "pwritev2", K_WRITE, { "fd" } }, { "sendto", K_WRITE, { "fd" } },
	{ "sendmsg", K_WRITE, { "fd" } },
	{ "sendfile64", K_SENDFILE, { "out_fd", "in_fd" } },
	{ "sendfile", K_SENDFILE, { "out_fd", "in_fd" } },
	{ "openat", K_OPEN, { "filename", "flags" } },
	{ "open", K_OPEN, { "filename", "flags" } },
	{ "openat2", K_OPEN, { "filename" } },
	{ "creat", K_OPEN, { "pathname" } },
	{ "close", K_CLOSE, { "fd" } },
	{ "dup", K_DUP, { "fildes" } },
	{ "dup2", K_DUP, { "oldfd", "newfd" } },
	{ "dup3", K_DUP, { "oldfd", "newfd", "flags" } },
	{ "fcntl", K_FCNTL, { "fd", "cmd" } },
	{ "socket", K_SOCKET, { NULL } }, { "accept", K_SOCKET, { NULL } },
	{ "accept4", K_SOCKET, { NULL } },
};

/* A role by exact event name, and the fields it reads. */
struct event_rule {
	const char *name;
	enum km_role role;
	const char *f[5];
};

static const struct event_rule event_rules[] = {
	{ "sched_switch", R_SWITCH, { "prev_tid", "prev_state", "next_tid" } },
	{ "sched_wakeup", R_WAKEUP, { "tid", "ust_in_interrupt" } },
	{ "sched_wakeup_new", R_WAKEUP, { "tid", "ust_in_interrupt" } },
	{ "sched_waking", R_WAKEUP, { "tid", "ust_in_interrupt" } },
	{ "sched_process_fork", R_FORK, { "parent_pid", "child_pid", "child_tid", "parent_tid" } },
	{ "sched_process_exec", R_EXEC, { "tid" } },
	{ "lttng_statedump_process_state", R_SD_PROCESS, { "tid", "status", "type" } },
	{ "lttng_statedump_file_descriptor", R_SD_FD, { "pid", "fd", "filename", "flags" } },
	{ "lttng_statedump_block_device", R_SD_BLOCK, { "dev", "diskname" } },
	{ "lttng_statedump_interrupt", R_SD_IRQ, { "irq", "action" } },
	{ "block_rq_issue", R_BLK_ISSUE, { "dev", "sector", "nr_sector", "tid", "rwbs" } },
	{ "block_rq_complete", R_BLK_COMPLETE, { "dev", "sector", "nr_sector" } },
	{ "net_dev_xmit", R_NET_TX, { "len", "rc", "name" } },
	{ "net_if_receive_skb", R_NET_RX, { "len", "name" } },
	{ "netif_receive_skb", R_NET_RX, { "len", "name" } },
	{ "irq_handler_entry", R_IRQ_ENTRY, { "irq", "name" } },
	{ "irq_handler_exit", R_IRQ_EXIT, { "irq" } },
	{ "irq_softirq_entry", R_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq_softirq_exit", R_SOFTIRQ_EXIT, { "vec" } },
	{ "irq_softirq_raise", R_SOFTIRQ_RAISE, { "vec" } },
	{ "kmem_mm_page_alloc", R_PAGE_ALLOC, { "order" } },
	{ "mm_page_alloc", R_PAGE_ALLOC, { "order" } },
	{ "kmem_mm_page_free", R_PAGE_FREE, { "order" } },
	{ "mm_page_free", R_PAGE_FREE, { "order" } },
	{ "x86_exceptions_page_fault_user", R_FAULT_USER, { NULL } },
	{ "x86_exceptions_page_fault_kernel", R_FAULT_KERNEL, { NULL } },
};

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

#define NR_SOFTIRQS	(sizeof(softirq_names) / sizeof(*softirq_names))

/* One descriptor of a process. */
struct km_fd {
	struct km_file *file;
	bool cloexec;
};

/* A CPU: who runs, and the interrupts in progress. */
struct km_cpu {
	bool known;
	int64_t cur;
	int64_t irq, irq_begin;		/* irq -1: none */
	int64_t softirq_begin[NR_SOFTIRQS];	/* -1: none */
	int64_t raised[NR_SOFTIRQS];		/* -1: not raised */
};

/* A block request between its issue and its completion. */
struct km_rq {
	uint64_t dev, sector;
	int64_t issued, pid;
	uint64_t bytes;
	bool write;
};

#define FILE_HASH	4096u

struct kmodel *kmodel_of(struct report_ctx *c)
{
	return c->kmodel;
}

struct kmodel *kmodel_want(struct report_ctx *c, unsigned int parts)
{
	if (c->kmodel)
		c->kmodel->want |= parts;
	return c->kmodel;
}

static void *kmodel_create(struct report_ctx *c)
{
	struct kmodel *m = report_zalloc(sizeof(*m));

	m->file_hash = report_zalloc(FILE_HASH * sizeof(*m->file_hash));
	m->thread_tid = c->thread_tid;
	m->between[0] = c->between[0];
	m->between[1] = c->between[1];
	m->worst = report_zalloc((c->top + 1) * sizeof(*m->worst));
	c->kmodel = m;
	return m;
}

/* ---- classification ---- */

static int call_index(struct kmodel *m, const char *name)
{
	size_t nr = m->nr_calls, i, r;

	m->calls = report_name_index(m->calls, &m->nr_calls, sizeof(*m->calls), name, &i);
	if (m->nr_calls == nr)
		return (int)i;
	m->calls[i].kind = K_OTHER;
	for (r = 0; r < sizeof(call_rules) / sizeof(*call_rules); r++) {
		if (!strcmp(call_rules[r].name, name))
			m->calls[i].kind = call_rules[r].kind;
	}
	return (int)i;
}

const char *kmodel_call_name(const struct kmodel *m, int call)
{
	if (call == KM_IN_IRQ)
		return "hard irq";
	if (call == KM_IN_SOFTIRQ)
		return "softirq";
	if (call == KM_IN_INTERRUPT)
		return "interrupt";
	return call >= 0 && (size_t)call < m->nr_calls ? m->calls[call].name : "-";
}

static void syscall_class(struct kmodel *m, const struct rd_event_class *ec,
			  const char *name, bool entry, struct km_class *k)
{
	size_t i, j;

	k->role = entry ? R_SYS_ENTRY : R_SYS_EXIT;
	k->call = call_index(m, name);
	if (!entry) {
		k->f[0] = rd_event_field_index(ec, "ret");
		return;
	}
	for (i = 0; i < sizeof(call_rules) / sizeof(*call_rules); i++) {
		const struct call_rule *r = &call_rules[i];

		if (strcmp(r->name, name))
			continue;
		for (j = 0; j < 3; j++)
			k->f[j] = r->f[j] ? rd_event_field_index(ec, r->f[j]) : -1;
	}
}

static bool event_class(const struct rd_event_class *ec, struct km_class *k)
{
	size_t i, j;

	for (i = 0; i < sizeof(event_rules) / sizeof(*event_rules); i++) {
		const struct event_rule *r = &event_rules[i];

		if (strcmp(r->name, ec->name))
			continue;
		k->role = r->role;
		for (j = 0; j < 5; j++)
			k->f[j] = r->f[j] ? rd_event_field_index(ec, r->f[j]) : -1;
		return true;
	}
	return false;
}

static int kmodel_classify(void *a, const struct rd_trace *t,
			   const struct rd_event_class *ec, bool *fields)
{
	struct kmodel *m = a;
	struct km_class k = { .role = R_KERNEL, .call = -1, .f = { -1, -1, -1, -1, -1 } };
	const struct rd_env *e;
	const char *name;
	bool entry;

	if (!report_is_kernel(t)) {
		if (m->between[0] && !strcmp(ec->name, m->between[0]))
			k.role = R_USER_BEGIN;
		else if (m->between[1] && !strcmp(ec->name, m->between[1]))
			k.role = R_USER_END;
		else
			return 0;
	} else {
		m->kernel_seen = true;
		e = rd_metadata_env(rd_trace_metadata(t), "ust_kernel_scope");
		if (e && e->str && !strcmp(e->str, "pid")) {
			m->pid_scope = true;
			e = rd_metadata_env(rd_trace_metadata(t), "ust_kernel_pid");
			m->root_pid = e && !e->str ? e->num : 0;
		}
		k.statedump = !strncmp(ec->name, "lttng_statedump_", 16);
		name = kstate_syscall_of(ec->name, &entry);
		if (name)
			syscall_class(m, ec, name, entry, &k);
		else
			event_class(ec, &k);
	}
	*fields = k.role != R_KERNEL && k.role != R_USER_BEGIN && k.role != R_USER_END;
	m->classes = report_realloc(m->classes, m->nr_classes + 1, sizeof(*m->classes));
	m->classes[m->nr_classes] = k;
	return (int)++m->nr_classes;
}

/* ---- figures ---- */

/*
 * The value of `key`, a new zeroed one of `size` bytes if none (then
 * *fresh is set, when the caller asks with a `fresh`).
 */
static void *slot(struct u64map *map, uint64_t key, size_t size, bool *fresh)
{
	void *v = u64map_get(map, key);

	if (fresh)
		*fresh = !v;
	if (!v) {
		v = report_zalloc(size);
		u64map_set(map, key, v);
	}
	return v;
}

struct km_proc *kmodel_proc(struct kmodel *m, int64_t pid)
{
	struct km_proc *p = slot(&m->procs, (uint64_t)pid, sizeof(*p), NULL);

	p->pid = pid;
	return p;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static enum km_ftype type_of(const char *name)
{
	if (!strncmp(name, "socket", 6))
		return KM_SOCKET;
	if (!strncmp(name, "pipe:", 5))
		return KM_PIPE;
	if (name[0] == '/')
		return KM_FILE;
	if (!strncmp(name, "fd ", 3) || !strcmp(name, "(unavailable)"))
		return KM_UNKNOWN;
	return KM_OTHER;
}

static struct km_file *file_named(struct kmodel *m, const char *name)
{
	size_t h = hash_str(name) % FILE_HASH;
	struct km_file *f;

	for (f = m->file_hash[h]; f; f = f->next) {
		if (!strcmp(f->name, name))
			return f;
	}
	f = report_zalloc(sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		abort();
	f->type = type_of(name);
	f->next = m->file_hash[h];
	m->file_hash[h] = f;
	m->nr_files++;
	return f;
}

struct km_file **kmodel_files(const struct kmodel *m)
{
	struct km_file **v = report_zalloc((m->nr_files + 1) * sizeof(*v)), *f;
	size_t h, n = 0;

	for (h = 0; h < FILE_HASH; h++) {
		for (f = m->file_hash[h]; f; f = f->next)
			v[n++] = f;
	}
	return v;
}

void **kmodel_sorted(const struct u64map *map, int (*cmp)(const void *, const void *))
{
	void **v = u64map_values(map);

	if (!v)
		abort();
	qsort(v, map->nr, sizeof(*v), cmp);
	return v;
}

void kmodel_scope_note(const struct kmodel *m, FILE *out)
{
	if (m->pid_scope && m->root_pid > 0)
		fprintf(out, "(the kernel trace holds the process tree of pid %" PRId64
			" only: figures of other processes are partial)\n", m->root_pid);
	else if (m->pid_scope)
		fputs("(the kernel trace holds the traced command's process tree only: "
		      "figures of other processes are partial)\n", out);
}

bool kmodel_heading(const struct kmodel *m, const struct report_ctx *c, const char *title,
		    FILE *out)
{
	if (c->csv)
		return m->kernel_seen;
	report_heading(out, title);
	if (!m->kernel_seen) {
		fputs("no kernel trace (record with --kernel)\n", out);
		return false;
	}
	kmodel_scope_note(m, out);
	return true;
}

void report_csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* ---- threads, CPUs, descriptors ---- */

static struct km_thread *thread_of(struct kmodel *m, int64_t tid)
{
	bool fresh;
	struct km_thread *t = slot(&m->threads, (uint64_t)tid, sizeof(*t), &fresh);

	if (fresh) {
		t->tid = tid;
		t->call = -1;
		t->woken_at = -1;
		t->waker_call = -1;
		t->user = -1;
	}
	return t;
}

static struct km_cpu *cpu_of(struct kmodel *m, int64_t cpu)
{
	bool fresh;
	struct km_cpu *k = slot(&m->cpus, (uint64_t)cpu + 1, sizeof(*k), &fresh);
	size_t i;

	if (fresh) {
		k->irq = -1;
		for (i = 0; i < NR_SOFTIRQS; i++)
			k->softirq_begin[i] = k->raised[i] = -1;
	}
	return k;
}

static int64_t pid_of(struct report_ctx *c, int64_t tid)
{
	struct task *k = tasks_find(c->tasks, tid);

	return k ? k->pid : tid;
}

static struct u64map *fdtable_of(struct kmodel *m, int64_t pid)
{
	return slot(&m->fdtables, (uint64_t)pid, sizeof(struct u64map), NULL);
}

static void fdt_set(struct kmodel *m, int64_t pid, int64_t fd, struct km_file *f, bool cloexec)
{
	struct km_fd *d = slot(fdtable_of(m, pid), (uint64_t)fd, sizeof(*d), NULL);

	d->file = f;
	d->cloexec = cloexec;
}

/* A descriptor's file; one never seen opened gets the name "fd N". */
static struct km_fd *fdt_get(struct kmodel *m, int64_t pid, int64_t fd)
{
	struct u64map *t = fdtable_of(m, pid);
	struct km_fd *d = u64map_get(t, (uint64_t)fd);
	char name[64];

	if (d && d->file)
		return d;
	snprintf(name, sizeof(name), "fd %" PRId64 " of %" PRId64, fd, pid);
	fdt_set(m, pid, fd, file_named(m, name), false);
	return u64map_get(t, (uint64_t)fd);
}

/* A closed descriptor keeps its slot, empty (u64map has no removal). */
static void fdt_close(struct kmodel *m, int64_t pid, int64_t fd)
{
	struct km_fd *d = u64map_get(fdtable_of(m, pid), (uint64_t)fd);

	if (d)
		d->file = NULL;
}

static void fdtable_copy(struct kmodel *m, int64_t from, int64_t to)
{
	struct u64map *src = u64map_get(&m->fdtables, (uint64_t)from);
	size_t i;

	for (i = 0; src && i < src->cap; i++) {
		struct km_fd *d = src->vals[i];

		if (d && d->file)
			fdt_set(m, to, (int64_t)src->keys[i], d->file, d->cloexec);
	}
}

static void fdtable_exec(struct kmodel *m, int64_t pid)
{
	struct u64map *t = u64map_get(&m->fdtables, (uint64_t)pid);
	size_t i;

	for (i = 0; t && i < t->cap; i++) {
		struct km_fd *d = t->vals[i];

		if (d && d->cloexec)
			d->file = NULL;
	}
}

/* ---- time accounting of watched threads ---- */

static struct km_call_time *call_time(struct km_profile *p, int call)
{
	struct km_call_time *ct = slot(&p->calls, (uint64_t)call + 1, sizeof(*ct), NULL);

	ct->call = call;
	return ct;
}

static void profile_time(struct km_profile *p, enum km_state s, int64_t d)
{
	switch (s) {
	case KS_RUNNING: p->running += d; break;
	case KS_RUNNABLE: p->runnable += d; break;
	case KS_BLOCKED: p->blocked += d; break;
	default: p->unknown += d; break;
	}
}

static bool watched(const struct kmodel *m, const struct km_thread *t)
{
	return t->interval || ((m->want & KM_THREAD) && t->tid == m->thread_tid);
}

/* Move thread `t` to state `s` at `ns`; the time since goes to its profiles. */
static void set_state(struct kmodel *m, struct report_ctx *c, struct km_thread *t,
		      enum km_state s, int64_t ns)
{
	int64_t d = t->state == KS_UNKNOWN ? 0 : ns - t->since;

	if (d > 0 && t->state == KS_BLOCKED && t->call >= 0)
		t->call_blocked += d;
	if (d > 0 && watched(m, t)) {
		if (c->in_range && (m->want & KM_THREAD) && t->tid == m->thread_tid)
			profile_time(&m->thread, t->state, d);
		if (t->interval)
			profile_time(t->interval, t->state, d);
	}
	t->state = s;
	t->since = ns;
}

static struct km_waker *waker_of(struct km_profile *p, int64_t tid)
{
	struct km_waker *w = slot(&p->wakers, (uint64_t)tid + 1, sizeof(*w), NULL);

	w->tid = tid;
	return w;
}

/* A blocked period of a watched thread ended at `ns` by `waker` (-1: unseen). */
static void note_unblocked(struct kmodel *m, struct report_ctx *c, struct km_thread *t,
			   int64_t ns, int64_t waker, int waker_call)
{
	struct km_waker *w;
	int64_t d = ns - t->since;

	if (t->interval) {
		w = waker_of(t->interval, waker);
		w->count++;
		w->blocked += d;
		w->waker_call = waker_call;
	}
	if (!(m->want & KM_THREAD) || t->tid != m->thread_tid || !c->in_range)
		return;
	w = waker_of(&m->thread, waker);
	w->count++;
	w->blocked += d;
	w->waker_call = waker_call;
	if (m->nr_blocks == m->cap_blocks) {
		m->cap_blocks = m->cap_blocks ? 2 * m->cap_blocks : 64;
		m->blocks = report_realloc(m->blocks, m->cap_blocks, sizeof(*m->blocks));
	}
	m->blocks[m->nr_blocks++] = (struct km_block){ t->since, ns, waker, t->call, waker_call };
}

/* ---- scheduling ---- */

static void switch_in(struct kmodel *m, struct report_ctx *c, int64_t tid, int64_t ns)
{
	struct km_thread *t;

	if (tid <= 0)
		return;
	t = thread_of(m, tid);
	if (t->state == KS_BLOCKED && watched(m, t))
		note_unblocked(m, c, t, ns, -1, -1);	/* its wakeup was not seen */
	if (t->woken_at >= 0 && c->in_range && (m->want & KM_SCHED)) {
		/* woken at `at`, ran `lat` later */
		struct latency_case o = { .tid = tid, .at = t->woken_at,
					  .lat = ns - t->woken_at, .call = -1 };

		latency_add(&kmodel_proc(m, pid_of(c, tid))->wakeup, o.lat);
		latency_add(&m->wakeup, o.lat);
		latency_note_worst(m->worst, &m->nr_worst, c->top, &o);
	}
	t->woken_at = -1;
	set_state(m, c, t, KS_RUNNING, ns);
}

static void switch_out(struct kmodel *m, struct report_ctx *c, int64_t tid, int64_t state,
		       int64_t ns)
{
	if (tid <= 0)
		return;
	set_state(m, c, thread_of(m, tid),
		  (state & ~(int64_t)TASK_REPORT_MAX_BIT) ? KS_BLOCKED : KS_RUNNABLE, ns);
}

static void on_switch(struct kmodel *m, struct report_ctx *c, const struct rd_msg *m_,
		      const struct km_class *k, const struct rd_value *v)
{
	struct km_cpu *cpu = cpu_of(m, m_->cpu);
	int64_t next = report_int(v, k->f[2], -1);

	switch_out(m, c, report_int(v, k->f[0], -1), report_int(v, k->f[1], 0), m_->ns);
	switch_in(m, c, next, m_->ns);
	cpu->known = true;
	cpu->cur = next;
}

/*
 * The thread in the event's context runs on its CPU: when the last
 * switch said otherwise, a switch was not recorded.
 */
static void check_context(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg)
{
	struct km_cpu *cpu;

	if (msg->cpu < 0 || msg->vtid < 0)
		return;
	cpu = cpu_of(m, msg->cpu);
	if (cpu->known && cpu->cur == msg->vtid)
		return;
	if (cpu->known)
		switch_out(m, c, cpu->cur, 0, msg->ns);
	if (!cpu->known || thread_of(m, msg->vtid)->state != KS_RUNNING)
		switch_in(m, c, msg->vtid, msg->ns);
	cpu->known = true;
	cpu->cur = msg->vtid;
}

/* KM_IN_IRQ or KM_IN_SOFTIRQ when CPU `k` is in a handler, else 0. */
static int in_interrupt(const struct km_cpu *k)
{
	size_t i;

	if (k->irq >= 0)
		return KM_IN_IRQ;
	for (i = 0; i < NR_SOFTIRQS; i++) {
		if (k->softirq_begin[i] >= 0)
			return KM_IN_SOFTIRQ;
	}
	return 0;
}

static void on_wakeup(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		      const struct km_class *k, const struct rd_value *v)
{
	int64_t tid = report_int(v, k->f[0], -1), irq = report_int(v, k->f[1], -1);
	struct km_thread *t, *w;

	if (tid <= 0)
		return;
	t = thread_of(m, tid);
	if (t->state == KS_RUNNING || t->woken_at >= 0)
		return;		/* running already, or woken already */
	w = msg->vtid >= 0 ? thread_of(m, msg->vtid) : NULL;
	t->woken_at = msg->ns;
	t->waker = msg->vtid;
	t->waker_call = w ? w->call : -1;
	if (irq > 0) {
		/* ust's ust_in_interrupt: 1 softirq, 2 hard irq, 3 NMI */
		t->waker = 0;
		t->waker_call = irq == 1 ? KM_IN_SOFTIRQ : KM_IN_IRQ;
	} else if (irq < 0 && msg->cpu >= 0) {
		/*
		 * Without it (LTTng's traces): in a handler the trace shows,
		 * or a user thread outside any system call, which cannot wake
		 * anyone itself: an interrupt did, not the thread it interrupted.
		 */
		int in = in_interrupt(cpu_of(m, msg->cpu));

		if (!in && w && w->user == 1 && w->call < 0)
			in = KM_IN_INTERRUPT;
		if (in) {
			t->waker = 0;
			t->waker_call = in;
		}
	}
	if (t->state == KS_BLOCKED && watched(m, t))
		note_unblocked(m, c, t, msg->ns, t->waker, t->waker_call);
	set_state(m, c, t, KS_RUNNABLE, msg->ns);
}

/* ---- system calls ---- */

static struct km_io *io_of(struct km_proc *p, const struct km_file *f)
{
	return f->type == KM_SOCKET ? &p->sock : &p->file;
}

static void count_io(struct kmodel *m, struct report_ctx *c, struct km_thread *t,
		     int64_t fd, int64_t bytes, bool write, int64_t dur)
{
	int64_t pid = pid_of(c, t->tid);
	struct km_file *f = fdt_get(m, pid, fd)->file;
	struct km_io *pi = io_of(kmodel_proc(m, pid), f), *fi = &f->io;

	if (t->interval)
		*(write ? &t->interval->wbytes : &t->interval->rbytes) += (uint64_t)bytes;
	if (!(m->want & (KM_IO | KM_NET)))
		return;
	*(write ? &pi->wbytes : &pi->rbytes) += (uint64_t)bytes;
	*(write ? &fi->wbytes : &fi->rbytes) += (uint64_t)bytes;
	(*(write ? &pi->wops : &pi->rops))++;
	(*(write ? &fi->wops : &fi->rops))++;
	latency_add(&pi->lat, dur);
	latency_add(&fi->lat, dur);
}

static void on_entry(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		     const struct km_class *k, const struct rd_value *v)
{
	struct km_thread *t = thread_of(m, msg->vtid);
	char buf[4096];
	size_t i;

	t->call = k->call;
	t->call_begin = msg->ns;
	t->call_cpu = msg->cpu;
	t->user = 1;
	t->call_blocked = 0;
	for (i = 0; i < 3; i++)
		t->arg[i] = report_int(v, k->f[i], -1);
	free(t->path);
	t->path = NULL;
	if (m->calls[k->call].kind == K_OPEN) {
		const char *s = report_str(v, k->f[0], buf, sizeof(buf));

		t->path = strdup(*s ? s : "(unavailable)");
		if (!t->path)
			abort();
	}
	if (t->state != KS_RUNNING)
		set_state(m, c, t, KS_RUNNING, msg->ns);
}

/* What the call did to the process's descriptors, from its result. */
static void descriptors(struct kmodel *m, struct report_ctx *c, struct km_thread *t,
			int kind, int64_t ret)
{
	int64_t pid = pid_of(c, t->tid);
	struct km_fd *d;

	if (ret < 0)
		return;
	switch (kind) {
	case K_OPEN:
		fdt_set(m, pid, ret, file_named(m, t->path ? t->path : "(unavailable)"),
		       t->arg[1] >= 0 && (t->arg[1] & O_CLOEXEC));
		if (c->in_range)
			kmodel_proc(m, pid)->opens++;
		break;
	case K_CLOSE:
		fdt_close(m, pid, t->arg[0]);
		if (c->in_range)
			kmodel_proc(m, pid)->closes++;
		break;
	case K_FCNTL:
		if (t->arg[1] != F_DUPFD_CMD && t->arg[1] != F_DUPFD_CLOEXEC_CMD)
			break;
		/* fall through - an F_DUPFD is a dup */
	case K_DUP:
		d = fdt_get(m, pid, t->arg[0]);
		fdt_set(m, pid, ret, d->file,
		       (kind == K_FCNTL && t->arg[1] == F_DUPFD_CLOEXEC_CMD) ||
		       (kind == K_DUP && t->arg[2] > 0 && (t->arg[2] & O_CLOEXEC)));
		break;
	case K_SOCKET:
		fdt_set(m, pid, ret, file_named(m, "socket"), false);
		break;
	default:
		break;
	}
}

static void on_exit_call(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
			 const struct km_class *k, const struct rd_value *v)
{
	struct km_thread *t = thread_of(m, msg->vtid);
	int kind = m->calls[k->call].kind;
	int64_t ret = report_int(v, k->f[0], -1), dur = msg->ns - t->call_begin;
	struct km_call_time *ct;

	if (t->call != k->call)
		return;		/* its entry was before the trace */
	if (c->in_range && (m->want & (KM_IO | KM_NET | KM_BETWEEN)) && ret >= 0) {
		if (kind == K_READ || kind == K_WRITE)
			count_io(m, c, t, t->arg[0], ret, kind == K_WRITE, dur);
		else if (kind == K_SENDFILE) {
			count_io(m, c, t, t->arg[0], ret, true, dur);
			count_io(m, c, t, t->arg[1], ret, false, dur);
		}
	}
	descriptors(m, c, t, kind, ret);
	if (c->in_range && (m->want & KM_THREAD) && t->tid == m->thread_tid) {
		ct = call_time(&m->thread, k->call);
		ct->count++;
		ct->time += dur;
		ct->blocked += t->call_blocked;
	}
	if (t->interval && t->call_begin >= t->interval_begin) {
		ct = call_time(t->interval, k->call);
		ct->count++;
		ct->time += dur;
		ct->blocked += t->call_blocked;
	}
	t->call = -1;
}

/* ---- devices ---- */

static struct km_disk *disk_of(struct kmodel *m, uint64_t dev)
{
	struct km_disk *d = slot(&m->disks, dev + 1, sizeof(*d), NULL);

	d->dev = dev;
	return d;
}

static uint64_t rq_key(uint64_t dev, uint64_t sector)
{
	return (dev * 0x9e3779b97f4a7c15ull) ^ sector;
}

/* rwbs: LTTng's RWBS_FLAG_* bits (WRITE is bit 0), or ftrace's text. */
static bool rq_is_write(const struct rd_value *v, int idx)
{
	if (idx < 0 || idx >= REPORT_MAX_FIELDS)
		return false;
	if (v[idx].kind == RD_VAL_INT)
		return v[idx].u & 1;
	return v[idx].kind == RD_VAL_STRING && memchr(v[idx].str, 'W', v[idx].len);
}

static void on_block(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		     const struct km_class *k, const struct rd_value *v)
{
	uint64_t dev = (uint64_t)report_int(v, k->f[0], 0);
	uint64_t sector = (uint64_t)report_int(v, k->f[1], 0);
	int64_t nr = report_int(v, k->f[2], 0), tid;
	struct km_rq *rq = u64map_get(&m->pending_rq, rq_key(dev, sector));
	struct km_disk *d;
	struct km_proc *p;

	if (k->role == R_BLK_ISSUE) {
		if (nr <= 0)
			return;		/* a flush: no data */
		if (!rq) {
			rq = report_zalloc(sizeof(*rq));
			u64map_set(&m->pending_rq, rq_key(dev, sector), rq);
		}
		tid = report_int(v, k->f[3], msg->vtid);
		*rq = (struct km_rq){ dev, sector, msg->ns, pid_of(c, tid),
				      (uint64_t)nr * 512, rq_is_write(v, k->f[4]) };
		return;
	}
	if (!rq || !rq->issued || rq->dev != dev || rq->sector != sector)
		return;		/* issued before the trace (or not recorded) */
	if (c->in_range) {
		d = disk_of(m, dev);
		p = kmodel_proc(m, rq->pid);
		d->rq++;
		p->blk_rq++;
		*(rq->write ? &d->wbytes : &d->rbytes) += rq->bytes;
		*(rq->write ? &p->blk_wbytes : &p->blk_rbytes) += rq->bytes;
		latency_add(&d->lat, msg->ns - rq->issued);
		latency_add(&p->blk_lat, msg->ns - rq->issued);
	}
	rq->issued = 0;
}

static struct km_iface *iface_of(struct kmodel *m, const char *name)
{
	bool fresh;
	struct km_iface *f = slot(&m->ifaces, hash_str(name), sizeof(*f), &fresh);

	if (fresh && !(f->name = strdup(name)))
		abort();
	return f;
}

static void on_net(struct kmodel *m, const struct km_class *k, const struct rd_value *v)
{
	char buf[64];
	int64_t len = report_int(v, k->f[0], 0);
	struct km_iface *f;

	if (k->role == R_NET_TX) {
		if (report_int(v, k->f[1], 0) != 0)
			return;		/* not sent */
		f = iface_of(m, report_str(v, k->f[2], buf, sizeof(buf)));
		f->tx_bytes += (uint64_t)len;
		f->tx_packets++;
	} else {
		f = iface_of(m, report_str(v, k->f[1], buf, sizeof(buf)));
		f->rx_bytes += (uint64_t)len;
		f->rx_packets++;
	}
}

static struct km_irq *irq_of(struct kmodel *m, int64_t irq)
{
	bool fresh;
	struct km_irq *q = slot(&m->irqs, (uint64_t)irq + 1, sizeof(*q), &fresh);

	q->irq = irq;
	if (fresh && irq >= KM_SOFTIRQ && (size_t)(irq - KM_SOFTIRQ) < NR_SOFTIRQS)
		q->name = strdup(softirq_names[irq - KM_SOFTIRQ]);
	return q;
}

static void irq_name(struct km_irq *q, const char *name)
{
	if (q->name || !*name)
		return;
	q->name = strdup(name);
	if (!q->name)
		abort();
}

static void on_softirq(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		       const struct km_class *k, const struct rd_value *v)
{
	struct km_cpu *cpu = cpu_of(m, msg->cpu);
	int64_t vec = report_int(v, k->f[0], -1);
	struct km_irq *q;

	if (vec < 0 || (size_t)vec >= NR_SOFTIRQS)
		return;
	if (k->role == R_SOFTIRQ_RAISE) {
		if (cpu->raised[vec] < 0)
			cpu->raised[vec] = msg->ns;
		return;
	}
	if (k->role == R_SOFTIRQ_ENTRY) {
		if (c->in_range && cpu->raised[vec] >= 0)
			latency_add(&irq_of(m, KM_SOFTIRQ + vec)->raise, msg->ns - cpu->raised[vec]);
		cpu->raised[vec] = -1;
		cpu->softirq_begin[vec] = msg->ns;
		return;
	}
	if (cpu->softirq_begin[vec] >= 0 && c->in_range) {
		q = irq_of(m, KM_SOFTIRQ + vec);
		q->count++;
		latency_add(&q->dur, msg->ns - cpu->softirq_begin[vec]);
	}
	cpu->softirq_begin[vec] = -1;
}

static void on_irq(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		   const struct km_class *k, const struct rd_value *v)
{
	struct km_cpu *cpu = cpu_of(m, msg->cpu);
	int64_t irq = report_int(v, k->f[0], -1);
	char buf[128];
	struct km_irq *q;

	if (irq < 0)
		return;
	if (k->role == R_IRQ_ENTRY) {
		irq_name(irq_of(m, irq), report_str(v, k->f[1], buf, sizeof(buf)));
		cpu->irq = irq;
		cpu->irq_begin = msg->ns;
		return;
	}
	if (cpu->irq == irq && c->in_range) {
		q = irq_of(m, irq);
		q->count++;
		latency_add(&q->dur, msg->ns - cpu->irq_begin);
	}
	cpu->irq = -1;
}

/* ---- memory ---- */

static void on_memory(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		      const struct km_class *k, const struct rd_value *v)
{
	struct km_proc *p = kmodel_proc(m, pid_of(c, msg->vtid));
	int64_t order = report_int(v, k->f[0], 0);
	uint64_t pages = order >= 0 && order < 31 ? 1ull << order : 1;
	size_t b;

	switch (k->role) {
	case R_PAGE_ALLOC:
		p->pages_alloc += pages;
		b = (size_t)((msg->ns - m->origin_ns) / 1000000);
		if (b >= p->nr_ms) {
			size_t n = b + 1024;

			p->alloc_ms = report_realloc(p->alloc_ms, n, sizeof(*p->alloc_ms));
			memset(p->alloc_ms + p->nr_ms, 0, (n - p->nr_ms) * sizeof(*p->alloc_ms));
			p->nr_ms = n;
		}
		p->alloc_ms[b] += pages;
		break;
	case R_PAGE_FREE:
		p->pages_free += pages;
		break;
	case R_FAULT_USER:
		p->faults_user++;
		break;
	default:
		p->faults_kernel++;
		break;
	}
}

/* ---- statedump ---- */

static void on_statedump(struct kmodel *m, const struct km_class *k, const struct rd_value *v)
{
	char buf[4096];
	int64_t flags;

	switch (k->role) {
	case R_SD_FD:
		flags = report_int(v, k->f[3], 0);
		fdt_set(m, report_int(v, k->f[0], -1), report_int(v, k->f[1], -1),
		       file_named(m, report_str(v, k->f[2], buf, sizeof(buf))),
		       flags & O_CLOEXEC);
		break;
	case R_SD_BLOCK:
		disk_of(m, (uint64_t)report_int(v, k->f[0], 0))->name =
			strdup(report_str(v, k->f[1], buf, sizeof(buf)));
		break;
	case R_SD_IRQ:
		irq_name(irq_of(m, report_int(v, k->f[0], -1)), report_str(v, k->f[1], buf,
									 sizeof(buf)));
		break;
	default:
		break;
	}
}

/* ---- --between ---- */

static void free_profile(struct km_profile *p);

static void on_user(struct kmodel *m, struct report_ctx *c, const struct rd_msg *msg,
		    const struct km_class *k)
{
	struct km_thread *t = thread_of(m, msg->vtid);
	struct km_interval *iv;

	if (!c->in_range)
		return;
	set_state(m, c, t, t->state, msg->ns);	/* the time so far goes elsewhere */
	if (k->role == R_USER_BEGIN) {
		/* A beginning while an interval is open restarts it. */
		if (t->interval)
			free_profile(t->interval);
		else
			t->interval = report_zalloc(sizeof(*t->interval));
		memset(t->interval, 0, sizeof(*t->interval));
		t->interval_begin = msg->ns;
		return;
	}
	if (!t->interval)
		return;		/* an end without its beginning */
	if (m->nr_intervals == m->cap_intervals) {
		m->cap_intervals = m->cap_intervals ? 2 * m->cap_intervals : 64;
		m->intervals = report_realloc(m->intervals, m->cap_intervals, sizeof(*m->intervals));
	}
	iv = &m->intervals[m->nr_intervals++];
	*iv = (struct km_interval){ t->tid, t->interval_begin, msg->ns, *t->interval };
	free(t->interval);
	t->interval = NULL;
}

/*
 * A new thread is a kernel thread when kthreadd (tid 2) made it, else
 * of its parent's kind.
 */
static void on_fork(struct kmodel *m, const struct rd_value *v, const struct km_class *k)
{
	int64_t child = report_int(v, k->f[2], -1), parent = report_int(v, k->f[3], -1);

	if (child <= 0 || parent < 0)
		return;
	thread_of(m, child)->user = parent == 2 ? 0 : thread_of(m, parent)->user;
}

/* ---- the event ---- */

static void kmodel_event(void *a, struct report_ctx *c, const struct rd_msg *msg,
			 int tag, const struct rd_value *v)
{
	struct kmodel *m = a;
	const struct km_class *k = &m->classes[tag - 1];

	if (k->role == R_USER_BEGIN || k->role == R_USER_END) {
		on_user(m, c, msg, k);
		return;
	}
	if (!m->origin_ns && c->in_range)
		m->origin_ns = msg->ns;
	if (!k->statedump)
		check_context(m, c, msg);
	switch (k->role) {
	case R_SYS_ENTRY:
		on_entry(m, c, msg, k, v);
		break;
	case R_SYS_EXIT:
		on_exit_call(m, c, msg, k, v);
		break;
	case R_SWITCH:
		on_switch(m, c, msg, k, v);
		break;
	case R_WAKEUP:
		on_wakeup(m, c, msg, k, v);
		break;
	case R_FORK:
		if (report_int(v, k->f[1], -1) != report_int(v, k->f[0], -1))
			fdtable_copy(m, report_int(v, k->f[0], -1), report_int(v, k->f[1], -1));
		on_fork(m, v, k);
		break;
	case R_SD_PROCESS:
		if (report_int(v, k->f[0], -1) > 0 && report_int(v, k->f[2], -1) >= 0)
			thread_of(m, report_int(v, k->f[0], -1))->user =
				report_int(v, k->f[2], -1) == 0;	/* LTTNG_USER_THREAD */
		break;
	case R_EXEC:
		fdtable_exec(m, pid_of(c, report_int(v, k->f[0], msg->vtid)));
		break;
	case R_SD_FD:
	case R_SD_BLOCK:
	case R_SD_IRQ:
		on_statedump(m, k, v);
		break;
	case R_BLK_ISSUE:
	case R_BLK_COMPLETE:
		if (m->want & KM_BLOCK)
			on_block(m, c, msg, k, v);
		break;
	case R_NET_TX:
	case R_NET_RX:
		if ((m->want & KM_NET) && c->in_range)
			on_net(m, k, v);
		break;
	case R_IRQ_ENTRY:
	case R_IRQ_EXIT:
		on_irq(m, c, msg, k, v);	/* in_interrupt() needs them */
		break;
	case R_SOFTIRQ_ENTRY:
	case R_SOFTIRQ_EXIT:
	case R_SOFTIRQ_RAISE:
		on_softirq(m, c, msg, k, v);
		break;
	case R_PAGE_ALLOC:
	case R_PAGE_FREE:
	case R_FAULT_USER:
	case R_FAULT_KERNEL:
		if ((m->want & KM_MEMORY) && c->in_range)
			on_memory(m, c, msg, k, v);
		break;
	default:
		break;
	}
}

/* ---- teardown ---- */

static void free_profile(struct km_profile *p)
{
	u64map_free_all(&p->calls);
	u64map_free_all(&p->wakers);
}

static void free_maps_of(struct u64map *outer)
{
	size_t i;

	for (i = 0; i < outer->cap; i++) {
		if (outer->vals[i])
			u64map_free_all(outer->vals[i]);
	}
	u64map_free_all(outer);
}

static void free_figures(struct kmodel *m)
{
	void **v;
	size_t i;

	v = u64map_values(&m->procs);
	for (i = 0; v && i < m->procs.nr; i++) {
		struct km_proc *p = v[i];

		latency_free(&p->file.lat);
		latency_free(&p->sock.lat);
		latency_free(&p->blk_lat);
		latency_free(&p->wakeup);
		free(p->alloc_ms);
	}
	free(v);
	v = u64map_values(&m->disks);
	for (i = 0; v && i < m->disks.nr; i++) {
		latency_free(&((struct km_disk *)v[i])->lat);
		free(((struct km_disk *)v[i])->name);
	}
	free(v);
	v = u64map_values(&m->irqs);
	for (i = 0; v && i < m->irqs.nr; i++) {
		latency_free(&((struct km_irq *)v[i])->dur);
		latency_free(&((struct km_irq *)v[i])->raise);
		free(((struct km_irq *)v[i])->name);
	}
	free(v);
	v = u64map_values(&m->ifaces);
	for (i = 0; v && i < m->ifaces.nr; i++)
		free(((struct km_iface *)v[i])->name);
	free(v);
	u64map_free_all(&m->procs);
	u64map_free_all(&m->disks);
	u64map_free_all(&m->irqs);
	u64map_free_all(&m->ifaces);
}

static void kmodel_destroy(void *a)
{
	struct kmodel *m = a;
	struct km_file *f, *next;
	void **v;
	size_t i;

	v = u64map_values(&m->threads);
	for (i = 0; v && i < m->threads.nr; i++) {
		struct km_thread *t = v[i];

		free(t->path);
		if (t->interval)
			free_profile(t->interval);
		free(t->interval);
	}
	free(v);
	u64map_free_all(&m->threads);
	free_maps_of(&m->fdtables);
	u64map_free_all(&m->cpus);
	u64map_free_all(&m->pending_rq);
	free_figures(m);
	for (i = 0; i < FILE_HASH; i++) {
		for (f = m->file_hash[i]; f; f = next) {
			next = f->next;
			latency_free(&f->io.lat);
			free(f->name);
			free(f);
		}
	}
	free(m->file_hash);
	free_profile(&m->thread);
	for (i = 0; i < m->nr_intervals; i++)
		free_profile(&m->intervals[i].prof);
	free(m->intervals);
	free(m->blocks);
	latency_free(&m->wakeup);
	free(m->worst);
	free(m->classes);
	free(m->calls);
	free(m);
}

/*
 * Events of a CPU's stream were lost: a call entered on that CPU may
 * have lost its exit, and a later exit of the same call would be paired
 * with it.  Such calls are forgotten (kstate_syscall_forget_cpu()).
 */
static void kmodel_discarded(void *a, struct report_ctx *c, const struct rd_msg *msg)
{
	struct kmodel *m = a;
	void **v = u64map_values(&m->threads);
	size_t i;

	(void)c;
	for (i = 0; v && i < m->threads.nr; i++) {
		struct km_thread *t = v[i];

		if (t->call >= 0 && t->call_cpu == msg->cpu) {
			t->call = -1;
			free(t->path);
			t->path = NULL;
		}
	}
	free(v);
}

/* No section of its own: the kernel sections print what it computed. */
const struct analysis analysis_kmodel = {
	.name = "kmodel",
	.sees_all = true,
	.create = kmodel_create,
	.classify = kmodel_classify,
	.event = kmodel_event,
	.discarded = kmodel_discarded,
	.destroy = kmodel_destroy,
};
