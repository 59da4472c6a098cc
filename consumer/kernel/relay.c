/*
 * relay.c - ust-kerneld's relay sink: when `ust record --relayd` streams
 * the session (UST_OUTPUT is then the relay's URL), the kernel trace goes
 * to the same relay session, as the trace "kernel" with the streams
 * "metadata" and "kernel_<cpu>" (doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DIR/kernel is still made, with its metadata, for a fallback: if the
 * relay cannot be reached or goes away, the packets the relay client gave
 * back and everything after them are written there as without a relay.
 * When nothing fell back, DIR/kernel is removed at the end (its stream
 * files are empty).  When the send queues are full (a network slower than
 * the kernel) it waits, as for a slow disk: the ftrace rings keep what is
 * not read yet and count what they lose; a relay that takes nothing for
 * 3 s is given up.  Each
 * pass flushes every CPU's packet, so live viewers follow without pieces;
 * a CPU with nothing new gets a beacon.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/env.h"
#include "ctf/format.h"
#include "kerneld.h"
#include "net/relay.h"
#include "net/session.h"

#define RELAY_TIMEOUT_MS	3000
#define LINGER_MS		1500

struct kd_relay {
	struct ust_relay *r;		/* NULL when not (or no longer) streaming */
	struct ust_relay_url url;
	struct ust_relay_session session;
	struct ust_relay_stream *meta;
	struct ust_relay_stream **streams;	/* per CPU, NULL until its first packet */
	uint64_t *seq_seen;		/* per CPU: packets at the last pass */
	bool unpublished;
	bool fell_back;
	uint64_t cut_events;		/* in a packet cut by a failure */
	char path[512];			/* the trace on the relay */
};

static void fall_back(struct kerneld *kd, const char *why);

/* The URL when the session streams to a relay, else NULL. */
static const char *relay_url(void)
{
	const char *out = getenv(UST_ENV_OUTPUT);

	return out && strstr(out, "://") ? out : NULL;
}

int kd_relay_start(struct kerneld *kd)
{
	struct ust_relay_config cfg = { .timeout_ms = RELAY_TIMEOUT_MS };
	const char *url = relay_url();
	struct kd_relay *rl;
	char err[1024];

	if (!url)
		return 0;
	rl = calloc(1, sizeof(*rl));
	if (!rl)
		return -ENOMEM;
	kd->relay = rl;
	rl->streams = calloc(kd->nr_cpus, sizeof(*rl->streams));
	rl->seq_seen = calloc(kd->nr_cpus, sizeof(*rl->seq_seen));
	if (!rl->streams || !rl->seq_seen)
		return -ENOMEM;
	if (ust_relay_url_parse(url, &rl->url, err, sizeof(err)) ||
	    ust_relay_session_from_env(&rl->session, "ust", (uint64_t)getpid(), KERNELD_NAME)) {
		fall_back(kd, "no usable relay URL or session");
		return 0;
	}
	rl->r = ust_relay_open(&rl->url, &rl->session, &cfg, err, sizeof(err));
	if (!rl->r) {
		fall_back(kd, err);
		return 0;
	}
	snprintf(rl->path, sizeof(rl->path), "%s/kernel", ust_relay_output_path(rl->r));
	rl->meta = ust_relay_add_stream(rl->r, "kernel", "metadata");
	if (!rl->meta)
		fall_back(kd, ust_relay_error(rl->r));
	return 0;
}

bool kd_relay_active(const struct kerneld *kd)
{
	return kd->relay && kd->relay->r;
}

int kd_relay_metadata(struct kerneld *kd, const char *text, size_t len)
{
	struct kd_relay *rl = kd->relay;
	int ret;

	if (!kd_relay_active(kd))
		return 0;
	ret = ust_relay_send_metadata_wait(rl->meta, text, len, RELAY_TIMEOUT_MS);
	if (ret)
		fall_back(kd, ret == UST_RELAY_FULL ? "lttng-relayd took no metadata for 3 s" :
			  ust_relay_error(rl->r));
	return 0;
}

/* A packet the relay client gave back: written to DIR/kernel. */
static void keep_unsent(void *arg, struct ust_relay_stream *rs, const void *packet,
			size_t len, uint64_t events)
{
	struct kerneld *kd = arg;
	unsigned int cpu;

	for (cpu = 0; cpu < kd->nr_cpus; cpu++) {
		if (kd->relay->streams[cpu] != rs)
			continue;
		if (packet)
			kd_packet_write_local(kd, &kd->streams[cpu], packet, len);
		else
			kd->relay->cut_events += events;
		return;
	}
}

static void fall_back(struct kerneld *kd, const char *why)
{
	struct kd_relay *rl = kd->relay;

	rl->fell_back = true;
	if (rl->r) {
		ust_relay_take_unsent(rl->r, keep_unsent, kd);
		ust_relay_close(rl->r);
		rl->r = NULL;
	}
	fprintf(stderr, "ust record: kernel events: %s; the kernel trace goes on in %s (%" PRIu64
		" events cut)\n", why, kd->dir_path ? kd->dir_path : "DIR/kernel", rl->cut_events);
}

