/*
 * payload.h - how an event's fields are laid out in its record.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Records are byte-packed: fields follow each other in declaration order
 * with no padding.  The plan cuts the field list into parts: a run of
 * consecutive fixed-size fields is one part (one packed struct in the
 * probe, one segment); a string is one part (two segments: its bytes,
 * then a NUL from a constant); a sequence of flat elements (whose C
 * layout is their wire layout) is one part (two segments: its length,
 * then the application's elements, not copied); any other field
 * (variants, other sequences, compound types holding strings, sequences
 * or variants) is packed element by element into a buffer on the probe's
 * stack, one part and one segment.  The probe emitter derives from the
 * plan; the layout string and the TSDL from the same types.
 */
#ifndef TPGEN_PAYLOAD_H
#define TPGEN_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

enum tp_part_kind {
	TP_PART_FIXED,		/* consecutive fixed-size fields */
	TP_PART_STRING,		/* one string field */
	TP_PART_SEQUENCE,	/* one sequence of flat elements */
	TP_PART_PACKED,		/* one field packed per element */
};

struct tp_part {
	enum tp_part_kind kind;
	size_t first;		/* index of its first field in the event */
	size_t nr_fields;	/* 1 for the other kinds */
	size_t size;		/* bytes, for TP_PART_FIXED */
};

struct tp_plan {
	struct tp_part *parts;
	size_t nr_parts;
	unsigned int nr_segs;	/* ust_seg entries the probe passes */
	bool packed;		/* some part is TP_PART_PACKED */
};

/*
 * True when values of `type` are laid out in C as on the wire, so that
 * an array of them is copied as is: integers in the host's byte order,
 * floats, and arrays of those.
 */
bool tp_type_is_flat(const struct tp_type *type);

/* tp_field_tags(): the field is no variant. */
#define TP_NO_TAG SIZE_MAX

/*
 * For each field of a list, malloc'ed: the index of its tag field when
 * it is a variant, TP_NO_TAG otherwise.  A field is a tag when its index
 * is in the array.  NULL when out of memory.  For a list that
 * validate.c accepted: every tag is an earlier field.
 */
size_t *tp_field_tags(const struct tp_field_list *fields);

/* Build the plan of an event.  Returns 0, or -1 when out of memory. */
int tp_plan_build(const struct tp_event *event, struct tp_plan *plan);
void tp_plan_clear(struct tp_plan *plan);

/* Segments one part contributes to the probe's segment array. */
unsigned int tp_part_nr_segs(const struct tp_part *part);

/*
 * The layout string of an event for the consumer's payload walker
 * ("F4 S F8", "T1 Q4[S] V0[0:F4|1:S]"; "" for no fields), malloc'ed, or
 * NULL when out of memory.
 */
char *tp_event_layout(const struct tp_event *event);

/*
 * The TSDL declarations of an event's fields, each ending with ';' and
 * separated by one space ("integer { ... } _a; string _s;"), malloc'ed,
 * or NULL when out of memory.
 */
char *tp_event_tsdl(const struct tp_event *event);

/* TSDL declaration of one field, without separator. */
void tp_field_tsdl(FILE *out, const struct tp_field *field);

#endif /* TPGEN_PAYLOAD_H */
