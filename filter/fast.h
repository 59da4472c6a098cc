/*
 * fast.h - the shortest path of the commonest filter, `x > 10` (struct
 * ust_filter_fast, UST_FILTER_SHAPE_INT_K), inline: the gated path of
 * libust (libust/gate.c) and the interpreter (interp.c) share it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_FILTER_FAST_H
#define UST_FILTER_FAST_H

#include <stdbool.h>
#include <string.h>

#include "runtime.h"

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

/*
 * A field at a fixed offset against a constant: read in place from the
 * first segment (where tpgen's probes put the fixed fields that come
 * first), compared.  1 to record, 0 to discard.
 */
static inline int ust_filter_run_int_k(const struct ust_filter_fast *fast,
				       const struct ust_seg *segs,
				       unsigned int nr_segs)
{
	unsigned int size = fast->load & UST_FILTER_SIZE_MASK;
	uint64_t bits;

	if (__builtin_expect(!nr_segs || fast->offset >= segs[0].len ||
			     size > segs[0].len - fast->offset, 0))
		return ust_filter_run_int_k_slow(fast, segs, nr_segs);
	bits = ust_filter_bits_at((const uint8_t *)segs[0].ptr + fast->offset,
				  size, fast->load & UST_FILTER_SWAP);
	return ust_filter_compare_k(fast->op, ust_filter_extend(bits, fast->load),
				    fast->k) != 0;
}

/* ust_filter_run(), the INT_K shape inline. */
static inline int ust_filter_run_inline(const struct ust_filter *f,
					const struct ust_seg *segs,
					unsigned int nr_segs,
					const struct ust_filter_ctx *ctx)
{
	if (f->fast.shape == UST_FILTER_SHAPE_INT_K)
		return ust_filter_run_int_k(&f->fast, segs, nr_segs);
	return ust_filter_run(f, segs, nr_segs, ctx);
}

#endif /* UST_FILTER_FAST_H */
