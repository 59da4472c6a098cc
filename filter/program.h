/*
 * program.h - the compiled form of a filter expression: what the `ust`
 * command writes (filter/emit.c) and libust checks (validate.c) and runs
 * (interp.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A program is position-independent bytes, meant to be copied through
 * shared memory or the environment: a header, `nr_insns` instructions of
 * 8 bytes, then a pool of `pool_size` bytes (64-bit constants, string
 * patterns, layout texts), all in the host's byte order.  Nothing in it
 * is a pointer.  It is compiled for one event's fields: `signature` is
 * ust_filter_signature() of the event's TSDL fields and layout, and
 * libust runs a program only on events with that signature.
 *
 * Execution model (doc/filters.md has the full table):
 *   - a stack of at most UST_FILTER_MAX_STACK values, each an integer
 *     (int64), a double or a string (pointer and length), whose types are
 *     known statically: the validator follows them through the program;
 *   - a position register P, a byte offset in the event's payload, moved
 *     by the POS_* and SKIP_* instructions to reach fields that follow
 *     variable-size ones;
 *   - jumps (AND, OR) go forward only and nest like parentheses, so a
 *     program runs at most nr_insns instructions and the validator needs
 *     one pass;
 *   - the program ends with RET on a stack of exactly one integer: the
 *     event is recorded when it is not zero.  Any runtime error (a read
 *     outside the payload, an index past a sequence's length, a division
 *     by zero, a shift count outside 0..63) discards the event, as
 *     LTTng's interpreter does.
 */
#ifndef UST_FILTER_PROGRAM_H
#define UST_FILTER_PROGRAM_H

#include <stdint.h>

#define UST_FILTER_MAGIC	0x31544c46u	/* "FLT1" */
#define UST_FILTER_MAX_INSNS	1024u
#define UST_FILTER_MAX_POOL	8192u		/* bytes, a multiple of 8 */
#define UST_FILTER_MAX_STACK	32u
#define UST_FILTER_MAX_SIZE	(sizeof(struct ust_filter_header) + \
				 UST_FILTER_MAX_INSNS * 8u + UST_FILTER_MAX_POOL)
/* Limits of the layout texts of SKIP (the grammar of common/layout-walk.h). */
#define UST_FILTER_LAYOUT_DEPTH	16u
#define UST_FILTER_LAYOUT_TAGS	16u

struct ust_filter_header {
	uint32_t magic;		/* UST_FILTER_MAGIC */
	uint16_t nr_insns;	/* 1..UST_FILTER_MAX_INSNS */
	uint16_t reserved0;	/* zero */
	uint32_t pool_size;	/* bytes after the instructions */
	uint32_t reserved1;	/* zero */
	uint64_t signature;	/* of the event's fields */
};

/*
 * One instruction.  `a` holds small operands (sizes, flags), `b` a pool
 * index, a length or a jump target (an instruction index), `c` an offset
 * or a 32-bit operand.  Unused operands are zero.
 */
struct ust_filter_insn {
	uint8_t op;
	uint8_t a;
	uint16_t b;
	uint32_t c;
};

/* Flags in `a` of the loads, POS and TAG_IS. */
#define UST_FILTER_SIZE_MASK	0x0fu	/* 1, 2, 4 or 8 bytes */
#define UST_FILTER_SIGNED	0x10u	/* LOAD_INT: sign-extend */
#define UST_FILTER_SWAP		0x20u	/* big-endian in the payload */
#define UST_FILTER_REL		0x40u	/* at P + c, else at c */

/* $ctx fields, in `a` of CTX_INT and CTX_STR. */
enum ust_filter_ctx_field {
	UST_FILTER_CTX_VTID = 0,	/* int */
	UST_FILTER_CTX_VPID = 1,	/* int */
	UST_FILTER_CTX_CPU_ID = 2,	/* int */
	UST_FILTER_CTX_PROCNAME = 3,	/* string */
	UST_FILTER_CTX_COUNT
};

/*
 * Stack effects: I an integer, D a double, S a string; "->" separates
 * what an instruction pops from what it pushes.
 */
