/*
 * export.c - `ust export --format=chrome|folded|csv [--weight=calls|time]
 * [--begin T] [--end T] [--tid TID] [--min-duration D] [--force]
 * [-o FILE] DIR...`: the merged events of traces in another tool's
 * format (export-formats.c, doc/ust-export.md).
 *
 * Before writing a large output (the traces' streams above
 * SIZE_CHECK_FROM bytes), one pass writes nowhere and counts the bytes
 * the output would have: it is said when large, and a chrome file the
 * trace viewers cannot open (CHROME_MAX bytes) is refused unless
 * --force, with what would narrow it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <popt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "command.h"
#include "common/parse.h"
#include "analysis/pass.h"

#define SIZE_CHECK_FROM	(16ull << 20)	/* stream bytes */
#define SIZE_NOTE_FROM	(64ull << 20)	/* output bytes said */
#define CHROME_MAX	(256ull << 20)	/* what chrome://tracing opens */

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
	OPT_BEGIN,
	OPT_END,
	OPT_TID,
	OPT_MIN_DURATION,
	OPT_FORCE,
	OPT_HELP,
};

static const struct poptOption export_options[] = {
	CLI_OPTION_ARG_SHORT("format", 'f', OPT_FORMAT,
		"chrome (Trace Event JSON for Perfetto / chrome://tracing), "
		"folded (flame graph stacks) or csv", "FORMAT"),
	CLI_OPTION_ARG_SHORT("output", 'o', OPT_OUTPUT,
		"write to FILE instead of standard output", "FILE"),
	CLI_OPTION_ARG("weight", OPT_WEIGHT,
		"folded, function calls: count each call (calls, the default) or its "
		"self time in ns (time)", "calls|time"),
	CLI_OPTION_ARG("begin", OPT_BEGIN,
		"only what overlaps the time from T on (as ust view reads it: "
		"[YYYY-MM-DD ]HH:MM:SS[.N] or seconds from the epoch)", "T"),
	CLI_OPTION_ARG("end", OPT_END,
		"only what overlaps the time up to T", "T"),
	CLI_OPTION_ARG("tid", OPT_TID,
		"only thread TID", "TID"),
	CLI_OPTION_ARG("min-duration", OPT_MIN_DURATION,
		"chrome and folded: only the calls and slices lasting at least D "
		"(e.g. 10us; ns, us, ms or s); instant events are left out", "D"),
	CLI_OPTION_FLAG("force", OPT_FORCE,
		"write a chrome file even larger than trace viewers open"),
	CLI_OPTION_HELP(OPT_HELP),
	POPT_TABLEEND
};

void cli_export_help(FILE *out)
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
	char *begin, *end;	/* --begin, --end as given */
	int64_t tid;		/* --tid, -1: none */
	uint64_t min_dur_ns;	/* --min-duration */
	bool force;
};

/* The options of the filters and --force; 0 or -1 (said). */
static int filter_option(struct export_args *a, int rc, char *arg)
{
	uint64_t n;

	switch (rc) {
	case OPT_BEGIN:
		free(a->begin);
		a->begin = arg;
		return 0;
	case OPT_END:
		free(a->end);
		a->end = arg;
		return 0;
	case OPT_TID:
		if (ust__parse_u64(arg, &n) || n == 0 || n > INT32_MAX) {
			cli_error("invalid --tid '%s': a thread id", arg);
			free(arg);
			return -1;
		}
		a->tid = (int64_t)n;
		break;
	case OPT_MIN_DURATION:
		if (ust__parse_duration_ns(arg, &n) || n > INT64_MAX) {
			cli_error("invalid --min-duration '%s': a duration, with ns (the "
				  "default), us, ms or s", arg);
			free(arg);
			return -1;
		}
		a->min_dur_ns = n;
		break;
	default:
		a->force = true;
		break;
	}
	free(arg);
	return 0;
}

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
			cli_export_help(stdout);
			return 1;
		}
		if (rc == OPT_OUTPUT) {
			free(a->output);
			a->output = arg;
			continue;
		}
		if (rc >= OPT_BEGIN && rc <= OPT_FORCE) {
			if (filter_option(a, rc, arg))
				return -1;
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
		cli_bad_option(ctx, rc);
		return -1;
	}
	if (!a->format) {
		cli_error("no --format given (chrome, folded or csv)");
		return -1;
	}
	if (a->min_dur_ns && a->format == &export_csv) {
		cli_error("--min-duration applies to chrome and folded, not csv");
		return -1;
	}
	a->dirs = cli_trace_dirs(ctx);
	return a->dirs ? 0 : -1;
}

