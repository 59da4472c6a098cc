/*
 * view.c - `ust view DIR...`: every event of the traces under DIR, one a
 * line, merged by time, in babeltrace2's default text format
 * (doc/ust-view.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "command.h"
#include "reader/reader.h"
#include "view.h"


enum view_opt {
	OPT_BEGIN = 1,
	OPT_END,
	OPT_EVENT,
	OPT_TID,
	OPT_PID,
	OPT_GMT,
	OPT_LIVE,
	OPT_HELP,
};

static const struct poptOption view_options[] = {
	CLI_OPTION_ARG("begin", OPT_BEGIN,
		"start at TIME: [YYYY-MM-DD ]HH:MM:SS[.NNNNNNNNN] or "
		"SEC[.NNNNNNNNN] (from the Unix epoch)", "TIME"),
	CLI_OPTION_ARG("end", OPT_END,
		"stop after TIME (same formats)", "TIME"),
	CLI_OPTION_ARG_SHORT("event", 'e', OPT_EVENT,
		"only events whose name matches GLOB; repeat for more", "GLOB"),
	CLI_OPTION_ARG("tid", OPT_TID,
		"only events of thread N (vtid)", "N"),
	CLI_OPTION_ARG("pid", OPT_PID,
		"only events of process N (the trace's vpid)", "N"),
	CLI_OPTION_FLAG("clock-gmt", OPT_GMT,
		"print times in UTC instead of local time"),
	CLI_OPTION_FLAG("live", OPT_LIVE,
		"follow the traces while they are written (ust record or UST_TRACE), "
		"in time order, until the session ends; or, instead of DIR, a live "
		"session on lttng-relayd: net://RELAY[:PORT]/host/HOSTNAME/SESSION"),
	CLI_OPTION_HELP(OPT_HELP),
	POPT_TABLEEND
};


void cli_view_help(FILE *out)
{
	cli_trace_help(out, "ust view", view_options, "[OPTION...] DIR...", NULL);
}

static int parse_id(const char *s, int64_t *v)
{
	char *end;

	*v = strtoll(s, &end, 10);
	return *s && !*end && *v >= 0 ? 0 : -1;
}

/* "HH:MM:SS[.N]" with an optional "YYYY-MM-DD " before it. */
static int parse_clock_time(const char *s, int64_t first_ns, bool gmt, int64_t *ns)
{
	struct tm tm = { 0 };
	time_t t = first_ns / 1000000000;
	char frac[16] = "";
	int n = 0, y, mo, d;
	int64_t sub = 0;
	size_t i;

	if (sscanf(s, "%d-%d-%d %n", &y, &mo, &d, &n) == 3 && n) {
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		s += n;
	} else if (!(gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm))) {
		return -1;
	}
	n = 0;
	if (sscanf(s, "%d:%d:%d%n", &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 3)
		return -1;
	s += n;
	if (*s == '.' && sscanf(s + 1, "%9[0-9]%n", frac, &n) == 1)
		s += 1 + n;
	if (*s)
		return -1;
	for (i = 0; i < 9; i++)
		sub = sub * 10 + (i < strlen(frac) ? frac[i] - '0' : 0);
	tm.tm_isdst = -1;
	t = gmt ? timegm(&tm) : mktime(&tm);
	*ns = (int64_t)t * 1000000000 + sub;
	return 0;
}

/*
 * A time option: clock time, or "SEC[.NNNNNNNNN]" seconds from the
 * clock's origin (the Unix epoch for our absolute clocks), as
 * babeltrace2's --begin/--end read them.
 */
int cli_parse_time(const char *s, int64_t first_ns, bool gmt, int64_t *ns)
{
	char *end;
	long long sec;

	if (strchr(s, ':'))
		return parse_clock_time(s, first_ns, gmt, ns);
	sec = strtoll(s, &end, 10);
	if (end == s)
		return -1;
	if (!*end) {
		*ns = sec * 1000000000LL;
		return 0;
	}
	if (*end == '.' && strlen(end + 1) <= 9) {
		int64_t sub = 0;
		size_t i, len = strlen(end + 1);

		for (i = 0; i < 9; i++) {
			char c = i < len ? end[1 + i] : '0';

			if (c < '0' || c > '9')
				return -1;
			sub = sub * 10 + (c - '0');
		}
		*ns = sec * 1000000000LL + sub;
		return 0;
	}
	return -1;
}

