/*
 * record.c - `ust record`: run a command with tracing on and report the
 * traces it wrote.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * `ust record` does no tracing itself.  It checks the options, prepares
 * the output directory, hands the settings to CMD in the UST_*
 * environment variables that libust reads at start, runs CMD as a child
 * subreaper (supervise.c), and prints the summaries that the consumers
 * left in a hidden directory (summary.c).  doc/ust-record.md has the
 * user's view.
 */
#include <errno.h>
#include <inttypes.h>
#include <popt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "abi/env.h"
#include "abi/shm.h"
#include "common/clock.h"
#include "common/context.h"
#include "common/parse.h"
#include "cli.h"
#include "command.h"
#include "kernel.h"
#include "outdir.h"
#include "record-relay.h"
#include "record-trigger.h"
#include "rescue.h"
#include "selection.h"
#include "summary.h"
#include "supervise.h"

#define RECORD_USAGE		"[OPTION...] -- CMD [ARGS]"
/* How long CMD's consumers get to finish after CMD exits. */
#define RECORD_CONSUMER_TIMEOUT_S 60
/* Exit statuses for a CMD that cannot be started, as shells use them. */
#define EXIT_CANNOT_EXEC	126
#define EXIT_NOT_FOUND		127

enum record_opt {
	OPT_OUTPUT = 1,
	OPT_EVENT,
	OPT_OVERWRITE,
	OPT_FLIGHT,
	OPT_BLOCKING,
	OPT_SUBBUF_SIZE,
	OPT_SUBBUF_COUNT,
	OPT_READ_TIMER,
	OPT_CONTEXT,
	OPT_BUFFERS,
	OPT_FUNCTIONS,
	OPT_TIME_FILTER,
	OPT_DEPTH,
	OPT_FILTER_FUNC,
	OPT_EXCLUDE_FUNC,
	OPT_KERNEL,
	OPT_KERNEL_PID,
	OPT_KERNEL_ALL,
	OPT_TRIGGER,
	OPT_TRIGGER_HOLDOFF,
	OPT_FILTER,
	OPT_LOGLEVEL,
	OPT_LOGLEVEL_ONLY,
	OPT_RATE_LIMIT,
	OPT_RELAYD,
	OPT_LIVE,
	OPT_SESSION,
	OPT_HELP,
};

