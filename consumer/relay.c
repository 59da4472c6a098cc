/*
 * relay.c - the consumer's relay sink: the trace goes to lttng-relayd
 * (net/relay.h) instead of the trace directory (doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The trace keeps its local layout: in the relay session it is the trace
 * PROC-PID-DATE-TIME, with the streams "metadata" and "<channel>_<cpu>".
 * Streams are added on their first packet.
 *
 * The network is a disk that may be slow: sends are queued in front of the
 * sockets (net/outq.h) and the queues are pumped every tick; when they are
 * full the consumer waits for room, as it waits for a slow disk, so the
 * sub-buffers it has not read yet stay in the ring buffer, whose own rules
 * (discard, overwrite, blocking) decide what happens to the next events,
 * counted in the trace itself.  A relay that takes nothing for
 * RELAY_TIMEOUT_MS is given up (falling back, below), as is one that does
 * not answer an exchange waited for (adding a stream, the end) in that
 * time.
 *
 * Falling back: when the relay cannot be reached at start, or the
 * connection breaks later, the trace goes on in a trace directory under
 * the fallback directory (UST_RELAY_FALLBACK, or /tmp/ltt-usertrace):
 * its full metadata, then the packets the relay client gave back (none
 * of their bytes left), then everything that follows.  Packets that left
 * but that the relay had not confirmed stored (DATA_PENDING, asked every 200
 * ms) are counted "unconfirmed" in the summary: they may be missing
 * on the relay.
 *
 * Live (a live timer): at each live tick the sub-buffer being filled is
 * sent as it is, as a packet of its own ("piece"), and only what is new
 * goes each time; a stream with nothing new gets a beacon.  So a viewer
 * sees events one live period after they happen, whatever the
 * sub-buffer size.  Pieces are whole CTF packets: the header of their
 * sub-buffer, with timestamp_begin moved to the timestamp of the record
 * before the cut (where a CTF reader must restart its clock to decode
 * the compact timestamps that follow), timestamp_end at the piece's last
 * record, and packet_seq_num renumbered per stream (the gaps of lost
 * sub-buffers are kept), so that readers see no missing packet.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "abi/env.h"
#include "consumer.h"
#include "net/relay.h"
#include "net/session.h"
#include "net/sock.h"

#define RELAY_TIMEOUT_MS	3000	/* connect, add a stream, the end */
#define CONFIRM_PERIOD_MS	200
#define LINGER_MIN_MS		1000	/* live: viewers catch up before the end */
#define LINGER_MAX_MS		5000

/* What the sink knows of one stream of the consumer. */
struct relay_stream {
	struct ust_relay_stream *rs;	/* NULL until its first packet */
	/* live pieces */
	bool in_sub;			/* part of sub-buffer `sub` left already */
	uint64_t sub;
	size_t sent;			/* bytes of it that left, header included */
	bool have_last;
	uint64_t last_sub;		/* the last sub-buffer of which something left */
	uint64_t out_seq;		/* packet_seq_num of the next piece */
	uint64_t floor;			/* no piece may begin before this */
	uint64_t last_discarded;
	bool fresh;			/* a piece left since the last tick */
	uint64_t ctf_stream_id;
};

struct cd_relay {
	struct ust_relay *r;		/* NULL once fallen back */
	bool snapshots_only;		/* flight recorder: the trace stays local */
	struct ust_relay_url url;
	struct ust_relay_session session;
	char trace[128];		/* the trace's path in the session */
	char *fallback_dir;
	bool fell_back;
	struct ust_relay_stream *meta;
	char *meta_text;		/* every metadata byte sent, for a fallback */
	size_t meta_len;
	struct relay_stream *streams;	/* parallel to c->streams */
	bool unpublished;		/* streams added since STREAMS_SENT */
	int64_t next_confirm_ms;
	int64_t next_live_ms;
	uint8_t *piece;			/* a piece being built */
	/* for the summary */
	uint64_t packets, events;
	uint64_t unconfirmed_packets, unconfirmed_events;
	uint64_t kept_packets, kept_events, cut_packets, cut_events;
	char *snapshot_lines;		/* "relay_snapshot=PATH\n" each */
	char output_path[512];
	char error[512];
};

