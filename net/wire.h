/*
 * wire.h - building and reading the relay's messages byte by byte.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * lttng-relayd's messages are packed structures whose integers are big
 * endian ("network order").  We never map a C struct onto the wire: a
 * message is built field by field into a `struct ust_wire`, and replies
 * are read field by field at their offsets, so the layouts are written
 * once, in net/relayd-abi.h, as offsets and sizes.
 */
#ifndef UST_NET_WIRE_H
#define UST_NET_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A message under construction; `failed` once an allocation failed. */
struct ust_wire {
	uint8_t *buf;
	size_t len;
	size_t cap;
	bool failed;
};

void ust_wire_init(struct ust_wire *w);
void ust_wire_release(struct ust_wire *w);
void ust_wire_reset(struct ust_wire *w);

/* Append; on allocation failure the message is marked failed. */
void ust_wire_bytes(struct ust_wire *w, const void *p, size_t n);
void ust_wire_zeros(struct ust_wire *w, size_t n);
void ust_wire_u8(struct ust_wire *w, uint8_t v);
void ust_wire_be32(struct ust_wire *w, uint32_t v);
void ust_wire_be64(struct ust_wire *w, uint64_t v);
/* The string and its terminating NUL. */
void ust_wire_str0(struct ust_wire *w, const char *s);

/* Overwrite a big-endian field already appended at `at`. */
void ust_wire_patch_be32(struct ust_wire *w, size_t at, uint32_t v);
void ust_wire_patch_be64(struct ust_wire *w, size_t at, uint64_t v);

static inline void ust_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void ust_put_be64(uint8_t *p, uint64_t v)
{
	ust_put_be32(p, (uint32_t)(v >> 32));
	ust_put_be32(p + 4, (uint32_t)v);
}

static inline uint32_t ust_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t ust_get_be64(const uint8_t *p)
{
	return (uint64_t)ust_get_be32(p) << 32 | ust_get_be32(p + 4);
}

#endif /* UST_NET_WIRE_H */