static const struct poptOption record_options[] = {
	CLI_OPTION_ARG_SHORT("output", 'o', OPT_OUTPUT,
		"write traces under DIR "
		"(default: $UST_OUTPUT, else " UST_DEFAULT_OUTPUT ")", "DIR"),
	CLI_OPTION_ARG_SHORT("event", 'e', OPT_EVENT,
		"trace the events matching PATTERN, a glob on 'facility:event'; "
		"a leading '-' excludes; repeat for more "
		"(default: '*', every event)", "PATTERN"),
	CLI_OPTION_ARG("filter", OPT_FILTER,
		"record only the events of the -e before it for which EXPR, in "
		"LTTng's filter syntax, is true (e.g. 'count > 10 && "
		"text == \"a*\"'); decided in the program (doc/filters.md)", "EXPR"),
	CLI_OPTION_ARG("loglevel", OPT_LOGLEVEL,
		"only the events of the -e before it of this level or a more "
		"severe one (TRACE_EMERG ... TRACE_DEBUG, or 0 to 14)", "LEVEL"),
	CLI_OPTION_ARG("loglevel-only", OPT_LOGLEVEL_ONLY,
		"only the events of the -e before it of exactly this level", "LEVEL"),
	CLI_OPTION_ARG("rate-limit", OPT_RATE_LIMIT,
		"record at most N events a second of each event matching PATTERN, "
		"per thread; the others are counted; repeatable", "PATTERN=N/s"),
	CLI_OPTION_FLAG("overwrite", OPT_OVERWRITE,
		"flight recorder: when the buffers are full, overwrite the oldest "
		"events instead of dropping new ones"),
	CLI_OPTION_FLAG("flight-recorder", OPT_FLIGHT,
		"overwrite and keep the events in memory only; `ust snapshot PID`, "
		"ust_trigger() or a crash writes them out (doc/flight-recorder.md)"),
	CLI_OPTION_FLAG("blocking", OPT_BLOCKING,
		"when the buffers are full, make the program wait for the consumer "
		"instead of dropping events (the default with --functions, unless "
		"--overwrite)"),
	CLI_OPTION_ARG("subbuf-size", OPT_SUBBUF_SIZE,
		"bytes per sub-buffer (one packet): a power of two from 4096 "
		"to 1G; k, M and G suffixes allowed", "SIZE"),
	CLI_OPTION_ARG("subbuf-count", OPT_SUBBUF_COUNT,
		"sub-buffers per CPU buffer: a power of two from 2 to 65536", "N"),
	CLI_OPTION_ARG("read-timer", OPT_READ_TIMER,
		"how often the consumer reads the buffers, in microseconds, "
		"from 100 to 10000000", "USEC"),
	CLI_OPTION_ARG("context", OPT_CONTEXT,
		"what each event records besides its fields, comma-separated: "
		"vtid (the thread id, the default; 'tid' too), vpid, procname, "
		"ip, pthread_id; or 'none' (LTTng's context names and types)", "LIST"),
	CLI_OPTION_ARG("buffers", OPT_BUFFERS,
		"per-cpu (the default) or per-thread: one buffer per thread, "
		"written without atomic operations, the default with --functions "
		"(not with --flight-recorder or --relayd)", "KIND"),
	CLI_OPTION_OPTIONAL_ARG("functions", OPT_FUNCTIONS,
		"trace every function entry and exit of a program built with "
		"-finstrument-functions (preloads libust-cyg-profile.so); LAYOUT: "
		"compact (the default: 8 and 4 bytes), full (entry {addr, call_site}), "
		"lttng-fast or lttng (LTTng-UST's cyg-profile events, with vtid, vpid, "
		"procname and ip)", "LAYOUT"),
	CLI_OPTION_ARG("time-filter", OPT_TIME_FILTER,
		"with --functions: only the calls lasting at least DUR (e.g. 1us)", "DUR"),
	CLI_OPTION_ARG("depth", OPT_DEPTH,
		"with --functions: only the calls nested at most N deep", "N"),
	CLI_OPTION_ARG("filter-func", OPT_FILTER_FUNC,
		"with --functions: only the functions named by GLOB and the calls "
		"they make; repeatable", "GLOB"),
	CLI_OPTION_ARG("exclude-func", OPT_EXCLUDE_FUNC,
		"with --functions: not the functions named by GLOB nor the calls "
		"they make; repeatable", "GLOB"),
	CLI_OPTION_OPTIONAL_ARG_SHORT("kernel", 'k', OPT_KERNEL,
		"also record kernel events (needs root) into DIR/kernel: "
		"scheduling, system calls and interrupts, or the tracepoints "
		"of LIST, comma-separated globs on 'system:event' "
		"('default' is the default set)", "LIST"),
	CLI_OPTION_FLAG("kernel-pid", OPT_KERNEL_PID,
		"kernel events of CMD's process tree only, with the scheduling "
		"context (the default); implies --kernel"),
	CLI_OPTION_FLAG("kernel-all", OPT_KERNEL_ALL,
		"kernel events of the whole system; implies --kernel"),
	CLI_OPTION_ARG("trigger", OPT_TRIGGER,
		"with --flight-recorder: a snapshot when an event matching "
		"'EVENT[ if FILTER]' is recorded: a user event (app:error) or a "
		"kernel one (\"syscall_exit_* if ret < 0\"), LTTng's filter "
		"syntax (doc/kernel-analyses.md)", "SPEC"),
	CLI_OPTION_ARG("trigger-holdoff", OPT_TRIGGER_HOLDOFF,
		"at most one trigger snapshot per SEC seconds (default 1)", "SEC"),
	CLI_OPTION_ARG("relayd", OPT_RELAYD,
		"stream the traces to lttng-relayd at URL, "
		"net://HOST[:CTRL_PORT[:DATA_PORT]][/PATH] or net6://...; "
		"DIR keeps what the relay cannot take (doc/relayd.md)", "URL"),
	CLI_OPTION_OPTIONAL_ARG("live", OPT_LIVE,
		"with --relayd: a live session, followed with `ust view --live "
		"net://...` or babeltrace2's lttng-live source; TIMER is how late "
		"a viewer may see events (default 1s; us, ms or s)", "TIMER"),
	CLI_OPTION_ARG("session", OPT_SESSION,
		"with --relayd: the relay session's name (default: CMD-PID)", "NAME"),
	CLI_OPTION_HELP(OPT_HELP),
	POPT_TABLEEND
};

