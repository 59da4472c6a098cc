/*
 * snapshot.c - `ust snapshot PID [-o DIR]`: ask the consumer of a running
 * flight-recorder process for a snapshot of its buffers, and print the
 * snapshot's directory.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The request goes through the shared memory header's request block
 * (abi/shm.h, struct ust_flight, which has the protocol): claim
 * it, fill it, freeze the flight channel, publish; the consumer answers
 * at its next tick (doc/flight-recorder.md).  The wait is bounded.
 */
#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "command.h"
#include "common/clock.h"
#include "abi/flight.h"
#include "common/safepath.h"
#include "common/parse.h"
#include "shm/map.h"

#define SNAPSHOT_TIMEOUT_S	10
#define SNAPSHOT_POLL_NS	1000000		/* 1 ms */

struct snapshot_opts {
	char *output;
	char *reason;
	int timeout;
};

static const char snapshot_usage[] = "[OPTION...] PID";

static struct poptOption *snapshot_table(struct snapshot_opts *o)
{
	static struct poptOption table[5];
	const struct poptOption t[] = {
		{ "output", 'o', POPT_ARG_STRING, &o->output, 0,
		  "create the snapshot directory in DIR (default: next to the "
		  "trace directory)", "DIR" },
		{ "reason", 'r', POPT_ARG_STRING, &o->reason, 0,
		  "word in the snapshot's name (default: manual)", "TEXT" },
		{ "timeout", 0, POPT_ARG_INT, &o->timeout, 0,
		  "give up after SECONDS without an answer (default 10)", "SECONDS" },
		CLI_OPTION_HELP('h'),
		POPT_TABLEEND
	};

	memcpy(table, t, sizeof(t));
	return table;
}

void cli_snapshot_help(FILE *out)
{
	struct snapshot_opts o = { 0 };

	cli_print_help(out, "ust snapshot", snapshot_table(&o), snapshot_usage,
		       "\nWrites a snapshot of the buffers of process PID, which traces in\n"
		       "flight-recorder mode (`ust record --flight-recorder`, or "
		       "UST_MODE=flight),\n"
		       "into a new trace directory <trace>-snapshot-<n>-<reason>, and prints\n"
		       "its path.  Needs the right to ptrace PID.\n");
}

static void sleep_poll(void)
{
	struct timespec pause = { 0, SNAPSHOT_POLL_NS };

	nanosleep(&pause, NULL);
}

static uint64_t deadline_after(int seconds)
{
	return ust__clock_read(UST_CLOCK_MONOTONIC) + (uint64_t)seconds * 1000000000ull;
}

static bool past(uint64_t deadline)
{
	return ust__clock_read(UST_CLOCK_MONOTONIC) > deadline;
}

/* Claim the request block; waits while another snapshot is pending. */
static int request_claim(struct ust_flight *f, uint64_t deadline)
{
	while (!ust__flight_claim(f)) {
		if (past(deadline))
			return -ETIMEDOUT;
		sleep_poll();
	}
	return 0;
}

/*
 * Wait for the consumer to count our request done.  On timeout, take the
 * request back if the consumer has not begun it, so the process is not
 * left frozen (-ETIMEDOUT); once it is being served, it is the
 * consumer's to finish (-EINPROGRESS).
 */
static int request_wait(struct ust_flight *f, uint32_t done, uint64_t deadline)
{
	/* I10, acquire: pairs with the consumer's release of `done` after the result. */
	while (__atomic_load_n(&f->done, __ATOMIC_ACQUIRE) == done) {
		if (past(deadline))
			return ust__flight_take_back(f) ? -ETIMEDOUT : -EINPROGRESS;
		sleep_poll();
	}
	return 0;
}

/*
 * `-o DIR`, created if needed, opened by the walk of common/safepath.h
 * (the consumer walks it again), as the physical path the consumer gets.
 */
