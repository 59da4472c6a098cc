/*
 * analysis-ksched.c - the report's --sched, --irq and --memory sections,
 * from the kernel model (kmodel.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --sched: scheduling latency, from a thread's sched_wakeup (or
 * sched_waking, whichever comes first) while it was not running to the
 * sched_switch that runs it, per process and the worst cases.
 * --irq: hard interrupts (irq_handler_entry to _exit on a CPU) and
 * softirqs (irq_softirq_entry to _exit; raise to entry when
 * irq_softirq_raise is recorded), count and durations.
 * --memory: pages allocated and freed (kmem_mm_page_alloc/_free, 2^order
 * pages each) and page faults, per process (the thread running), and
 * the allocations over time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"
#include "order.h"
#include "tasks.h"

#define MAX_COLUMNS	8	/* processes in the over-time table */

static const char *comm_of(struct report_ctx *c, int64_t pid)
{
	struct task *k = tasks_find(c->tasks, pid);

	return k && k->comm[0] ? k->comm : "?";
}

/* "pid,command" (CSV) or "%9 pid  %-16 command" (text). */
static void proc_cols(FILE *out, struct report_ctx *c, const char *table, int64_t pid)
{
	if (c->csv) {
		fprintf(out, "%s,%" PRId64 ",", table, pid);
		report_csv_str(out, comm_of(c, pid));
	} else {
		fprintf(out, "%9" PRId64 "  %-16s", pid, comm_of(c, pid));
	}
}

/* count, mean, p50, p90, p99, max (ns in CSV, us in text), then '\n'. */
static void stats_cols(FILE *out, struct report_ctx *c, struct latency *l)
{
	char b[5][32];

	if (c->csv) {
		fprintf(out, ",%zu,%.0f,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", l->n,
			latency_mean(l), latency_rank(l, 0.5), latency_rank(l, 0.9),
			latency_rank(l, 0.99), l->max);
		return;
	}
	fprintf(out, " %8zu %10s %10s %10s %10s %10s\n", l->n, report_usecs(latency_mean(l), b[0]),
		report_usecs((double)latency_rank(l, 0.5), b[1]),
		report_usecs((double)latency_rank(l, 0.9), b[2]),
		report_usecs((double)latency_rank(l, 0.99), b[3]), report_usecs((double)l->max, b[4]));
}

static const char stats_header[] = "%8s %10s %10s %10s %10s %10s\n";

/* ---- --sched ---- */

static struct order_key proc_by_p99(void *row)
{
	struct km_proc *p = row;

	return (struct order_key){ latency_rank(&p->wakeup, 0.99), p->pid };
}

static void sched_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_proc **pv;
	char b1[32], b2[32];
	size_t i, n;

	if (!kmodel_heading(m, c, "Scheduling latency (wakeup to running)", out))
		return;
	if (!c->csv) {
		if (!m->wakeup.n) {
			fputs("no wakeup followed by its sched_switch (record with --kernel)\n", out);
			return;
		}
		fprintf(out, "all threads (us):  %-16s", "");
		fprintf(out, stats_header, "wakeups", "mean", "p50", "p90", "p99", "max");
		fprintf(out, "%-37s", "");
		stats_cols(out, c, &m->wakeup);
		fprintf(out, "\nper process (top %u by p99, us):\n%9s  %-16s ", c->top, "pid", "command");
		fprintf(out, stats_header, "wakeups", "mean", "p50", "p90", "p99", "max");
	} else {
		fputs("table,pid,command,wakeups,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n", out);
	}
	pv = (struct km_proc **)order_values(&m->procs, proc_by_p99);
	for (i = n = 0; i < m->procs.nr && (c->csv || n < c->top); i++) {
		if (!pv[i]->wakeup.n)
			continue;
		proc_cols(out, c, "sched-process", pv[i]->pid);
		stats_cols(out, c, &pv[i]->wakeup);
		n++;
	}
	free(pv);
	if (c->csv) {
		fputs("\ntable,woken_ns,latency_ns,tid,command\n", out);
		for (i = 0; i < m->nr_worst; i++) {
			fprintf(out, "sched-worst,%" PRId64 ",%" PRId64 ",%" PRId64 ",", m->worst[i].at,
				m->worst[i].lat, m->worst[i].tid);
			report_csv_str(out, comm_of(c, m->worst[i].tid));
			fputc('\n', out);
		}
		return;
	}
	fprintf(out, "\nworst %zu (woken at, latency):\n", m->nr_worst);
	for (i = 0; i < m->nr_worst; i++)
		fprintf(out, "  [%s] %12s us  tid %" PRId64 " (%s)\n",
			report_time(c, m->worst[i].at, b1), report_usecs((double)m->worst[i].lat, b2),
			m->worst[i].tid, comm_of(c, m->worst[i].tid));
}

const struct analysis analysis_sched = KMODEL_SECTION("sched",
	"scheduling latency, wakeup to running: per process, worst cases (kernel)",
	KM_SCHED, sched_print);

/* ---- --irq ---- */

static int irq_by_number(const void *pa, const void *pb)
{
	const struct km_irq *a = *(const struct km_irq *const *)pa;
	const struct km_irq *b = *(const struct km_irq *const *)pb;

	return a->irq < b->irq ? -1 : a->irq > b->irq;
}