enum ust_filter_op {
	UST_FOP_RET = 0,	/* I -> end: record when not zero */
	/* Constants: b = index of a 64-bit slot of the pool. */
	UST_FOP_INT,		/* -> I */
	UST_FOP_DBL,		/* -> D */
	/* Payload fields: a = size | flags, at c (REL: P + c). */
	UST_FOP_LOAD_INT,	/* -> I, zero- or sign-extended */
	UST_FOP_LOAD_DBL,	/* -> D, from a 4- or 8-byte IEEE 754 value */
	UST_FOP_LOAD_STR,	/* -> S, the NUL-terminated string there */
	UST_FOP_CTX_INT,	/* -> I, $ctx field a */
	UST_FOP_CTX_STR,	/* -> S, $ctx field a */
	/* Position register. */
	UST_FOP_POS,		/* P = c, or P + c with REL */
	UST_FOP_SKIP_STR,	/* P moves past the string at P and its NUL */
	UST_FOP_SKIP,		/* P moves past the layout text pool[c..c+b) */
	UST_FOP_SEQ_INDEX,	/* a-byte length L at P; fails unless c < L; P += a */
	UST_FOP_TAG_IS,		/* fails unless the a-sized unsigned at c (REL) is pool slot b */
	/* Integers (two's complement, wrapping). */
	UST_FOP_NEG,		/* I -> I */
	UST_FOP_BNOT,		/* I -> I */
	UST_FOP_LNOT,		/* I -> I (0 or 1) */
	UST_FOP_BOOL,		/* I -> I (0 or 1) */
	UST_FOP_ADD,		/* I I -> I, likewise down to BXOR */
	UST_FOP_SUB,
	UST_FOP_MUL,
	UST_FOP_DIV,		/* fails on / 0 and INT64_MIN / -1 */
	UST_FOP_MOD,		/* likewise */
	UST_FOP_SHL,		/* fails unless 0 <= count <= 63 */
	UST_FOP_SHR,		/* logical (as uint64), same check */
	UST_FOP_BAND,
	UST_FOP_BOR,
	UST_FOP_BXOR,
	UST_FOP_EQ,		/* I I -> I (0 or 1), signed, down to GE */
	UST_FOP_NE,
	UST_FOP_LT,
	UST_FOP_LE,
	UST_FOP_GT,
	UST_FOP_GE,
	UST_FOP_IN_RANGES,	/* I -> I: within one of b [lo, hi] pairs at slot c */
	/* Doubles. */
	UST_FOP_I2D,		/* the integer at depth a (0 top, 1 below) becomes D */
	UST_FOP_NEG_D,		/* D -> D */
	UST_FOP_LNOT_D,		/* D -> I */
	UST_FOP_BOOL_D,		/* D -> I */
	UST_FOP_ADD_D,		/* D D -> D, down to DIV_D */
	UST_FOP_SUB_D,
	UST_FOP_MUL_D,
	UST_FOP_DIV_D,
	UST_FOP_EQ_D,		/* D D -> I, down to GE_D */
	UST_FOP_NE_D,
	UST_FOP_LT_D,
	UST_FOP_LE_D,
	UST_FOP_GT_D,
	UST_FOP_GE_D,
	/* Strings. */
	UST_FOP_STR_EQ,		/* S S -> I: same bytes */
	UST_FOP_STR_MATCH,	/* S -> I: matches the pattern pool[c..c+b), NUL = '*' */
	/* Short-circuit jumps to instruction b (> this one). */
	UST_FOP_AND,		/* I: 0 -> jump, keeping it; else pop */
	UST_FOP_OR,		/* I: not 0 -> becomes 1, jump; else pop */
	/*
	 * An integer against a constant, pool slot b, in one instruction
	 * (the compiler's shortcut for `x > 10`): I -> I, as EQ ... GE, BAND
	 * with the constant as right operand.
	 */
	UST_FOP_EQ_K,
	UST_FOP_NE_K,
	UST_FOP_LT_K,
	UST_FOP_LE_K,
	UST_FOP_GT_K,
	UST_FOP_GE_K,
	UST_FOP_BAND_K,
	/*
	 * A field against a constant, in one instruction (LOAD_INT then
	 * EQ_K ... BAND_K): -> I, the field loaded as LOAD_INT loads it
	 * (a, c), the constant in pool slot b.
	 */
	UST_FOP_FIELD_EQ_K,
	UST_FOP_FIELD_NE_K,
	UST_FOP_FIELD_LT_K,
	UST_FOP_FIELD_LE_K,
	UST_FOP_FIELD_GT_K,
	UST_FOP_FIELD_GE_K,
	UST_FOP_FIELD_BAND_K,
	UST_FOP_COUNT
};

#endif /* UST_FILTER_PROGRAM_H */
