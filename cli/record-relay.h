/*
 * record-relay.h - `ust record --relayd URL [--live[=USEC]] [--session NAME]`:
 * one lttng-relayd session for the whole recording (doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_RECORD_RELAY_H
#define UST_CLI_RECORD_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#define UST_LIVE_TIMER_DEFAULT_US	1000000u	/* lttng's default too */

struct record_relay {
	char *url;		/* --relayd, or $UST_OUTPUT when it is a URL */
	bool live;		/* --live */
	uint32_t live_us;	/* its timer */
	char *session;		/* --session, NULL: "<cmd>-<pid>" */
};

/* --relayd URL: checked now, a usage error names the column. */
int cli_relay_option_url(struct record_relay *rr, const char *arg);

/* --live[=USEC]: 100 ms to 1 h, with an optional us, ms or s suffix. */
int cli_relay_option_live(struct record_relay *rr, const char *arg);

/* --session NAME. */
int cli_relay_option_session(struct record_relay *rr, const char *arg);

/* After parsing: the options make sense together (0, or -1 reported). */
int cli_relay_check(struct record_relay *rr, bool have_output);

/*
 * Before CMD runs: can the relay be reached?  If so, CMD's consumers get
 * UST_OUTPUT=URL, the session in UST_RELAY_SESSION and `outdir` as
 * UST_RELAY_FALLBACK, and we say where to follow it; if not, we say so
 * and the traces go to `outdir` (UST_OUTPUT stays outdir).  Returns 1
 * when streaming, 0 when not, -1 when the environment could not be set.
 */
int cli_relay_setup(const struct record_relay *rr, const char *outdir, const char *cmd);

void cli_relay_release(struct record_relay *rr);

#endif /* UST_CLI_RECORD_RELAY_H */
