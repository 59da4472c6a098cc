/*
 * payload.c - reads and walks over a payload left in its segments.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The layout walker follows the grammar of common/layout.c (the
 * consumer's, over a contiguous record) over segments instead, with an
 * end pointer instead of a NUL so that a text in a program's pool needs
 * no terminator.  One function, walk(), checks the syntax (no data) and
 * moves over a payload, so the two cannot disagree.
 */
#include <stdbool.h>
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

/* The layout walker. */
struct walk {
	struct flt_view *v;	/* NULL: syntax only */
	const char *text, *end;	/* the whole text: tag slots count from text */
	uint64_t pos;
	uint64_t tags[UST_FILTER_LAYOUT_TAGS];
	unsigned int depth;
};

static int walk(struct walk *w, const char **s);

static int peek(const struct walk *w, const char *s)
{
	return s < w->end ? *s : '\0';
}

/* A decimal number in [min, max] at *s. */
static int number(const struct walk *w, const char **s, uint64_t min,
		  uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t n = 0;

	if (peek(w, p) < '0' || peek(w, p) > '9')
		return -1;
	while (peek(w, p) >= '0' && peek(w, p) <= '9') {
		uint64_t digit = (uint64_t)(*p++ - '0');

		if (n > (UINT64_MAX - digit) / 10)
			return -1;
		n = n * 10 + digit;
	}
	if (n < min || n > max)
		return -1;
	*s = p;
	*out = n;
	return 0;
}

static int int_size(const struct walk *w, const char **s, uint64_t *k)
{
	return number(w, s, 1, 8, k) || (*k & (*k - 1)) ? -1 : 0;
}

static int take_fixed(struct walk *w, uint64_t n)
{
	uint8_t byte;

	if (!w->v || n == 0)
		return 0;
	/* The last byte must exist; the ones before it then do too. */
	if (w->pos + n < w->pos || flt_view_read(w->v, w->pos + n - 1, &byte, 1))
		return -1;
	w->pos += n;
	return 0;
}

/* A k-byte little-endian unsigned integer, consumed. */
static int take_int(struct walk *w, uint64_t k, uint64_t *value)
{
	uint8_t b[8];
	uint64_t x = 0;
	unsigned int i;

	*value = 0;
	if (!w->v)
		return 0;
	if (flt_view_read(w->v, w->pos, b, (size_t)k))
		return -1;
	for (i = 0; i < k; i++)
		x |= (uint64_t)b[i] << (8 * i);
	w->pos += k;
	*value = x;
	return 0;
}

/* Tag slot of a 'T' at `at`: the 'T's before it in the whole text. */
static unsigned int tags_before(const struct walk *w, const char *at)
{
	unsigned int n = 0;
	const char *p;

	for (p = w->text; p < at; p++)
		n += *p == 'T';
	return n;
}

static int open_bracket(struct walk *w, const char **s)
{
	if (peek(w, *s) != '[' || ++w->depth > UST_FILTER_LAYOUT_DEPTH)
		return -1;
	(*s)++;
	return 0;
}

static int close_bracket(struct walk *w, const char **s)
{
	if (peek(w, *s) != ']')
		return -1;
	(*s)++;
	w->depth--;
	return 0;
}

/* "[layout]" walked `times` times (at least once, for its syntax). */
static int repeat(struct walk *w, const char **s, uint64_t times)
{
	struct flt_view *v = w->v;
	const char *body;
	uint64_t i;

	if (open_bracket(w, s))
		return -1;
	body = *s;
	for (i = 0; i < times || i == 0; i++) {
		uint64_t before = w->pos;

		*s = body;
		if (times == 0)
			w->v = NULL;	/* empty: syntax only */
		if (walk(w, s))
			return -1;
		w->v = v;
		/* An element of no bytes holds no tag: the same every time. */
		if (w->pos == before)
			break;
	}
	return close_bracket(w, s);
}

/* "I[v:layout|...]" after the 'V' at `at`: the option tag slot I selects. */
static int variant(struct walk *w, const char **s, const char *at)
{
	struct flt_view *v = w->v;
	uint64_t slot, value;
	bool found = false;

	if (number(w, s, 0, UST_FILTER_LAYOUT_TAGS - 1, &slot) ||
	    slot >= tags_before(w, at) || open_bracket(w, s))
		return -1;
	for (;;) {
		bool chosen;

		if (number(w, s, 0, UINT64_MAX, &value) || peek(w, *s) != ':')
			return -1;
		(*s)++;
		chosen = v && !found && value == w->tags[slot];
		found |= chosen;
		w->v = chosen ? v : NULL;
		if (walk(w, s))
			return -1;
		if (peek(w, *s) != '|')
			break;
		(*s)++;
	}
	w->v = v;
	if (v && !found)
		return -1;
	return close_bracket(w, s);
}

static int item(struct walk *w, const char **s)
{
	const char *at = *s;
	unsigned int slot;
	uint64_t n, value;

	if (*s >= w->end)
		return -1;
	switch (*(*s)++) {
	case 'F':
		return number(w, s, 0, UINT32_MAX, &n) ? -1 : take_fixed(w, n);
	case 'S':
		return w->v ? flt_view_skip_string(w->v, &w->pos) : 0;
	case 'A':
		return number(w, s, 1, 65535, &n) ? -1 : repeat(w, s, n);
	case 'Q':
		if (int_size(w, s, &n) || take_int(w, n, &value))
			return -1;
		return repeat(w, s, value);
	case 'T':
		slot = tags_before(w, at);
		if (int_size(w, s, &n) || slot >= UST_FILTER_LAYOUT_TAGS ||
		    take_int(w, n, &value))
			return -1;
		if (w->v)
			w->tags[slot] = value;
		return 0;
	case 'V':
		return variant(w, s, at);
	default:
		return -1;
	}
}

/* Items up to the end of the text or of the enclosing brackets. */
static int walk(struct walk *w, const char **s)
{
	int c = peek(w, *s);

	if (c == '\0' || c == ']' || c == '|')
		return 0;
	for (;;) {
		if (item(w, s))
			return -1;
		if (peek(w, *s) != ' ')
			return 0;
		(*s)++;
	}
}

int flt_view_skip_layout(struct flt_view *v, uint64_t *pos, const char *text,
			 size_t len)
{
	struct walk w;
	const char *s = text;

	memset(&w, 0, sizeof(w));
	w.v = v;
	w.text = text;
	w.end = text + len;
	w.pos = *pos;
	if (memchr(text, '\0', len) || walk(&w, &s) || s != w.end)
		return -1;
	*pos = w.pos;
	return 0;
}

int ust_filter_layout_check(const char *text, size_t len)
{
	uint64_t pos = 0;

	return flt_view_skip_layout(NULL, &pos, text, len);
}
