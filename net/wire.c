/*
 * wire.c - message buffers (net/wire.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>

#include "net/wire.h"

void ust_wire_init(struct ust_wire *w)
{
	*w = (struct ust_wire){ 0 };
}

void ust_wire_release(struct ust_wire *w)
{
	free(w->buf);
	ust_wire_init(w);
}

void ust_wire_reset(struct ust_wire *w)
{
	w->len = 0;
	w->failed = false;
}

/* Room for `n` more bytes; false (and `failed`) when it cannot be made. */
static bool wire_room(struct ust_wire *w, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (w->failed)
		return false;
	if (w->cap - w->len >= n)
		return true;
	cap = w->cap ? w->cap : 256;
	while (cap - w->len < n) {
		if (cap > SIZE_MAX / 2) {
			w->failed = true;
			return false;
		}
		cap *= 2;
	}
	p = realloc(w->buf, cap);
	if (!p) {
		w->failed = true;
		return false;
	}
	w->buf = p;
	w->cap = cap;
	return true;
}

void ust_wire_bytes(struct ust_wire *w, const void *p, size_t n)
{
	if (!n || !wire_room(w, n))
		return;
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void ust_wire_zeros(struct ust_wire *w, size_t n)
{
	if (!n || !wire_room(w, n))
		return;
	memset(w->buf + w->len, 0, n);
	w->len += n;
}

void ust_wire_u8(struct ust_wire *w, uint8_t v)
{
	ust_wire_bytes(w, &v, 1);
}

void ust_wire_be32(struct ust_wire *w, uint32_t v)
{
	uint8_t b[4];

	ust_put_be32(b, v);
	ust_wire_bytes(w, b, sizeof(b));
}

void ust_wire_be64(struct ust_wire *w, uint64_t v)
{
	uint8_t b[8];

	ust_put_be64(b, v);
	ust_wire_bytes(w, b, sizeof(b));
}

void ust_wire_str0(struct ust_wire *w, const char *s)
{
	ust_wire_bytes(w, s, strlen(s) + 1);
}

void ust_wire_patch_be32(struct ust_wire *w, size_t at, uint32_t v)
{
	if (!w->failed && at + 4 <= w->len)
		ust_put_be32(w->buf + at, v);
}

void ust_wire_patch_be64(struct ust_wire *w, size_t at, uint64_t v)
{
	if (!w->failed && at + 8 <= w->len)
		ust_put_be64(w->buf + at, v);
}
