/*
 * relay.h - a client of lttng-relayd's control and data ports: what one
 * consumer needs to stream its traces to a relay (doc/relayd.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Life of a connection:
 *
 *	r = ust_relay_open(url, session, config, err)	connect both ports,
 *		agree on protocol 2.11, create (or join) the relay session,
 *		open its trace chunk;			bounded by config.timeout_ms
 *	ust_relay_add_stream(r, "app-12-..", "metadata")	one per file of the
 *	ust_relay_add_stream(r, "app-12-..", "ust_0")	local trace layout
 *	ust_relay_streams_sent(r)			publish them to viewers
 *	ust_relay_send_metadata(), ust_relay_send_packet(),
 *	ust_relay_send_beacon(), ust_relay_pump()	never wait
 *	ust_relay_finish(r, timeout)			flush, wait until the
 *		relay stored everything (data pending), end the chunk, close
 *		the streams
 *	ust_relay_close(r)
 *
 * Several connections (one per traced process: ust runs a consumer per
 * process) make ONE relay session when they give the same session
 * identity (uuid, id, name, hostname, creation time): lttng-relayd 2.11+
 * then shares one trace chunk, so one directory, between them; live
 * viewers list one session per connection under the same host and name
 * and babeltrace2 attaches to all of them.
 *
 * Nothing here waits for the network except ust_relay_open(),
 * add_stream, streams_sent and finish, each within its timeout.  The
 * sends are queued in front of the sockets (bounded; see `queue_bytes`);
 * a send that does not fit returns UST_RELAY_FULL and queues nothing.
 * Once a socket fails, the connection is broken for good: every call
 * returns UST_RELAY_BROKEN and ust_relay_error() says why, naming the URL.
 */
#ifndef UST_NET_RELAY_H
#define UST_NET_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/url.h"

enum ust_relay_status {
	UST_RELAY_OK = 0,
	UST_RELAY_FULL = 1,	/* not queued: the socket is behind; try later */
	UST_RELAY_BROKEN = -1,	/* the connection is unusable: see ust_relay_error() */
};

/* The identity every connection of one relay session gives. */
struct ust_relay_session {
	char name[UST_URL_NAME_MAX];	/* session name (live URL's SESSION) */
	char hostname[UST_URL_NAME_MAX];/* traced machine (live URL's HOSTNAME) */
	uint8_t uuid[16];		/* not all zero; same for the session */
	uint64_t id;			/* session number under that uuid */
	uint64_t creation_time;		/* seconds since the epoch */
	uint32_t live_timer_us;		/* 0: not a live session */
	bool name_has_time;		/* the relay then adds no -DATE-TIME */
};

struct ust_relay_config {
	int timeout_ms;			/* each blocking step; default 5000 */
	size_t queue_bytes;		/* per socket; default 8 MiB */
};

/* What a packet's index entry says (from its CTF packet context). */
struct ust_relay_index {
	uint64_t packet_size;		/* bits, padding included */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;		/* CTF stream class */
	uint64_t stream_instance_id;
	uint64_t packet_seq_num;
};

/*
 * The index entry of a packet as ust writes them (ctf/format.h: our
 * packet header, little endian).
 */
void ust_relay_index_of(const uint8_t *packet, struct ust_relay_index *ix);

struct ust_relay_stats {
	uint64_t packets_queued;	/* taken by send_packet */
	uint64_t bytes_queued;		/* their bytes */
	uint64_t packets_full;		/* refused with UST_RELAY_FULL */
	uint64_t metadata_bytes;
	uint64_t beacons;
	uint64_t packets_unsent;	/* given back after a failure */
	uint64_t packets_cut;		/* partly sent when it failed */
};

struct ust_relay;
struct ust_relay_stream;

/*
 * Connect, handshake and create or join the session; NULL with the
 * reason in err ("net://host:5342: control port 5342: Connection
 * refused").  `config` may be NULL for the defaults.
 */
struct ust_relay *ust_relay_open(const struct ust_relay_url *url,
				 const struct ust_relay_session *session,
				 const struct ust_relay_config *config,
				 char *err, size_t errlen);

/* The session directory under the relay's output, as the relay said. */
const char *ust_relay_output_path(const struct ust_relay *r);

/* The relay's number for this connection's session (live LIST_SESSIONS). */
uint64_t ust_relay_session_id(const struct ust_relay *r);

/* Why the connection broke, or "" while it works. */
const char *ust_relay_error(const struct ust_relay *r);

bool ust_relay_broken(const struct ust_relay *r);

/*
 * Add a stream: its file is PATH/CHANNEL under the session directory;
 * CHANNEL "metadata" is the metadata of the trace at PATH (add it before
 * that trace's data streams).  Waits for the relay's answer.  NULL when
 * broken.
 */
struct ust_relay_stream *ust_relay_add_stream(struct ust_relay *r, const char *path,
					      const char *channel);

/* Publish the streams added so far to live viewers.  Waits. */
int ust_relay_streams_sent(struct ust_relay *r);

/*
 * Append metadata text.  An increment that does not start with the
 * "/ * CTF 1.8 * /" signature gets one (a comment to TSDL parsers):
 * babeltrace2's live source parses each increment it receives on its
 * own and wants the signature on each.
 */
