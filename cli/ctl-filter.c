/*
 * ctl-filter.c - `ust ctl PID filter PATTERN EXPR` and `ust ctl PID
 * unfilter PATTERN`: change the filters of a running process
 * (doc/filters.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The expression is compiled here, for the fields of the process's live
 * events that match PATTERN (read from the "ust_fields" sections of the
 * files it maps).  Under the control lock the command appends a rule and
 * its programs to the control area and publishes their count (I13), then
 * sets each matching event's gate word in the process
 * (process_vm_writev, checked first like the enabled words), so its next
 * record takes the gated path, where libust copies and validates the new
 * programs before it runs them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/env.h"
#include "cli.h"
#include "common/pattern.h"
#include "control.h"
#include "ctl-filter.h"
#include "elfscan.h"
#include "filters.h"

/* Is `name` a live event of the process?  (cli_event_accept_fn) */
static bool live_event(const char *name, void *arg)
{
	const struct ctl_process *p = arg;
	struct ust_ctl_event ev;
	uint32_t i;

	for (i = 0; i < ust__ctl_nr_events(p->area); i++)
		if (ctl_event(p, i, &ev) && !strcmp(ev.name, name))
			return true;
	return false;
}

/* Set the gate word of every matching event. */
static int open_gates(const struct ctl_process *p, const char *pattern)
{
	struct ust_ctl_event ev;
	uint32_t i;

	for (i = 0; i < ust__ctl_nr_events(p->area); i++) {
		int32_t one = 1;

		if (!ctl_event(p, i, &ev) || !ust__glob_match(pattern, ev.name))
			continue;
		if (ctl_word_io(p, &ev, ctl_gate_addr(&ev), "gate", &one, true))
			return -1;
	}
	return 0;
}

/*
 * Append a rule (`op`, with the programs of `blob` when not NULL) to the
 * control area, then publish the new count (I13).
 */
static int append_rule(struct ctl_process *p, uint32_t op, const char *pattern,
		       const char *expr, const uint8_t *blob)
{
	struct ust_ctl_area *a = p->area;
	uint32_t n = __atomic_load_n(&a->nr_filters, __ATOMIC_RELAXED);
	uint64_t used = (a->pool_used + 7ull) & ~7ull;
	struct ust_filter_blob h = { 0 };
	struct ust_ctl_filter *r;

	if (blob)
		memcpy(&h, blob, sizeof(h));
	if (n >= UST_CTL_MAX_FILTERS) {
		cli_error("process %d: too many filter commands (%u); restart it "
			  "with ust record --filter", (int)p->pid, UST_CTL_MAX_FILTERS);
		return -1;
	}
	if (used > UST_CTL_FILTER_POOL ||
	    h.programs_size > UST_CTL_FILTER_POOL - used) {
		cli_error("process %d: no room left for filter programs (%u KiB "
			  "used); restart it with ust record --filter", (int)p->pid,
			  UST_CTL_FILTER_POOL >> 10);
		return -1;
	}
	r = &a->filters[n];
	memset(r, 0, sizeof(*r));
	r->op = op;
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->expr, sizeof(r->expr), "%s", expr ? expr : "");
	if (blob) {
		memcpy(a->filter_pool + used, blob + sizeof(h) + h.expr_size,
		       h.programs_size);
		r->programs = used;
		r->programs_size = h.programs_size;
		r->nr_programs = h.nr_programs;
		a->pool_used = (uint32_t)(used + h.programs_size);
	}
	/*
	 * I13, release: the rule and its programs before the count.
	 * Partner: libust's acquire load on the gated path (libust/gate.c).
	 */
	__atomic_store_n(&a->nr_filters, n + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Compile `expr` for the process's live events matching `pattern`. */
static int compile(struct ctl_process *p, const char *pattern, const char *expr,
		   uint8_t **blob)
{
	struct cli_fields f = { 0 };
	char where[64];
	size_t len;
	int ret = -1;

	snprintf(where, sizeof(where), "process %d", (int)p->pid);
	if (cli_elf_scan_process(p->pid, CLI_FIELDS_SECTION, cli_fields_section,
				 &f) >= 0) {
		cli_fields_sort(&f);
		ret = cli_filter_compile(&f, pattern, expr, live_event, p, "filter",
					 where, blob, &len);
	}
	cli_fields_release(&f);
	return ret;
}

int ctl_filter_locked(struct ctl_process *p, const char *pattern,
		      const char *expr)
{
	uint8_t *blob = NULL;
	int n = ctl_words_check(p, pattern, true);

	if (n < 0)
		return UST_EXIT_FAILURE;
	if (n == 0) {
		cli_error("process %d has no event matching '%s' (see 'ust list %d')",
			  (int)p->pid, pattern, (int)p->pid);
		return UST_EXIT_FAILURE;
	}
	if (expr && compile(p, pattern, expr, &blob))
		return UST_EXIT_USAGE;
	if (append_rule(p, expr ? UST_CTL_FILTER_SET : UST_CTL_FILTER_CLEAR,
			pattern, expr, blob) ||
	    (expr && open_gates(p, pattern))) {
		free(blob);
		return UST_EXIT_FAILURE;
	}
	free(blob);
	if (expr)
		printf("process %d: filter '%s' on %d event%s matching '%s'\n",
		       (int)p->pid, expr, n, n == 1 ? "" : "s", pattern);
	else
		printf("process %d: no filter on %d event%s matching '%s'\n",
		       (int)p->pid, n, n == 1 ? "" : "s", pattern);
	return 0;
}