/* What the command line asked for; a zero number means "not given". */
struct record_opts {
	char *output;		/* -o, NULL when not given */
	struct cli_selection sel;	/* -e, --filter, --loglevel, --rate-limit */
	bool overwrite;
	bool flight;		/* --flight-recorder (implies overwrite) */
	bool blocking;		/* --blocking */
	bool functions;		/* --functions */
	struct cli_func_opts func;	/* its layout and the hooks' filters */
	uint64_t subbuf_size;
	uint64_t subbuf_count;
	uint64_t read_timer_us;
	char *context;		/* --context's list, NULL if not given */
	const char *buffers;	/* --buffers: UST_BUFFERS_NAME_*, NULL if not given */
	bool kernel;		/* --kernel */
	bool kernel_all;	/* --kernel-all: not only CMD's process tree */
	char *trigger;		/* --trigger SPEC */
	bool trigger_user;	/* on a user event (consumers), else kernel */
	const char *kernel_trigger;	/* trigger when a kernel one */
	char *trigger_holdoff;	/* --trigger-holdoff SEC */
	char *kernel_list;	/* its LIST, NULL for the default set */
	char **cmd;		/* CMD and its arguments, NULL-terminated */
	struct record_relay relay;	/* --relayd, --live, --session */
};

void cli_record_help(FILE *out)
{
	cli_print_help(out, "ust record", record_options, RECORD_USAGE, "\n"
"Run CMD with tracing on, wait for it and for the consumers that write its\n"
"trace, then print what was written.  Each traced process writes a CTF trace\n"
"DIR/<process>-<pid>-<date>-<time>; read them with 'babeltrace2 DIR'.\n"
"\n"
"CMD gets the settings in UST_TRACE, UST_OUTPUT, UST_MODE, UST_SUBBUF_SIZE,\n"
"UST_SUBBUF_COUNT, UST_READ_TIMER_US, UST_CONTEXT and UST_SESSION_CLOCK; a\n"
"program that links libust (or preloads it) reads them when it starts.\n"
"\n"
"With --kernel, ust-kerneld records kernel events into DIR/kernel on the\n"
"same clock, through a private ftrace instance: those of CMD's process tree\n"
"(and who it switches with), or of the whole system with --kernel-all.\n"
"Without the permission it says what is missing and the user-space trace\n"
"is recorded alone.\n"
"\n"
"With --relayd, every trace goes to one lttng-relayd session instead of\n"
"DIR (which keeps what the relay cannot take: see the summary); the relay\n"
"stores it under HOST/SESSION-DATE-TIME.  $UST_OUTPUT set to a URL means\n"
"the same.\n"
"\n"
"Without -o, each user writes in a folder of its own, /tmp/ltt-usertrace/UID\n"
"(or, when another user made that impossible, /tmp/ltt-usertrace-UID).\n"
"\n"
"Exit status: CMD's; 128+N when CMD was killed by signal N; 126 or 127 when\n"
"CMD cannot be run; 1 when the output directory is not writable, or when CMD\n"
"exited 0 but its tracing failed (see the error lines); 2 for a bad command\n"
"line.\n");
}

static int check_subbuf_size(const char *arg, uint64_t *out)
{
	uint64_t v;
	int ret;

	ret = ust__parse_size(arg, &v);
	if (!ret && v > UST_SUBBUF_MAX) {
		cli_error("invalid --subbuf-size '%s': must be at most 1G", arg);
		return -1;
	}
	if (ret || !ust__is_pow2(v) || v < UST_SUBBUF_MIN) {
		cli_error("invalid --subbuf-size '%s': must be a power of two >= %u",
			  arg, UST_SUBBUF_MIN);
		return -1;
	}
	*out = v;
	return 0;
}

