/*
 * rescue.h - consumers that die before finishing their trace, and what
 * `ust record` does about it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A consumer begins its summary as soon as it starts (consumer/summary.c:
 * `.<consumer pid>.summary.tmp`, saying which process and which trace
 * directory).  `ust record` watches the summary directory (inotify) and,
 * for each consumer that appears, keeps a descriptor of the memfd it
 * drains (through /proc/<consumer>/fd): the traced process's buffers then
 * outlive both the process and the consumer.  When a consumer is reaped
 * before it completed its summary, it died: `ust record` starts another,
 * `ust-consumerd --resume DIR` on the kept memfd, which goes on with the
 * same trace directory from where the dead one stopped, even when the
 * traced process is gone by then; so every record the process committed
 * is on disk or counted lost.  Its summary is the trace's.  A consumer
 * that cannot be replaced (no memfd: it died before `ust record` could
 * take it, and its process too) leaves its trace as it was: `ust record`
 * reads it to count what is on disk, and says that what came after is
 * not counted.
 */
#ifndef UST_CLI_RESCUE_H
#define UST_CLI_RESCUE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "summary.h"
#include "supervise.h"

/* At most this many consumers started for one traced process. */
#define CLI_RESCUE_MAX	3

struct cli_rescue_entry;

struct cli_rescue {
	int ino;			/* inotify on the summary directory */
	char *sumdir;
	char *outdir;
	const char *consumerd;		/* the consumer program */
	struct cli_rescue_entry *v;	/* every consumer seen */
	size_t nr;
};

/*
 * Watch the summary directory `sumdir` of a session writing under
 * `outdir`.  Returns 0 or -errno (no inotify: consumers that die are only
 * reported, not replaced).
 */
int cli_rescue_init(struct cli_rescue *r, const char *sumdir, const char *outdir);

/* The hooks that cli_supervise() calls for it. */
void cli_rescue_hooks(struct cli_rescue *r, struct cli_supervise_hooks *h);

/*
 * After cli_supervise(): wait up to `timeout_s` seconds more for the
 * consumers that began a summary, did not complete it and are still
 * running, whoever their parent is (one that is not our child yet, or
 * at all, is not counted by cli_supervise()).  Returns how many are
 * still running.
 */
int cli_rescue_wait_begun(const struct cli_rescue *r, unsigned int timeout_s);

/*
 * After the session: add to the traces of `sum` what happened to their
 * consumers (a line each: died, replaced), and, for a trace left
 * unfinished, the events and losses its files hold and the error.
 */
void cli_rescue_report(const struct cli_rescue *r, struct ust_summary *sum);

void cli_rescue_release(struct cli_rescue *r);

/* The consumer program: $UST_CONSUMERD, else the installed one. */
const char *cli_consumerd_path(void);

#endif /* UST_CLI_RESCUE_H */
