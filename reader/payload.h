/*
 * payload.h - the raw bytes of an event's payload, for tools that know
 * the layout of the events they look at (function tracing, statedump).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_READER_PAYLOAD_H
#define UST_READER_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reader.h"

/*
 * The payload of the event `m`, which must be the last message
 * rd_reader_next() returned (like rd_reader_print_event()).  Returns 0
 * with *p and *len set, or -1 when `m` is no event or its payload does
 * not start and end on a byte (never the case in ust's own traces).
 */
int rd_event_payload(const struct rd_msg *m, const uint8_t **p, size_t *len);

/*
 * A 64-bit or 32-bit integer of a payload: ust traces are little endian,
 * like the only host ust builds on (x86-64, configure.ac).
 */
static inline uint64_t rd_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t rd_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

#endif /* UST_READER_PAYLOAD_H */