static int output_resolve(const char *dir, char *abs)
{
	char note[PATH_MAX + 256], err[2 * PATH_MAX];
	struct ust_safe_dir d;

	if (ust__output_open(dir, &d, note, sizeof(note), err, sizeof(err))) {
		cli_error("cannot use output directory '%s': %s", dir, err);
		return -1;
	}
	if (note[0])
		cli_error("%s", note);
	ust__safe_dir_close(&d);
	if (strlen(d.path) >= UST_FLIGHT_PATH_MAX - 64) {
		cli_error("'%s': path too long for a snapshot request", d.path);
		return -1;
	}
	memcpy(abs, d.path, strlen(d.path) + 1);
	return 0;
}

/* Request a snapshot through the mapped shared memory `m` of `pid`. */
static int snapshot_request(const struct shm_map *m, pid_t pid,
			    const struct snapshot_opts *o, const char *out_dir)
{
	struct ust_flight *f = &((struct ust_shm_header *)m->base)->flight;
	uint64_t deadline = deadline_after(o->timeout);
	char path[UST_FLIGHT_PATH_MAX];
	uint32_t done;
	int ret;

	if (m->chan[0].mode != UST_MODE_FLIGHT) {
		cli_error("process %d does not trace in flight-recorder mode (start it "
			  "under `ust record --flight-recorder`, or with UST_MODE=flight)",
			  (int)pid);
		return UST_EXIT_FAILURE;
	}
	if (request_claim(f, deadline)) {
		cli_error("process %d: another snapshot is still being written after "
			  "%d s", (int)pid, o->timeout);
		return UST_EXIT_FAILURE;
	}
	done = ust__flight_publish(f, ust__clock_read(m->clock_kind),
				  o->reason ? o->reason : "manual", out_dir);
	ret = request_wait(f, done, deadline);
	if (ret == -EINPROGRESS) {
		cli_error("process %d: the snapshot is still being written after %d s; "
			  "not waiting for it", (int)pid, o->timeout);
		return UST_EXIT_FAILURE;
	}
	if (ret) {
		cli_error("process %d: no snapshot after %d s (is its ust-consumerd "
			  "still running?)", (int)pid, o->timeout);
		return UST_EXIT_FAILURE;
	}
	if (f->result < 0) {
		cli_error("process %d: the snapshot failed: %s", (int)pid,
			  strerror(-f->result));
		return UST_EXIT_FAILURE;
	}
	memcpy(path, f->path, sizeof(path));
	path[sizeof(path) - 1] = '\0';
	printf("%s\n", path);
	return 0;
}

/* Ask process `pid` for a snapshot and print its path. */
static int snapshot_take(pid_t pid, const struct snapshot_opts *o, const char *out_dir)
{
	char err[256];
	struct shm_map m;
	int ret;

	ret = shm_map_attach(&m, pid, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return UST_EXIT_FAILURE;
	}
	ret = snapshot_request(&m, pid, o, out_dir);
	shm_map_close(&m);
	return ret;
}

int cli_snapshot_run(int argc, const char **argv)
{
	struct snapshot_opts o = { .timeout = SNAPSHOT_TIMEOUT_S };
	poptContext ctx = poptGetContext("ust snapshot", argc, argv,
					 snapshot_table(&o), 0);
	char out_dir[PATH_MAX] = "";
	const char *arg;
	pid_t pid = 0;
	int rc, ret = UST_EXIT_USAGE;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
		if (rc == 'h')
			break;
	}
	arg = poptGetArg(ctx);
	if (rc == 'h') {
		cli_snapshot_help(stdout);
		ret = 0;
	} else if (rc < -1)
		cli_bad_option(ctx, rc);
	else if (!arg)
		cli_error("PID is missing (see 'ust snapshot --help')");
	else if (ust__parse_pid(arg, &pid))
		cli_error("'%s' is not a process id", arg);
	else if (poptPeekArg(ctx))
		cli_error("unexpected argument '%s'", poptPeekArg(ctx));
	else if (o.timeout <= 0)
		cli_error("--timeout must be a positive number of seconds");
	else if (o.output && output_resolve(o.output, out_dir))
		ret = UST_EXIT_FAILURE;
	else
		ret = snapshot_take(pid, &o, out_dir);
	poptFreeContext(ctx);
	free(o.output);
	free(o.reason);
	return ret;
}
