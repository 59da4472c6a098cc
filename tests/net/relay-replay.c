/*
 * relay-replay.c - send local ust traces to lttng-relayd, packet by
 * packet with their index entries, as a consumer would (tests/net).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   relay-replay --url URL --session NAME --hostname HOST [options] TRACE_DIR...
 *
 *   --uuid HEX32       session identity (default: fixed test value)
 *   --id N             session id under that uuid (default 1)
 *   --time SEC         session creation time (default: now)
 *   --live USEC        live timer (a live session), beacons for ended streams
 *   --pace-ms MS       sleep between packets
 *   --split-metadata   send the metadata in increments: the fixed part,
 *                      then each event block apart (as a consumer learns
 *                      event classes), interleaved with the packets
 *   --queue-bytes N    bound of each send queue
 *   --drop-when-full   a packet the queues refuse is dropped and counted
 *                      (default: wait for room, up to the timeout)
 *   --timeout MS       each blocking step (default 5000)
 *   --hold-ms MS       keep the connection open this long after the end
 *   --start-file FILE  before the first packet, wait (up to the timeout)
 *                      until FILE exists
 *   --wait-viewer URL  before the first packet, wait (up to the timeout)
 *                      until a viewer is attached to our session on the
 *                      live port URL (net://HOST:LIVE_PORT), so that it
 *                      sees every packet
 *
 * Each TRACE_DIR (metadata + <channel>_<cpu> files) becomes the trace
 * PATH = its base name in the relay session.  Packets of all streams go
 * in timestamp_begin order.  Prints "session_id=N", "output_path=P" once
 * the session exists, "ready" once the streams are published, and
 * "sent=N full=N unsent=N cut=N" at the end.  When the connection breaks it
 * prints the error, then "broken: sent=N unsent=N cut=N": the packets
 * the relay client gave back (none of their bytes left) and those cut in
 * the middle.
 * Exit: 0 everything stored; 1 error (message on stderr); 2 usage;
 * 3 finished without everything stored (packets dropped, or the relay
 * did not confirm in time).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/live.h"
#include "net/relay.h"
#include "ctf/format.h"
#include "net/sock.h"
#include "net/wire.h"

struct file {
	struct ust_relay_stream *rs;
	uint8_t *bytes;
	size_t len, at;			/* next packet at `at` */
	uint64_t last_end;		/* timestamp_end of the last packet sent */
	uint64_t ctf_stream_id;
	bool beaconed;
};

struct trace {
	struct ust_relay_stream *meta;
	char *metadata;
	size_t meta_len, meta_sent;	/* increments sent: [0, meta_sent) */
};

struct replay {
	struct ust_relay *r;
	struct trace traces[16];
	size_t nr_traces;
	struct file files[256];
	size_t nr_files;
	int pace_ms, timeout_ms, hold_ms;
	const char *viewer_url;
	const char *start_file;
	bool live, split, drop_when_full;
	uint64_t dropped;
};

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "relay-replay: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static struct replay *the_replay;

/* A consumer keeps these in its local trace; here the stats count them. */
static void count_unsent(void *arg, struct ust_relay_stream *s, const void *packet, size_t len,
			 uint64_t note)
{
	(void)arg;
	(void)s;
	(void)packet;
	(void)len;
	(void)note;
}

/* The connection broke: say why and what did not leave, exit 1. */
__attribute__((noreturn))
static void die_broken(void)
{
	struct ust_relay_stats st;
	struct ust_relay *r = the_replay->r;

	ust_relay_take_unsent(r, count_unsent, NULL);
	ust_relay_get_stats(r, &st);
	fprintf(stderr, "relay-replay: %s\n", ust_relay_error(r));
	printf("broken: sent=%llu unsent=%llu cut=%llu\n",
	       (unsigned long long)st.packets_queued, (unsigned long long)st.packets_unsent,
	       (unsigned long long)st.packets_cut);
	exit(1);
}

static void *read_all(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb))
		die("cannot open %s", path);
	p = malloc((size_t)sb.st_size + 1);
	if (!p || read(fd, p, (size_t)sb.st_size) != sb.st_size)
		die("cannot read %s", path);
	p[sb.st_size] = '\0';
	close(fd);
	*len = (size_t)sb.st_size;
	return p;
}

