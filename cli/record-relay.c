/*
 * record-relay.c - `ust record --relayd`: the relay session of a
 * recording (cli/record-relay.h, doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * `ust record` makes the session identity (a random uuid, its own pid as
 * the id, the name, the time) and hands the same one to every consumer
 * through UST_RELAY_SESSION, so that all the traced processes, and
 * ust-kerneld, stream into one relay session (net/relay.h explains how
 * lttng-relayd joins them).  It connects to the relay's two ports once
 * before CMD starts, only to say at once, and once, when it is not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "abi/env.h"
#include "cli.h"
#include "command.h"
#include "net/session.h"
#include "net/sock.h"
#include "record-relay.h"

#define PROBE_TIMEOUT_MS	2000
#define LIVE_MIN_US		100000u
#define LIVE_MAX_US		3600000000u

int cli_relay_option_url(struct record_relay *rr, const char *arg)
{
	struct ust_relay_url url;
	char err[512];

	if (ust_relay_url_parse(arg, &url, err, sizeof(err))) {
		cli_error("invalid --relayd '%s': %s", arg, err);
		return -1;
	}
	return cli_keep_copy(&rr->url, arg);
}

int cli_relay_option_live(struct record_relay *rr, const char *arg)
{
	unsigned long long v;
	uint64_t scale = 1;
	char *end;

	rr->live = true;
	rr->live_us = UST_LIVE_TIMER_DEFAULT_US;
	if (!arg)
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!strcmp(end, "ms"))
		scale = 1000;
	else if (!strcmp(end, "s"))
		scale = 1000000;
	else if (*end && strcmp(end, "us"))
		end = NULL;
	if (!end || end == arg || errno || *arg < '0' || *arg > '9' ||
	    v > LIVE_MAX_US / scale || v * scale < LIVE_MIN_US) {
		cli_error("invalid --live '%s': a timer from 100ms to 3600s (in microseconds, or with ms or s)",
			  arg);
		return -1;
	}
	rr->live_us = (uint32_t)(v * scale);
	return 0;
}

int cli_relay_option_session(struct record_relay *rr, const char *arg)
{
	if (!*arg || *arg == '.' || strlen(arg) > 200 ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(arg)) {
		cli_error("invalid --session '%s': letters, digits, '.', '_' and '-' only, not starting with '.'",
			  arg);
		return -1;
	}
	return cli_keep_copy(&rr->session, arg);
}

int cli_relay_check(struct record_relay *rr, bool have_output)
{
	const char *env = getenv(UST_ENV_OUTPUT);

	/* UST_OUTPUT=net://... stands for --relayd, unless -o says otherwise */
	if (!rr->url && !have_output && env && strstr(env, "://") &&
	    cli_relay_option_url(rr, env))
		return -1;
	if (!rr->url && (rr->live || rr->session)) {
		cli_error("%s needs --relayd URL", rr->live ? "--live" : "--session");
		return -1;
	}
	return 0;
}

/* Both ports answer (a connection, closed at once); else why not. */
static int probe(const struct ust_relay_url *url, char *why, size_t len)
{
	uint16_t ports[2] = { url->ctrl_port, url->data_port };
	const char *names[2] = { "control", "data" };
	char err[256];
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = ust_net_connect(url->ctrl.host, url->ctrl.family, ports[i],
				     PROBE_TIMEOUT_MS, err, sizeof(err));
		if (fd < 0) {
			snprintf(why, len, "lttng-relayd at %.512s: %s port %u: %s", url->ctrl.text,
				 names[i], ports[i], err);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static int set_relay_env(const struct record_relay *rr, const struct ust_relay_session *s,
			 const char *outdir)
{
	char spec[1024];

	if (ust_relay_session_format(s, spec, sizeof(spec)) ||
	    setenv(UST_ENV_OUTPUT, rr->url, 1) || setenv(UST_ENV_RELAY_SESSION, spec, 1) ||
	    setenv(UST_ENV_RELAY_FALLBACK, outdir, 1)) {
		cli_error("cannot set the environment: %s", strerror(errno ? errno : EINVAL));
		return -1;
	}
	return 0;
}

int cli_relay_setup(const struct record_relay *rr, const char *outdir, const char *cmd)
{
	struct ust_relay_session s;
	struct ust_relay_url url;
	char why[1024], name[256];
	const char *base = strrchr(cmd, '/');

	if (!rr->url)
		return 0;
	ust_relay_url_parse(rr->url, &url, why, sizeof(why));	/* checked already */
	if (probe(&url, why, sizeof(why))) {
		cli_error("%s; the traces go to %s instead", why, outdir);
		return 0;
	}
	snprintf(name, sizeof(name), "%s-%ld", base ? base + 1 : cmd, (long)getpid());
	if (ust_relay_session_new(&s, rr->session ? rr->session : name, (uint64_t)getpid())) {
		cli_error("cannot make a relay session: no random bytes; the traces go to %s instead",
			  outdir);
		return 0;
	}
	s.live_timer_us = rr->live ? rr->live_us : 0;
	if (set_relay_env(rr, &s, outdir))
		return -1;
	fprintf(stderr, "%s: streaming to lttng-relayd at %s, session '%s' of host '%s'\n",
		cli_prog, rr->url, s.name, s.hostname);
	if (rr->live)
		fprintf(stderr, "%s: follow it live: ust view --live net%s://%s%s%s:%u/host/%s/%s\n",
			cli_prog, url.ctrl.family == AF_INET6 ? "6" : "",
			strchr(url.ctrl.host, ':') ? "[" : "", url.ctrl.host,
			strchr(url.ctrl.host, ':') ? "]" : "", UST_RELAY_LIVE_PORT, s.hostname, s.name);
	return 1;
}

void cli_relay_release(struct record_relay *rr)
{
	free(rr->url);
	free(rr->session);
	rr->url = rr->session = NULL;
}
