/*
 * packet.h - checking and walking one CTF packet as libust writes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Used by the consumer on every packet before it goes to disk (the shared
 * memory is untrusted), and by the tests to read buffers back.  Nothing
 * here trusts the packet: every size is checked against `len`.
 */
#ifndef UST_PACKET_H
#define UST_PACKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi/shm.h"
#include "ctf/format.h"

/*
 * One stream class: its event context and its event classes by id; for
 * each, when its payload has one size whatever the record (only fixed
 * items), that size, so that a walk needs no layout (else -1).
 */
struct ust_layout_table {
	const char **layouts;	/* layouts[id], NULL when the id is unknown */
	int32_t *fixed;		/* fixed[id]: the payload's size, or -1 */
	uint32_t nr;
	uint32_t event_context;	/* UST_CTX_* bits (abi/shm.h) */
};

struct ust_record_view {
	uint32_t id;
	uint64_t timestamp;	/* full value, rebuilt as a CTF reader does */
	int32_t vtid;		/* -1 when the channel records no vtid */
	const uint8_t *payload;
	size_t payload_size;
	size_t offset;		/* of the record in the packet */
};

/*
 * Check a layout string (see doc/ring-buffer.md, "Payload layouts").
 * Returns 0 or -EINVAL.
 */
int shm_layout_check(const char *layout);

/*
 * Size of the payload at `p` described by `layout`, or -1 when it runs
 * past `avail` bytes or is malformed (e.g. an unterminated string).
 */
ssize_t shm_layout_payload_size(const char *layout, const uint8_t *p,
				size_t avail);

/* The payload size of a layout of fixed items only, else -1. */
ssize_t shm_layout_fixed_size(const char *layout);

typedef int (*ust_record_cb)(const struct ust_record_view *rec, void *arg);

struct ust_walk_result {
	uint64_t nr_records;
	uint64_t last_timestamp;
	size_t error_offset;	/* where the walk stopped, on error */
	char error[128];	/* what was wrong, on error */
};

/*
 * Check a packet's header against the expectations (magic, uuid, stream
 * id, sizes: content_size <= 8 * len, content_size >= header), then walk
 * every record up to content_size: known id, payload within bounds,
 * timestamps non-decreasing and within [timestamp_begin, timestamp_end].
 * `cb` (may be NULL) is called for each record; a non-zero return stops
 * the walk and is returned.  Returns 0, or -EINVAL with `res->error` set.
 */
int shm_packet_walk(const uint8_t *pkt, size_t len, const uint8_t uuid[16],
		    uint32_t stream_id, const struct ust_layout_table *table,
		    ust_record_cb cb, void *arg, struct ust_walk_result *res);

/*
 * The checks of shm_packet_walk() on the header only, and a record count
 * published by the writer (abi/shm.h, I17): at least one record when
 * there is content, none when there is not, each at least a compact
 * header.  The records themselves are not read.  Returns 0 (res's count
 * set), or -EINVAL with `res->error` set: the caller then walks.
 */
int shm_packet_counted(const uint8_t *pkt, size_t len, const uint8_t uuid[16],
		       uint32_t stream_id, uint64_t records,
		       struct ust_walk_result *res);

#endif /* UST_PACKET_H */
