/*
 * layout.c - payload layouts: how long a record's payload is, without
 * decoding it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * tpgen writes one layout string per event class; the consumer walks every
 * record with it before a packet goes to disk.  The walker and the
 * grammar are common/layout-walk.h's, shared with libust's filters; here
 * the payload is one buffer.
 */
#include <errno.h>
#include <string.h>

#include "shm/packet.h"

/* A record's payload: `avail` bytes at `data`. */
struct ust__layout_payload {
	const uint8_t *data;
	size_t avail;
};

/* Layout strings come from the metadata log, each ended by its NUL. */
#define UST__LAYOUT_NUL_ENDED
#include "common/layout-walk.h"

/* No record is larger than a sub-buffer: neither is a fixed item. */
#define LAYOUT_MAX_FIXED	UST_SUBBUF_MAX

/* The walk's position never passes `avail`. */
static int ust__layout_take(struct ust__layout_payload *p, uint64_t *pos,
			    uint64_t n, uint8_t *copy)
{
	if (n > p->avail - *pos)
		return -1;
	if (copy)
		memcpy(copy, p->data + *pos, (size_t)n);
	*pos += n;
	return 0;
}

static int ust__layout_take_string(struct ust__layout_payload *p,
				   uint64_t *pos)
{
	const uint8_t *nul = memchr(p->data + *pos, '\0', p->avail - *pos);

	if (!nul)
		return -1;
	*pos = (uint64_t)(nul - p->data) + 1;
	return 0;
}

int shm_layout_check(const char *layout)
{
	uint64_t pos = 0;

	if (!layout || ust__layout_walk(layout, strlen(layout), LAYOUT_MAX_FIXED,
					NULL, &pos))
		return -EINVAL;
	return 0;
}

ssize_t shm_layout_payload_size(const char *layout, const uint8_t *p,
				size_t avail)
{
	struct ust__layout_payload payload = { .data = p, .avail = avail };
	uint64_t pos = 0;

	if (!layout || ust__layout_walk(layout, strlen(layout), LAYOUT_MAX_FIXED,
					&payload, &pos))
		return -1;
	return (ssize_t)pos;
}

ssize_t shm_layout_fixed_size(const char *layout)
{
	const char *s = layout;
	uint64_t total = 0, n;

	if (shm_layout_check(layout))
		return -1;
	/* Checked above: every 'F' has its number, at most LAYOUT_MAX_FIXED. */
	while (*s) {
		if (*s++ != 'F')
			return -1;	/* a string, sequence, array or variant */
		for (n = 0; *s >= '0' && *s <= '9'; s++)
			n = n * 10 + (uint64_t)(*s - '0');
		total += n;
		if (total > LAYOUT_MAX_FIXED)
			return -1;
		if (*s == ' ')
			s++;
	}
	return (ssize_t)total;
}