bool cd_relay_wanted(const char *output)
{
	return strstr(output, "://") != NULL;
}

bool cd_relay_sink(const struct consumer *c)
{
	return c->relay && !c->relay->snapshots_only;
}

/*
 * The begun summary's relay lines (summary.c): the URL, the trace's
 * place on the relay and the live timer when the trace streams (or
 * streamed before it fell back); "" when not.  Malloc'ed.
 */
char *cd_relay_begun_lines(const struct consumer *c)
{
	const struct cd_relay *rl = c->relay;
	char *text;

	if (!cd_relay_sink(c))
		return strdup("");
	if (asprintf(&text, UST_SUMMARY_KEY_RELAY "=%s\n" UST_SUMMARY_KEY_RELAY_PATH "=%s\n"
		     UST_SUMMARY_KEY_RELAY_LIVE "=%" PRIu32 "\n", rl->url.ctrl.text,
		     rl->output_path, rl->session.live_timer_us) < 0)
		return NULL;
	return text;
}

/* The relay session's name, or NULL without a relay (metadata.c's env). */
const char *cd_relay_session_name(const struct consumer *c)
{
	return c->relay ? c->relay->session.name : NULL;
}

static const char *fallback_dir(void)
{
	const char *dir = getenv(UST_ENV_RELAY_FALLBACK);

	return dir && *dir ? dir : UST_DEFAULT_OUTPUT;
}

static struct relay_stream *sink_of(const struct consumer *c, const struct stream *s)
{
	return &c->relay->streams[s - c->streams];
}

/* ---- falling back to the trace directory ------------------------------ */

/*
 * A packet the relay client gave back (NULL: cut in the middle): no
 * longer counted as sent; into the local stream file when whole.
 */
static void keep_unsent(void *arg, struct ust_relay_stream *rs, const void *packet,
			size_t len, uint64_t records)
{
	struct consumer *c = arg;
	struct cd_relay *rl = c->relay;
	unsigned int i;

	for (i = 0; i < c->nr_streams && rl->streams[i].rs != rs; i++)
		;
	if (i == c->nr_streams)
		return;
	rl->packets--;
	rl->events -= records;
	c->stats.packets--;
	c->stats.events -= records;
	if (!packet) {
		rl->cut_packets++;
		rl->cut_events += records;
		return;
	}
	rl->kept_packets++;
	rl->kept_events += records;
	c->stats.bytes -= len;
	cd_output_file_packet(c, &c->streams[i], packet, len, records);
}

/* What left and was never confirmed stored: counted for the summary. */
static void count_unconfirmed(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	uint64_t packets, events;
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++) {
		if (!rl->streams[i].rs)
			continue;
		ust_relay_stream_unconfirmed(rl->streams[i].rs, &packets, &events);
		rl->unconfirmed_packets += packets;
		rl->unconfirmed_events += events;
	}
}

/*
 * The relay is gone (or never came): say so, open the trace directory,
 * write the whole metadata there and the packets that never left; the
 * rest of the trace follows them there.
 */
static void fall_back(struct consumer *c, const char *why)
{
	struct cd_relay *rl = c->relay;

	if (rl->fell_back)
		return;
	rl->fell_back = true;
	snprintf(rl->error, sizeof(rl->error), "%s", why);
	if (rl->snapshots_only) {
		fprintf(stderr, CONSUMER_NAME ": %s; snapshots stay in %s\n", why, rl->fallback_dir);
		ust_relay_close(rl->r);
		rl->r = NULL;
		return;
	}
	if (cd_output_create_trace_dir(c, rl->fallback_dir, c->shm.procname, c->shm.pid)) {
		fprintf(stderr, CONSUMER_NAME ": %s; and no trace directory either: the trace is lost\n",
			why);
		cd_output_stop(c, "metadata", EIO);
	} else {
		fprintf(stderr, CONSUMER_NAME ": %s; the trace goes on in %s\n", why, c->out_path);
		cd_output_file_metadata(c, rl->meta_text, rl->meta_len);
		cd_summary_started(c);	/* a consumer that dies now: resumed there */
	}
	if (rl->r) {
		ust_relay_take_unsent(rl->r, keep_unsent, c);
		count_unconfirmed(c);
		/* what was given back or cut is not unconfirmed but accounted */
		rl->unconfirmed_packets -= rl->kept_packets + rl->cut_packets;
		rl->unconfirmed_events -= rl->kept_events + rl->cut_events;
		ust_relay_close(rl->r);
		rl->r = NULL;
	}
}