static size_t dirs_count(const char **dirs)
{
	size_t n = 0;

	while (dirs[n])
		n++;
	return n;
}

/*
 * --begin and --end, read as ust view reads them (clock times on the day
 * of the traces' first event, found here).  0, or -1 (said).
 */
static int window_set(struct export_args *a, struct report_ctx *c)
{
	struct rd_reader *r;
	struct rd_msg m;
	char err[512];
	int64_t first = 0;

	c->window = a->begin || a->end;
	c->begin_ns = INT64_MIN;
	c->end_ns = INT64_MAX;
	if (!c->window)
		return 0;
	if (rd_reader_open(&r, a->dirs, dirs_count(a->dirs), err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	if (rd_reader_next(r, &m) > 0)
		first = m.ns;
	rd_reader_close(r);
	if (a->begin && cli_parse_time(a->begin, first, false, &c->begin_ns)) {
		cli_error("bad time '%s' (see 'ust export --help')", a->begin);
		return -1;
	}
	if (a->end && cli_parse_time(a->end, first, false, &c->end_ns)) {
		cli_error("bad time '%s' (see 'ust export --help')", a->end);
		return -1;
	}
	return 0;
}

static int export_write(struct export_args *a, FILE *out)
{
	struct pass p = { .c = { .top = 10, .out = out, .weight_ns = a->weight_ns,
				 .only_tid = a->tid > 0, .tid = a->tid,
				 .min_dur_ns = (int64_t)a->min_dur_ns } };
	int ret;

	if (window_set(a, &p.c))
		return -1;
	p.list[p.nr++] = a->format;
	if (pass_open(&p, a->dirs, dirs_count(a->dirs))) {
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

/* The bytes of the traces' files under the directories (nftw). */
static uint64_t trace_bytes;

static int add_file(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (type == FTW_F)
		trace_bytes += (uint64_t)st->st_size;
	return 0;
}

static ssize_t count_write(void *cookie, const char *buf, size_t size)
{
	(void)buf;
	*(uint64_t *)cookie += size;
	return (ssize_t)size;
}

/*
 * A large trace: the size of the output first (a pass that writes
 * nowhere).  Said when large; a chrome file trace viewers cannot open is
 * refused without --force.  0 to go on, -1 (said) to stop.
 */
static int export_size_check(struct export_args *a)
{
	cookie_io_functions_t io = { .write = count_write };
	uint64_t bytes = 0;
	size_t i;
	FILE *f;
	int ret;

	trace_bytes = 0;
	for (i = 0; a->dirs[i]; i++)
		(void)nftw(a->dirs[i], add_file, 16, FTW_PHYS);
	if (trace_bytes < SIZE_CHECK_FROM)
		return 0;
	f = fopencookie(&bytes, "w", io);
	if (!f)
		return 0;
	ret = export_write(a, f);
	fclose(f);
	if (ret)
		return -1;
	if (a->format == &export_chrome && bytes > CHROME_MAX && !a->force) {
		cli_error("the chrome output would be %.1f MiB, more than Perfetto and "
			  "chrome://tracing open (about %llu MiB): narrow it with --begin/--end, "
			  "--tid or --min-duration, or write it anyway with --force",
			  (double)bytes / (1 << 20), CHROME_MAX >> 20);
		return -1;
	}
	if (bytes >= SIZE_NOTE_FROM)
		fprintf(stderr, "%s: writing %.1f MiB of %s\n", cli_prog,
			(double)bytes / (1 << 20), a->format->name);
	return 0;
}

int cli_export_run(int argc, const char **argv)
{
	struct export_args a = { 0 };
	poptContext ctx;
	FILE *out = stdout;
	int ret;

	a.tid = -1;
	ret = export_parse(argc, argv, &a, &ctx);
	if (ret)
		goto done;
	if (export_size_check(&a)) {
		ret = -2;
		goto done;
	}
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
	free(a.begin);
	free(a.end);
	poptFreeContext(ctx);
	if (ret == -1)
		return UST_EXIT_USAGE;
	return ret < 0 ? UST_EXIT_FAILURE : 0;
}
