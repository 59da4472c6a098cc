/*
 * fast.h - the shortest path of the commonest filter, `x > 10` (struct
 * ust_filter_fast, UST_FILTER_SHAPE_INT_K), inline: the gated path of
 * libust (libust/gate.h) and the interpreter (interp.c) share it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_FILTER_FAST_H
#define UST_FILTER_FAST_H

#include <stdbool.h>
#include <string.h>

#include "runtime.h"

/*
 * May ust_filter_cstr_prefix_word() read bytes past a string's NUL (on
 * its page)?  Not in sanitized builds, which would report them.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UST_FILTER_READ_PAST_NUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define UST_FILTER_READ_PAST_NUL 0
#endif
#endif
#ifndef UST_FILTER_READ_PAST_NUL
#define UST_FILTER_READ_PAST_NUL 1
#endif

/* The `size`-byte unsigned integer at `p`, in payload byte order. */
static inline uint64_t ust_filter_bits_at(const uint8_t *p, unsigned int size, bool swap)
{
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		return p[0];
	case 2:
		memcpy(&u16, p, 2);
		return swap ? __builtin_bswap16(u16) : u16;
	case 4:
		memcpy(&u32, p, 4);
		return swap ? __builtin_bswap32(u32) : u32;
	default:
		memcpy(&u64, p, 8);
		return swap ? __builtin_bswap64(u64) : u64;
	}
}

/* The same as an integer of the load's flags (LOAD_INT's `a`). */
static inline int64_t ust_filter_extend(uint64_t bits, uint8_t a)
{
	unsigned int shift = 64 - 8 * (a & UST_FILTER_SIZE_MASK);

	/* Sign-extend: move the sign bit to bit 63, shift back. */
	if ((a & UST_FILTER_SIGNED) && shift)
		return (int64_t)(bits << shift) >> shift;
	return (int64_t)bits;
}

/* x OP k of the EQ_K ... BAND_K instructions. */
static inline int64_t ust_filter_compare_k(uint8_t op, int64_t x, int64_t k)
{
	switch (op) {
	case UST_FOP_EQ_K: return x == k;
	case UST_FOP_NE_K: return x != k;
	case UST_FOP_LT_K: return x < k;
	case UST_FOP_LE_K: return x <= k;
	case UST_FOP_GT_K: return x > k;
	case UST_FOP_GE_K: return x >= k;
	default: return (int64_t)((uint64_t)x & (uint64_t)k);	/* BAND_K */
	}
}

/* INT_K's field when the first segment does not hold it (interp.c). */
int ust_filter_run_int_k_slow(const struct ust_filter_fast *fast,
			      const struct ust_seg *segs, unsigned int nr_segs);

/* INT_K's comparison of the field's value `x` (validate.c takes it apart). */
static inline bool ust_filter_int_k_test(const struct ust_filter_fast *fast,
					 int64_t x)
{
	if (__builtin_expect(fast->band, 0))
		return (x & fast->k) != 0;
	return ((uint64_t)x - fast->lo <= fast->span) ^ fast->neg;
}

/*
 * INT_K's test on the payload's first segment, `base`, which holds the
 * field (fast->end is at most its length): read in place (tpgen's probes
 * put the fixed fields that come first there), compared as one unsigned
 * range test (validate.c takes x OP k apart).
 */
static inline bool ust_filter_int_k_keeps(const struct ust_filter_fast *fast,
					  const void *base)
{
	uint64_t bits = ust_filter_bits_at((const uint8_t *)base + fast->offset,
					   fast->size, false);

	return ust_filter_int_k_test(fast, (int64_t)(bits << fast->shift) >>
					   fast->shift);
}

/*
 * The same on a payload of 8 bytes at most passed by value, its bytes in
 * memory order (ust_event_write_small_ip()), with no load: the field
 * moved to the top of the word and back (fast->word_shl, word_shr).
 * The caller checked that the payload holds it (fast->end).
 */
