/*
 * ctf/format.h - the CTF packet and event record as libust writes them in
 * the ring buffer and as they go to disk: packet header and context, the
 * event header encoding, and the byte helpers every reader uses.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Header only: libust encodes records with it on the hot path, the
 * consumer and ust-kerneld write packets with it, shm/packet.c walks
 * them.  The TSDL that declares these layouts is ctf/tsdl.c (trace
 * packet header and packet context) and the consumer's metadata.c
 * (event header and context); both must match this file byte for byte.
 * Everything is little endian (x86-64 only).
 */
#ifndef UST_CTF_FORMAT_H
#define UST_CTF_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "abi/shm.h"

#define UST_CTF_MAGIC		0xC1FC1FC1u

/*
 * Start of every packet (sub-buffer), packed, little endian.  The metadata
 * declares exactly these fields, in this order, with 8-bit alignment.
 */
struct ust_packet_header {
	/* trace.packet.header */
	uint32_t magic;			/* UST_CTF_MAGIC */
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t stream_instance_id;	/* the CPU */
	/* stream.packet.context */
	uint64_t timestamp_begin;
	uint64_t packet_seq_num;	/* free-running sub-buffer number */
	uint32_t cpu_id;
	/* closing fields, filled when the packet is closed (I5) */
	uint64_t timestamp_end;
	uint64_t content_size;		/* bits, headers included */
	uint64_t packet_size;		/* bits; the consumer rounds content */
	uint64_t events_discarded;	/* cumulative lost records of the buffer (I7) */
} __attribute__((packed));

/* The closing fields, as one block (copied in by the closing writer). */
struct ust_packet_close {
	uint64_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t events_discarded;
} __attribute__((packed));

#define UST_PACKET_HEADER_SIZE	sizeof(struct ust_packet_header)
#define UST_PACKET_OFF(field)	offsetof(struct ust_packet_header, field)
#define UST_PACKET_CLOSE_OFFSET	UST_PACKET_OFF(timestamp_end)

/*
 * Event record: header, stream event context, payload, all byte aligned.
 *
 * Compact header (4 bytes, little endian word):
 *	bits 0..4	event id (0..30)
 *	bits 5..31	low 27 bits of the timestamp
 * Extended header (13 bytes), used when id > 30 or when the timestamp is
 * not within 2^27 ticks after the previous record's (the reader assumes
 * at most one wrap of the 27 bits):
 *	byte 0		31 (3 high bits zero)
 *	bytes 1..4	uint32 id
 *	bytes 5..12	uint64 timestamp
 * Stream event context: the fields of the channel's event_context set
 * (abi/shm.h, enum ust_event_context), in this order, each when its bit
 * is set: int32 vtid, int32 vpid, char procname[17] (NUL-padded),
 * uint64 pthread_id, uint64 ip.  All but the ip are the same in every
 * record of a thread: the writer keeps them as one per-thread image per
 * channel (ctf_ev_context_image()) and copies it whole.
 */
#define UST_EV_COMPACT_ID_MAX	30u
#define UST_EV_EXTENDED		31u
#define UST_EV_TS_BITS		27u
#define UST_EV_COMPACT_SIZE	4u
#define UST_EV_EXTENDED_SIZE	13u
#define UST_CTX_VTID_SIZE	4u
#define UST_CTX_VPID_SIZE	4u
#define UST_CTX_PROCNAME_SIZE	17u	/* LTTng-UST's: a 16-byte name and a NUL */
#define UST_CTX_PTHREAD_ID_SIZE	8u
#define UST_CTX_IP_SIZE		8u
#define UST_CTX_NR		5u
/* The per-thread image: room for every field but the ip, copied whole. */
#define UST_CTX_IMAGE_MAX	40u
#define UST_EV_CONTEXT_MAX	(UST_CTX_VTID_SIZE + UST_CTX_VPID_SIZE + \
				 UST_CTX_PROCNAME_SIZE + UST_CTX_PTHREAD_ID_SIZE + \
				 UST_CTX_IP_SIZE)
/* A header and its context, as the writer builds them (fixed-size copies). */
#define UST_EV_HEADER_MAX	(UST_EV_EXTENDED_SIZE + UST_CTX_IMAGE_MAX + \
				 UST_CTX_IP_SIZE)

_Static_assert(UST_EV_CONTEXT_MAX - UST_CTX_IP_SIZE <= UST_CTX_IMAGE_MAX,
	       "the per-thread image holds every context field but the ip");

