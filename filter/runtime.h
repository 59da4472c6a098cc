/*
 * runtime.h - the traced program's side of filters: check a compiled
 * program once (ust_filter_validate), then run it on each event's payload
 * (ust_filter_run).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The program bytes come from outside the process (the environment, the
 * shared control area), so they are trusted for nothing: the validator
 * accepts only programs whose every instruction is known, whose operands
 * stay inside the program, whose stack never under- or overflows and
 * holds the types each instruction expects, and whose jumps go forward
 * and nest.  The interpreter then needs no check of its own on the
 * program, and checks every read against the payload's segments, so no
 * program, however hostile, makes it read outside the event's data.
 */
#ifndef UST_FILTER_RUNTIME_H
#define UST_FILTER_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ust/tracepoint.h>

#include "program.h"

/*
 * The most common programs, recognised by the validator and run without
 * the interpreter: a field at a fixed offset against a constant
 * (`x > 10`), a string at a fixed offset against a pattern.
 */
enum ust_filter_shape {
	UST_FILTER_SHAPE_NONE = 0,
	UST_FILTER_SHAPE_INT_K,		/* LOAD_INT at c, EQ_K ... BAND_K, RET */
	UST_FILTER_SHAPE_STR_MATCH,	/* LOAD_STR at c, STR_MATCH, [LNOT,] RET */
};

/* A pattern (NUL bytes for stars), taken apart once for matching. */
struct ust_filter_pattern {
	const uint8_t *bytes;
	uint32_t len;
	uint32_t head;		/* bytes before the first star (len: no star) */
	uint32_t tail_at;	/* where the bytes after the last star begin */
	bool star;
};

void ust_filter_pattern_prepare(struct ust_filter_pattern *p,
				const uint8_t *pat, size_t len);
int ust_filter_pattern_match(const struct ust_filter_pattern *p, const char *s,
			     size_t n);
/*
 * The same on the NUL-terminated `s`, not measured: reads none of its
 * bytes past its NUL (a pattern that ends with a star needs no length).
 */
int ust_filter_pattern_match_cstr(const struct ust_filter_pattern *p,
				  const char *s);

struct ust_filter_fast {
	uint8_t shape;		/* enum ust_filter_shape */
	uint8_t op;		/* INT_K: EQ_K ... BAND_K; STR_MATCH: 1 for != */
	uint8_t load;		/* INT_K: the load's size and flags */
	/*
	 * INT_K taken apart for fast.h: the field's bytes end at `end`
	 * (UINT32_MAX when byte-swapped: the slow path reads those), it is
	 * sign-extended by shifting left then right by `shift`; then, but
	 * for BAND_K (`band`), x OP k is "x - lo <= span" (unsigned),
	 * negated when `neg`.  First, in one cache line with the shape.
	 */
	uint8_t size, shift;
	bool band, neg;
	bool prefix;		/* STR_MATCH: the pattern is a prefix and a star */
	/*
	 * INT_K on a payload passed by value (fast.h's
	 * ust_filter_int_k_keeps_word()): the field goes to the top of the
	 * word by a shift left of `word_shl`, back by one right of
	 * `word_shr`, sign-extending or not.
	 */
	uint8_t word_shl, word_shr;
	uint32_t offset;	/* of the field in the payload */
	uint32_t end;
	uint64_t lo, span;
	int64_t k;		/* INT_K: the constant */
	struct ust_filter_pattern pattern;	/* STR_MATCH */
	/*
	 * STR_MATCH with `prefix` of 8 bytes at most: the prefix's bytes as
	 * one word (loaded as memcpy() would, the rest 0) and the mask of
	 * them, for fast.h's one-load compare; head_mask 0 for a longer one.
	 */
	uint64_t head_word, head_mask;
};

/* A validated program: points into bytes that must not change any more. */
struct ust_filter {
	struct ust_filter_fast fast;	/* first: what the gated path reads */
	const struct ust_filter_insn *insns;
	const uint8_t *pool;
	uint32_t nr_insns;
	uint32_t pool_size;
	uint64_t signature;
	uint32_t ctx_needed;	/* bit (1 << field) per $ctx field it reads */
};

/* Why a program was refused: a fixed text and the instruction, if any. */
struct ust_filter_error {
	const char *what;
	int insn;		/* -1 when about the whole program */
};

/*
 * Check the `size` bytes at `bytes` (private memory that nothing else
 * writes: copy a program out of shared memory first) and fill `f`.
 * Returns 0, or -1 with `err` set.  Async-signal-safe: no allocation,
 * no lock, no formatting.
 */
int ust_filter_validate(struct ust_filter *f, const void *bytes, size_t size,
			struct ust_filter_error *err);

/* The values of the $ctx fields a program may read. */
struct ust_filter_ctx {
	int64_t vtid, vpid, cpu_id;
	const char *procname;	/* NUL-terminated */
};

/*
 * Run a validated program on the payload made of `segs` (as passed to
 * ust_event_write()).  Returns 1 to record the event, 0 to discard it
 * (the program said so, or failed at run time).  Async-signal-safe.
 */
int ust_filter_run(const struct ust_filter *f, const struct ust_seg *segs,
		   unsigned int nr_segs, const struct ust_filter_ctx *ctx);

/*
 * The integer operations from UST_FOP_ADD to UST_FOP_GE on a and b, as
 * the interpreter does them (the compiler folds constants with it): 0
 * and *out, or -1 where the interpreter discards the event (division by
 * zero, INT64_MIN / -1, a shift count outside 0..63).
 */
int ust_filter_int_binary(uint8_t op, int64_t a, int64_t b, int64_t *out);

/*
 * The signature of an event's fields: FNV-1a 64 of its TSDL fields, a
 * NUL and its layout (NULL counts as "").  The compiler stamps it into
 * a program; libust runs the program only on events with the same one.
 */
uint64_t ust_filter_signature(const char *tsdl_fields, const char *layout);

/*
 * Star-glob matching, LTTng's semantics: `pat` (`patlen` bytes) matches
 * the whole of `s` (`n` bytes), each NUL byte of `pat` standing for a
 * `*` (any run of bytes, maybe empty).  A pattern without NUL compares
 * bytes.  Shared by the interpreter and the compiler (enum labels,
 * constants).
 */
int ust_filter_match(const char *s, size_t n, const uint8_t *pat,
		     size_t patlen);

/*
 * The syntax of a layout text (doc/ring-buffer.md, "Payload layouts") of
 * `len` bytes, within the limits the interpreter walks: 0 or -1.
 */
int ust_filter_layout_check(const char *text, size_t len);

#endif /* UST_FILTER_RUNTIME_H */