static inline bool ust_filter_int_k_keeps_word(const struct ust_filter_fast *fast,
					       uint64_t payload)
{
	uint64_t top = payload << fast->word_shl;
	int64_t x = fast->load & UST_FILTER_SIGNED ?
		    (int64_t)top >> fast->word_shr :
		    (int64_t)(top >> fast->word_shr);

	return ust_filter_int_k_test(fast, x);
}

/* The INT_K shape: 1 to record, 0 to discard. */
static inline int ust_filter_run_int_k(const struct ust_filter_fast *fast,
				       const struct ust_seg *segs,
				       unsigned int nr_segs)
{
	if (__builtin_expect(!nr_segs || fast->end > segs[0].len, 0))
		return ust_filter_run_int_k_slow(fast, segs, nr_segs);
	return ust_filter_int_k_keeps(fast, segs[0].ptr);
}

/* memcmp(a, b, n) == 0, without a call for the short prefixes of patterns. */
static inline bool ust_filter_same_bytes(const char *a, const uint8_t *b, size_t n)
{
	size_t i;

	if (n > 16)
		return memcmp(a, b, n) == 0;
	for (i = 0; i < n; i++)
		if ((uint8_t)a[i] != b[i])
			return false;
	return true;
}

/*
 * The segment holding payload byte *off, *off becoming its place in it:
 * flt_view_seek() inline, for a field in one of the first segments.
 * nr_segs when the payload is shorter.
 */
static inline unsigned int ust_filter_seg_of(const struct ust_seg *segs,
					     unsigned int nr_segs, uint64_t *off)
{
	unsigned int i;

	for (i = 0; i < nr_segs && *off >= segs[i].len; i++)
		*off -= segs[i].len;
	return i;
}

/*
 * Does the string whose bytes go on for `rest` bytes from `s`, in
 * segment `i`, end: a NUL among them, or the next non-empty segment
 * starting with one?  A string that does not end is not as tpgen writes
 * it, and fails as LOAD_STR fails (flt_view_string()).
 */
static inline bool ust_filter_str_ends(const char *s, size_t rest,
				       const struct ust_seg *segs,
				       unsigned int nr_segs, unsigned int i)
{
	if (memchr(s, '\0', rest))
		return true;
	for (i++; i < nr_segs; i++)
		if (segs[i].len)
			return *(const uint8_t *)segs[i].ptr == 0;
	return false;
}

/*
 * The STR_MATCH shape with a pattern that is a prefix and one star
 * (fast->prefix): the string's first bytes, in its segment, are the
 * prefix (a shorter string has its NUL, or its segment's end, before).
 * As in the interpreter, a string that does not end fails: false, for
 * != too; that takes a look for its NUL when the result depends on it.
 */
static inline bool ust_filter_str_prefix_keeps(const struct ust_filter_fast *fast,
					       const struct ust_seg *segs,
					       unsigned int nr_segs)
{
	uint64_t in = fast->offset;
	unsigned int i = ust_filter_seg_of(segs, nr_segs, &in);
	uint32_t head = fast->pattern.head;
	const char *s;
	size_t rest;
	bool match;

	if (i == nr_segs)
		return false;	/* no such field */
	s = (const char *)segs[i].ptr + in;
	rest = segs[i].len - in;
	match = head <= rest && ust_filter_same_bytes(s, fast->pattern.bytes, head);
	if (match == (bool)fast->op)
		return false;	/* == without a match, != with one */
	return ust_filter_str_ends(s, rest, segs, nr_segs, i);
}

/*
 * Strings not measured yet (UST_SEG_CSTR, ust_event_write_gated_ip()):
 * the STR_MATCH shape decides on the string itself, reading none of its
 * bytes past its NUL.
 */

/*
 * Does the NUL-terminated `s` begin with the `n` bytes at `head` (no NUL
 * among them)?  Byte by byte, with no call: the loop stops at the first
 * difference, at s's NUL at the latest (head has none, it differs).
 */
