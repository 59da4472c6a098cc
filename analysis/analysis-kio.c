/*
 * analysis-kio.c - the report's --io and --net sections: file I/O per
 * process and per file, network traffic per interface and per process,
 * as the kernel model counted them (kmodel.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bytes are the system calls' results (what was really read or
 * written), attributed to the file the descriptor named when the call
 * was made; sockets go to --net, everything else (files, pipes,
 * terminals...) to --io.  Latency is each read's or write's time from
 * its entry to its exit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"
#include "order.h"
#include "tasks.h"

static const char *comm_of(struct report_ctx *c, int64_t pid)
{
	struct task *k = tasks_find(c->tasks, pid);

	return k && k->comm[0] ? k->comm : "?";
}

static uint64_t io_bytes(const struct km_io *io)
{
	return io->rbytes + io->wbytes;
}

static struct order_key proc_by_file_bytes(void *row)
{
	const struct km_proc *p = row;

	return (struct order_key){ (int64_t)io_bytes(&p->file), p->pid };
}

static int file_by_bytes(const void *pa, const void *pb)
{
	const struct km_file *a = *(const struct km_file *const *)pa;
	const struct km_file *b = *(const struct km_file *const *)pb;

	if (io_bytes(&a->io) != io_bytes(&b->io))
		return io_bytes(&a->io) > io_bytes(&b->io) ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bool proc_has_file_io(const struct km_proc *p)
{
	return p->file.rops || p->file.wops || p->opens || p->closes;
}

/* p50, p99, max of a latency list, in µs ("-" when empty). */
static void print_lat(FILE *out, struct latency *l)
{
	char b1[32], b2[32], b3[32];

	if (!l->n) {
		fprintf(out, " %10s %10s %10s", "-", "-", "-");
		return;
	}
	fprintf(out, " %10s %10s %10s", report_usecs((double)latency_rank(l, 0.5), b1),
		report_usecs((double)latency_rank(l, 0.99), b2), report_usecs((double)l->max, b3));
}

static void csv_lat(FILE *out, struct latency *l)
{
	fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
		latency_rank(l, 0.5), latency_rank(l, 0.9), latency_rank(l, 0.99), l->max);
}

static const char *const type_names[] = {
	[KM_FILE] = "file", [KM_SOCKET] = "socket", [KM_PIPE] = "pipe",
	[KM_OTHER] = "other", [KM_UNKNOWN] = "unknown",
};

static void io_csv(struct kmodel *m, struct report_ctx *c, struct km_proc **pv,
		   struct km_file **fv, FILE *out)
{
	size_t i;

	fputs("table,pid,command,read_bytes,written_bytes,reads,writes,opens,closes,"
	      "p50_ns,p90_ns,p99_ns,max_ns\n", out);
	for (i = 0; i < m->procs.nr; i++) {
		if (!proc_has_file_io(pv[i]))
			continue;
		fprintf(out, "io-process,%" PRId64 ",", pv[i]->pid);
		report_csv_str(out, comm_of(c, pv[i]->pid));
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			pv[i]->file.rbytes, pv[i]->file.wbytes, pv[i]->file.rops,
			pv[i]->file.wops, pv[i]->opens, pv[i]->closes);
		csv_lat(out, &pv[i]->file.lat);
	}
	fputs("\ntable,file,type,read_bytes,written_bytes,reads,writes,"
	      "p50_ns,p90_ns,p99_ns,max_ns\n", out);
	for (i = 0; i < m->nr_files; i++) {
		if (fv[i]->type == KM_SOCKET || !(fv[i]->io.rops || fv[i]->io.wops))
			continue;
		fputs("io-file,", out);
		report_csv_str(out, fv[i]->name);
		fprintf(out, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			type_names[fv[i]->type], fv[i]->io.rbytes, fv[i]->io.wbytes,
			fv[i]->io.rops, fv[i]->io.wops);
		csv_lat(out, &fv[i]->io.lat);
	}
}

static void io_text(struct kmodel *m, struct report_ctx *c, struct km_proc **pv,
		    struct km_file **fv, FILE *out)
{
	size_t i, n;

	fprintf(out, "per process (read/write system calls on files, pipes...; latency in us):\n"
		"%9s  %-16s %14s %14s %8s %8s %6s %6s %10s %10s %10s\n", "pid", "command",
		"read (B)", "written (B)", "reads", "writes", "opens", "closes", "p50", "p99",
		"max");
	for (i = n = 0; i < m->procs.nr && n < c->top; i++) {
		if (!proc_has_file_io(pv[i]))
			continue;
		fprintf(out, "%9" PRId64 "  %-16s %14" PRIu64 " %14" PRIu64 " %8" PRIu64 " %8"
			PRIu64 " %6" PRIu64 " %6" PRIu64, pv[i]->pid, comm_of(c, pv[i]->pid),
			pv[i]->file.rbytes, pv[i]->file.wbytes, pv[i]->file.rops,
			pv[i]->file.wops, pv[i]->opens, pv[i]->closes);
		print_lat(out, &pv[i]->file.lat);
		fputc('\n', out);
		n++;
	}
	fprintf(out, "\nper file (top %u by bytes; latency in us):\n%14s %14s %8s %8s %10s %10s"
		" %10s  %s\n", c->top, "read (B)", "written (B)", "reads", "writes", "p50", "p99",
		"max", "file");
	for (i = n = 0; i < m->nr_files && n < c->top; i++) {
		if (fv[i]->type == KM_SOCKET || !(fv[i]->io.rops || fv[i]->io.wops))
			continue;
		fprintf(out, "%14" PRIu64 " %14" PRIu64 " %8" PRIu64 " %8" PRIu64, fv[i]->io.rbytes,
			fv[i]->io.wbytes, fv[i]->io.rops, fv[i]->io.wops);
		print_lat(out, &fv[i]->io.lat);
		fprintf(out, "  %s\n", fv[i]->name);
		n++;
	}
}