static void check_broken(struct consumer *c)
{
	struct cd_relay *rl = c->relay;

	if (rl->r && ust_relay_broken(rl->r))
		fall_back(c, ust_relay_error(rl->r));
}

/* ---- start --------------------------------------------------------------- */

int cd_relay_start(struct consumer *c, const char *url, const char *trace_name)
{
	struct ust_relay_config cfg = { .timeout_ms = RELAY_TIMEOUT_MS };
	struct cd_relay *rl = calloc(1, sizeof(*rl));
	char err[1024];

	if (!rl)
		return -ENOMEM;
	c->relay = rl;
	rl->streams = calloc(c->nr_streams ? c->nr_streams : 1, sizeof(*rl->streams));
	rl->piece = malloc(c->scratch_size);
	rl->fallback_dir = strdup(fallback_dir());
	snprintf(rl->trace, sizeof(rl->trace), "%s", trace_name);
	if (!rl->streams || !rl->piece || !rl->fallback_dir)
		return -ENOMEM;
	/*
	 * Flight recorder: snapshots read the trace's streamed channels back
	 * from its directory, so the trace stays local; each snapshot goes to
	 * the relay once written (cd_relay_snapshot()).
	 */
	rl->snapshots_only = c->shm.chan[0].mode == UST_MODE_FLIGHT;
	if (rl->snapshots_only) {
		int ret = cd_output_create_trace_dir(c, rl->fallback_dir, c->shm.procname,
						     c->shm.pid);

		if (ret)
			return ret;
	}
	if (ust_relay_url_parse(url, &rl->url, err, sizeof(err))) {
		fprintf(stderr, CONSUMER_NAME ": invalid relay URL '%s': %s\n", url, err);
		snprintf(err, sizeof(err), "invalid relay URL '%s'", url);
		fall_back(c, err);
		return 0;
	}
	/* One process alone: its own session, "ust-DATE-TIME" on the relay. */
	if (ust_relay_session_from_env(&rl->session, "ust", (uint64_t)c->shm.pid, CONSUMER_NAME)) {
		fall_back(c, "no random bytes for a relay session");
		return 0;
	}
	rl->r = ust_relay_open(&rl->url, &rl->session, &cfg, err, sizeof(err));
	if (!rl->r) {
		fall_back(c, err);
		return 0;
	}
	snprintf(rl->output_path, sizeof(rl->output_path), "%s/%s",
		 ust_relay_output_path(rl->r), rl->trace);
	if (rl->snapshots_only)
		return 0;
	rl->meta = ust_relay_add_stream(rl->r, rl->trace, "metadata");
	if (!rl->meta)
		check_broken(c);
	rl->next_confirm_ms = ust_net_now_ms() + CONFIRM_PERIOD_MS;
	/* the first live packets one period after the start, like lttng's timer */
	rl->next_live_ms = ust_net_now_ms() + rl->session.live_timer_us / 1000;
	return 0;
}

/* ---- metadata ------------------------------------------------------------ */

int cd_relay_metadata(struct consumer *c, const char *text, size_t len)
{
	struct cd_relay *rl = c->relay;
	char *grown;
	int ret;

	grown = realloc(rl->meta_text, rl->meta_len + len);
	if (!grown)
		return -ENOMEM;
	memcpy(grown + rl->meta_len, text, len);
	rl->meta_text = grown;
	rl->meta_len += len;
	if (rl->fell_back)
		return cd_output_file_metadata(c, text, len);
	/*
	 * Metadata must not be lost: when the queue is full, wait for it
	 * (bounded); a relay that takes nothing that long is given up.
	 */
	ret = ust_relay_send_metadata_wait(rl->meta, text, len, RELAY_TIMEOUT_MS);
	if (ret == UST_RELAY_FULL) {
		fall_back(c, "lttng-relayd took no metadata for 3 s");
		return 0;
	}
	check_broken(c);
	c->stats.bytes += len;
	return 0;
}

/* ---- packets ------------------------------------------------------------- */

