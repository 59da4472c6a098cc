/*
 * relay-live.c - our live viewer client, for the tests (tests/net).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   relay-live --list URL
 *	one line per session: "id=N host=H name=S clients=C streams=N live_timer=T"
 *   relay-live --dump DIR [--from-now] [--wait-ms MS] URL/host/HOSTNAME/SESSION
 *	follow the session until it ends, mirroring it into DIR; waits up to
 *	MS (default 10000) for the session to be listed.  At the end prints
 *	"streams=N packets=N bytes=N ended=N".
 *   --timeout MS   each answer of the relay (default 5000)
 *
 * Exit: 0, 1 on error (stderr), 2 usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/live-dir.h"
#include "net/live.h"
#include "net/sock.h"

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int list(struct ust_live_viewer *v)
{
	struct ust_live_session_info *s;
	size_t n, i;

	if (ust_live_list(v, &s, &n))
		return -1;
	for (i = 0; i < n; i++)
		printf("id=%llu host=%s name=%s clients=%u streams=%u live_timer=%u\n",
		       (unsigned long long)s[i].id, s[i].hostname, s[i].name, s[i].clients,
		       s[i].streams, s[i].live_timer);
	free(s);
	return 0;
}

/* Attach, retrying until the session is listed or `wait_ms` passed. */
static int attach(struct ust_live_viewer *v, const struct ust_live_url *u, bool from_now,
		  int wait_ms)
{
	int64_t deadline = ust_net_deadline(wait_ms);
	int n;

	while ((n = ust_live_attach(v, u->hostname, u->session, !from_now)) == 0) {
		if (!ust_net_left_ms(deadline)) {
			fprintf(stderr, "relay-live: no session '%s' of host '%s' within %d ms\n",
				u->session, u->hostname, wait_ms);
			return -1;
		}
		sleep_ms(50);
	}
	return n < 0 ? -1 : 0;
}

static void summary(const struct ust_live_dir *d)
{
	unsigned long long packets = 0, bytes = 0, ended = 0;
	size_t i, n = ust_live_dir_nr_streams(d);

	for (i = 0; i < n; i++) {
		const struct ust_live_dir_stream *s = ust_live_dir_stream(d, i);

		packets += s->packets;
		bytes += s->bytes;
		ended += s->ended;
	}
	printf("streams=%zu packets=%llu bytes=%llu ended=%llu\n", n, packets, bytes, ended);
}

static int dump(struct ust_live_viewer *v, const char *dir)
{
	struct ust_live_sink sink;
	struct ust_live_dir *d;
	char err[1024];
	bool progress;
	int ret;

	d = ust_live_dir_open(dir, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "relay-live: %s\n", err);
		return -1;
	}
	ust_live_dir_sink(d, &sink);
	while ((ret = ust_live_poll(v, &sink, &progress)) > 0) {
		if (!progress)
			sleep_ms(20);
	}
	if (ret < 0)
		fprintf(stderr, "relay-live: %s%s%s\n", ust_live_error(v),
			ust_live_dir_error(d)[0] ? ": " : "", ust_live_dir_error(d));
	else
		summary(d);
	ust_live_dir_close(d);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: relay-live --list URL | relay-live --dump DIR [--from-now] [--wait-ms MS] [--timeout MS] URL/host/HOSTNAME/SESSION\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", 0, NULL, 'l' }, { "dump", 1, NULL, 'd' },
		{ "from-now", 0, NULL, 'n' }, { "wait-ms", 1, NULL, 'w' },
		{ "timeout", 1, NULL, 't' }, { 0 },
	};
	const char *dir = NULL;
	bool do_list = false, from_now = false;
	int c, wait_ms = 10000, timeout_ms = 5000, ret;
	struct ust_live_viewer *v;
	struct ust_live_url url;
	char err[1024];

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l': do_list = true; break;
		case 'd': dir = optarg; break;
		case 'n': from_now = true; break;
		case 'w': wait_ms = atoi(optarg); break;
		case 't': timeout_ms = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || do_list == !!dir)
		usage();
	if (ust_live_url_parse(argv[optind], &url, err, sizeof(err))) {
		fprintf(stderr, "relay-live: invalid URL '%s': %s\n", argv[optind], err);
		return 2;
	}
	if (dir && !url.session[0])
		usage();
	v = ust_live_connect(&url, timeout_ms, err, sizeof(err));
	if (!v) {
		fprintf(stderr, "relay-live: %s\n", err);
		return 1;
	}
	if (do_list)
		ret = list(v);
	else
		ret = attach(v, &url, from_now, wait_ms) ? -1 : dump(v, dir);
	if (ret < 0 && do_list)
		fprintf(stderr, "relay-live: %s\n", ust_live_error(v));
	ust_live_close(v);
	return ret < 0 ? 1 : 0;
}