static int check_subbuf_count(const char *arg, uint64_t *out)
{
	uint64_t v;
	int ret;

	ret = ust__parse_u64(arg, &v);
	if (!ret && v > UST_SUBBUF_COUNT_MAX) {
		cli_error("invalid --subbuf-count '%s': must be at most %u",
			  arg, UST_SUBBUF_COUNT_MAX);
		return -1;
	}
	if (ret || !ust__is_pow2(v) || v < 2) {
		cli_error("invalid --subbuf-count '%s': must be a power of two >= 2",
			  arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int check_read_timer(const char *arg, uint64_t *out)
{
	uint64_t v;

	if (ust__parse_u64(arg, &v) || v < UST_READ_TIMER_MIN_US ||
	    v > UST_READ_TIMER_MAX_US) {
		cli_error("invalid --read-timer '%s': must be from %u to %u microseconds",
			  arg, UST_READ_TIMER_MIN_US, UST_READ_TIMER_MAX_US);
		return -1;
	}
	*out = v;
	return 0;
}

static int check_output(struct record_opts *o, const char *arg)
{
	if (!*arg) {
		cli_error("invalid --output '': empty path");
		return -1;
	}
	return cli_keep_copy(&o->output, arg);
}

/*
 * The events that describe the loaded objects, which libust records in
 * a session with the ip context (libust/statedump.c).
 */
static const char *const ip_patterns[] = {
	"lttng_ust_statedump:*", "lttng_ust_lib:*", NULL,
};

/* --context asked for the ip (the list was checked already). */
static bool context_has_ip(const struct record_opts *o)
{
	char why[96];
	uint32_t set = 0;

	return o->context && !ust__context_parse(o->context, &set, why, sizeof(why)) &&
	       (set & UST_CTX_IP);
}

/* --context=LIST, checked here and passed on as UST_CONTEXT. */
static int check_context(struct record_opts *o, const char *arg)
{
	char why[96];
	uint32_t set;

	if (ust__context_parse(arg, &set, why, sizeof(why))) {
		cli_error("invalid --context '%s': %s (contexts: "
			  UST_CONTEXT_NAMES_HELP ")", arg, why);
		return -1;
	}
	return cli_keep_copy(&o->context, arg);
}

/* --kernel[=LIST]; the tracepoints are checked by ust-kerneld. */
static int check_kernel(struct record_opts *o, const char *arg)
{
	o->kernel = true;
	free(o->kernel_list);
	o->kernel_list = NULL;
	if (!arg)
		return 0;
	if (!*arg || strspn(arg, ",") == strlen(arg)) {
		cli_error("invalid --kernel '%s': an empty list", arg);
		return -1;
	}
	return cli_keep_copy(&o->kernel_list, arg);
}

/* --buffers=KIND. */
static int check_buffers(struct record_opts *o, const char *arg)
{
	if (!strcmp(arg, UST_BUFFERS_NAME_PER_CPU))
		o->buffers = UST_BUFFERS_NAME_PER_CPU;
	else if (!strcmp(arg, UST_BUFFERS_NAME_PER_THREAD))
		o->buffers = UST_BUFFERS_NAME_PER_THREAD;
	else {
		cli_error("invalid --buffers '%s': must be '" UST_BUFFERS_NAME_PER_CPU
			  "' or '" UST_BUFFERS_NAME_PER_THREAD "'", arg);
		return -1;
	}
	return 0;
}

/* Apply option `opt` with argument `arg`.  Returns 0 or -1 (reported). */
static int apply_option(struct record_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_OUTPUT:
		return check_output(o, arg);
	case OPT_EVENT:
		return cli_sel_event(&o->sel, arg);
	case OPT_FILTER:
		return cli_sel_filter(&o->sel, arg);
	case OPT_LOGLEVEL:
	case OPT_LOGLEVEL_ONLY:
		return cli_sel_loglevel(&o->sel, arg, opt == OPT_LOGLEVEL_ONLY);
	case OPT_RATE_LIMIT:
		return cli_sel_rate_limit(&o->sel, arg);
	case OPT_OVERWRITE:
		o->overwrite = true;
		return 0;
	case OPT_FLIGHT:
		o->overwrite = o->flight = true;
		return 0;
	case OPT_FUNCTIONS:
		o->functions = true;
		return cli_functions_option(&o->func, CLI_FUNC_LAYOUT, arg);
	case OPT_TIME_FILTER:
		return cli_functions_option(&o->func, CLI_FUNC_TIME, arg);
	case OPT_DEPTH:
		return cli_functions_option(&o->func, CLI_FUNC_DEPTH, arg);
	case OPT_FILTER_FUNC:
		return cli_functions_option(&o->func, CLI_FUNC_ONLY, arg);
	case OPT_EXCLUDE_FUNC:
		return cli_functions_option(&o->func, CLI_FUNC_EXCLUDE, arg);
	case OPT_BLOCKING:
		o->blocking = true;
		return 0;
	case OPT_SUBBUF_SIZE:
		return check_subbuf_size(arg, &o->subbuf_size);
	case OPT_SUBBUF_COUNT:
		return check_subbuf_count(arg, &o->subbuf_count);
	case OPT_READ_TIMER:
		return check_read_timer(arg, &o->read_timer_us);
	case OPT_CONTEXT:
		return check_context(o, arg);
	case OPT_BUFFERS:
		return check_buffers(o, arg);
	case OPT_KERNEL:
		return check_kernel(o, arg);
	case OPT_TRIGGER:
		return cli_record_trigger(arg, &o->trigger, &o->trigger_user);
	case OPT_TRIGGER_HOLDOFF:
		return cli_record_holdoff(arg, &o->trigger_holdoff);
	case OPT_KERNEL_PID:
	case OPT_KERNEL_ALL:
		o->kernel = true;
		o->kernel_all = opt == OPT_KERNEL_ALL;
		return 0;
	case OPT_RELAYD:
		return cli_relay_option_url(&o->relay, arg);
	case OPT_LIVE:
		return cli_relay_option_live(&o->relay, arg);
	case OPT_SESSION:
		return cli_relay_option_session(&o->relay, arg);
	default:
		return -1;
	}
}

/* Copy CMD and its arguments out of the popt context. */
static int take_cmd(struct record_opts *o, const char **args)
{
	size_t i, n = 0;

	while (args && args[n])
		n++;
	if (!n) {
		cli_error("missing command to trace (usage: ust record [OPTIONS] -- CMD [ARGS])");
		return -1;
	}
	o->cmd = calloc(n + 1, sizeof(*o->cmd));
	if (!o->cmd)
		goto oom;
	for (i = 0; i < n; i++) {
		o->cmd[i] = strdup(args[i]);
		if (!o->cmd[i])
			goto oom;
	}
	return 0;
oom:
	cli_error("out of memory");
	return -1;
}

enum parse_result { PARSE_OK, PARSE_HELP, PARSE_ERROR };

/*
 * Parse the command line.  Options end at "--" or at the first word that
 * is not an option (POSIXMEHARDER), so CMD's own options stay CMD's.
 */
static enum parse_result record_parse(int argc, const char **argv,
				      struct record_opts *o)
{
	enum parse_result res = PARSE_OK;
	poptContext ctx;
	char *arg;
	int rc = -1;
	size_t i;

	ctx = poptGetContext("ust", argc, argv, record_options,
			     POPT_CONTEXT_POSIXMEHARDER);
	while (res == PARSE_OK && (rc = poptGetNextOpt(ctx)) > 0) {
		if (rc == OPT_HELP) {
			res = PARSE_HELP;
			break;
		}
		arg = poptGetOptArg(ctx);
		if (apply_option(o, rc, arg))
			res = PARSE_ERROR;
		free(arg);
	}
	if (res == PARSE_OK && rc < -1) {
		cli_bad_option(ctx, rc);
		res = PARSE_ERROR;
	}
	if (res == PARSE_OK && take_cmd(o, poptGetArgs(ctx)))
		res = PARSE_ERROR;
	if (res == PARSE_OK && cli_relay_check(&o->relay, o->output != NULL))
		res = PARSE_ERROR;
	if (res == PARSE_OK && o->buffers && !strcmp(o->buffers, UST_BUFFERS_NAME_PER_THREAD) &&
	    (o->flight || o->relay.url)) {
		cli_error("--buffers=per-thread cannot be combined with %s: "
			  "it reads per-CPU buffers only",
			  o->flight ? "--flight-recorder" : "--relayd");
		res = PARSE_ERROR;
	}
	if (res == PARSE_OK && cli_functions_filtered(&o->func) &&
	    (!o->functions || o->flight || o->relay.url ||
	     (o->buffers && strcmp(o->buffers, UST_BUFFERS_NAME_PER_THREAD)))) {
		cli_error("--time-filter, --depth, --filter-func and --exclude-func "
			  "need --functions with per-thread buffers");
		res = PARSE_ERROR;
	}
	if (res == PARSE_OK && o->blocking && o->overwrite) {
		cli_error("--blocking and %s cannot be combined: "
			  "an overwriting buffer is never full",
			  o->flight ? "--flight-recorder" : "--overwrite");
		res = PARSE_ERROR;
	}
	if (res == PARSE_OK && cli_record_trigger_check(o->trigger, o->trigger_user, o->flight,
							 o->kernel))
		res = PARSE_ERROR;
	if (res == PARSE_OK && o->trigger && !o->trigger_user)
		o->kernel_trigger = o->trigger;
	/* -e narrowed the events: --functions still needs its own. */
	for (i = 0; res == PARSE_OK && o->functions && o->sel.nr &&
		    cli_functions_patterns[i]; i++) {
		if (cli_sel_event(&o->sel, cli_functions_patterns[i]))
			res = PARSE_ERROR;
	}
	/* The same for the ip context: the objects the addresses are in. */
	for (i = 0; res == PARSE_OK && o->sel.nr && context_has_ip(o) &&
		    ip_patterns[i]; i++) {
		if (cli_sel_event(&o->sel, ip_patterns[i]))
			res = PARSE_ERROR;
	}
	/* Filters compile now: a bad expression starts nothing. */
	if (res == PARSE_OK && cli_sel_compile(&o->sel, o->cmd[0]))
		res = PARSE_ERROR;
	poptFreeContext(ctx);
	return res;
}

static void record_opts_release(struct record_opts *o)
{
	size_t i;

	for (i = 0; o->cmd && o->cmd[i]; i++)
		free(o->cmd[i]);
	free(o->cmd);
	cli_sel_release(&o->sel);
	free(o->output);
	free(o->kernel_list);
	cli_functions_release(&o->func);
	free(o->trigger);
	free(o->trigger_holdoff);
	cli_relay_release(&o->relay);
	free(o->context);
}

/*
 * -o, else $UST_OUTPUT when set, not empty and not a relay URL, else the
 * default.  With --relayd it keeps what the relay cannot take.
 */
static const char *output_dir(const struct record_opts *o)
{
	const char *env = getenv(UST_ENV_OUTPUT);

	if (o->output)
		return o->output;
	return env && *env && !strstr(env, "://") ? env : UST_DEFAULT_OUTPUT;
}

/*
 * Open the output directory (cli/outdir.h: created if needed, by a walk
 * that follows no link and accepts no other user's directory in a
 * world-writable one; the default is this user's own folder), and check
 * that we can write in it, before anything runs.  `out` gets it; its
 * physical path is what CMD sees, so that a CMD changing directory still
 * writes there, and what CMD's consumers walk again.
 */
static int prepare_output(const char *dir, struct ust_safe_dir *out)
{
	char note[PATH_MAX + 256], err[2 * PATH_MAX];
	int ret;

	ret = cli_outdir_prepare(dir, out, note, sizeof(note), err, sizeof(err));
	if (ret) {
		cli_error("cannot write to output directory '%s': %s", dir, err);
		return -1;
	}
	if (note[0])
		cli_error("%s", note);
	return 0;
}

static int setenv_u64(const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return setenv(name, buf, 1);
}

/*
 * Measure the session clock once, so that every traced process (and, in
 * time, the kernel trace) shares one CTF clock block.  Without it each
 * trace measures its own offset: still readable, merged less exactly.
 */
static void set_session_clock(void)
{
	struct ust_clock clk;
	char buf[256];
	int ret;

	ret = ust__clock_measure(ust__clock_detect_kind(), &clk);
	if (!ret && ust__clock_format(&clk, buf, sizeof(buf)) < 0)
		ret = -EINVAL;
	if (!ret && setenv(UST_ENV_SESSION_CLOCK, buf, 1))
		ret = -errno;
	if (ret)
		cli_error("cannot measure the session clock: %s; each trace will measure its own",
			  strerror(-ret));
}

/* UST_MODE: function tracing blocks rather than loses, unless --overwrite. */
static const char *buffer_mode(const struct record_opts *o)
{
	if (o->flight)
		return UST_MODE_NAME_FLIGHT;
	if (o->overwrite)
		return UST_MODE_NAME_OVERWRITE;
	return o->blocking || o->functions ? UST_MODE_NAME_BLOCK :
					     UST_MODE_NAME_DISCARD;
}

/*
 * UST_BUFFERS: --buffers, else per-thread for function tracing (where it
 * is allowed), else NULL (our environment's, or libust's default).
 */
static const char *buffer_kind(const struct record_opts *o)
{
	if (o->buffers)
		return o->buffers;
	if (o->functions && !o->flight && !o->relay.url)
		return UST_BUFFERS_NAME_PER_THREAD;
	return NULL;
}

/*
 * The settings for CMD.  Buffer settings not given on the command line
 * are left as they are in our environment.
 */
static int set_environment(const struct record_opts *o, const char *outdir,
			   const char *sumdir)
{
	char *trace = cli_sel_trace(&o->sel);
	int ret;

	if (o->functions && (cli_functions_preload() || cli_functions_env(&o->func))) {
		free(trace);
		return -1;
	}
	ret = !trace || setenv(UST_ENV_TRACE, trace, 1) ||
	      (o->sel.rates && setenv(UST_ENV_RATE_LIMIT, o->sel.rates, 1));
	free(trace);
	if (ret ||
	    setenv(UST_ENV_OUTPUT, outdir, 1) ||
	    setenv(UST_ENV_MODE, buffer_mode(o), 1) ||
	    setenv(UST_ENV_SUMMARY_DIR, sumdir, 1) ||
	    (o->subbuf_size &&
	     setenv_u64(UST_ENV_SUBBUF_SIZE, o->subbuf_size)) ||
	    (o->subbuf_count &&
	     setenv_u64(UST_ENV_SUBBUF_COUNT, o->subbuf_count)) ||
	    (o->read_timer_us &&
	     setenv_u64(UST_ENV_READ_TIMER, o->read_timer_us)) ||
	    (o->context && setenv(UST_ENV_CONTEXT, o->context, 1)) ||
	    (buffer_kind(o) && setenv(UST_ENV_BUFFERS, buffer_kind(o), 1)) ||
	    (o->trigger_user && setenv(UST_ENV_TRIGGER, o->trigger, 1)) ||
	    (o->trigger_user && o->trigger_holdoff &&
	     setenv(UST_ENV_TRIGGER_HOLDOFF, o->trigger_holdoff, 1))) {
		cli_error("cannot set the environment: %s", strerror(errno));
		return -1;
	}
	set_session_clock();
	return 0;
}

/* The exit status of a shell that ran CMD. */
static int exit_status_of(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Read and print what the consumers reported.  Returns whether tracing
 * failed somewhere (a consumer could not start, or not write all).
 */
static bool report(const struct record_opts *o, const char *sumdir,
		   const struct cli_rescue *rescue, bool running)
{
	struct ust_summary sum;
	bool failed;
	int ret;

	ret = cli_summary_read(sumdir, &sum);
	if (ret)
		cli_error("cannot read the trace summaries in '%s': %s",
			  sumdir, strerror(-ret));
	cli_rescue_report(rescue, &sum);
	cli_summary_print(&sum, stderr, base_name(o->cmd[0]), running,
			  !o->overwrite);
	failed = ret || cli_summary_failed(&sum);
	cli_summary_release(&sum);
	return failed;
}

/* CMD runs: the kernel bridge follows its process tree. */
static void kernel_spawned(pid_t cmd, void *arg)
{
	cli_kernel_root(arg, cmd);
}

static int record_session(const struct record_opts *o)
{
	enum cli_kernel_start kernel = UST_KERNEL_UNAVAILABLE;
	struct cli_kernel k = { .pid = -1, .fd = -1 };
	struct cli_supervise_hooks hooks = { .fd = -1 };
	struct cli_rescue rescue = { .ino = -1 };
	struct ust_safe_dir out;
	const char *outdir;
	char *sumdir = NULL;
	int ret, status, left, streaming = 0;
	bool failed;

	if (prepare_output(output_dir(o), &out))
		return UST_EXIT_FAILURE;
	outdir = out.path;
	ret = cli_summary_dir_create(&out, &sumdir);
	if (ret) {
		cli_error("cannot write to output directory '%s': %s",
			  outdir, strerror(-ret));
		ret = UST_EXIT_FAILURE;
		goto out;
	}
	if (set_environment(o, outdir, sumdir) ||
	    (streaming = cli_relay_setup(&o->relay, outdir, o->cmd[0])) < 0) {
		ret = UST_EXIT_FAILURE;
		goto remove_sumdir;
	}
	if (o->kernel) {
		struct cli_kernel_opts ko = { o->kernel_list, !o->kernel_all, o->flight,
					      o->kernel_trigger, o->trigger_holdoff };

		kernel = cli_kernel_start(outdir, &ko, &k);
	}
	if (kernel == UST_KERNEL_BAD_LIST) {
		ret = UST_EXIT_USAGE;
		goto remove_sumdir;
	}
	if (kernel == UST_KERNEL_RUNNING && !o->kernel_all) {
		hooks.spawned = kernel_spawned;
		hooks.spawned_arg = &k;
	}
	/* Without inotify, dead consumers are only reported, not replaced. */
	if (cli_rescue_init(&rescue, sumdir, outdir) == 0)
		cli_rescue_hooks(&rescue, &hooks);
	ret = cli_supervise(o->cmd, RECORD_CONSUMER_TIMEOUT_S, &hooks, &status, &left);
	if (kernel == UST_KERNEL_RUNNING)
		cli_kernel_stop(&k);
	if (ret) {
		cli_error("cannot run '%s': %s", o->cmd[0], strerror(-ret));
		ret = ret == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
		goto remove_sumdir;
	}
	/* Consumers not our children (yet) are waited for by their summary. */
	if (!left && (left = cli_rescue_wait_begun(&rescue, RECORD_CONSUMER_TIMEOUT_S)))
		cli_error("gave up waiting for %d consumer%s after %d s; traces may be incomplete",
			  left, left == 1 ? "" : "s", RECORD_CONSUMER_TIMEOUT_S);
	failed = report(o, sumdir, &rescue, left > 0);
	ret = exit_status_of(status);
	/* CMD's status, unless it succeeded and its tracing failed. */
	if (!ret && (failed || left > 0))
		ret = UST_EXIT_FAILURE;
remove_sumdir:
	cli_rescue_release(&rescue);
	cli_summary_dir_remove(sumdir);
	free(sumdir);
out:
	ust__safe_dir_close(&out);
	return ret;
}

int cli_record_run(int argc, const char **argv)
{
	struct record_opts o = { 0 };
	int ret;

	switch (record_parse(argc, argv, &o)) {
	case PARSE_HELP:
		cli_record_help(stdout);
		ret = 0;
		break;
	case PARSE_ERROR:
		ret = UST_EXIT_USAGE;
		break;
	default:
		ret = record_session(&o);
		break;
	}
	record_opts_release(&o);
	return ret;
}
