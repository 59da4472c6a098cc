/*
 * layout.c - payload layouts: how long a record's payload is, without
 * decoding it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * tpgen writes one layout string per event class; the consumer walks every
 * record with it before a packet goes to disk.  Grammar (items separated
 * by one space; doc/ring-buffer.md has examples):
 *
 *	layout := [item (' ' item)*]
 *	item   := 'F' N                    N fixed bytes
 *	        | 'S'                      a NUL-terminated string
 *	        | 'A' N '[' layout ']'     N times the layout (static array)
 *	        | 'Q' K '[' layout ']'     a K-byte length L, then L times the
 *	                                   layout (sequence)
 *	        | 'T' K                    a K-byte integer kept as the next
 *	                                   tag slot (0, 1, ... in text order)
 *	        | 'V' I '[' opt ('|' opt)* ']'
 *	                                   the option whose value equals tag
 *	                                   slot I (variant)
 *	opt    := VALUE ':' layout
 *
 * K is 1, 2, 4 or 8; integers are little endian and unsigned (tpgen writes
 * a negative enum value as its K-byte two's complement).  One function,
 * walk(), both checks the syntax (no data) and measures a payload: the
 * two can never disagree about what a layout means.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "shm/packet.h"

#define LAYOUT_MAX_DEPTH	16
#define LAYOUT_MAX_TAGS		16
#define LAYOUT_MAX_FIXED	UST_SUBBUF_MAX
#define LAYOUT_MAX_ARRAY	65535u

struct walk {
	const char *layout;	/* the whole string: tag slots are text order */
	const uint8_t *data;	/* NULL: check the syntax only */
	size_t avail;
	size_t used;
	uint64_t tags[LAYOUT_MAX_TAGS];
	unsigned int depth;
};

static int walk(struct walk *w, const char **s);

