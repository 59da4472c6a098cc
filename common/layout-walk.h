/*
 * layout-walk.h - walking a payload with its layout string: how many
 * bytes it takes, without decoding it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * tpgen writes one layout string per event class.  Two readers walk
 * payloads with it: the consumer checks every record of a packet, in one
 * buffer (shm/layout.c), and libust's filters move over a probe's payload
 * where it lies, in its segments (filter/payload.c).  They fetch bytes
 * differently; the walker is this one, so they cannot disagree about
 * what a layout means.  It is compiled into each of them, as static
 * functions with that reader's way of fetching bytes inlined (calls
 * through pointers cost the consumer a quarter of its walk): the walk
 * costs what a walker written for that reader alone would.  The includer
 * defines:
 *
 *	struct ust__layout_payload		what it reads
 *	static int ust__layout_take(struct ust__layout_payload *p,
 *				    uint64_t *pos, uint64_t n, uint8_t *copy)
 *		move *pos past `n` bytes: 0, or -1 when the payload is
 *		shorter; with `copy` (then n <= 8), copy the bytes there too
 *	static int ust__layout_take_string(struct ust__layout_payload *p,
 *					   uint64_t *pos)
 *		move *pos past the string at *pos and its NUL: 0, or -1
 *
 * (and UST__LAYOUT_NUL_ENDED when its texts end with a NUL), then calls
 * ust__layout_walk().
 *
 * Grammar (items separated by one space; doc/ring-buffer.md has
 * examples):
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
 * lw_items(), both checks the syntax (no payload) and moves over a
 * payload: the two can never disagree.  The text ends at `end`, not at a
 * NUL, so that a text in a filter program's pool needs no terminator
 * (but see lw_peek()).
 */
#ifndef UST_COMMON_LAYOUT_WALK_H
#define UST_COMMON_LAYOUT_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UST__LAYOUT_MAX_DEPTH	16u	/* nested brackets */
#define UST__LAYOUT_MAX_TAGS	16u	/* 'T' items in one text */
#define UST__LAYOUT_MAX_ARRAY	65535u	/* elements of an 'A' item */

struct ust__layout_payload;
static int ust__layout_take(struct ust__layout_payload *p, uint64_t *pos,
			    uint64_t n, uint8_t *copy);
static int ust__layout_take_string(struct ust__layout_payload *p,
				   uint64_t *pos);

struct layout_walk {
	const char *text, *end;	/* the whole text: tag slots count from text */
	uint64_t max_fixed;
	struct ust__layout_payload *p;	/* NULL: syntax only */
	uint64_t pos;
	uint64_t tags[UST__LAYOUT_MAX_TAGS];
	unsigned int depth;
};

static int lw_items(struct layout_walk *w, const char **s);

/*
 * The character at `s`, '\0' at the end of the text.  An includer whose
 * texts all end with a NUL (the consumer's layout strings) defines
 * UST__LAYOUT_NUL_ENDED: the NUL then stops every rule without a bound
 * check on each character, which was a sixth of the consumer's walk.
 */
static int lw_peek(const struct layout_walk *w, const char *s)
{
#ifdef UST__LAYOUT_NUL_ENDED
	(void)w;
	return *s;
#else
	return s < w->end ? *s : '\0';
#endif
}

/* The digit at `s`, or -1. */
static int lw_digit(const struct layout_walk *w, const char *s)
{
	int c = lw_peek(w, s);

	return c >= '0' && c <= '9' ? c - '0' : -1;
}

/* A decimal number in [min, max] at *s. */
static int lw_number(const struct layout_walk *w, const char **s,
		     uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t n = 0;
	int d = lw_digit(w, p);

	if (d < 0)
		return -1;
	do {
		if (n > (UINT64_MAX - (uint64_t)d) / 10)
			return -1;
		n = n * 10 + (uint64_t)d;
		d = lw_digit(w, ++p);
	} while (d >= 0);
	if (n < min || n > max)
		return -1;
	*s = p;
	*out = n;
	return 0;
}

static int lw_int_size(const struct layout_walk *w, const char **s,
		       uint64_t *k)
{
	return lw_number(w, s, 1, 8, k) || (*k & (*k - 1)) ? -1 : 0;
}

static int lw_take(struct layout_walk *w, uint64_t n, uint8_t *copy)
{
	return w->p ? ust__layout_take(w->p, &w->pos, n, copy) : 0;
}

/* A k-byte little-endian unsigned integer, consumed. */
static int lw_take_int(struct layout_walk *w, uint64_t k, uint64_t *value)
{
	uint8_t b[8];
	uint64_t x = 0;
	unsigned int i;

	*value = 0;
	if (!w->p)
		return 0;
	if (lw_take(w, k, b))
		return -1;
	for (i = 0; i < k; i++)
		x |= (uint64_t)b[i] << (8 * i);
	*value = x;
	return 0;
}

static int lw_take_string(struct layout_walk *w)
{
	return w->p ? ust__layout_take_string(w->p, &w->pos) : 0;
}