static void io_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_proc **pv;
	struct km_file **fv;

	if (!kmodel_heading(m, c, "File I/O", out))
		return;
	pv = (struct km_proc **)order_values(&m->procs, proc_by_file_bytes);
	fv = kmodel_files(m);
	qsort(fv, m->nr_files, sizeof(*fv), file_by_bytes);
	if (c->csv)
		io_csv(m, c, pv, fv, out);
	else
		io_text(m, c, pv, fv, out);
	free(pv);
	free(fv);
}

/* ---- --net ---- */

static struct order_key proc_by_sock_bytes(void *row)
{
	const struct km_proc *p = row;

	return (struct order_key){ (int64_t)io_bytes(&p->sock), p->pid };
}

static int iface_by_name(const void *pa, const void *pb)
{
	return strcmp((*(const struct km_iface *const *)pa)->name,
		      (*(const struct km_iface *const *)pb)->name);
}

static void net_csv(struct kmodel *m, struct report_ctx *c, struct km_iface **iv,
		    struct km_proc **pv, FILE *out)
{
	size_t i;

	fputs("table,interface,sent_bytes,sent_packets,received_bytes,received_packets\n", out);
	for (i = 0; i < m->ifaces.nr; i++) {
		fputs("net-interface,", out);
		report_csv_str(out, iv[i]->name);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			iv[i]->tx_bytes, iv[i]->tx_packets, iv[i]->rx_bytes, iv[i]->rx_packets);
	}
	fputs("\ntable,pid,command,sent_bytes,received_bytes,sends,receives\n", out);
	for (i = 0; i < m->procs.nr; i++) {
		if (!pv[i]->sock.rops && !pv[i]->sock.wops)
			continue;
		fprintf(out, "net-process,%" PRId64 ",", pv[i]->pid);
		report_csv_str(out, comm_of(c, pv[i]->pid));
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", pv[i]->sock.wbytes,
			pv[i]->sock.rbytes, pv[i]->sock.wops, pv[i]->sock.rops);
	}
}

static void net_text(struct kmodel *m, struct report_ctx *c, struct km_iface **iv,
		     struct km_proc **pv, FILE *out)
{
	size_t i, n;

	fprintf(out, "per interface (net_dev_xmit, net_if_receive_skb; bytes with headers):\n"
		"%-16s %14s %10s %14s %10s\n", "interface", "sent (B)", "packets",
		"received (B)", "packets");
	if (!m->ifaces.nr)
		fputs("(no net_dev_xmit or net_if_receive_skb events: record "
		      "net:net_dev_xmit and net:netif_receive_skb, in the default set)\n", out);
	for (i = 0; i < m->ifaces.nr; i++)
		fprintf(out, "%-16s %14" PRIu64 " %10" PRIu64 " %14" PRIu64 " %10" PRIu64 "\n",
			iv[i]->name, iv[i]->tx_bytes, iv[i]->tx_packets, iv[i]->rx_bytes,
			iv[i]->rx_packets);
	fprintf(out, "\nper process (system calls on sockets; payload bytes):\n"
		"%9s  %-16s %14s %14s %8s %8s\n", "pid", "command", "sent (B)", "received (B)",
		"sends", "receives");
	for (i = n = 0; i < m->procs.nr && n < c->top; i++) {
		if (!pv[i]->sock.rops && !pv[i]->sock.wops)
			continue;
		fprintf(out, "%9" PRId64 "  %-16s %14" PRIu64 " %14" PRIu64 " %8" PRIu64 " %8"
			PRIu64 "\n", pv[i]->pid, comm_of(c, pv[i]->pid), pv[i]->sock.wbytes,
			pv[i]->sock.rbytes, pv[i]->sock.wops, pv[i]->sock.rops);
		n++;
	}
}

static void net_print(void *a, struct report_ctx *c, FILE *out)
{
	struct kmodel *m = a;
	struct km_iface **iv;
	struct km_proc **pv;

	if (!kmodel_heading(m, c, "Network", out))
		return;
	iv = (struct km_iface **)kmodel_sorted(&m->ifaces, iface_by_name);
	pv = (struct km_proc **)order_values(&m->procs, proc_by_sock_bytes);
	if (c->csv)
		net_csv(m, c, iv, pv, out);
	else
		net_text(m, c, iv, pv, out);
	free(iv);
	free(pv);
}

const struct analysis analysis_io = KMODEL_SECTION("io",
	"file I/O per process and per file: bytes, operations, latency (kernel)",
	KM_IO, io_print);

const struct analysis analysis_net = KMODEL_SECTION("net",
	"network bytes and packets per interface, socket bytes per process (kernel)",
	KM_NET, net_print);