int ust_relay_send_metadata(struct ust_relay_stream *s, const void *text, size_t len);

/*
 * Send a whole CTF packet and its index entry.  `note` is the caller's
 * (the consumer: the packet's event count); the relay client adds them up
 * per stream, so that ust_relay_stream_unconfirmed() can say how much of
 * what left is not known stored yet.
 */
int ust_relay_send_packet(struct ust_relay_stream *s, const void *packet, size_t len,
			  const struct ust_relay_index *index, uint64_t note);

/*
 * Live beacon: "no event in this stream up to `timestamp`" (a clock
 * value), so viewers need not wait for a quiet stream.  The relay honours
 * it only once the stream has had a packet.
 */
int ust_relay_send_beacon(struct ust_relay_stream *s, uint64_t timestamp,
			  uint64_t ctf_stream_id);

/* Move queued bytes and read answers, without waiting. */
int ust_relay_pump(struct ust_relay *r);

/*
 * Wait until a packet of `len` bytes (and its index) fits in the queues,
 * as a writer waits for a slow disk: as long as the relay takes something,
 * however slowly; UST_RELAY_FULL when it took nothing for `stall_ms`.
 */
int ust_relay_wait_room(struct ust_relay *r, size_t len, int stall_ms);

/* Everything queued sent and answered, or the timeout: OK, FULL (late), BROKEN. */
int ust_relay_flush(struct ust_relay *r, int timeout_ms);

/*
 * ust_relay_send_metadata(), flushing the queues while they are full:
 * metadata must not be lost.  UST_RELAY_FULL only when a flush did not
 * finish within `timeout_ms`.
 */
int ust_relay_send_metadata_wait(struct ust_relay_stream *s, const void *text,
				 size_t len, int timeout_ms);

/*
 * ust_relay_send_packet(), waiting while the queues are full, as a writer
 * waits for a slow disk (ust_relay_wait_room()): UST_RELAY_FULL only when
 * the relay took nothing for `stall_ms`.
 */
int ust_relay_send_packet_wait(struct ust_relay_stream *s, const void *packet,
			       size_t len, const struct ust_relay_index *index,
			       uint64_t note, int stall_ms);

/*
 * Has the relay written (data and index) everything sent on `s`?
 * 1 pending, 0 stored, UST_RELAY_BROKEN.  Waits for the answer.
 */
int ust_relay_data_pending(struct ust_relay_stream *s, int timeout_ms);

/*
 * Ask, without waiting, whether the relay stored everything sent on `s` so
 * far (DATA_PENDING, answered in order with the other queued commands).
 * When the answer is "stored", what was sent up to then counts as
 * confirmed.  UST_RELAY_OK (nothing new to ask is OK too), FULL, BROKEN.
 */
int ust_relay_confirm(struct ust_relay_stream *s);

/* Packets and notes sent on `s` that the relay has not confirmed stored. */
void ust_relay_stream_unconfirmed(const struct ust_relay_stream *s, uint64_t *packets,
				  uint64_t *notes);

/* Barrier: every earlier command of the connection was handled.  Waits. */
int ust_relay_quiescent(struct ust_relay_stream *s, int timeout_ms);

/*
 * Clean end: flush, wait until the relay stored every stream's data
 * (asking "data pending" until it is not), rotate the streams to no trace
 * chunk (so that live viewers still read them to their end, as lttng's
 * `destroy` does), close every stream; all within timeout_ms.  UST_RELAY_OK, UST_RELAY_FULL when the time ran out
 * (something may not be stored), UST_RELAY_BROKEN.
 */
int ust_relay_finish(struct ust_relay *r, int timeout_ms);

/*
 * After a failure: give back, oldest first, each packet still queued, so
 * that the caller can keep it elsewhere (the local trace).  `packet` is
 * NULL for a packet cut in the middle (some of its bytes left: the relay
 * has a broken end of file).  Counted in stats.packets_unsent and
 * packets_cut.  They were never confirmed: see ust_relay_stream_unconfirmed.
 */
void ust_relay_take_unsent(struct ust_relay *r,
			   void (*fn)(void *arg, struct ust_relay_stream *s,
				      const void *packet, size_t len, uint64_t note),
			   void *arg);

void ust_relay_get_stats(const struct ust_relay *r, struct ust_relay_stats *st);

/*
 * Send the finished CTF trace in directory `dir` (ust's packets: metadata
 * and stream files) as the trace `path` of the session, waiting while the
 * queues are full (at most timeout_ms each time).  *packets: how many
 * left.  UST_RELAY_OK, UST_RELAY_FULL (the relay took nothing that long),
 * UST_RELAY_BROKEN, or a negative errno for the directory (net/relay-dir.c).
 */
int ust_relay_send_dir(struct ust_relay *r, const char *dir, const char *path, int timeout_ms,
		       uint64_t *packets);

/* Name of the stream's file, "PATH/CHANNEL", for messages. */
const char *ust_relay_stream_name(const struct ust_relay_stream *s);

/* Packets sent on `s` (its next net sequence number). */
uint64_t ust_relay_stream_packets(const struct ust_relay_stream *s);

void ust_relay_close(struct ust_relay *r);

#endif /* UST_NET_RELAY_H */
