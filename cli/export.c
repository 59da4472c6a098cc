/*
 * export.c - `ust export --format=chrome|folded|csv [--weight=calls|time]
 * [-o FILE] DIR...`: the merged events of traces in another tool's
 * format (export-formats.c, doc/ust-export.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <popt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "analysis/pass.h"

extern const struct analysis export_csv, export_chrome, export_folded;

static const struct analysis *const formats[] = {
	&export_chrome,
	&export_folded,
	&export_csv,
};

#define NR_FORMATS	(sizeof(formats) / sizeof(formats[0]))

enum export_opt {
	OPT_FORMAT = 1,
	OPT_OUTPUT,
	OPT_WEIGHT,
	OPT_HELP,
};

static const struct poptOption export_options[] = {
	{ "format", 'f', POPT_ARG_STRING, NULL, OPT_FORMAT,
	  "chrome (Trace Event JSON for Perfetto / chrome://tracing), "
	  "folded (flame graph stacks) or csv", "FORMAT" },
	{ "output", 'o', POPT_ARG_STRING, NULL, OPT_OUTPUT,
	  "write to FILE instead of standard output", "FILE" },
	{ "weight", '\0', POPT_ARG_STRING, NULL, OPT_WEIGHT,
	  "folded, function calls: count each call (calls, the default) or its "
	  "self time in ns (time)", "calls|time" },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help", NULL },
	POPT_TABLEEND
};

static void export_help(FILE *out)
{
	cli_trace_help(out, "ust export", export_options,
		       "--format=chrome|folded|csv [OPTION...] DIR...", NULL);
}

static const struct analysis *find_format(const char *name)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++) {
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	}
	return NULL;
}

struct export_args {
	const struct analysis *format;
	bool weight_ns;
	char *output;
	const char **dirs;
};

/* 1 for --help, -1 for a bad command line (printed), else 0. */
static int export_parse(int argc, const char **argv, struct export_args *a,
			poptContext *pctx)
{
	poptContext ctx = poptGetContext("ust export", argc, argv, export_options, 0);
	int rc;

	*pctx = ctx;
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		char *arg = poptGetOptArg(ctx);

		if (rc == OPT_HELP) {
			export_help(stdout);
			return 1;
		}
		if (rc == OPT_OUTPUT) {
			free(a->output);
			a->output = arg;
			continue;
		}
		if (rc == OPT_WEIGHT) {
			int bad = strcmp(arg, "calls") && strcmp(arg, "time");

			if (bad)
				cli_error("unknown weight '%s' (calls or time)", arg);
			a->weight_ns = !strcmp(arg, "time");
			free(arg);
			if (bad)
				return -1;
			continue;
		}
		a->format = find_format(arg);
		if (!a->format) {
			cli_error("unknown format '%s' (chrome, folded or csv)", arg);
			free(arg);
			return -1;
		}
		free(arg);
	}
	if (rc < -1) {
		cli_error("%s: %s", poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		return -1;
	}
	if (!a->format) {
		cli_error("no --format given (chrome, folded or csv)");
		return -1;
	}
	a->dirs = poptGetArgs(ctx);
	if (!a->dirs || !*a->dirs) {
		cli_error("no trace directory given (see 'ust export --help')");
		return -1;
	}
	return 0;
}

static int export_write(struct export_args *a, FILE *out)
{
	struct pass p = { .c = { .top = 10, .out = out, .weight_ns = a->weight_ns } };
	size_t n = 0;
	int ret;

	p.list[p.nr++] = a->format;
	while (a->dirs[n])
		n++;
	if (pass_open(&p, a->dirs, n)) {
		cli_error("%s", p.error);
		return -1;
	}
	ret = pass_run(&p);
	if (ret)
		cli_error("%s", p.error);
	else
		pass_print(&p);
	pass_close(&p);
	return ret;
}

static int export_run(int argc, const char **argv)
{
	struct export_args a = { 0 };
	poptContext ctx;
	FILE *out = stdout;
	int ret;

	ret = export_parse(argc, argv, &a, &ctx);
	if (ret)
		goto done;
	if (a.output && !(out = fopen(a.output, "w"))) {
		cli_error("%s: %s", a.output, strerror(errno));
		ret = -2;
		goto done;
	}
	ret = export_write(&a, out) ? -2 : 0;
	if ((out == stdout ? fflush(out) : fclose(out)) && !ret) {
		cli_error("%s: write error", a.output ? a.output : "standard output");
		ret = -2;
	}
	if (ret && a.output)
		remove(a.output);	/* no half-written file */
done:
	free(a.output);
	poptFreeContext(ctx);
	if (ret == -1)
		return UST_EXIT_USAGE;
	return ret < 0 ? UST_EXIT_FAILURE : 0;
}

const struct cli_command cli_export_command = {
	.name = "export",
	.summary = "convert traces to chrome JSON, flame graph stacks or csv",
	.run = export_run,
	.help = export_help,
};
