/*
 * payload.c - reads and walks over a payload left in its segments.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Layout texts are walked by common/layout-walk.h's walker, the
 * consumer's too, with the segments as its source of bytes.
 */
#include <string.h>

#include "payload.h"
#include "runtime.h"

int flt_view_seek(struct flt_view *v, uint64_t off, size_t *in_seg)
{
	if (off < v->cur_start) {
		v->cur = 0;
		v->cur_start = 0;
	}
	while (v->cur < v->nr_segs) {
		size_t len = v->segs[v->cur].len;

		if (off - v->cur_start < len) {
			*in_seg = (size_t)(off - v->cur_start);
			return (int)v->cur;
		}
		v->cur_start += len;
		v->cur++;
	}
	return -1;
}

int flt_view_read(struct flt_view *v, uint64_t off, void *dst, size_t n)
{
	uint8_t *out = dst;

	while (n) {
		size_t in, take;
		int i = flt_view_seek(v, off, &in);

		if (i < 0)
			return -1;
		take = v->segs[i].len - in;
		if (take > n)
			take = n;
		memcpy(out, (const uint8_t *)v->segs[i].ptr + in, take);
		out += take;
		off += take;
		n -= take;
	}
	return 0;
}

int flt_view_next_byte(const struct flt_view *v, unsigned int i)
{
	for (i++; i < v->nr_segs; i++)
		if (v->segs[i].len)
			return *(const uint8_t *)v->segs[i].ptr;
	return -1;
}

/*
 * The bytes from `off` to the end of its segment: *s, *rest, and *nul at
 * the first NUL among them (or NULL).  The segment's index, or -1.
 */
static int bytes_at(struct flt_view *v, uint64_t off, const char **s,
		    size_t *rest, const char **nul)
{
	size_t in;
	int i = flt_view_seek(v, off, &in);

	if (i < 0)
		return -1;
	*s = (const char *)v->segs[i].ptr + in;
	*rest = v->segs[i].len - in;
	*nul = memchr(*s, '\0', *rest);
	return i;
}

int flt_view_string(struct flt_view *v, uint64_t off, const char **s,
		    size_t *len)
{
	const char *nul;
	size_t rest;
	int i = bytes_at(v, off, s, &rest, &nul);

	if (i < 0)
		return -1;
	if (!nul && flt_view_next_byte(v, (unsigned int)i) != 0)
		return -1;	/* split across segments: not as tpgen writes */
	*len = nul ? (size_t)(nul - *s) : rest;
	return 0;
}

int flt_view_skip_string(struct flt_view *v, uint64_t *pos)
{
	uint64_t off = *pos;

	for (;;) {
		const char *s, *nul;
		size_t rest;

		if (bytes_at(v, off, &s, &rest, &nul) < 0)
			return -1;
		if (nul) {
			*pos = off + (uint64_t)(nul - s) + 1;
			return 0;
		}
		off += rest;
	}
}

/* The layout walker of common/layout-walk.h, over the segments. */
struct ust__layout_payload {
	struct flt_view *view;
};

#include "common/layout-walk.h"

static int ust__layout_take(struct ust__layout_payload *p, uint64_t *pos,
			    uint64_t n, uint8_t *copy)
{
	uint8_t byte;

	if (copy) {
		if (flt_view_read(p->view, *pos, copy, (size_t)n))
			return -1;
	} else if (n) {
		/* The last byte must exist; the ones before it then do too. */
		if (*pos + n < *pos ||
		    flt_view_read(p->view, *pos + n - 1, &byte, 1))
			return -1;
	}
	*pos += n;
	return 0;
}

static int ust__layout_take_string(struct ust__layout_payload *p,
				   uint64_t *pos)
{
	return flt_view_skip_string(p->view, pos);
}

_Static_assert(UST_FILTER_LAYOUT_DEPTH == UST__LAYOUT_MAX_DEPTH &&
	       UST_FILTER_LAYOUT_TAGS == UST__LAYOUT_MAX_TAGS,
	       "the compiler's layout limits are the walker's");

int flt_view_skip_layout(struct flt_view *v, uint64_t *pos, const char *text,
			 size_t len)
{
	struct ust__layout_payload payload = { .view = v };

	if (memchr(text, '\0', len))
		return -1;
	return ust__layout_walk(text, len, UINT32_MAX, v ? &payload : NULL,
				pos);
}

int ust_filter_layout_check(const char *text, size_t len)
{
	uint64_t pos = 0;

	return flt_view_skip_layout(NULL, &pos, text, len);
}