/* The stream on the relay, added on its first packet. */
static bool stream_ready(struct consumer *c, const struct stream *s, struct relay_stream *rs)
{
	struct cd_relay *rl = c->relay;

	if (rs->rs)
		return true;
	rs->rs = ust_relay_add_stream(rl->r, rl->trace, s->name);
	if (!rs->rs) {
		check_broken(c);
		return false;
	}
	rl->unpublished = true;
	return true;
}

/* One whole packet (or piece) to the relay, or to the trace directory. */
static void send_one(struct consumer *c, struct stream *s, struct relay_stream *rs,
		     const uint8_t *pkt, size_t len, uint64_t records)
{
	struct cd_relay *rl = c->relay;
	struct ust_relay_index ix;
	int ret;

	if (rl->fell_back || !stream_ready(c, s, rs)) {
		cd_output_file_packet(c, s, pkt, len, records);
		return;
	}
	ust_relay_index_of(pkt, &ix);
	rs->ctf_stream_id = ix.stream_id;
	/* a slow network, as a slow disk: wait while it takes something */
	ret = ust_relay_send_packet_wait(rs->rs, pkt, len, &ix, records, RELAY_TIMEOUT_MS);
	if (ret) {
		fall_back(c, ret == UST_RELAY_FULL ? "lttng-relayd took nothing for 3 s" :
			  ust_relay_error(rl->r));
		cd_output_file_packet(c, s, pkt, len, records);
		return;
	}
	rl->packets++;
	rl->events += records;
	c->stats.packets++;
	c->stats.events += records;
	c->stats.bytes += len;
}

/* What a piece of a packet holds, from a walk of the whole packet. */
struct piece_walk {
	size_t from;			/* the piece's first record is at or after it */
	uint64_t before_ts;		/* timestamp of the last record before `from` */
	bool have_before;
	uint64_t last_ts;		/* of the piece's last record */
	uint64_t records;
};

static int piece_record(const struct ust_record_view *rec, void *arg)
{
	struct piece_walk *w = arg;

	if (rec->offset < w->from) {
		w->before_ts = rec->timestamp;
		w->have_before = true;
	} else {
		w->last_ts = rec->timestamp;
		w->records++;
	}
	return 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * Build, in rl->piece, the piece of packet `pkt` (sub-buffer `n`, `len`
 * bytes) from byte `from`: the header, then the records [from, len).
 * Returns its size, 0 when it has nothing to say.
 */
static size_t piece_build(struct consumer *c, struct stream *s, struct relay_stream *rs,
			  const uint8_t *pkt, size_t len, size_t from, bool partial,
			  uint64_t *records)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	struct piece_walk w = { .from = from };
	struct ust_walk_result res;
	uint8_t *p = c->relay->piece;
	uint64_t begin, end, lost;
	size_t size = UST_PACKET_HEADER_SIZE + (len - from);

	if (shm_packet_walk(pkt, len, c->shm.uuid, ci->stream_id, &ci->table,
			    piece_record, &w, &res))
		return 0;	/* drain.c checked it already: cannot happen */
	lost = partial ? rs->last_discarded : ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	/* nothing new: only an opening packet, or a new loss count, is worth it */
	if (!w.records && rs->have_last && lost == rs->last_discarded)
		return 0;
	begin = w.have_before ? w.before_ts : ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
	begin = max_u64(begin, rs->floor);
	end = partial ? (w.records ? w.last_ts : begin)
		      : ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	end = max_u64(end, begin);
	memcpy(p, pkt, UST_PACKET_HEADER_SIZE);
	memcpy(p + UST_PACKET_HEADER_SIZE, pkt + from, len - from);
	ctf_put_le64(p + UST_PACKET_OFF(timestamp_begin), begin);
	ctf_put_le64(p + UST_PACKET_OFF(timestamp_end), end);
	ctf_put_le64(p + UST_PACKET_OFF(packet_seq_num), rs->out_seq);
	ctf_put_le64(p + UST_PACKET_OFF(content_size), (uint64_t)size * 8);
	ctf_put_le64(p + UST_PACKET_OFF(packet_size), (uint64_t)size * 8);
	ctf_put_le64(p + UST_PACKET_OFF(events_discarded), lost);
	rs->floor = end;
	rs->last_discarded = lost;
	*records = w.records;
	return size;
}