static void irq_row(FILE *out, struct report_ctx *c, struct km_irq *q)
{
	bool soft = q->irq >= KM_SOFTIRQ;
	int64_t n = soft ? q->irq - KM_SOFTIRQ : q->irq;
	char b[32];

	if (c->csv) {
		fprintf(out, "%s,%" PRId64 ",", soft ? "irq-soft" : "irq-hard", n);
		report_csv_str(out, q->name ? q->name : "");
		fprintf(out, ",%" PRId64, q->dur.sum);
	} else {
		fprintf(out, "%6" PRId64 "  %-24s %12s", n, q->name ? q->name : "", report_usecs(
			(double)q->dur.sum, b));
	}
	stats_cols(out, c, &q->dur);
}

static void irq_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_irq **v;
	size_t i, soft;
	char b[32];

	if (!kmodel_heading(m, c, "Interrupts", out))
		return;
	v = (struct km_irq **)kmodel_sorted(&m->irqs, irq_by_number);
	for (soft = 0; soft < m->irqs.nr && v[soft]->irq < KM_SOFTIRQ; soft++)
		;
	if (c->csv) {
		fputs("table,irq,name,total_ns,count,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n", out);
	} else {
		fprintf(out, "hard IRQs (handler entry to exit, us):\n%6s  %-24s %12s ", "irq",
			"name", "total");
		fprintf(out, stats_header, "count", "mean", "p50", "p90", "p99", "max");
	}
	for (i = 0; i < soft; i++) {
		if (v[i]->count)
			irq_row(out, c, v[i]);
	}
	if (!c->csv) {
		fprintf(out, "\nsoftirqs (entry to exit, us):\n%6s  %-24s %12s ", "vec", "name",
			"total");
		fprintf(out, stats_header, "count", "mean", "p50", "p90", "p99", "max");
	}
	for (i = soft; i < m->irqs.nr; i++) {
		if (v[i]->count)
			irq_row(out, c, v[i]);
	}
	for (i = soft; !c->csv && i < m->irqs.nr; i++) {
		if (v[i]->raise.n)
			fprintf(out, "%6" PRId64 "  %-24s raised to entry: p99 %s us\n",
				v[i]->irq - KM_SOFTIRQ, v[i]->name ? v[i]->name : "",
				report_usecs((double)latency_rank(&v[i]->raise, 0.99), b));
	}
	free(v);
}

const struct analysis analysis_irq = KMODEL_SECTION("irq",
	"hard IRQ and softirq counts and durations (kernel)",
	KM_IRQ, irq_print);

/* ---- --memory ---- */

static bool has_memory(const struct km_proc *p)
{
	return p->pages_alloc || p->pages_free || p->faults_user || p->faults_kernel;
}

static struct order_key proc_by_pages(void *row)
{
	const struct km_proc *p = row;

	return (struct order_key){ (int64_t)(p->pages_alloc + p->faults_user), p->pid };
}

/* Pages `p` allocated in [from, from + len) ms after the origin. */
static uint64_t pages_in(const struct km_proc *p, size_t from, size_t len)
{
	uint64_t n = 0;
	size_t i;

	for (i = from; i < from + len && i < p->nr_ms; i++)
		n += p->alloc_ms[i];
	return n;
}

static void memory_over_time(struct kmodel *m, struct report_ctx *c, struct km_proc **pv,
			     size_t n, FILE *out)
{
	int64_t span = c->last_ns - m->origin_ns;
	size_t step_ms, nb, i, j;
	char buf[32];

	if (span <= 0 || !n)
		return;
	step_ms = c->interval_ns ? (size_t)((c->interval_ns + 999999) / 1000000) :
				   (size_t)(span / 10000000) + 1;
	nb = (size_t)(span / 1000000) / step_ms + 1;
	fprintf(out, "\nOver time: pages allocated per %s s, from the first event:\n%14s",
		report_secs((int64_t)step_ms * 1000000, buf), "start (s)");
	for (j = 0; j < n; j++)
		fprintf(out, " %9" PRId64, pv[j]->pid);
	fputc('\n', out);
	for (i = 0; i < nb; i++) {
		fprintf(out, "%14s", report_secs((int64_t)(i * step_ms) * 1000000, buf));
		for (j = 0; j < n; j++)
			fprintf(out, " %9" PRIu64, pages_in(pv[j], i * step_ms, step_ms));
		fputc('\n', out);
	}
}

static void memory_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_proc **pv;
	size_t i, n;

	if (!kmodel_heading(m, c, "Memory", out))
		return;
	pv = (struct km_proc **)order_values(&m->procs, proc_by_pages);
	if (c->csv) {
		fputs("table,pid,command,pages_allocated,pages_freed,faults_user,faults_kernel\n", out);
	} else {
		fprintf(out, "per process (pages of 4 KiB; kmem_mm_page_alloc/free, page faults):\n"
			"%9s  %-16s %12s %12s %12s %12s\n", "pid", "command", "allocated",
			"freed", "faults user", "kernel");
	}
	for (i = n = 0; i < m->procs.nr && (c->csv || n < c->top); i++) {
		if (!has_memory(pv[i]))
			continue;
		proc_cols(out, c, "memory-process", pv[i]->pid);
		fprintf(out, c->csv ? ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n" :
			" %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			pv[i]->pages_alloc, pv[i]->pages_free, pv[i]->faults_user,
			pv[i]->faults_kernel);
		n++;
	}
	if (!n && !c->csv)
		fputs("(no memory events: record with --kernel=default,memory)\n", out);
	if (!c->csv)
		memory_over_time(m, c, pv, n < MAX_COLUMNS ? n : MAX_COLUMNS, out);
	free(pv);
}

const struct analysis analysis_memory = KMODEL_SECTION("memory",
	"page allocations and frees, page faults, per process and over time (kernel)",
	KM_MEMORY, memory_print);
