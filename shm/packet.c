/*
 * packet.c - check and walk one CTF packet as libust writes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A packet is struct ust_packet_header followed by records (ctf/format.h):
 * a compact (4 bytes) or extended (13 bytes) header, the channel's stream
 * event context (its set of fields, ctf/format.h), and a payload described
 * by the event's layout string.  Nothing in the
 * packet is trusted: every read is checked against the content size,
 * which is itself checked against the buffer length.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "shm/packet.h"

#define TS_MASK		((1ull << UST_EV_TS_BITS) - 1)

static int walk_fail(struct ust_walk_result *res, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int walk_fail(struct ust_walk_result *res, size_t off, const char *fmt, ...)
{
	va_list ap;

	res->error_offset = off;
	va_start(ap, fmt);
	vsnprintf(res->error, sizeof(res->error), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* What the walk keeps from the packet header. */
struct pkt_bounds {
	uint64_t ts_begin;
	uint64_t ts_end;
	size_t content;		/* bytes */
};

static int check_header(const uint8_t *pkt, size_t len, const uint8_t uuid[16],
			uint32_t stream_id, struct pkt_bounds *b,
			struct ust_walk_result *res)
{
	uint64_t content, size;
	uint32_t v;

	if (len < UST_PACKET_HEADER_SIZE)
		return walk_fail(res, 0, "packet of %zu bytes is shorter than its header", len);
	v = ctf_get_le32(pkt + UST_PACKET_OFF(magic));
	if (v != UST_CTF_MAGIC)
		return walk_fail(res, UST_PACKET_OFF(magic), "bad magic 0x%08x", v);
	if (uuid && memcmp(pkt + UST_PACKET_OFF(uuid), uuid, 16))
		return walk_fail(res, UST_PACKET_OFF(uuid), "uuid differs from the trace's");
	v = ctf_get_le32(pkt + UST_PACKET_OFF(stream_id));
	if (v != stream_id)
		return walk_fail(res, UST_PACKET_OFF(stream_id), "stream id %u, expected %u",
				 v, stream_id);
	b->ts_begin = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
	b->ts_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	content = ctf_get_le64(pkt + UST_PACKET_OFF(content_size));
	size = ctf_get_le64(pkt + UST_PACKET_OFF(packet_size));
	if (content % 8 || content < 8 * UST_PACKET_HEADER_SIZE || content / 8 > len)
		return walk_fail(res, UST_PACKET_OFF(content_size),
				 "content_size %llu bits invalid for %zu bytes",
				 (unsigned long long)content, len);
	if (size % 8 || size < content || size / 8 > len)
		return walk_fail(res, UST_PACKET_OFF(packet_size),
				 "packet_size %llu bits invalid (content_size %llu, %zu bytes)",
				 (unsigned long long)size,
				 (unsigned long long)content, len);
	if (b->ts_end < b->ts_begin)
		return walk_fail(res, UST_PACKET_OFF(timestamp_end),
				 "timestamp_end %llu before timestamp_begin %llu",
				 (unsigned long long)b->ts_end,
				 (unsigned long long)b->ts_begin);
	b->content = (size_t)(content / 8);
	return 0;
}

/*
 * Decode the event header at `off` and advance the reader clock
 * `*clock` exactly as a CTF reader does: a compact header replaces the
 * low 27 bits, adding one wrap when they decrease; an extended header
 * sets the whole value.  Sets `*id` and `*size`.
 */
static int decode_event_header(const uint8_t *pkt, size_t off, size_t avail,
			       uint64_t *clock, uint32_t *id, size_t *size,
			       struct ust_walk_result *res)
{
	const uint8_t *p = pkt + off;
	uint64_t ts;
	uint32_t w;

