/*
 * match.c - string patterns and event signatures, shared by the
 * interpreter and the compiler.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <string.h>

#include "runtime.h"

/*
 * A pattern is pieces separated by stars (NUL bytes here): the first
 * piece must begin the string, the last must end it, and the ones in
 * between must appear in order in what lies between.  Taking each middle
 * piece at its leftmost place leaves the most room for the next ones, so
 * one left-to-right pass decides, in time linear in the string for each
 * piece (memmem).
 */
int ust_filter_match(const char *s, size_t n, const uint8_t *pat,
		     size_t patlen)
{
	const uint8_t *first_star = memchr(pat, '\0', patlen);
	const uint8_t *last_star, *p;
	size_t head, tail;
	const char *cur, *lim;

	if (!first_star)
		return n == patlen && memcmp(s, pat, n) == 0;
	last_star = memrchr(pat, '\0', patlen);
	head = (size_t)(first_star - pat);
	tail = patlen - (size_t)(last_star - pat) - 1;
	if (head > n || tail > n - head || memcmp(s, pat, head) ||
	    memcmp(s + n - tail, last_star + 1, tail))
		return 0;
	cur = s + head;
	lim = s + n - tail;
	for (p = first_star + 1; p < last_star;) {
		const uint8_t *star = memchr(p, '\0', (size_t)(last_star - p) + 1);
		size_t len = (size_t)(star - p);

		if (len) {
			const char *at = memmem(cur, (size_t)(lim - cur), p, len);

			if (!at)
				return 0;
			cur = at + len;
		}
		p = star + 1;
	}
	return 1;
}

#define FNV64_OFFSET	0xcbf29ce484222325ull
#define FNV64_PRIME	0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (uint8_t)*s;
		h *= FNV64_PRIME;
	}
	return h;
}

uint64_t ust_filter_signature(const char *tsdl_fields, const char *layout)
{
	uint64_t h = fnv1a(FNV64_OFFSET, tsdl_fields);

	h *= FNV64_PRIME;	/* the NUL between the two: h ^= 0 */
	return fnv1a(h, layout);
}
