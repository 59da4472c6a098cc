/*
 * report-kernel.c - the options of `ust report` for its kernel sections
 * (analysis/kmodel.h): --thread TID, --between A B, --csv, --begin and
 * --end, and the analyses they put in the pass.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --between takes two words, which popt cannot do: they are taken out
 * of the command line before popt sees it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "command.h"
#include "report-kernel.h"
#include "analysis/kmodel.h"

#define BETWEEN_OPTION	"--between"

void cli_report_kernel_options(struct poptOption *o)
{
	o[0] = (struct poptOption)CLI_OPTION_ARG("thread", OPT_KTHREAD,
		"where thread TID's time went: running, runnable, blocked in each system "
		"call, and who woke it (kernel)", "TID");
	o[1] = (struct poptOption)CLI_OPTION_FLAG("between", OPT_KBETWEEN,
		"--between A B: the kernel activity of each thread from its user event A "
		"to its next B (e.g. 'app:req_begin' 'app:req_end')");
	o[2] = (struct poptOption)CLI_OPTION_FLAG("csv", OPT_KCSV,
		"print the kernel sections as CSV (one row per process, file, device...; "
		"exact byte counts, times in ns)");
	o[3] = (struct poptOption)CLI_OPTION_ARG("begin", OPT_KBEGIN,
		"count only the events from TIME: seconds from the first event (1.5), "
		"or a time of its day (HH:MM:SS[.frac])", "TIME");
	o[4] = (struct poptOption)CLI_OPTION_ARG("end", OPT_KEND,
		"count only the events up to TIME (as --begin)", "TIME");
}

/*
 * TIME: seconds (from the first event) or HH:MM:SS[.frac] (a time of
 * the first event's day).  0 or -1.
 */
static int parse_time(const char *s, int64_t *ns, enum pass_bound *kind)
{
	unsigned int h, mi;
	double sec;
	char *end;
	int n = 0;

	if (sscanf(s, "%2u:%2u:%lf%n", &h, &mi, &sec, &n) == 3 && !s[n] && h < 24 && mi < 60 &&
	    sec >= 0 && sec < 61) {
		*ns = ((int64_t)h * 3600 + mi * 60) * 1000000000 + (int64_t)llround(sec * 1e9);
		*kind = PASS_TIME_OF_DAY;
		return 0;
	}
	sec = strtod(s, &end);
	if (!*s || *end || !(sec >= 0) || sec > 1e9)
		return -1;
	*ns = (int64_t)llround(sec * 1e9);
	*kind = PASS_FROM_FIRST;
	return 0;
}

int cli_report_kernel_option(struct pass *p, int rc, const char *arg)
{
	char *end;
	long long tid;

	switch (rc) {
	case OPT_KTHREAD:
		errno = 0;
		tid = strtoll(arg, &end, 10);
		if (!*arg || *end || errno || tid <= 0 || tid > INT32_MAX) {
			cli_error("bad --thread '%s': a thread id", arg);
			return -1;
		}
		p->c.thread_tid = tid;
		return 0;
	case OPT_KCSV:
		p->c.csv = true;
		return 0;
	case OPT_KBEGIN:
	case OPT_KEND:
		if (parse_time(arg, rc == OPT_KBEGIN ? &p->c.begin_ns : &p->c.end_ns,
			       rc == OPT_KBEGIN ? &p->begin_kind : &p->end_kind)) {
			cli_error("bad --%s '%s': seconds from the first event, or HH:MM:SS[.frac]",
				  rc == OPT_KBEGIN ? "begin" : "end", arg);
			return -1;
		}
		*(rc == OPT_KBEGIN ? &p->has_begin : &p->has_end) = true;
		return 0;
	default:
		return 1;
	}
}

int cli_report_between(int *argc, const char **argv, struct pass *p)
{
	int i, j;

	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (strcmp(argv[i], BETWEEN_OPTION))
			continue;
		if (i + 2 >= *argc) {
			cli_error("--between needs two event names: --between A B");
			return -1;
		}
		if (p->c.between[0]) {
			cli_error("--between given twice");
			return -1;
		}
		p->c.between[0] = argv[i + 1];
		p->c.between[1] = argv[i + 2];
		for (j = i; j + 3 <= *argc; j++)
			argv[j] = argv[j + 3];
		*argc -= 3;
		argv[*argc] = NULL;
		i--;
	}
	return 0;
}

static bool is_kernel_section(const struct analysis *a)
{
	return a == &analysis_io || a == &analysis_net || a == &analysis_block ||
	       a == &analysis_sched || a == &analysis_irq || a == &analysis_memory;
}

int cli_report_kernel_list(struct pass *p)
{
	size_t i, first = SIZE_MAX;	/* the first kernel section */

	if (p->c.thread_tid > 0)
		p->list[p->nr++] = &analysis_thread;
	if (p->c.between[0])
		p->list[p->nr++] = &analysis_between;
	for (i = 0; i < p->nr; i++) {
		bool kernel = is_kernel_section(p->list[i]) || p->list[i] == &analysis_thread ||
			      p->list[i] == &analysis_between;

		if (kernel && first == SIZE_MAX)
			first = i;
		if (!kernel && p->c.csv) {
			cli_error("--csv prints the kernel sections only (--io, --net, --block, "
				  "--sched, --irq, --memory, --thread, --between), not --%s",
				  p->list[i]->name);
			return -1;
		}
	}
	if (p->c.csv && first == SIZE_MAX) {
		cli_error("--csv needs a kernel section (--io, --net, --block, --sched, --irq, "
			  "--memory, --thread, --between)");
		return -1;
	}
	if (first == SIZE_MAX)
		return 0;
	/* The model goes before the sections that read it. */
	memmove(&p->list[first + 1], &p->list[first], (p->nr - first) * sizeof(*p->list));
	p->list[first] = &analysis_kmodel;
	p->nr++;
	return 0;
}