	if (avail < UST_EV_COMPACT_SIZE)
		return walk_fail(res, off, "record header truncated");
	w = ctf_get_le32(p);
	if ((w & 0x1f) != UST_EV_EXTENDED) {
		ts = w >> 5;
		if (ts < (*clock & TS_MASK))
			*clock += 1ull << UST_EV_TS_BITS;
		*clock = (*clock & ~TS_MASK) | ts;
		*id = w & 0x1f;
		*size = UST_EV_COMPACT_SIZE;
		return 0;
	}
	if (avail < UST_EV_EXTENDED_SIZE)
		return walk_fail(res, off, "extended record header truncated");
	if (p[0] != UST_EV_EXTENDED)
		return walk_fail(res, off, "extended header padding bits set (0x%02x)", p[0]);
	ts = ctf_get_le64(p + 5);
	if (ts < *clock)
		return walk_fail(res, off, "timestamp goes backwards (%llu after %llu)",
				 (unsigned long long)ts, (unsigned long long)*clock);
	*clock = ts;
	*id = ctf_get_le32(p + 1);
	*size = UST_EV_EXTENDED_SIZE;
	return 0;
}

/* Walk the record at `off`: fill `rec`, including its size. */
static int walk_record(const uint8_t *pkt, const struct pkt_bounds *b,
		       size_t off, const struct ust_layout_table *table,
		       uint64_t *clock, struct ust_record_view *rec,
		       size_t *size, struct ust_walk_result *res)
{
	size_t hdr = 0, ctx, avail = b->content - off;
	const char *layout;
	ssize_t payload;

	if (decode_event_header(pkt, off, avail, clock, &rec->id, &hdr, res))
		return -EINVAL;
	if (*clock > b->ts_end)
		return walk_fail(res, off, "timestamp %llu after timestamp_end %llu",
				 (unsigned long long)*clock,
				 (unsigned long long)b->ts_end);
	if (!table || rec->id >= table->nr || !table->layouts[rec->id])
		return walk_fail(res, off, "unknown event id %u", rec->id);
	layout = table->layouts[rec->id];
	rec->vtid = -1;
	ctx = ctf_ev_context_size(table->event_context);
	if (avail - hdr < ctx)
		return walk_fail(res, off, "record context truncated");
	if (table->event_context & UST_CTX_VTID)	/* the first field */
		rec->vtid = (int32_t)ctf_get_le32(pkt + off + hdr);
	hdr += ctx;
	if (table->fixed && table->fixed[rec->id] >= 0)
		payload = (size_t)table->fixed[rec->id] <= avail - hdr ?
			  table->fixed[rec->id] : -1;
	else
		payload = shm_layout_payload_size(layout, pkt + off + hdr, avail - hdr);
	if (payload < 0)
		return walk_fail(res, off, "payload of event id %u runs past the content",
				 rec->id);
	rec->timestamp = *clock;
	rec->payload = pkt + off + hdr;
	rec->payload_size = (size_t)payload;
	rec->offset = off;
	*size = hdr + (size_t)payload;
	return 0;
}

int shm_packet_walk(const uint8_t *pkt, size_t len, const uint8_t uuid[16],
		    uint32_t stream_id, const struct ust_layout_table *table,
		    ust_record_cb cb, void *arg, struct ust_walk_result *res)
{
	struct ust_record_view rec;
	struct pkt_bounds b = { 0, 0, 0 };
	uint64_t clock;
	size_t off, size = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_header(pkt, len, uuid, stream_id, &b, res);
	if (ret)
		return ret;
	/* The reader clock starts at timestamp_begin in every packet. */
	clock = b.ts_begin;
	for (off = UST_PACKET_HEADER_SIZE; off < b.content; off += size) {
		ret = walk_record(pkt, &b, off, table, &clock, &rec, &size, res);
		if (ret)
			return ret;
		res->nr_records++;
		res->last_timestamp = clock;
		if (cb) {
			ret = cb(&rec, arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int shm_packet_counted(const uint8_t *pkt, size_t len, const uint8_t uuid[16],
		       uint32_t stream_id, uint64_t records,
		       struct ust_walk_result *res)
{
	struct pkt_bounds b = { 0, 0, 0 };
	uint64_t bytes;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_header(pkt, len, uuid, stream_id, &b, res);
	if (ret)
		return ret;
	bytes = b.content - UST_PACKET_HEADER_SIZE;
	/* Every record takes at least a compact header. */
	if ((records == 0) != (bytes == 0) || records > bytes / UST_EV_COMPACT_SIZE)
		return walk_fail(res, UST_PACKET_HEADER_SIZE,
				 "%llu records cannot fill %llu bytes",
				 (unsigned long long)records,
				 (unsigned long long)bytes);
	res->nr_records = records;
	res->last_timestamp = b.ts_end;
	return 0;
}
