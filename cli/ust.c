/*
 * ust.c - the `ust` command: global options and dispatch to the
 * subcommands (one file each: record.c, ...).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <popt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "command.h"

/* A subcommand, as `ust --help` lists it (cli.h declares the functions). */
struct cli_command {
	const char *name;	/* as typed after `ust` */
	const char *summary;	/* one line for `ust --help` */
	cli_run_fn *run;
	cli_help_fn *help;
};

static const struct cli_command commands[] = {
	{ "record", "run a program with tracing on and collect its traces",
	  cli_record_run, cli_record_help },
	{ "view", "print the events of traces, merged by time",
	  cli_view_run, cli_view_help },
	{ "report", "event counts, losses, threads, CPU, syscalls, I/O, network, "
		    "block, scheduling, IRQs, memory, functions",
	  cli_report_run, cli_report_help },
	{ "export", "convert traces to chrome JSON, flame graph stacks or csv",
	  cli_export_run, cli_export_help },
	{ "list", "list the events of a running process or of a program",
	  cli_list_run, cli_list_help },
	{ "ctl", "enable or disable events of a running process, stop or start it",
	  cli_ctl_run, cli_ctl_help },
	{ "snapshot", "write a snapshot of a flight-recorder process's buffers",
	  cli_snapshot_run, cli_snapshot_help },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

enum ust_opt {
	OPT_HELP = 1,
	OPT_VERSION,
};

static const struct poptOption ust_options[] = {
	CLI_OPTION_HELP(OPT_HELP),
	CLI_OPTION_FLAG_SHORT("version", 'V', OPT_VERSION,
		"show the version"),
	POPT_TABLEEND
};

static const struct cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

static void print_help(poptContext ctx, FILE *out)
{
	size_t i;

	poptPrintHelp(ctx, out, 0);
	fputs("\nCommands:\n", out);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\nSee 'ust help COMMAND' for the options of a command.\n", out);
}

static int unknown_command(const char *name)
{
	cli_error("unknown command '%s' (see 'ust --help')", name);
	return UST_EXIT_USAGE;
}

/* `ust help [COMMAND]` */
static int help_command(poptContext ctx, const char **args)
{
	const struct cli_command *cmd;

	if (!args[1]) {
		print_help(ctx, stdout);
		return 0;
	}
	cmd = find_command(args[1]);
	if (!cmd)
		return unknown_command(args[1]);
	cmd->help(stdout);
	return 0;
}

/* Run the command named by args[0], with the words after it. */
static int dispatch(poptContext ctx, const char **args)
{
	static char prog[32];
	const struct cli_command *cmd;
	int argc = 0;

	if (!strcmp(args[0], "help"))
		return help_command(ctx, args);
	cmd = find_command(args[0]);
	if (!cmd)
		return unknown_command(args[0]);
	while (args[argc])
		argc++;
	snprintf(prog, sizeof(prog), "ust %s", cmd->name);
	cli_prog = prog;
	return cmd->run(argc, args);
}

int main(int argc, const char **argv)
{
	const char **args;
	poptContext ctx;
	int rc, ret;

	argv[0] = "ust";
	ctx = poptGetContext("ust", argc, argv, ust_options,
			     POPT_CONTEXT_POSIXMEHARDER);
	poptSetOtherOptionHelp(ctx, "[OPTION...] COMMAND [ARGS]");
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		if (rc == OPT_HELP) {
			print_help(ctx, stdout);
			ret = 0;
			goto out;
		}
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		ret = 0;
		goto out;
	}
	if (rc < -1) {
		cli_bad_option(ctx, rc);
		ret = UST_EXIT_USAGE;
		goto out;
	}
	args = poptGetArgs(ctx);
	if (!args || !args[0]) {
		print_help(ctx, stderr);
		ret = UST_EXIT_USAGE;
		goto out;
	}
	ret = dispatch(ctx, args);
out:
	poptFreeContext(ctx);
	return ret;
}