static bool event_selected(const struct view_opts *o, const struct rd_msg *m)
{
	unsigned int i;

	if (m->ns < o->begin || m->ns > o->end)
		return false;
	if (m->kind != RD_MSG_EVENT)
		return true;
	if (o->tid >= 0 && m->vtid != o->tid)
		return false;
	if (o->pid >= 0) {
		const struct rd_env *e = rd_metadata_env(
			rd_trace_metadata(rd_stream_trace(m->stream)), "vpid");

		if (!e || e->str || e->num != o->pid)
			return false;
	}
	for (i = 0; i < o->nr_globs; i++) {
		if (!fnmatch(o->globs[i], m->ec->name, 0))
			return true;
	}
	return o->nr_globs == 0;
}

/* babeltrace2's stderr warning for discarded events or packets. */
static void print_discarded(const struct rd_msg *m, const struct view_opts *o,
			    struct rd_out *err)
{
	const struct rd_trace *t = rd_stream_trace(m->stream);
	const uint8_t *u = rd_trace_metadata(t)->uuid;
	const char *what = m->kind == RD_MSG_DISCARDED_EVENTS ? "event" : "packet";
	char buf[128];

	rd_out_str(err, "WARNING: Tracer ");
	if (m->count == UINT64_MAX) {
		rd_out_str(err, "may have discarded ");
		rd_out_str(err, what);
		rd_out_str(err, "s");
	} else {
		rd_out_str(err, "discarded ");
		rd_out_u64(err, m->count);
		rd_out_char(err, ' ');
		rd_out_str(err, what);
		if (m->count != 1)
			rd_out_char(err, 's');
	}
	rd_out_str(err, " between [");
	rd_out_time(err, m->begin_ns, o->gmt);
	rd_out_str(err, "] and [");
	rd_out_time(err, m->end_ns, o->gmt);
	rd_out_str(err, "] in trace \"");
	rd_out_str(err, rd_trace_name(t));
	snprintf(buf, sizeof(buf),
		 "\" (UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x) ",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	rd_out_str(err, rd_trace_metadata(t)->has_uuid ? buf : "\" (no UUID) ");
	rd_out_str(err, "within stream \"");
	rd_out_str(err, rd_stream_path(m->stream));
	snprintf(buf, sizeof(buf), "\" (stream class ID: %" PRIu64 ", stream ID: %" PRIu64 ").\n",
		 rd_stream_class_id(m->stream), rd_stream_id(m->stream));
	rd_out_str(err, buf);
}

/*
 * print_stamp() when the time falls in the second converted last and
 * after a printed event: one room check, a local cursor.  false when
 * it does not apply.
 */
static bool print_stamp_cached(struct rd_out *out, int64_t ns, int64_t last, bool gmt)
{
	char *start = rd_out_room(out, 64), *q;
	uint64_t d;

	start[0] = '[';
	q = rd_fmt_time_cached(start + 1, ns, gmt);
	if (!q || last == INT64_MIN)
		return false;
	d = (uint64_t)ns - (uint64_t)last;
	memcpy(q, "] (+", 4);
	if (d < 1000000000) {
		memcpy(q + 4, "0.", 2);
		q += 6;
	} else {
		q = rd_fmt_u64(q + 4, d / 1000000000);
		*q++ = '.';
	}
	q = rd_fmt_nsec(q, (uint32_t)(d % 1000000000));
	memcpy(q, ") ", 2);
	out->len += q + 2 - start;
	return true;
}

/* "[time] (+delta) " */
static void print_stamp(struct rd_out *out, int64_t ns, int64_t *last, bool gmt)
{
	int64_t prev = *last;

	*last = ns;
	if (print_stamp_cached(out, ns, prev, gmt))
		return;
	rd_out_char(out, '[');
	rd_out_time(out, ns, gmt);
	rd_out_str(out, "] (");
	if (prev == INT64_MIN) {
		rd_out_str(out, "+?.?????????");
	} else {
		uint64_t d = (uint64_t)ns - (uint64_t)prev;

		rd_out_char(out, '+');
		rd_out_u64(out, d / 1000000000);
		rd_out_char(out, '.');
		rd_out_nsec(out, d % 1000000000);
	}
	rd_out_str(out, ") ");
}

int view_batch(struct rd_reader *r, struct view_opts *o)
{
	struct rd_out out, err;
	struct rd_msg m;
	int ret;

	rd_out_init(&out, stdout);
	rd_out_init(&err, stderr);
	while ((ret = rd_reader_next(r, &m)) > 0) {
		if (!o->times_set) {
			const char *bad = NULL;

			if (o->begin_s && cli_parse_time(o->begin_s, m.ns, o->gmt, &o->begin))
				bad = o->begin_s;
			else if (o->end_s && cli_parse_time(o->end_s, m.ns, o->gmt, &o->end))
				bad = o->end_s;
			if (bad) {
				cli_error("bad time '%s' (see 'ust view --help')", bad);
				ret = -3;
				break;
			}
			o->times_set = true;
		}
		if (m.ns > o->end)
			break;
		if (!event_selected(o, &m))
			continue;
		if (m.kind != RD_MSG_EVENT) {
			rd_out_flush(&out);
			print_discarded(&m, o, &err);
			rd_out_flush(&err);
			continue;
		}
		print_stamp(&out, m.ns, &o->last, o->gmt);
		if (rd_reader_print_event(r, &m, &out)) {
			ret = -1;
			break;
		}
	}
	if (rd_out_flush(&out) || fflush(stdout)) {
		cli_error("write error on standard output");
		ret = -2;
	}
	rd_out_release(&out);
	rd_out_release(&err);
	if (ret == -1)
		cli_error("%s", rd_reader_error(r));
	if (ret == -3)
		return UST_EXIT_USAGE;
	return ret < 0 ? UST_EXIT_FAILURE : 0;
}

static int view_parse(int argc, const char **argv, struct view_opts *o,
		      const char ***dirs, poptContext *pctx)
{
	poptContext ctx = poptGetContext("ust view", argc, argv, view_options, 0);
	int rc;

	*pctx = ctx;
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		const char *arg = poptGetOptArg(ctx);	/* owned by us */

		switch (rc) {
		case OPT_HELP:
			cli_view_help(stdout);
			free((void *)arg);
			return 1;
		case OPT_BEGIN: o->begin_s = arg; break;
		case OPT_END: o->end_s = arg; break;
		case OPT_EVENT:
			if (o->nr_globs == VIEW_MAX_GLOBS) {
				cli_error("too many -e patterns (at most %d)", VIEW_MAX_GLOBS);
				free((void *)arg);
				return -1;
			}
			o->globs[o->nr_globs++] = arg;
			break;
		case OPT_TID:
		case OPT_PID:
			if (parse_id(arg, rc == OPT_TID ? &o->tid : &o->pid)) {
				cli_error("bad %s '%s'", rc == OPT_TID ? "--tid" : "--pid", arg);
				free((void *)arg);
				return -1;
			}
			free((void *)arg);
			break;
		case OPT_GMT: o->gmt = true; break;
		case OPT_LIVE: o->live = true; break;
		}
	}
	if (rc < -1) {
		cli_bad_option(ctx, rc);
		return -1;
	}
	*dirs = cli_trace_dirs(ctx);
	return *dirs ? 0 : -1;
}

