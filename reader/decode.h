/*
 * decode.h - internal structures of the reader: traces, streams, and
 * the field walker that decodes (and optionally prints) one scope.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_READER_DECODE_H
#define UST_READER_DECODE_H

#include "reader.h"

struct rd_trace {
	char *path;		/* normalized absolute directory */
	char *name;		/* babeltrace2's: hostname[/relative path] */
	char *prefix;		/* "host:proc:(vpid) " printed before names */
	struct rd_metadata md;
};

struct rd_stream {
	struct rd_trace *trace;
	const struct rd_stream_class *sc;
	char *path;
	const uint8_t *map;
	size_t size;
	uint64_t stream_id, instance_id;
	bool has_instance_id;		/* else numbered like babeltrace2 */

	/* current packet */
	size_t pkt_off;			/* bytes from the start of the file */
	uint64_t pkt_bits, content_bits;
	uint64_t pos;			/* bits from the packet start */
	uint64_t clock;			/* cycles */
	uint64_t ts_begin, ts_end, seq, discarded;
	int64_t cpu;			/* cpu_id, -1 when none */
	int64_t tid;			/* a per-thread stream's tid, -1 when none */
	bool has_ts_begin, has_ts_end, has_seq, has_discarded;
	bool in_packet, first_packet;
	size_t start;			/* offset of the first packet to read */
	struct rd_out pctx;		/* rendered packet context */

	/* previous packet, for the discarded reports, now and at pkt_off */
	struct rd_packet_prev prev, pkt_prev;
	/* messages of the current packet delivered; to skip on resuming */
	uint64_t taken, skip;
	bool exhausted;			/* every message delivered */
	bool has_complete;		/* complete_end: rd_stream_pos */
	uint64_t complete_end;

	/* pending messages, head first */
	struct rd_msg pending[3];
	unsigned int nr_pending, next_pending;

	/* the event in `pending` when it is one */
	uint64_t ev_ctx_pos;
	bool ended;
};

/* What the walker is decoding, for the fields that carry meaning. */
enum rd_scope {
	SCOPE_PACKET_HEADER,
	SCOPE_PACKET_CONTEXT,
	SCOPE_EVENT_HEADER,
	SCOPE_STREAM_EVENT_CONTEXT,
	SCOPE_OTHER,
};

struct rd_walk {
	const uint8_t *base;	/* packet start */
	uint64_t pos, end;	/* bits */
	struct rd_stream *st;
	enum rd_scope scope;
	bool roles;		/* apply meanings (first decode only) */
	struct rd_out *o;	/* NULL: decode without printing */
	int depth;
	/* results of the roles */
	uint64_t id, magic, stream_id, instance_id;
	bool has_id, has_magic, has_stream_id, has_instance_id;
	int64_t vtid;
	/* when set: the values of the top struct's members (depth 1) */
	struct rd_value *capture;
	size_t nr_capture;
	char err[96];
};

/* A clock-mapped field of `size` bits with value `v`: the stream's clock. */
void rd_update_clock(struct rd_stream *st, unsigned int size, uint64_t v);

/* Decode the struct `t` at w->pos.  Returns 0 or -1 with w->err set. */
int rd_walk_struct(struct rd_walk *w, const struct rd_type *t, bool top);

#endif /* UST_READER_DECODE_H */
