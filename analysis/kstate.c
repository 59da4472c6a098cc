/*
 * kstate.c - who runs on each CPU and who is in which system call,
 * rebuilt from the kernel trace's sched_switch and syscall events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "kstate.h"

#define ENTRY_PREFIX	"syscall_entry_"
#define EXIT_PREFIX	"syscall_exit_"

int kstate_sched_switch_at(struct sched_cpus *s, int64_t cpu, int64_t ns,
		    int64_t prev_tid, int64_t next_tid, struct slice *ended)
{
	int ret = 0;

	if (cpu < 0 || cpu >= KSTATE_MAX_CPUS)
		return 0;
	if (s->cpus[cpu].known && ns > s->cpus[cpu].since) {
		*ended = (struct slice){ prev_tid, cpu, s->cpus[cpu].since, ns };
		ret = 1;
	}
	s->cpus[cpu].known = true;
	s->cpus[cpu].tid = next_tid;
	s->cpus[cpu].since = ns;
	return ret;
}

int kstate_sched_running(const struct sched_cpus *s, size_t i, int64_t end,
		  struct slice *slice)
{
	if (!s->cpus[i].known)
		return 0;
	*slice = (struct slice){ s->cpus[i].tid, (int64_t)i, s->cpus[i].since, end };
	return 1;
}

void kstate_switch_fields_of(const struct rd_event_class *ec, struct switch_fields *f)
{
	f->prev_tid = rd_event_field_index(ec, "prev_tid");
	f->next_tid = rd_event_field_index(ec, "next_tid");
}

const char *kstate_syscall_of(const char *event, bool *entry)
{
	if (!strncmp(event, ENTRY_PREFIX, strlen(ENTRY_PREFIX))) {
		*entry = true;
		return event + strlen(ENTRY_PREFIX);
	}
	if (!strncmp(event, EXIT_PREFIX, strlen(EXIT_PREFIX))) {
		*entry = false;
		return event + strlen(EXIT_PREFIX);
	}
	return NULL;
}

struct pending {
	int64_t begin, cpu;
	int call;		/* -1: none */
};

void kstate_syscall_entered(struct syscall_pairs *p, int64_t tid, int call, int64_t ns)
{
	kstate_syscall_entered_on(p, tid, call, ns, -1);
}

void kstate_syscall_entered_on(struct syscall_pairs *p, int64_t tid, int call,
			       int64_t ns, int64_t cpu)
{
	struct pending *e = u64map_get(&p->pending, (uint64_t)tid);

	if (!e) {
		e = report_zalloc(sizeof(*e));
		u64map_set(&p->pending, (uint64_t)tid, e);
	}
	e->begin = ns;
	e->cpu = cpu;
	e->call = call;
}

size_t kstate_syscall_forget_cpu(struct syscall_pairs *p, int64_t cpu)
{
	void **v = u64map_values(&p->pending);
	size_t i, n = 0;

	for (i = 0; i < p->pending.nr; i++) {
		struct pending *e = v[i];

		if (e->call >= 0 && e->cpu == cpu) {
			e->call = -1;
			n++;
		}
	}
	free(v);
	return n;
}

int kstate_syscall_exited(struct syscall_pairs *p, int64_t tid, int call, int64_t *begin)
{
	struct pending *e = u64map_get(&p->pending, (uint64_t)tid);

	if (!e || e->call != call)
		return 0;
	*begin = e->begin;
	e->call = -1;
	return 1;
}

size_t kstate_syscalls_in_progress(const struct syscall_pairs *p)
{
	void **v = u64map_values(&p->pending);
	size_t i, n = 0;

	for (i = 0; i < p->pending.nr; i++)
		n += ((struct pending *)v[i])->call >= 0;
	free(v);
	return n;
}

void kstate_syscall_pairs_free(struct syscall_pairs *p)
{
	u64map_free_all(&p->pending);
}
