/*
 * plan.h - the fast path beside the generic walker (decode.c): a struct
 * whose members are byte-aligned base-10 integers and strings (what
 * most event payloads and contexts are) is compiled once into a flat
 * list of steps, then skipped or printed in one loop, without recursion
 * or per-field type dispatch.  Anything else keeps the generic walker.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_READER_PLAN_H
#define UST_READER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

enum plan_kind {
	STEP_UNSIGNED,
	STEP_SIGNED,
	STEP_STRING,
};

/* An integer's bytes, signedness and byte order, for one switch. */
enum plan_load {
	LOAD_U8, LOAD_S8, LOAD_U16, LOAD_S16, LOAD_U16BE, LOAD_S16BE,
	LOAD_U32, LOAD_S32, LOAD_U32BE, LOAD_S32BE, LOAD_U64, LOAD_U64BE,
};

struct plan_step {
	uint8_t kind;		/* enum plan_kind */
	uint8_t load;		/* enum plan_load: how to read an integer */
	uint8_t bytes;		/* integers: 1, 2, 4 or 8 */
	uint8_t align;		/* bytes, a power of two */
	bool be;
	bool tid;		/* vtid or tid: the event's thread */
	uint8_t name_len;
	const char *name;
	struct rd_fmt_memo memo;	/* rd_plan_print()'s last value */
	/* ", name = " (" name = " for the first), when it fits */
	uint8_t text_len;
	char text[40];
};

struct rd_plan {
	unsigned int align;	/* of the struct, bytes */
	/*
	 * Only integers whose " name = " fits in their text: printed by
	 * rd_plan_print() in at most print_max bytes.
	 */
	bool print_fixed;
	size_t print_max;
	/*
	 * Only integers, none aligned more than the struct: from an aligned
	 * start, `size` bytes, the thread (if any) at tid_offset.
	 */
	bool fixed;
	size_t size;
	int tid_offset, tid_step;	/* -1: none */
	size_t nr;
	struct plan_step steps[];
};

/*
 * The plan of struct `t`, or NULL when it is not that simple.
 * `tid_role`: its top-level vtid/tid member is the event's thread (the
 * stream event context).
 */
struct rd_plan *rd_plan_build(const struct rd_type *t, bool tid_role);

/*
 * Walk the struct at *pos (bits, byte aligned) of `base`, not past
 * `end` (bits): *tid gets the thread when a step has the role.  With
 * `o`, print it as the generic walker does.  Returns 0, or -1 when it
 * runs past `end` (then the generic walker says what is wrong).
 */
int rd_plan_walk(const struct rd_plan *p, const uint8_t *base, uint64_t *pos,
		 uint64_t end, int64_t *tid, struct rd_out *o);

/*
 * Print the struct at *at (bytes, p->print_fixed) to `q`, which has room
 * for p->print_max bytes, as rd_plan_walk() does; returns the end of
 * the text and moves *at past the struct, or NULL when it runs past
 * `stop` (then the generic walker says what is wrong).
 */
char *rd_plan_print(struct rd_plan *p, const uint8_t *base, size_t *at,
		    size_t stop, char *q);

/*
 * The event headers the fast path knows, little-endian, byte aligned:
 * - compact/extended (ust's consumer, LTTng-UST): enum id of N bits,
 *   then variant <id> { struct { uintM_clock timestamp; } compact;
 *   struct { uint32 id; uint64_clock timestamp; } align(8) extended; }
 *   with N + M = 32 and the last id value meaning extended;
 * - plain: struct { uintK id; uint64_clock timestamp; } of byte-aligned
 *   fields.
 */
struct rd_header_plan {
	bool compact;
	unsigned int id_bits, ts_bits;	/* compact: N and M */
	uint64_t extended_id;
	unsigned int id_bytes, id_align;	/* plain */
};

struct rd_header_plan *rd_header_plan_build(const struct rd_type *t);

struct rd_stream;

/*
 * Decode the header at *pos (bits) before `end`: *id, the stream's
 * clock, *pos after it.  -1 (nothing changed) when the generic walker
 * must do it.
 */
int rd_header_walk(const struct rd_header_plan *h, struct rd_stream *st,
		   uint64_t *pos, uint64_t end, uint64_t *id);

#endif /* UST_READER_PLAN_H */
