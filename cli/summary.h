/*
 * summary.h - what the consumers of a `ust record` session report, and
 * the lines `ust record` prints from it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * `ust record` creates a hidden directory inside the output directory and
 * passes it to the traced processes in UST_SUMMARY_DIR.  Each consumer
 * writes one `<name>.summary` file there when it finishes a trace (under a
 * hidden name first, then renamed), with `key=value` lines:
 *
 *	pid=1234		the traced process
 *	dir=/tmp/ltt-usertrace/0/app-1234-20261121-061500
 *	events=1000000		records written to disk
 *	lost=0			records refused or overwritten
 *	packets=97		packets written
 *	packets_dropped=0	packets skipped (e.g. never completed)
 *	bytes=12476416		bytes of stream files written
 *	error=...		any number of lines; none when all went well
 *	snapshot=PATH		one line per flight-recorder snapshot written
 *	rate_limited=N EVENT	records of EVENT over its rate limit
 *	no_program=N EVENT	records of EVENT a filter had no program for
 *	filtered_time=N		function events --time-filter kept out (also
 *	filtered_depth=N	--depth, --filter-func/--exclude-func)
 *	filtered_func=N
 *	relay=URL ...		streamed to lttng-relayd: the relay_* keys of
 *				abi/consumerd.h; dir= is then where the trace
 *				went on when the relay failed, else empty
 *
 * Unknown keys are ignored, so consumers may add some.  A consumer also
 * begins its summary at start, hidden (`.<consumer pid>.summary.tmp`):
 * one that never completed it ("end=1") did not finish its trace.
 */
#ifndef UST_CLI_SUMMARY_H
#define UST_CLI_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi/consumerd.h"
#include "common/safepath.h"

struct cli_trace_summary {
	uint64_t pid;		/* the traced process, 0 when not said */
	char *dir;		/* trace directory; "" when it could not be made */
	uint64_t events;	/* records written */
	uint64_t lost;		/* records lost, unwritten ones included */
	uint64_t unwritten;	/* records of packets that could not be written */
	uint64_t packets;	/* packets written */
	uint64_t packets_dropped; /* packets skipped */
	uint64_t bytes;		/* bytes written */
	char *error;		/* "; "-joined error lines, NULL when none */
	char *snapshots;	/* "\n"-terminated snapshot paths, NULL when none */
	bool complete;		/* it said "end=1" */
	uint64_t consumer;	/* an unfinished one: the consumer's pid */
	char *notes;		/* "\n"-terminated lines about it, NULL when none */
	bool uncounted;		/* what it holds is not known here (rescue.c) */
	uint64_t rate_limited;	/* records over rate limits, all events */
	uint64_t no_program;	/* records a filter had no program for */
	uint64_t filtered[3];	/* function events kept out: time, depth, func */
	char *not_recorded;	/* "\n"-terminated lines, one per event, NULL when none */
	/* streamed to lttng-relayd (doc/relayd.md); relay NULL when not */
	char *relay;		/* the URL */
	char *relay_path;	/* HOST/SESSION/TRACE on the relay */
	char *relay_error;	/* why the trace fell back to `dir`, NULL if not */
	char *relay_snapshots;	/* "\n"-terminated places of snapshots sent, or NULL */
	uint64_t relay_events;	/* records sent */
	uint64_t relay_unconfirmed; /* records sent, not confirmed stored */
	uint64_t relay_kept;	/* packets written to `dir` instead */
	uint64_t relay_cut;	/* records in a packet cut by the failure */
};

/* Every trace of a session, sorted by directory once read. */
struct ust_summary {
	struct cli_trace_summary *traces;
	size_t nr;
};

/*
 * Create .ust-record-<pid> with mode 0700 in the output directory `out`
 * (a stale one of ours from an earlier process with the same pid is
 * emptied and reused).  On success *path is its malloc'd path.  Returns
 * 0 or -errno.
 */
int cli_summary_dir_create(const struct ust_safe_dir *out, char **path);

/* Remove the summary directory and every file in it. */
void cli_summary_dir_remove(const char *path);

/*
 * Read every *.summary file of the directory into `sum` (zeroed first),
 * and every hidden one a consumer began (`.<pid>.summary.tmp`): complete
 * (its rename failed), it counts as the others; else it is a trace whose
 * consumer did not finish (`consumer` is its pid).  Returns 0 or -errno;
 * a missing directory reads as no trace.
 */
int cli_summary_read(const char *path, struct ust_summary *sum);

/*
 * Print the session summary on `out`, each line prefixed with cli_prog.
 * `cmd` names the traced program in the "no trace was written" line,
 * left out when consumers were still `running` (the reason was given
 * already); `lost_hint` adds advice on buffer sizes when records were lost.
 */
void cli_summary_print(const struct ust_summary *sum, FILE *out,
		       const char *cmd, bool running, bool lost_hint);

/* Add an error line (it makes the session fail) or a note to a trace. */
int cli_summary_add_error(struct cli_trace_summary *t, const char *msg);
int cli_summary_add_note(struct cli_trace_summary *t, const char *msg);

/*
 * Whether tracing failed somewhere: a consumer that reported an error
 * (it could not start, or could not write all it had).  `ust record`
 * then exits non-zero even when CMD succeeded.
 */
bool cli_summary_failed(const struct ust_summary *sum);

void cli_summary_release(struct ust_summary *sum);

#endif /* UST_CLI_SUMMARY_H */