/* The size of the packet at `p` (0 if not a whole ust packet), its index. */
static size_t packet_index(const uint8_t *p, size_t left, struct ust_relay_index *ix)
{
	const size_t hdr = UST_PACKET_HEADER_SIZE;

	if (left < hdr || ctf_get_le32(p + UST_PACKET_OFF(magic)) != UST_CTF_MAGIC)
		return 0;
	ust_relay_index_of(p, ix);
	if (ix->packet_size % 8 || ix->packet_size / 8 < hdr || ix->packet_size / 8 > left)
		return 0;
	return ix->packet_size / 8;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void add_file(struct replay *rp, const char *dir, const char *path, const char *name)
{
	struct file *f = &rp->files[rp->nr_files++];
	char full[8192];

	snprintf(full, sizeof(full), "%s/%s", dir, name);
	f->bytes = read_all(full, &f->len);
	f->rs = ust_relay_add_stream(rp->r, path, name);
	if (!f->rs)
		die_broken();
}

/* The trace's metadata stream first, then one stream per data file. */
static void add_trace(struct replay *rp, const char *dir)
{
	struct trace *t = &rp->traces[rp->nr_traces++];
	char copy[4096], full[8192], *path;
	struct dirent **names;
	int n, i;

	snprintf(copy, sizeof(copy), "%s", dir);
	path = basename(copy);
	snprintf(full, sizeof(full), "%s/metadata", dir);
	t->metadata = read_all(full, &t->meta_len);
	t->meta = ust_relay_add_stream(rp->r, path, "metadata");
	if (!t->meta)
		die_broken();
	n = scandir(dir, &names, NULL, by_name);
	if (n < 0)
		die("cannot list %s", dir);
	for (i = 0; i < n; i++) {
		if (names[i]->d_type == DT_REG && names[i]->d_name[0] != '.' &&
		    strcmp(names[i]->d_name, "metadata") && rp->nr_files < 256)
			add_file(rp, dir, path, names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

/*
 * Where the next metadata increment ends: before the next "event {" block.
 * The search starts past the first byte not sent yet, inside the text
 * (read_all ends it with a NUL): none is left when all was sent.
 */
static size_t next_increment(const struct trace *t, bool split)
{
	const char *p;

	if (!split || t->meta_sent + 1 >= t->meta_len)
		return t->meta_len;
	p = strstr(t->metadata + t->meta_sent + 1, "\nevent {");
	return p ? (size_t)(p - t->metadata) + 1 : t->meta_len;
}

static void send_metadata_step(struct replay *rp, struct trace *t)
{
	size_t end;
	int ret;

	if (t->meta_sent == t->meta_len)
		return;
	end = next_increment(t, rp->split);
	while ((ret = ust_relay_send_metadata(t->meta, t->metadata + t->meta_sent,
					     end - t->meta_sent)) == UST_RELAY_FULL)
		if (ust_relay_flush(rp->r, rp->timeout_ms) == UST_RELAY_BROKEN)
			break;
	if (ret)
		die_broken();
	t->meta_sent = end;
}

/* The file whose next packet begins first; NULL when all are done. */
static struct file *next_file(struct replay *rp, struct ust_relay_index *ix, size_t *len)
{
	struct file *best = NULL;
	struct ust_relay_index cur;
	size_t i, n;

	for (i = 0; i < rp->nr_files; i++) {
		struct file *f = &rp->files[i];

		if (f->at >= f->len)
			continue;
		n = packet_index(f->bytes + f->at, f->len - f->at, &cur);
		if (!n)
			die("%s: not a whole ust packet", ust_relay_stream_name(f->rs));
		if (!best || cur.timestamp_begin < ix->timestamp_begin) {
			best = f;
			*ix = cur;
			*len = n;
		}
	}
	return best;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	if (ms > 0)
		nanosleep(&ts, NULL);
}

/* A stream that has sent its last packet tells live viewers it is quiet. */
static void beacon_ended(struct replay *rp, uint64_t now)
{
	size_t i;

	for (i = 0; i < rp->nr_files; i++) {
		struct file *f = &rp->files[i];

		if (f->at >= f->len && f->last_end && now > f->last_end &&
		    ust_relay_send_beacon(f->rs, now, f->ctf_stream_id) == UST_RELAY_BROKEN)
			die_broken();
	}
}

static void send_one(struct replay *rp, struct file *f, const struct ust_relay_index *ix,
		     size_t len)
{
	int ret;

	while ((ret = ust_relay_send_packet(f->rs, f->bytes + f->at, len, ix, 0)) == UST_RELAY_FULL) {
		if (rp->drop_when_full) {
			rp->dropped++;
			break;
		}
		if (ust_relay_flush(rp->r, rp->timeout_ms) == UST_RELAY_FULL)
			die("%s", "the relay took nothing within the timeout");
	}
	if (ret == UST_RELAY_BROKEN)
		die_broken();
	f->at += len;
	f->last_end = ix->timestamp_end;
	f->ctf_stream_id = ix->stream_id;
}

static void replay_packets(struct replay *rp)
{
	struct ust_relay_index ix;
	struct file *f;
	size_t len, i;

	while ((f = next_file(rp, &ix, &len))) {
		for (i = 0; i < rp->nr_traces; i++)
			send_metadata_step(rp, &rp->traces[i]);
		send_one(rp, f, &ix, len);
		if (rp->live)
			beacon_ended(rp, ix.timestamp_end);
		if (ust_relay_pump(rp->r))
			die_broken();
		sleep_ms(rp->pace_ms);
	}
	for (i = 0; i < rp->nr_traces; i++)
		while (rp->traces[i].meta_sent < rp->traces[i].meta_len)
			send_metadata_step(rp, &rp->traces[i]);
}

static int parse_uuid(const char *hex, uint8_t *uuid)
{
	size_t i;
	unsigned int byte;

	if (strlen(hex) != 32)
		return -1;
	for (i = 0; i < 16; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			return -1;
		uuid[i] = (uint8_t)byte;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: relay-replay --url URL --session NAME --hostname HOST [--uuid HEX32] [--id N] [--time SEC] [--live USEC] [--pace-ms MS] [--split-metadata] [--queue-bytes N] [--drop-when-full] [--timeout MS] [--hold-ms MS] TRACE_DIR...\n");
	exit(2);
}

static void parse_args(int argc, char **argv, struct replay *rp, struct ust_relay_url *url,
		       struct ust_relay_session *s, struct ust_relay_config *cfg)
{
	static const struct option opts[] = {
		{ "url", 1, NULL, 'u' }, { "session", 1, NULL, 's' },
		{ "hostname", 1, NULL, 'H' }, { "uuid", 1, NULL, 'U' },
		{ "id", 1, NULL, 'i' }, { "time", 1, NULL, 't' },
		{ "live", 1, NULL, 'l' }, { "pace-ms", 1, NULL, 'p' },
		{ "split-metadata", 0, NULL, 'S' }, { "queue-bytes", 1, NULL, 'q' },
		{ "drop-when-full", 0, NULL, 'd' }, { "timeout", 1, NULL, 'T' },
		{ "hold-ms", 1, NULL, 'h' }, { "wait-viewer", 1, NULL, 'w' },
		{ "start-file", 1, NULL, 'f' }, { 0 },
	};
	char err[512];
	int c;

	parse_uuid("75737472656c6179746573747575696e", s->uuid);
	s->id = 1;
	s->creation_time = (uint64_t)time(NULL);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			if (ust_relay_url_parse(optarg, url, err, sizeof(err))) {
				fprintf(stderr, "relay-replay: invalid URL '%s': %s\n", optarg, err);
				exit(2);
			}
			break;
		case 's': snprintf(s->name, sizeof(s->name), "%s", optarg); break;
		case 'H': snprintf(s->hostname, sizeof(s->hostname), "%s", optarg); break;
		case 'U': if (parse_uuid(optarg, s->uuid)) usage(); break;
		case 'i': s->id = strtoull(optarg, NULL, 10); break;
		case 't': s->creation_time = strtoull(optarg, NULL, 10); break;
		case 'l': s->live_timer_us = (uint32_t)strtoul(optarg, NULL, 10); rp->live = true; break;
		case 'p': rp->pace_ms = atoi(optarg); break;
		case 'S': rp->split = true; break;
		case 'q': cfg->queue_bytes = strtoull(optarg, NULL, 10); break;
		case 'd': rp->drop_when_full = true; break;
		case 'T': cfg->timeout_ms = rp->timeout_ms = atoi(optarg); break;
		case 'h': rp->hold_ms = atoi(optarg); break;
		case 'w': rp->viewer_url = optarg; break;
		case 'f': rp->start_file = optarg; break;
		default: usage();
		}
	}
	if (!url->ctrl.text[0] || !s->name[0] || !s->hostname[0] || optind == argc ||
	    argc - optind > 16)
		usage();
}

/* Does the relay list our session with a viewer attached? */
static bool viewer_attached(struct ust_live_viewer *v, uint64_t session_id)
{
	struct ust_live_session_info *s;
	bool found = false;
	size_t n, i;

	if (ust_live_list(v, &s, &n))
		die("%s", ust_live_error(v));
	for (i = 0; i < n; i++)
		found |= s[i].id == session_id && s[i].clients > 0;
	free(s);
	return found;
}

static void wait_viewer(struct replay *rp)
{
	int64_t deadline = ust_net_deadline(rp->timeout_ms);
	struct ust_live_viewer *v;
	struct ust_live_url url;
	char err[1024];

	if (ust_live_url_parse(rp->viewer_url, &url, err, sizeof(err)))
		die("invalid URL '%s': %s", rp->viewer_url, err);
	v = ust_live_connect(&url, rp->timeout_ms, err, sizeof(err));
	if (!v)
		die("%s", err);
	while (!viewer_attached(v, ust_relay_session_id(rp->r))) {
		if (!ust_net_left_ms(deadline))
			die("no viewer attached within %d ms", rp->timeout_ms);
		sleep_ms(20);
	}
	ust_live_close(v);
}

static void wait_file(struct replay *rp)
{
	int64_t deadline = ust_net_deadline(rp->timeout_ms);

	while (access(rp->start_file, F_OK)) {
		if (!ust_net_left_ms(deadline))
			die("no %s within %d ms", rp->start_file, rp->timeout_ms);
		sleep_ms(10);
	}
}

static int finish(struct replay *rp)
{
	struct ust_relay_stats st;
	int ret = ust_relay_finish(rp->r, rp->timeout_ms);

	ust_relay_get_stats(rp->r, &st);
	printf("sent=%llu full=%llu unsent=%llu cut=%llu\n",
	       (unsigned long long)st.packets_queued, (unsigned long long)rp->dropped,
	       (unsigned long long)st.packets_unsent, (unsigned long long)st.packets_cut);
	if (ret == UST_RELAY_BROKEN)
		die_broken();
	if (ret == UST_RELAY_FULL)
		fprintf(stderr, "relay-replay: the relay did not confirm everything within %d ms\n",
			rp->timeout_ms);
	return ret == UST_RELAY_FULL || rp->dropped ? 3 : 0;
}

int main(int argc, char **argv)
{
	static struct replay rp = { .timeout_ms = 5000 };
	struct ust_relay_session session = { 0 };
	struct ust_relay_config cfg = { .timeout_ms = 5000 };
	struct ust_relay_url url = { 0 };
	char err[1024];
	int i, ret;

	the_replay = &rp;
	parse_args(argc, argv, &rp, &url, &session, &cfg);
	rp.r = ust_relay_open(&url, &session, &cfg, err, sizeof(err));
	if (!rp.r)
		die("%s", err);
	printf("session_id=%llu\noutput_path=%s\n",
	       (unsigned long long)ust_relay_session_id(rp.r), ust_relay_output_path(rp.r));
	for (i = optind; i < argc; i++)
		add_trace(&rp, argv[i]);
	if (ust_relay_streams_sent(rp.r))
		die_broken();
	printf("ready\n");
	fflush(stdout);
	if (rp.start_file)
		wait_file(&rp);
	if (rp.viewer_url)
		wait_viewer(&rp);
	replay_packets(&rp);
	ret = finish(&rp);
	fflush(stdout);
	sleep_ms(rp.hold_ms);
	ust_relay_close(rp.r);
	return ret;
}