void cd_relay_packet(struct consumer *c, struct stream *s, uint64_t n, const uint8_t *pkt,
		     size_t len, uint64_t records, bool partial)
{
	struct cd_relay *rl = c->relay;
	struct relay_stream *rs = sink_of(c, s);
	size_t from = UST_PACKET_HEADER_SIZE, size;
	uint64_t piece_records = 0;

	if (!rl->session.live_timer_us) {
		/* not live: the packets as they are, as on disk */
		if (!partial)
			send_one(c, s, rs, pkt, len, records);
		return;
	}
	if (rs->in_sub && rs->sub == n)
		from = rs->sent;
	else if (rs->have_last && n > rs->last_sub + 1)
		rs->out_seq += n - rs->last_sub - 1;	/* lost sub-buffers stay a gap */
	if (len < from)
		return;
	size = piece_build(c, s, rs, pkt, len, from, partial, &piece_records);
	if (size) {
		send_one(c, s, rs, rl->piece, size, piece_records);
		rs->out_seq++;
		rs->have_last = true;
		rs->last_sub = n;
		rs->fresh = true;
	}
	rs->in_sub = partial;
	rs->sub = n;
	rs->sent = len;
}

/* ---- every tick ---------------------------------------------------------- */

bool cd_relay_live_due(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	int64_t now;

	if (!rl || !rl->r || !rl->session.live_timer_us)
		return false;
	now = ust_net_now_ms();
	if (now < rl->next_live_ms)
		return false;
	rl->next_live_ms = now + rl->session.live_timer_us / 1000;
	return true;
}

/*
 * Streams with nothing new this live period: "no event before T", so
 * that viewers need not wait for them.  T is the clock one live period
 * ago (a writer may still commit a record it timed a little earlier),
 * and never before what the stream already said.
 */
void cd_relay_beacons(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	uint64_t now = ust__clock_read(c->shm.clock_kind);
	uint64_t margin = (uint64_t)((double)rl->session.live_timer_us * 1e-6 * (double)c->clock.freq);
	uint64_t t = now > margin ? now - margin : 0;
	unsigned int i;

	for (i = 0; i < c->nr_streams && rl->r; i++) {
		struct relay_stream *rs = &rl->streams[i];

		if (rs->rs && rs->have_last && !rs->fresh && t > rs->floor) {
			if (ust_relay_send_beacon(rs->rs, t, rs->ctf_stream_id) == UST_RELAY_BROKEN)
				check_broken(c);
			rs->floor = t;
		}
		rs->fresh = false;
	}
}

/* Every CONFIRM_PERIOD_MS: ask what the relay stored, to count what it did not. */
static void confirm_all(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	unsigned int i;

	for (i = 0; i < c->nr_streams && rl->r; i++) {
		if (rl->streams[i].rs && ust_relay_confirm(rl->streams[i].rs) == UST_RELAY_BROKEN)
			check_broken(c);
	}
}

void cd_relay_tick(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	int64_t now;

	if (!rl || !rl->r)
		return;
	if (ust_relay_pump(rl->r)) {
		check_broken(c);
		return;
	}
	if (rl->unpublished) {
		/* new streams: live viewers learn of them */
		rl->unpublished = false;
		if (ust_relay_streams_sent(rl->r))
			check_broken(c);
	}
	now = ust_net_now_ms();
	if (rl->r && now >= rl->next_confirm_ms) {
		rl->next_confirm_ms = now + CONFIRM_PERIOD_MS;
		confirm_all(c);
	}
}

/* ---- the end ------------------------------------------------------------- */

static void linger(const struct cd_relay *rl)
{
	int64_t ms = 2 * (int64_t)rl->session.live_timer_us / 1000;
	struct timespec ts;

	if (ms < LINGER_MIN_MS)
		ms = LINGER_MIN_MS;
	if (ms > LINGER_MAX_MS)
		ms = LINGER_MAX_MS;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000;
	nanosleep(&ts, NULL);
}

/*
 * Everything sent and stored, the streams closed (bounded by the
 * timeout); what could not be is kept locally or counted.  A live session
 * stays open a little: babeltrace2's live source drops what it has not
 * read yet of a session it learns is closed.
 */
