/*
 * list.c - `ust list PID`: the events registered in a running traced
 * process and their state; `ust list PROGRAM`: the events a binary and
 * the shared libraries it needs provide (doc/control.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A running process is read from its runtime control area (control.h).
 * A binary is read without running it: tpgen puts one string per event,
 * "facility:event(parameters)", in the section "ust_events" of the
 * object a provider is linked into; libelf reads that section from the
 * binary and from each library that the dynamic loader itself
 * (`INTERP --list PROGRAM`, what ldd runs) says the binary loads.
 */
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>

#include "cli.h"
#include "command.h"
#include "control.h"
#include "elfscan.h"
#include "common/parse.h"

#define EVENTS_SECTION	"ust_events"

enum list_opt { OPT_HELP = 1 };

static const struct poptOption list_options[] = {
	CLI_OPTION_HELP(OPT_HELP),
	POPT_TABLEEND
};

void cli_list_help(FILE *out)
{
	cli_print_help(out, "ust list", list_options, "PID|PROGRAM",
		       "\nPID: the events registered in the running traced process, "
		       "each\nenabled or disabled, and whether tracing is stopped "
		       "(see 'ust ctl').\nPROGRAM: the events that the binary and the "
		       "shared libraries it\nneeds provide, with their parameters, "
		       "under the file that holds them.\nA PROGRAM named by digits "
		       "only is given as ./NAME.\n");
}

/* The filter rules of the process (abi/control.h), in order. */
static void list_filters(const struct ctl_process *p)
{
	static const char *const ops[] = {
		[UST_CTL_FILTER_OR] = "filter (UST_TRACE)",
		[UST_CTL_FILTER_SET] = "filter", [UST_CTL_FILTER_CLEAR] = "unfilter",
	};
	uint32_t n = __atomic_load_n(&p->area->nr_filters, __ATOMIC_RELAXED), i;

	for (i = 0; i < n && i < UST_CTL_MAX_FILTERS; i++) {
		struct ust_ctl_filter r;

		memcpy(&r, &p->area->filters[i], sizeof(r));
		if (r.op >= sizeof(ops) / sizeof(ops[0]) || !ops[r.op])
			continue;	/* ANY: an -e without filter */
		r.pattern[sizeof(r.pattern) - 1] = '\0';
		r.expr[sizeof(r.expr) - 1] = '\0';
		ust__ctl_printable(r.pattern);
		ust__ctl_printable(r.expr);
		if (r.op == UST_CTL_FILTER_CLEAR)
			printf("  %s '%s'\n", ops[r.op], r.pattern);
		else
			printf("  %s '%s' '%s'\n", ops[r.op], r.pattern, r.expr);
	}
}

/* `ust list PID` */
static int list_process(pid_t pid)
{
	struct ust_ctl_event ev;
	struct ctl_process p;
	bool stopped;
	uint32_t i, n = 0;

	if (ctl_attach(&p, pid, LOCK_SH))
		return UST_EXIT_FAILURE;
	stopped = p.area->stopped != 0;
	for (i = 0; i < ust__ctl_nr_events(p.area); i++)
		n += ctl_event(&p, i, &ev);
	printf("process %d (%s): %u event%s, tracing %s\n", (int)pid,
	       p.map.procname, n, n == 1 ? "" : "s",
	       stopped ? "stopped" : "running");
	for (i = 0; i < ust__ctl_nr_events(p.area); i++) {
		if (!ctl_event(&p, i, &ev))
			continue;
		printf("  %s %s%s\n", ev.name,
		       ev.flags & UST_CTL_EV_WANTED ? "enabled" : "disabled",
		       ev.flags & UST_CTL_EV_DESCRIBED ? "" :
		       " (not in the metadata: its log was full)");
	}
	list_filters(&p);
	ctl_detach(&p);
	return 0;
}

/* Print the NUL-separated strings of a "ust_events" section, printable ones only. */
static unsigned int print_events(const char *file, const char *data,
				 size_t size, void *arg)
{
	const char *s = data, *end = s + size;
	unsigned int n = 0;

	(void)arg;
	while (s < end) {
		size_t len = strnlen(s, (size_t)(end - s)), i;
		bool ok = len > 0 && len < (size_t)(end - s);

		for (i = 0; ok && i < len; i++)
			ok = s[i] >= ' ' && s[i] < 0x7f;
		if (ok) {
			if (!n)
				printf("%s:\n", file);
			printf("  %s\n", s);
			n++;
		}
		s += len + 1;
	}
	return n;
}

/* `ust list PROGRAM` */
static int list_program(const char *program)
{
	long n = cli_elf_scan_program(program, EVENTS_SECTION, print_events, NULL);

	if (n < 0)
		return UST_EXIT_FAILURE;
	if (!n) {
		cli_error("%s: no events (neither it nor its libraries hold "
			  "tpgen providers)", program);
		return UST_EXIT_FAILURE;
	}
	return 0;
}

int cli_list_run(int argc, const char **argv)
{
	poptContext ctx = poptGetContext("ust list", argc, argv, list_options,
					 POPT_CONTEXT_POSIXMEHARDER);
	const char **args;
	int rc, ret;
	pid_t pid;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
		cli_list_help(stdout);
		poptFreeContext(ctx);
		return 0;
	}
	args = poptGetArgs(ctx);
	if (rc < -1) {
		cli_bad_option(ctx, rc);
		ret = UST_EXIT_USAGE;
	} else if (!args || !args[0] || args[1]) {
		cli_error("expected one PID or PROGRAM (see 'ust list --help')");
		ret = UST_EXIT_USAGE;
	} else if (!ust__parse_pid(args[0], &pid)) {
		ret = list_process(pid);
	} else {
		ret = list_program(args[0]);
	}
	poptFreeContext(ctx);
	return ret;
}
