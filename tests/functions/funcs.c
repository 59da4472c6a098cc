/*
 * funcs.c - count the function entries and exits of one process's trace
 * by function name, with ust's reader and the report's call stacks
 * (analysis/calltrack.h) (test tool).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   funcs TRACE_DIR
 *
 * prints one line per function, "NAME ENTRIES EXITS", sorted by name,
 * then "total entries=N exits=M unmatched=U threads=T".  An exit
 * (func_exit has no field) closes the function its thread entered last;
 * it is unmatched when its thread has no function open.  Functions still
 * open at the end of the trace count no exit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calltrack.h"
#include "reader/reader.h"

struct counts {
	uint64_t *entries, *exits;	/* per function index */
	size_t cap_entries, cap_exits;
	uint64_t nr_entries, nr_exits, unmatched;
};

static void on_enter(void *u, struct ct_thread *th, int64_t ns)
{
	struct counts *c = u;
	uint32_t f = th->stack[th->depth - 1].func;

	(void)ns;
	c->entries = calltrack_per_func(c->entries, &c->cap_entries,
					sizeof(*c->entries), f);
	c->exits = calltrack_per_func(c->exits, &c->cap_exits, sizeof(*c->exits), f);
	c->entries[f]++;
	c->nr_entries++;
}

static void on_leave(void *u, struct ct_thread *th, int64_t ns, bool at_end)
{
	struct counts *c = u;

	(void)ns;
	if (at_end)
		return;
	c->exits[th->stack[th->depth - 1].func]++;
	c->nr_exits++;
}

static void on_unmatched(void *u, struct ct_thread *th, int64_t ns)
{
	struct counts *c = u;

	(void)th;
	(void)ns;
	c->nr_exits++;
	c->unmatched++;
}

static const struct ct_ops count_ops = {
	.enter = on_enter,
	.leave = on_leave,
	.unmatched = on_unmatched,
};

static struct calltrack *sort_ct;

static int by_name(const void *a, const void *b)
{
	return strcmp(calltrack_name(sort_ct, *(const uint32_t *)a),
		      calltrack_name(sort_ct, *(const uint32_t *)b));
}

static int count_events(struct rd_reader *r, struct calltrack *ct)
{
	struct rd_msg m;
	int ret;

	while ((ret = rd_reader_next(r, &m)) == 1) {
		if (m.kind != RD_MSG_EVENT)
			continue;
		if (calltrack_event(ct, &m, calltrack_classify(rd_stream_trace(m.stream),
							       m.ec))) {
			fprintf(stderr, "funcs: %s\n", ct->error);
			return -1;
		}
	}
	if (ret < 0)
		fprintf(stderr, "funcs: %s\n", rd_reader_error(r));
	return ret;
}

static void print_counts(struct counts *c, struct calltrack *ct)
{
	uint32_t *order = calloc(ct->nr_funcs + 1, sizeof(*order));
	uint32_t i;

	if (!order)
		exit(1);
	for (i = 0; i < ct->nr_funcs; i++)
		order[i] = i;
	sort_ct = ct;
	qsort(order, ct->nr_funcs, sizeof(*order), by_name);
	for (i = 0; i < ct->nr_funcs; i++)
		printf("%s %" PRIu64 " %" PRIu64 "\n", calltrack_name(ct, order[i]),
		       c->entries[order[i]], c->exits[order[i]]);
	printf("total entries=%" PRIu64 " exits=%" PRIu64 " unmatched=%" PRIu64
	       " threads=%" PRIu32 "\n", c->nr_entries, c->nr_exits, c->unmatched,
	       ct->nr_threads);
	free(order);
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	struct calltrack ct;
	struct rd_reader *r;
	char err[512];

	if (argc != 2) {
		fputs("usage: funcs TRACE_DIR\n", stderr);
		return 2;
	}
	if (rd_reader_open(&r, (const char *const *)&argv[1], 1, err,
			   sizeof(err))) {
		fprintf(stderr, "funcs: %s\n", err);
		return 1;
	}
	calltrack_init(&ct, &count_ops, &c);
	if (count_events(r, &ct))
		return 1;
	print_counts(&c, &ct);
	free(c.entries);
	free(c.exits);
	calltrack_release(&ct);
	rd_reader_close(r);
	return 0;
}