int cli_view_run(int argc, const char **argv)
{
	struct view_opts o = { .end = INT64_MAX, .begin = INT64_MIN, .tid = -1, .pid = -1,
			       .last = INT64_MIN };
	struct rd_reader *r;
	const char **dirs;
	poptContext ctx;
	char err[512];
	size_t n = 0;
	int ret;

	ret = view_parse(argc, argv, &o, &dirs, &ctx);
	if (ret) {
		ret = ret > 0 ? 0 : UST_EXIT_USAGE;
		goto out;
	}
	while (dirs[n])
		n++;
	if (n == 1 && strstr(dirs[0], "://")) {
		/* a relay (doc/relayd.md): only its live port can be read */
		if (o.live)
			ret = view_live_relay(dirs[0], &o);
		else {
			cli_error("'%s' is a relay: follow a live session with --live, or read the relay's output directory",
				  dirs[0]);
			ret = UST_EXIT_USAGE;
		}
		goto out;
	}
	if (o.live) {
		ret = view_live(dirs, n, &o);
		goto out;
	}
	if (rd_reader_open(&r, dirs, n, err, sizeof(err))) {
		cli_error("%s", err);
		ret = UST_EXIT_FAILURE;
		goto out;
	}
	ret = view_batch(r, &o);
	rd_reader_close(r);
out:
	free((void *)o.begin_s);
	free((void *)o.end_s);
	while (o.nr_globs)
		free((void *)o.globs[--o.nr_globs]);
	poptFreeContext(ctx);
	return ret;
}