void cd_relay_finish(struct consumer *c)
{
	struct cd_relay *rl = c->relay;
	int ret;

	if (!rl || !rl->r)
		return;
	cd_relay_tick(c);
	if (!rl->r)
		return;
	ret = ust_relay_finish(rl->r, 3 * RELAY_TIMEOUT_MS);
	if (ret == UST_RELAY_BROKEN) {
		fall_back(c, ust_relay_error(rl->r));
		return;
	}
	if (ret == UST_RELAY_FULL) {
		count_unconfirmed(c);
		fprintf(stderr, CONSUMER_NAME ": lttng-relayd at %s did not confirm %" PRIu64
			" packets (%" PRIu64 " events) within %d ms\n", rl->url.ctrl.text,
			rl->unconfirmed_packets, rl->unconfirmed_events, 3 * RELAY_TIMEOUT_MS);
	} else if (rl->session.live_timer_us) {
		linger(rl);
	}
	ust_relay_close(rl->r);
	rl->r = NULL;
}

/* A snapshot written in `dir`: to the relay too, as the trace of its name. */
void cd_relay_snapshot(struct consumer *c, const char *dir)
{
	struct cd_relay *rl = c->relay;
	const char *base = strrchr(dir, '/');
	uint64_t packets;
	char *lines;
	int ret;

	if (!rl || !rl->r)
		return;
	base = base ? base + 1 : dir;
	ret = ust_relay_send_dir(rl->r, dir, base, RELAY_TIMEOUT_MS, &packets);
	if (ret) {
		fall_back(c, ret < 0 ? strerror(-ret) : rl->r && ust_relay_broken(rl->r) ?
			  ust_relay_error(rl->r) : "lttng-relayd took nothing for 3 s");
		return;
	}
	if (asprintf(&lines, "%s" UST_SUMMARY_KEY_RELAY_SNAPSHOT "=%s/%s\n",
		     rl->snapshot_lines ? rl->snapshot_lines : "", ust_relay_output_path(rl->r),
		     base) < 0)
		return;
	free(rl->snapshot_lines);
	rl->snapshot_lines = lines;
	fprintf(stderr, CONSUMER_NAME ": snapshot %s sent to lttng-relayd at %s (%" PRIu64 " packets)\n",
		dir, rl->url.ctrl.text, packets);
}

/* The summary's relay lines (abi/consumerd.h); "" when not streaming. */
char *cd_relay_summary(const struct consumer *c)
{
	const struct cd_relay *rl = c->relay;
	char *text;

	if (!rl)
		return strdup("");
	if (rl->snapshots_only) {
		if (asprintf(&text, "%s%s%s%s", rl->snapshot_lines ? rl->snapshot_lines : "",
			     rl->error[0] ? UST_SUMMARY_KEY_ERROR "=" : "", rl->error,
			     rl->error[0] ? "\n" : "") < 0)
			return NULL;
		return text;
	}
	if (asprintf(&text,
		     UST_SUMMARY_KEY_RELAY "=%s\n"
		     UST_SUMMARY_KEY_RELAY_PATH "=%s\n"
		     UST_SUMMARY_KEY_RELAY_PACKETS "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_RELAY_EVENTS "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_RELAY_UNCONFIRMED "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_RELAY_KEPT "=%" PRIu64 "\n"
		     UST_SUMMARY_KEY_RELAY_CUT "=%" PRIu64 "\n%s%s%s",
		     rl->url.ctrl.text, rl->output_path, rl->packets, rl->events,
		     rl->unconfirmed_events, rl->kept_packets,
		     rl->cut_events, rl->error[0] ? UST_SUMMARY_KEY_RELAY_ERROR "=" : "",
		     rl->error, rl->error[0] ? "\n" : "") < 0)
		return NULL;
	return text;
}

void cd_relay_release(struct consumer *c)
{
	struct cd_relay *rl = c->relay;

	if (!rl)
		return;
	ust_relay_close(rl->r);
	free(rl->streams);
	free(rl->piece);
	free(rl->meta_text);
	free(rl->fallback_dir);
	free(rl->snapshot_lines);
	free(rl);
	c->relay = NULL;
}