static inline bool ust_filter_cstr_starts(const char *s, const uint8_t *head, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((uint8_t)s[i] != head[i])
			return false;
	return true;
}

/*
 * The commonest prefix on a string not measured, in one load and one
 * compare: a prefix of 8 bytes at most (fast->head_mask) on the first
 * field, a string (UST_SEG_CSTR).  1 to record, 0 to discard, -1 when
 * not decided here (ust_filter_cstr_prefix_keeps() decides).  The 8
 * bytes at the string are read: some may be past its NUL, never past a
 * 4 KiB boundary (so no unmapped page), and a string shorter than the
 * prefix differs from it at its NUL.  Not in sanitized builds
 * (UST_FILTER_READ_PAST_NUL), nor under valgrind (validate.c leaves
 * head_mask 0 there), which would report the bytes read past the string.
 */
static inline int ust_filter_cstr_prefix_word(const struct ust_filter_fast *fast,
					      const struct ust_seg *segs,
					      unsigned int nr_segs)
{
#if UST_FILTER_READ_PAST_NUL
	const char *s;
	uint64_t word;

	if (fast->offset || !fast->head_mask || !nr_segs ||
	    segs[0].len != UST_SEG_CSTR)
		return -1;
	s = (const char *)segs[0].ptr;
	if (!s || ((uintptr_t)s & 4095) > 4096 - sizeof(word))
		return -1;
	memcpy(&word, s, sizeof(word));
	return ((word & fast->head_mask) == fast->head_word) != (bool)fast->op;
#else
	(void)fast;
	(void)segs;
	(void)nr_segs;
	return -1;
#endif
}

/*
 * The string a STR_MATCH shape reads, when it begins a segment not
 * measured yet; NULL when its field is not such a string (the caller
 * measures the segments and runs the program as usual).  A segment not
 * measured ends the walk to the field: a field inside or after it is
 * not found here.
 */
static inline const char *ust_filter_cstr_field(const struct ust_filter_fast *fast,
						const struct ust_seg *segs,
						unsigned int nr_segs)
{
	uint64_t in = fast->offset;
	unsigned int i = ust_filter_seg_of(segs, nr_segs, &in);

	if (i == nr_segs || in || segs[i].len != UST_SEG_CSTR)
		return NULL;
	return (const char *)segs[i].ptr;
}

/*
 * The STR_MATCH shape whose pattern is a prefix and a star
 * (fast->prefix) on a string not measured: 1 to record, 0 to discard,
 * -1 when ust_filter_cstr_field() does not find it.  No call: libust's
 * gated path for probes with strings runs it inline.
 */
static inline int ust_filter_cstr_prefix_keeps(const struct ust_filter_fast *fast,
					       const struct ust_seg *segs,
					       unsigned int nr_segs)
{
	int keep = ust_filter_cstr_prefix_word(fast, segs, nr_segs);
	const char *s;

	if (keep >= 0)
		return keep;
	s = ust_filter_cstr_field(fast, segs, nr_segs);
	if (!s)
		return -1;
	return ust_filter_cstr_starts(s, fast->pattern.bytes, fast->pattern.head) !=
	       (bool)fast->op;
}

/* Any STR_MATCH shape on a string not measured: as ust_filter_cstr_prefix_keeps(). */
static inline int ust_filter_str_cstr_keeps(const struct ust_filter_fast *fast,
					    const struct ust_seg *segs,
					    unsigned int nr_segs)
{
	const char *s;

	if (fast->prefix)
		return ust_filter_cstr_prefix_keeps(fast, segs, nr_segs);
	s = ust_filter_cstr_field(fast, segs, nr_segs);
	if (!s)
		return -1;
	return ust_filter_pattern_match_cstr(&fast->pattern, s) != (bool)fast->op;
}

#endif /* UST_FILTER_FAST_H */