/*
 * Tag slot of a 'T' at `at`, or the number of slots defined before `at`:
 * the 'T's before it in the whole text.  A tag inside an array body is
 * one slot, however many times it is read.
 */
static unsigned int lw_tags_before(const struct layout_walk *w,
				   const char *at)
{
	unsigned int n = 0;
	const char *p;

	for (p = w->text; p < at; p++)
		n += *p == 'T';
	return n;
}

static int lw_open(struct layout_walk *w, const char **s)
{
	if (lw_peek(w, *s) != '[' || ++w->depth > UST__LAYOUT_MAX_DEPTH)
		return -1;
	(*s)++;
	return 0;
}

static int lw_close(struct layout_walk *w, const char **s)
{
	if (lw_peek(w, *s) != ']')
		return -1;
	(*s)++;
	w->depth--;
	return 0;
}

/* "[layout]" walked `times` times (at least once, for its syntax). */
static int lw_repeat(struct layout_walk *w, const char **s, uint64_t times)
{
	struct ust__layout_payload *p = w->p;
	const char *body;
	uint64_t i;

	if (lw_open(w, s))
		return -1;
	body = *s;
	for (i = 0; i < times || i == 0; i++) {
		uint64_t before = w->pos;

		*s = body;
		if (times == 0)
			w->p = NULL;	/* empty: syntax only */
		if (lw_items(w, s))
			return -1;
		w->p = p;
		/* An element of no bytes holds no tag: the same every time. */
		if (w->pos == before)
			break;
	}
	return lw_close(w, s);
}

/*
 * "I[v:layout|v:layout...]" after the 'V' at `at`: walk the option whose
 * value is tag slot I, a tag defined earlier in the text; check the
 * syntax of the others.
 */
static int lw_variant(struct layout_walk *w, const char **s, const char *at)
{
	struct ust__layout_payload *p = w->p;
	uint64_t slot, value;
	bool found = false;

	if (lw_number(w, s, 0, UST__LAYOUT_MAX_TAGS - 1, &slot) ||
	    slot >= lw_tags_before(w, at) || lw_open(w, s))
		return -1;
	for (;;) {
		bool chosen;

		if (lw_number(w, s, 0, UINT64_MAX, &value) ||
		    lw_peek(w, *s) != ':')
			return -1;
		(*s)++;
		chosen = p && !found && value == w->tags[slot];
		found |= chosen;
		w->p = chosen ? p : NULL;
		if (lw_items(w, s))
			return -1;
		if (lw_peek(w, *s) != '|')
			break;
		(*s)++;
	}
	w->p = p;
	if (p && !found)
		return -1;
	return lw_close(w, s);
}

static int lw_item(struct layout_walk *w, const char **s)
{
	const char *at = *s;
	unsigned int slot;
	uint64_t n, value;

	switch (lw_peek(w, (*s)++)) {
	case 'F':
		if (lw_number(w, s, 0, w->max_fixed, &n))
			return -1;
		return lw_take(w, n, NULL);
	case 'S':
		return lw_take_string(w);
	case 'A':
		if (lw_number(w, s, 1, UST__LAYOUT_MAX_ARRAY, &n))
			return -1;
		return lw_repeat(w, s, n);
	case 'Q':
		if (lw_int_size(w, s, &n) || lw_take_int(w, n, &value))
			return -1;
		return lw_repeat(w, s, value);
	case 'T':
		slot = lw_tags_before(w, at);
		if (lw_int_size(w, s, &n) || slot >= UST__LAYOUT_MAX_TAGS ||
		    lw_take_int(w, n, &value))
			return -1;
		if (w->p)
			w->tags[slot] = value;
		return 0;
	case 'V':
		return lw_variant(w, s, at);
	default:
		return -1;
	}
}

/*
 * Walk items up to the end of the text or of the enclosing brackets
 * (']' or '|', left for the caller).
 */
static int lw_items(struct layout_walk *w, const char **s)
{
	int c = lw_peek(w, *s);

	if (c == '\0' || c == ']' || c == '|')
		return 0;
	for (;;) {
		if (lw_item(w, s))
			return -1;
		if (lw_peek(w, *s) != ' ')
			return 0;
		(*s)++;
	}
}

/*
 * Walk the layout text [text, text + len) over payload `p` from *pos,
 * and move *pos past what it describes: 0, or -1 when the text is not a
 * layout (an 'F' item above `max_fixed` bytes included) or the payload
 * does not hold it.  With `p` NULL, check the text only.
 */
static int ust__layout_walk(const char *text, size_t len, uint64_t max_fixed,
			    struct ust__layout_payload *p, uint64_t *pos)
{
	struct layout_walk w = {
		.text = text, .end = text + len, .max_fixed = max_fixed,
		.p = p, .pos = *pos,
	};
	const char *s = text;

	if (lw_items(&w, &s) || s != w.end)
		return -1;
	*pos = w.pos;
	return 0;
}

#endif /* UST_COMMON_LAYOUT_WALK_H */
