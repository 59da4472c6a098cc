/*
 * funcs.c - count the function entries and exits of one process's trace
 * by function name, with ust's reader and symbolizer (test tool).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   funcs TRACE_DIR
 *
 * prints one line per function, "NAME ENTRIES EXITS", sorted by name,
 * then "total entries=N exits=M unmatched=U threads=T".  An exit
 * (func_exit has no field) closes the function its thread entered last;
 * it is unmatched when its thread has no function open.  Addresses are
 * resolved when first seen, so functions of a library unloaded later
 * still get their names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "reader.h"
#include "symbols.h"

struct func {
	uint64_t addr;
	char name[256];
	uint64_t entries, exits;
};

struct thread {
	int64_t vtid;
	uint64_t *stack;
	size_t depth, cap;
};

struct counts {
	struct func *funcs;
	size_t nr_funcs, cap_funcs;
	struct thread threads[256];
	size_t nr_threads;
	uint64_t entries, exits, unmatched;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("funcs: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static struct func *func_of(struct counts *c, struct sym_table *t, uint64_t addr)
{
	size_t i;

	for (i = 0; i < c->nr_funcs; i++) {
		if (c->funcs[i].addr == addr)
			return &c->funcs[i];
	}
	if (c->nr_funcs == c->cap_funcs) {
		c->cap_funcs = c->cap_funcs ? 2 * c->cap_funcs : 64;
		c->funcs = xrealloc(c->funcs, c->cap_funcs * sizeof(*c->funcs));
	}
	memset(&c->funcs[c->nr_funcs], 0, sizeof(*c->funcs));
	c->funcs[c->nr_funcs].addr = addr;
	sym_format(t, addr, c->funcs[c->nr_funcs].name,
		   sizeof(c->funcs[c->nr_funcs].name));
	return &c->funcs[c->nr_funcs++];
}

static struct thread *thread_of(struct counts *c, int64_t vtid)
{
	size_t i;

	for (i = 0; i < c->nr_threads; i++) {
		if (c->threads[i].vtid == vtid)
			return &c->threads[i];
	}
	if (c->nr_threads == sizeof(c->threads) / sizeof(c->threads[0])) {
		fputs("funcs: too many threads\n", stderr);
		exit(1);
	}
	c->threads[c->nr_threads].vtid = vtid;
	return &c->threads[c->nr_threads++];
}

static void on_entry(struct counts *c, struct sym_table *t, int64_t vtid,
		     uint64_t addr)
{
	struct thread *th = thread_of(c, vtid);

	func_of(c, t, addr)->entries++;
	c->entries++;
	if (th->depth == th->cap) {
		th->cap = th->cap ? 2 * th->cap : 64;
		th->stack = xrealloc(th->stack, th->cap * sizeof(*th->stack));
	}
	th->stack[th->depth++] = addr;
}

static void on_exit_event(struct counts *c, struct sym_table *t, int64_t vtid)
{
	struct thread *th = thread_of(c, vtid);

	c->exits++;
	if (!th->depth) {
		c->unmatched++;
		return;
	}
	func_of(c, t, th->stack[--th->depth])->exits++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name,
		      ((const struct func *)b)->name);
}

static int count_events(struct rd_reader *r, struct counts *c,
			struct sym_table *t)
{
	struct rd_msg m;
	const uint8_t *p;
	size_t len;
	int ret;

	while ((ret = rd_reader_next(r, &m)) == 1) {
		if (m.kind != RD_MSG_EVENT)
			continue;
		if (sym_table_observe(t, &m)) {
			fprintf(stderr, "funcs: bad %s event\n", m.ec->name);
			return -1;
		}
		if (!strcmp(m.ec->name, "ust_cyg_profile:func_exit")) {
			on_exit_event(c, t, m.vtid);
			continue;
		}
		if (strcmp(m.ec->name, "ust_cyg_profile:func_entry"))
			continue;
		if (rd_event_payload(&m, &p, &len) || len != 16)
			return -1;
		on_entry(c, t, m.vtid, rd_le64(p));
	}
	if (ret < 0)
		fprintf(stderr, "funcs: %s\n", rd_reader_error(r));
	return ret;
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	struct rd_reader *r;
	struct sym_table *t;
	char err[512];
	size_t i;

	if (argc != 2) {
		fputs("usage: funcs TRACE_DIR\n", stderr);
		return 2;
	}
	if (rd_reader_open(&r, (const char *const *)&argv[1], 1, err,
			   sizeof(err))) {
		fprintf(stderr, "funcs: %s\n", err);
		return 1;
	}
	t = sym_table_new();
	if (!t || count_events(r, &c, t))
		return 1;
	if (c.nr_funcs)
		qsort(c.funcs, c.nr_funcs, sizeof(*c.funcs), by_name);
	for (i = 0; i < c.nr_funcs; i++)
		printf("%s %" PRIu64 " %" PRIu64 "\n", c.funcs[i].name,
		       c.funcs[i].entries, c.funcs[i].exits);
	printf("total entries=%" PRIu64 " exits=%" PRIu64 " unmatched=%" PRIu64
	       " threads=%zu\n", c.entries, c.exits, c.unmatched, c.nr_threads);
	for (i = 0; i < c.nr_threads; i++)
		free(c.threads[i].stack);
	free(c.funcs);
	sym_table_free(t);
	rd_reader_close(r);
	return 0;
}