/* A decimal number in [min, max] at *s. */
static int number(const char **s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		uint64_t digit = (uint64_t)(*p++ - '0');

		if (v > (UINT64_MAX - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	if (v < min || v > max)
		return -1;
	*s = p;
	*out = v;
	return 0;
}

static int int_size(const char **s, uint64_t *k)
{
	if (number(s, 1, 8, k) || (*k & (*k - 1)))
		return -1;
	return 0;
}

/* A K-byte little-endian integer of the payload, consumed. */
static int take_int(struct walk *w, uint64_t k, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int i;

	*v = 0;
	if (!w->data)
		return 0;
	if (k > w->avail - w->used)
		return -1;
	for (i = 0; i < k; i++)
		x |= (uint64_t)w->data[w->used + i] << (8 * i);
	w->used += k;
	*v = x;
	return 0;
}

static int take_fixed(struct walk *w, uint64_t n)
{
	if (w->data) {
		if (n > w->avail - w->used)
			return -1;
		w->used += n;
	}
	return 0;
}

static int take_string(struct walk *w)
{
	const uint8_t *nul;

	if (!w->data)
		return 0;
	nul = memchr(w->data + w->used, '\0', w->avail - w->used);
	if (!nul)
		return -1;
	w->used = (size_t)(nul - w->data) + 1;
	return 0;
}

/*
 * The slot of the tag item starting at `at`, or the number of slots
 * defined before `at`: the count of 'T' items before it in the text.  A
 * tag inside an array body is one slot, however many times it is read.
 */
static unsigned int tags_before(const struct walk *w, const char *at)
{
	unsigned int n = 0;
	const char *p;

	for (p = w->layout; p < at; p++)
		n += *p == 'T';
	return n;
}

/* "[layout]" at *s, walked `times` times (at least once for its syntax). */
static int repeat(struct walk *w, const char **s, uint64_t times)
{
	const char *body;
	uint64_t i;

	if (*(*s)++ != '[' || ++w->depth > LAYOUT_MAX_DEPTH)
		return -1;
	body = *s;
	for (i = 0; i < times || i == 0; i++) {
		size_t before = w->used;
		const uint8_t *data = w->data;

		*s = body;
		if (times == 0)
			w->data = NULL;		/* empty: syntax only */
		if (walk(w, s) < 0)
			return -1;
		w->data = data;
		/* An element of no bytes is the same every time. */
		if (w->used == before)
			break;
	}
	if (*(*s)++ != ']')
		return -1;
	w->depth--;
	return 0;
}

/*
 * "I[v:layout|v:layout...]" (after the 'V' at `at`): walk the option whose
 * value is tag slot I, a tag defined earlier in the text; check the
 * syntax of the others.
 */
static int variant(struct walk *w, const char **s, const char *at)
{
	const uint8_t *data = w->data;
	uint64_t slot, value;
	bool found = false;

	if (number(s, 0, LAYOUT_MAX_TAGS - 1, &slot) ||
	    slot >= tags_before(w, at) || *(*s)++ != '[' ||
	    ++w->depth > LAYOUT_MAX_DEPTH)
		return -1;
	for (;;) {
		bool chosen;

		if (number(s, 0, UINT64_MAX, &value) || *(*s)++ != ':')
			return -1;
		chosen = data && !found && value == w->tags[slot];
		found |= chosen;
		w->data = chosen ? data : NULL;
		if (walk(w, s) < 0)
			return -1;
		if (**s != '|')
			break;
		(*s)++;
	}
	w->data = data;
	if (*(*s)++ != ']' || (data && !found))
		return -1;
	w->depth--;
	return 0;
}

static int item(struct walk *w, const char **s)
{
	const char *at = *s;
	unsigned int slot;
	uint64_t n, v;

	switch (*(*s)++) {
	case 'F':
		return number(s, 0, LAYOUT_MAX_FIXED, &n) ? -1 : take_fixed(w, n);
	case 'S':
		return take_string(w);
	case 'A':
		if (number(s, 1, LAYOUT_MAX_ARRAY, &n))
			return -1;
		return repeat(w, s, n);
	case 'Q':
		if (int_size(s, &n) || take_int(w, n, &v))
			return -1;
		return repeat(w, s, v);
	case 'T':
		slot = tags_before(w, at);
		if (int_size(s, &n) || slot >= LAYOUT_MAX_TAGS ||
		    take_int(w, n, &v))
			return -1;
		if (w->data)
			w->tags[slot] = v;
		return 0;
	case 'V':
		return variant(w, s, at);
	default:
		return -1;
	}
}

/*
 * Walk items up to the end of the string or of the enclosing brackets
 * (']' or '|', left for the caller).
 */
static int walk(struct walk *w, const char **s)
{
	if (**s == '\0' || **s == ']' || **s == '|')
		return 0;
	for (;;) {
		if (item(w, s) < 0)
			return -1;
		if (**s != ' ')
			return 0;
		(*s)++;
	}
}

static int walk_all(struct walk *w, const char *layout)
{
	const char *s = layout;

	w->layout = layout;
	if (!layout || walk(w, &s) < 0 || *s != '\0')
		return -1;
	return 0;
}

int shm_layout_check(const char *layout)
{
	struct walk w = { 0 };

	return walk_all(&w, layout) ? -EINVAL : 0;
}

ssize_t shm_layout_payload_size(const char *layout, const uint8_t *p,
				size_t avail)
{
	struct walk w = { 0 };

	w.data = p;
	w.avail = avail;
	if (walk_all(&w, layout))
		return -1;
	return (ssize_t)w.used;
}

ssize_t shm_layout_fixed_size(const char *layout)
{
	const char *s = layout;
	uint64_t total = 0, n;

	if (shm_layout_check(layout))
		return -1;
	while (*s) {
		if (*s++ != 'F' || number(&s, 0, LAYOUT_MAX_FIXED, &n))
			return -1;	/* a string, sequence, array or variant */
		total += n;
		if (total > LAYOUT_MAX_FIXED)
			return -1;
		if (*s == ' ')
			s++;
	}
	return (ssize_t)total;
}