int kd_relay_packet(struct kerneld *kd, struct kstream *s, uint64_t events)
{
	struct kd_relay *rl = kd->relay;
	struct ust_relay_stream **rs;
	struct ust_relay_index ix;
	char name[32];
	int ret;

	if (!kd_relay_active(kd))
		return 0;
	rs = &rl->streams[s->cpu];
	if (!*rs) {
		snprintf(name, sizeof(name), "kernel_%u", s->cpu);
		*rs = ust_relay_add_stream(rl->r, "kernel", name);
		if (!*rs) {
			fall_back(kd, ust_relay_error(rl->r));
			return 0;
		}
		rl->unpublished = true;
	}
	ust_relay_index_of(s->pkt, &ix);
	ret = ust_relay_send_packet_wait(*rs, s->pkt, s->len, &ix, events, RELAY_TIMEOUT_MS);
	if (ret) {
		fall_back(kd, ret == UST_RELAY_FULL ? "lttng-relayd took nothing for 3 s" :
			  ust_relay_error(rl->r));
		return 0;
	}
	return 1;
}

/*
 * After each pass: move what is queued, publish new streams, and (live)
 * say of each CPU that sent nothing that it is quiet: its ring was read
 * empty just now, so up to one live period ago at least (the instance's
 * trace_clock is the session clock, tracefs.c), and never before its last
 * event.
 */
void kd_relay_pass_end(struct kerneld *kd)
{
	struct kd_relay *rl = kd->relay;
	uint64_t now, margin, quiet;
	unsigned int cpu;

	if (!kd_relay_active(kd))
		return;
	if (ust_relay_pump(rl->r)) {
		fall_back(kd, ust_relay_error(rl->r));
		return;
	}
	if (rl->unpublished) {
		rl->unpublished = false;
		if (ust_relay_streams_sent(rl->r)) {
			fall_back(kd, ust_relay_error(rl->r));
			return;
		}
	}
	now = ust__clock_read(kd->clock.kind);
	margin = (uint64_t)((double)rl->session.live_timer_us * 1e-6 * (double)kd->clock.freq);
	for (cpu = 0; cpu < kd->nr_cpus && rl->session.live_timer_us; cpu++) {
		struct kstream *s = &kd->streams[cpu];

		quiet = now > margin && now - margin > s->last_ts ? now - margin : s->last_ts;
		if (rl->streams[cpu] && s->seq == rl->seq_seen[cpu] &&
		    ust_relay_send_beacon(rl->streams[cpu], quiet, 0) == UST_RELAY_BROKEN) {
			fall_back(kd, ust_relay_error(rl->r));
			return;
		}
		rl->seq_seen[cpu] = s->seq;
	}
}

/* DIR/kernel held only the fallback's metadata and empty files: remove it. */
static void remove_local(struct kerneld *kd)
{
	char name[32];
	unsigned int cpu;

	for (cpu = 0; cpu < kd->nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "kernel_%u", cpu);
		unlinkat(kd->dir_fd, name, 0);
	}
	unlinkat(kd->dir_fd, "metadata", 0);
	if (kd->dir_path)
		rmdir(kd->dir_path);
}

/* The end: everything sent and stored, or said.  Reports the trace. */
void kd_relay_finish(struct kerneld *kd, uint64_t events, uint64_t lost)
{
	struct kd_relay *rl = kd->relay;
	uint64_t unconfirmed = 0, p, n;
	unsigned int cpu;
	int ret;

	if (!kd_relay_active(kd))
		return;
	kd_relay_pass_end(kd);
	if (!kd_relay_active(kd))
		return;
	ret = ust_relay_finish(rl->r, 3 * RELAY_TIMEOUT_MS);
	if (ret == UST_RELAY_BROKEN) {
		fall_back(kd, ust_relay_error(rl->r));
		return;
	}
	for (cpu = 0; cpu < kd->nr_cpus && ret == UST_RELAY_FULL; cpu++) {
		if (rl->streams[cpu]) {
			ust_relay_stream_unconfirmed(rl->streams[cpu], &p, &n);
			unconfirmed += n;
		}
	}
	if (ret == UST_RELAY_OK && rl->session.live_timer_us)
		usleep(LINGER_MS * 1000);
	fprintf(stderr, "ust record: kernel trace on lttng-relayd at %s: %s: %" PRIu64 " events, %" PRIu64
		" lost", rl->url.ctrl.text, rl->path, events, lost);
	if (unconfirmed)
		fprintf(stderr, ", %" PRIu64 " not confirmed stored", unconfirmed);
	fputc('\n', stderr);
	ust_relay_close(rl->r);
	rl->r = NULL;
	remove_local(kd);
}

bool kd_relay_streamed(const struct kerneld *kd)
{
	return kd->relay && !kd->relay->fell_back;
}

void kd_relay_release(struct kerneld *kd)
{
	struct kd_relay *rl = kd->relay;

	if (!rl)
		return;
	ust_relay_close(rl->r);
	free(rl->streams);
	free(rl->seq_seen);
	free(rl);
	kd->relay = NULL;
}
