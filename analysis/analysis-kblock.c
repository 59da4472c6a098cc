/*
 * analysis-kblock.c - the report's --block section: block I/O per
 * device and per process, from block_rq_issue / block_rq_complete
 * paired by device and sector (kmodel.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A request's latency runs from its issue to the driver to its
 * completion; its bytes are nr_sector * 512 at the issue; its process
 * is the one that issued it (block_rq_issue's tid, often a kernel
 * worker for writeback).  Devices are named from the statedump.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kmodel.h"
#include "order.h"
#include "tasks.h"

static struct order_key disk_by_rq(void *row)
{
	const struct km_disk *d = row;

	return (struct order_key){ (int64_t)d->rq, (int64_t)d->dev };
}

static struct order_key proc_by_rq(void *row)
{
	const struct km_proc *p = row;

	return (struct order_key){ (int64_t)p->blk_rq, p->pid };
}

/* "major,minor" of the kernel's dev_t (MINORBITS 20) into buf[32]. */
static const char *dev_name(const struct km_disk *d, char *buf)
{
	if (d->name)
		return d->name;
	snprintf(buf, 32, "%" PRIu64 ",%" PRIu64, d->dev >> 20, d->dev & 0xfffff);
	return buf;
}

static void lat_cols(FILE *out, struct latency *l, bool csv)
{
	char b1[32], b2[32], b3[32], b4[32];

	if (csv) {
		fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
			latency_rank(l, 0.5), latency_rank(l, 0.9), latency_rank(l, 0.99), l->max);
		return;
	}
	fprintf(out, " %10s %10s %10s %10s\n", report_usecs((double)latency_rank(l, 0.5), b1),
		report_usecs((double)latency_rank(l, 0.9), b2),
		report_usecs((double)latency_rank(l, 0.99), b3), report_usecs((double)l->max, b4));
}

static void block_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_disk **dv;
	struct km_proc **pv;
	char buf[32];
	size_t i, n;

	if (!kmodel_heading(m, c, "Block I/O", out))
		return;
	dv = (struct km_disk **)order_values(&m->disks, disk_by_rq);
	pv = (struct km_proc **)order_values(&m->procs, proc_by_rq);
	if (c->csv)
		fputs("table,device,requests,read_bytes,written_bytes,p50_ns,p90_ns,p99_ns,max_ns\n",
		      out);
	else
		fprintf(out, "per device (issue to completion, latency in us):\n%-12s %8s %14s %14s"
			" %10s %10s %10s %10s\n", "device", "requests", "read (B)", "written (B)",
			"p50", "p90", "p99", "max");
	for (i = n = 0; i < m->disks.nr; i++) {
		if (!dv[i]->rq)
			continue;
		if (c->csv) {
			fputs("block-device,", out);
			report_csv_str(out, dev_name(dv[i], buf));
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, dv[i]->rq, dv[i]->rbytes,
				dv[i]->wbytes);
		} else {
			fprintf(out, "%-12s %8" PRIu64 " %14" PRIu64 " %14" PRIu64,
				dev_name(dv[i], buf), dv[i]->rq, dv[i]->rbytes, dv[i]->wbytes);
		}
		lat_cols(out, &dv[i]->lat, c->csv);
		n++;
	}
	if (!n && !c->csv)
		fputs(m->pid_scope ?
		      "(no completed requests: completions come in interrupts, which the "
		      "kernel trace of a process tree holds only when one of its threads "
		      "was running; record with --kernel-all)\n" :
		      "(no completed requests: record block:block_rq_issue and "
		      "block:block_rq_complete, in the default set)\n", out);
	if (c->csv)
		fputs("\ntable,pid,command,requests,read_bytes,written_bytes,"
		      "p50_ns,p90_ns,p99_ns,max_ns\n", out);
	else
		fprintf(out, "\nper process (that issued the requests):\n%9s  %-16s %8s %14s %14s"
			" %10s %10s %10s %10s\n", "pid", "command", "requests", "read (B)",
			"written (B)", "p50", "p90", "p99", "max");
	for (i = n = 0; i < m->procs.nr && (c->csv || n < c->top); i++) {
		struct task *k = tasks_find(c->tasks, pv[i]->pid);

		if (!pv[i]->blk_rq)
			continue;
		if (c->csv) {
			fprintf(out, "block-process,%" PRId64 ",", pv[i]->pid);
			report_csv_str(out, k && k->comm[0] ? k->comm : "?");
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, pv[i]->blk_rq,
				pv[i]->blk_rbytes, pv[i]->blk_wbytes);
		} else {
			fprintf(out, "%9" PRId64 "  %-16s %8" PRIu64 " %14" PRIu64 " %14" PRIu64,
				pv[i]->pid, k && k->comm[0] ? k->comm : "?", pv[i]->blk_rq,
				pv[i]->blk_rbytes, pv[i]->blk_wbytes);
		}
		lat_cols(out, &pv[i]->blk_lat, c->csv);
		n++;
	}
	free(dv);
	free(pv);
}

const struct analysis analysis_block = KMODEL_SECTION("block",
	"block I/O per device and per process: requests, bytes, latency (kernel)",
	KM_BLOCK, block_print);
