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
 * one left-to-right pass decides.
 */
void ust_filter_pattern_prepare(struct ust_filter_pattern *p,
				const uint8_t *pat, size_t len)
{
	const uint8_t *first = memchr(pat, '\0', len);

	p->bytes = pat;
	p->len = (uint32_t)len;
	p->star = first != NULL;
	p->head = first ? (uint32_t)(first - pat) : (uint32_t)len;
	p->tail_at = first ? (uint32_t)((const uint8_t *)memrchr(pat, '\0', len) -
				       pat) + 1 : (uint32_t)len;
}

/* The first place of `m` bytes `needle` in the `n` bytes at `hay`, or NULL. */
static const char *find_piece(const char *hay, size_t n, const uint8_t *needle,
			      size_t m)
{
	const char *end = hay + n;

	while ((size_t)(end - hay) >= m) {
		const char *at = memchr(hay, needle[0], (size_t)(end - hay) - m + 1);

		if (!at)
			return NULL;
		if (!memcmp(at + 1, needle + 1, m - 1))
			return at;
		hay = at + 1;
	}
	return NULL;
}

int ust_filter_pattern_match(const struct ust_filter_pattern *p, const char *s,
			     size_t n)
{
	size_t tail = p->len - p->tail_at;
	const uint8_t *piece, *last_star;
	const char *cur, *lim;

	if (!p->star)
		return n == p->len && memcmp(s, p->bytes, n) == 0;
	if (p->head > n || tail > n - p->head || memcmp(s, p->bytes, p->head) ||
	    memcmp(s + n - tail, p->bytes + p->tail_at, tail))
		return 0;
	cur = s + p->head;
	lim = s + n - tail;
	last_star = p->bytes + p->tail_at - 1;
	for (piece = p->bytes + p->head + 1; piece < last_star;) {
		const uint8_t *star = memchr(piece, '\0', (size_t)(last_star - piece) + 1);
		size_t len = (size_t)(star - piece);

		if (len) {
			const char *at = find_piece(cur, (size_t)(lim - cur), piece, len);

			if (!at)
				return 0;
			cur = at + len;
		}
		piece = star + 1;
	}
	return 1;
}

/*
 * A pattern that ends with a star ("GET *", "*zz*") needs no length:
 * its first piece is compared byte by byte, which stops at the string's
 * NUL at the latest (a piece holds no NUL), and each other piece is
 * found with strstr(), which reads no further than the NUL either; each
 * of those pieces is a C string, the star after it being a NUL byte of
 * the pattern.  Any other pattern measures the string first.
 */
int ust_filter_pattern_match_cstr(const struct ust_filter_pattern *p,
				  const char *s)
{
	const char *end = (const char *)p->bytes + p->len;
	const char *piece;
	size_t len;

	if (!p->star || p->tail_at != p->len)
		return ust_filter_pattern_match(p, s, strlen(s));
	if (strncmp(s, (const char *)p->bytes, p->head))
		return 0;
	s += p->head;
	for (piece = (const char *)p->bytes + p->head + 1; piece < end;
	     piece += len + 1) {
		len = strlen(piece);
		if (len) {
			s = strstr(s, piece);
			if (!s)
				return 0;
			s += len;
		}
	}
	return 1;
}

int ust_filter_match(const char *s, size_t n, const uint8_t *pat,
		     size_t patlen)
{
	struct ust_filter_pattern p;

	ust_filter_pattern_prepare(&p, pat, patlen);
	return ust_filter_pattern_match(&p, s, n);
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
