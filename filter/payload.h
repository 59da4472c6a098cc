/*
 * payload.h - reading an event's payload where the probe left it: a list
 * of segments (struct ust_seg), never copied into one buffer.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Offsets are positions in the concatenation of the segments.  Every
 * access is checked against the segments' lengths, so nothing here reads
 * outside them whatever the offsets; a read that does not fit fails.
 */
#ifndef UST_FILTER_PAYLOAD_H
#define UST_FILTER_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <ust/tracepoint.h>

struct flt_view {
	const struct ust_seg *segs;
	unsigned int nr_segs;
	/* Cache: segment `cur` starts at payload offset `cur_start`. */
	unsigned int cur;
	uint64_t cur_start;
};

static inline void flt_view_init(struct flt_view *v, const struct ust_seg *segs,
				 unsigned int nr_segs)
{
	v->segs = segs;
	v->nr_segs = nr_segs;
	v->cur = 0;
	v->cur_start = 0;
}

/*
 * The segment holding byte `off`, and where that byte is in it; -1 when
 * the payload is shorter.  Empty segments are never returned.
 */
int flt_view_seek(struct flt_view *v, uint64_t off, size_t *in_seg);

/* The first byte of the first non-empty segment after segment `i`, or -1. */
int flt_view_next_byte(const struct flt_view *v, unsigned int i);

/* Copy `n` bytes at `off` to `dst`: 0, or -1 when they are not all there. */
int flt_view_read(struct flt_view *v, uint64_t off, void *dst, size_t n);

/*
 * The string at `off`: its bytes must lie in one segment, with its NUL
 * after them in that segment or at the start of the next non-empty one
 * (what tpgen's probes write).  0 with *s and *len (without the NUL), or
 * -1.
 */
int flt_view_string(struct flt_view *v, uint64_t off, const char **s,
		    size_t *len);

/* Move *pos past the string at *pos and its NUL: 0, or -1. */
int flt_view_skip_string(struct flt_view *v, uint64_t *pos);

/*
 * Move *pos past what the layout text `text` (`len` bytes) describes: 0,
 * or -1 when the payload does not hold it.  With `v` NULL, check the
 * text's syntax only.
 */
int flt_view_skip_layout(struct flt_view *v, uint64_t *pos, const char *text,
			 size_t len);

#endif /* UST_FILTER_PAYLOAD_H */
