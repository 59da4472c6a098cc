/*
 * payload.h - how an event's fields are laid out in its record.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Records are byte-packed: fields follow each other in declaration order
 * with no padding.  The plan cuts the field list into parts: a run of
 * consecutive fixed-size fields is one part (one packed struct in the
 * probe, one segment, one "F<n>" layout token); a string is one part (two
 * segments: its bytes, then a NUL from a constant; one "S" token).  The
 * probe emitter and the layout string both derive from the plan, so they
 * cannot disagree.
 */
#ifndef TPGEN_PAYLOAD_H
#define TPGEN_PAYLOAD_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

enum tp_part_kind {
	TP_PART_FIXED,		/* consecutive fixed-size fields */
	TP_PART_STRING,		/* one string field */
};

struct tp_part {
	enum tp_part_kind kind;
	size_t first;		/* index of its first field in the event */
	size_t nr_fields;	/* 1 for a string */
	size_t size;		/* bytes, for TP_PART_FIXED */
};

struct tp_plan {
	struct tp_part *parts;
	size_t nr_parts;
	unsigned int nr_segs;	/* ust_seg entries the probe passes */
};

/* Build the plan of an event.  Returns 0, or -1 when out of memory. */
int tp_plan_build(const struct tp_event *event, struct tp_plan *plan);
void tp_plan_clear(struct tp_plan *plan);

/* Segments one part contributes to the probe's segment array. */
unsigned int tp_part_nr_segs(const struct tp_part *part);

/*
 * The layout string of an event for the consumer's payload walker
 * ("F4 S F8"; "" for no fields), malloc'ed, or NULL when out of memory.
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