/* Bytes of each context field, in record order (bit i of the set). */
static inline size_t ctf_ctx_field_size(unsigned int i)
{
	static const uint8_t sizes[UST_CTX_NR] = {
		UST_CTX_VTID_SIZE, UST_CTX_VPID_SIZE, UST_CTX_PROCNAME_SIZE,
		UST_CTX_PTHREAD_ID_SIZE, UST_CTX_IP_SIZE,
	};

	return i < UST_CTX_NR ? sizes[i] : 0;
}

/*
 * Where field `bit` (one UST_CTX_* bit) starts in the context of a
 * channel whose set is `event_context`; with bit 1 << UST_CTX_NR, the
 * size of the whole context.
 */
static inline size_t ctf_ev_context_offset(uint32_t event_context, uint32_t bit)
{
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < UST_CTX_NR && (1u << i) < bit; i++)
		if (event_context & (1u << i))
			off += ctf_ctx_field_size(i);
	return off;
}

/* Bytes of stream event context in each record of a channel. */
static inline size_t ctf_ev_context_size(uint32_t event_context)
{
	return ctf_ev_context_offset(event_context, 1u << UST_CTX_NR);
}

/* The bytes of the per-thread image: the context without the ip. */
static inline size_t ctf_ev_context_image_size(uint32_t event_context)
{
	return ctf_ev_context_offset(event_context, UST_CTX_IP);
}

/* The values of the per-thread context fields of one thread. */
struct ctf_ctx_values {
	int32_t vtid;
	int32_t vpid;
	char procname[UST_CTX_PROCNAME_SIZE];	/* NUL-padded */
	uint64_t pthread_id;
};

/*
 * Lay out the per-thread fields of set `event_context` in `img`
 * (UST_CTX_IMAGE_MAX bytes, the rest zeroed), in record order.
 */
static inline void ctf_ev_context_image(uint8_t *img, uint32_t event_context,
					const struct ctf_ctx_values *v)
{
	const void *src[UST_CTX_NR - 1] = {
		&v->vtid, &v->vpid, v->procname, &v->pthread_id,
	};
	size_t off = 0;
	unsigned int i;

	__builtin_memset(img, 0, UST_CTX_IMAGE_MAX);
	for (i = 0; i < UST_CTX_NR - 1; i++) {
		if (event_context & (1u << i)) {
			__builtin_memcpy(img + off, src[i], ctf_ctx_field_size(i));
			off += ctf_ctx_field_size(i);
		}
	}
}

/*
 * Encode the event header and context of a record with event `id` and
 * timestamp `ts`, the previous record (or packet start) being at
 * `last_ts` (I4), into `h` (UST_EV_HEADER_MAX bytes).  The per-thread
 * image `img` (ctf_ev_context_image()) and the ip are always stored,
 * with fixed-size copies and no branch: `img_size` and `ctx_size`
 * (ctf_ev_context_image_size() and ctf_ev_context_size() of the
 * channel's set) say where the ip goes and what counts.  Returns the
 * size used.
 */
static inline size_t ctf_ev_header_encode_ctx(uint8_t *h, uint32_t id,
					      uint64_t ts, uint64_t last_ts,
					      const uint8_t *img, uint64_t ip,
					      size_t img_size, size_t ctx_size)
{
	size_t n;

	if (id <= UST_EV_COMPACT_ID_MAX &&
	    ts - last_ts < (1ull << UST_EV_TS_BITS)) {
		uint32_t word = id | (uint32_t)(ts << 5);

		__builtin_memcpy(h, &word, 4);
		n = UST_EV_COMPACT_SIZE;
	} else {
		h[0] = UST_EV_EXTENDED;
		__builtin_memcpy(h + 1, &id, 4);
		__builtin_memcpy(h + 5, &ts, 8);
		n = UST_EV_EXTENDED_SIZE;
	}
	__builtin_memcpy(h + n, img, UST_CTX_IMAGE_MAX);
	__builtin_memcpy(h + n + img_size, &ip, UST_CTX_IP_SIZE);
	return n + ctx_size;
}

/* The same for a channel whose records carry the vtid only (tests, tools). */
static inline size_t ctf_ev_header_encode(uint8_t *h, uint32_t id, uint64_t ts,
					  uint64_t last_ts, int32_t vtid)
{
	uint8_t img[UST_CTX_IMAGE_MAX] = { 0 };

	__builtin_memcpy(img, &vtid, UST_CTX_VTID_SIZE);
	return ctf_ev_header_encode_ctx(h, id, ts, last_ts, img, 0,
					UST_CTX_VTID_SIZE, UST_CTX_VTID_SIZE);
}

/* Little-endian fields of packets and records, at any alignment. */
static inline uint32_t ctf_get_le32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t ctf_get_le64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void ctf_put_le64(uint8_t *p, uint64_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

#endif /* UST_CTF_FORMAT_H */
