/*
 * report.c - `ust report DIR...`: one pass over the merged events of the
 * traces (pass.h) feeding the analyses, then a text report: a summary,
 * then one section per analysis (doc/ust-report.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <math.h>
#include <popt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "command.h"
#include "report-kernel.h"
#include "analysis/kmodel.h"

/* The sections, in the order they print. */
static const struct analysis *const sections[] = {
	&analysis_events,
	&analysis_losses,
	&analysis_threads,
	&analysis_cpu,
	&analysis_syscalls,
	&analysis_io,
	&analysis_net,
	&analysis_block,
	&analysis_sched,
	&analysis_irq,
	&analysis_memory,
	&analysis_functions,
};

#define NR_SECTIONS	(sizeof(sections) / sizeof(sections[0]))

enum report_opt {
	OPT_SECTION = 1,	/* + index in sections[] */
	OPT_TOP = 100,
	OPT_INTERVAL,
	OPT_GMT,
	OPT_HELP,
};

static struct poptOption report_options[NR_SECTIONS + REPORT_KERNEL_NR_OPTIONS + 5];

static void build_options(void)
{
	size_t i, n = 0;

	if (report_options[0].longName)
		return;
	for (i = 0; i < NR_SECTIONS; i++)
		report_options[n++] = (struct poptOption)CLI_OPTION_FLAG(
			sections[i]->name, OPT_SECTION + (int)i, sections[i]->help);
	report_options[n++] = (struct poptOption)CLI_OPTION_ARG("top", OPT_TOP,
		"rows of the long lists (default 10)", "N");
	report_options[n++] = (struct poptOption)CLI_OPTION_ARG("interval", OPT_INTERVAL,
		"CPU usage over time: interval length in seconds "
		"(default: a tenth of the trace)", "SEC");
	cli_report_kernel_options(&report_options[n]);
	n += REPORT_KERNEL_NR_OPTIONS;
	report_options[n++] = (struct poptOption)CLI_OPTION_FLAG("clock-gmt", OPT_GMT,
		"print times in UTC instead of local time");
	report_options[n++] = (struct poptOption)CLI_OPTION_HELP(OPT_HELP);
}

void cli_report_help(FILE *out)
{
	build_options();
	cli_trace_help(out, "ust report", report_options, "[OPTION...] DIR...",
		       "Without a section option, every section is printed.\n");
}

static void print_summary(const struct report_ctx *c, FILE *out)
{
	struct rd_reader *r = c->reader;
	char b1[32], b2[32], b3[32];
	size_t i;

	fprintf(out, "ust report: %zu trace%s, %zu stream%s, %" PRIu64 " event%s\n",
		rd_reader_nr_traces(r), rd_reader_nr_traces(r) == 1 ? "" : "s",
		rd_reader_nr_streams(r), rd_reader_nr_streams(r) == 1 ? "" : "s",
		c->nr_events, c->nr_events == 1 ? "" : "s");
	if (c->first_ns != INT64_MAX)
		fprintf(out, "  from [%s] to [%s]: %s s\n", report_time(c, c->first_ns, b1),
			report_time(c, c->last_ns, b2),
			report_secs(report_span(c), b3));
	for (i = 0; i < rd_reader_nr_traces(r); i++) {
		const struct rd_trace *t = rd_reader_trace(r, i);
		const struct rd_env *d = rd_metadata_env(rd_trace_metadata(t), "domain");

		fprintf(out, "  trace %s (%s)\n", rd_trace_name(t),
			d && d->str ? d->str : "no domain");
	}
}

static int parse_count(const char *s, unsigned int *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (!*s || *end || n < 1 || n > 100000)
		return -1;
	*v = (unsigned int)n;
	return 0;
}

static int parse_seconds(const char *s, int64_t *ns)
{
	char *end;
	double d = strtod(s, &end);

	if (!*s || *end || !(d > 0) || d > 1e9)
		return -1;
	*ns = (int64_t)llround(d * 1e9);
	return *ns > 0 ? 0 : -1;
}

/* One option into p; -1 for a bad value (printed). */
static int report_option(struct pass *p, bool *on, int rc, const char *arg)
{
	int bad = 0;

	if (rc == OPT_TOP)
		bad = parse_count(arg, &p->c.top);
	else if (rc == OPT_INTERVAL)
		bad = parse_seconds(arg, &p->c.interval_ns);
	else if (rc == OPT_GMT)
		p->c.gmt = true;
	else if (rc >= OPT_KTHREAD)
		return cli_report_kernel_option(p, rc, arg) ? -1 : 0;
	else
		on[rc - OPT_SECTION] = true;
	if (bad)
		cli_error("bad --%s '%s'", rc == OPT_TOP ? "top" : "interval", arg);
	return bad;
}

/* Options into p; 1 for --help, -1 for a bad command line. */
static int report_parse(int argc, const char **argv, struct pass *p,
			const char ***dirs, poptContext *pctx)
{
	bool on[NR_SECTIONS] = { false }, picked = false;
	poptContext ctx;
	size_t i;
	int rc;

	build_options();
	ctx = poptGetContext("ust report", argc, argv, report_options, 0);
	*pctx = ctx;
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		const char *arg = poptGetOptArg(ctx);
		int bad = rc == OPT_HELP ? 0 : report_option(p, on, rc, arg);

		free((void *)arg);
		if (rc == OPT_HELP) {
			cli_report_help(stdout);
			return 1;
		}
		if (bad)
			return -1;
		picked |= rc < OPT_TOP || rc == OPT_KTHREAD;
	}
	picked |= p->c.between[0] != NULL;
	if (rc < -1) {
		cli_bad_option(ctx, rc);
		return -1;
	}
	p->c.picked = picked;
	for (i = 0; i < NR_SECTIONS; i++) {
		if (on[i] || (!picked && sections[i]->by_default))
			p->list[p->nr++] = sections[i];
	}
	if (cli_report_kernel_list(p))
		return -1;
	*dirs = cli_trace_dirs(ctx);
	return *dirs ? 0 : -1;
}

int cli_report_run(int argc, const char **argv_in)
{
	struct pass p = { .c = { .top = 10, .out = stdout, .thread_tid = -1 } };
	const char **dirs, **argv;
	poptContext ctx;
	size_t n = 0;
	int ret;

	/* --between takes two words: out of a copy (argv_in is popt's). */
	argv = report_zalloc(((size_t)argc + 1) * sizeof(*argv));
	memcpy(argv, argv_in, (size_t)argc * sizeof(*argv));
	if (cli_report_between(&argc, argv, &p)) {
		free(argv);
		return UST_EXIT_USAGE;
	}
	ret = report_parse(argc, argv, &p, &dirs, &ctx);
	if (ret) {
		poptFreeContext(ctx);
		free(argv);
		return ret > 0 ? 0 : UST_EXIT_USAGE;
	}
	while (dirs[n])
		n++;
	if (pass_open(&p, dirs, n)) {
		cli_error("%s", p.error);
		poptFreeContext(ctx);
		free(argv);
		return UST_EXIT_FAILURE;
	}
	ret = pass_run(&p);
	if (ret) {
		cli_error("%s", p.error);
	} else {
		if (!p.c.csv)
			print_summary(&p.c, stdout);
		pass_print(&p);
		if (fflush(stdout)) {
			cli_error("write error on standard output");
			ret = -1;
		}
	}
	pass_close(&p);
	poptFreeContext(ctx);
	free(argv);
	return ret < 0 ? UST_EXIT_FAILURE : 0;
}
