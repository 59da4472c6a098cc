/*
 * model.h - the facility description as tpgen understands it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * parse.c builds this tree from the XML document, validate.c checks its
 * names, and the emitters only read it.  Types are a tree of struct tp_type
 * nodes tagged by a kind, so that compound types (arrays, sequences,
 * structs, variants) can later hold child types and fields of their own.
 *
 * Invariants once parse.c returned a tree without errors: every type has a
 * valid kind and, for integers, a size of 1, 2, 4 or 8 and a base of 2, 8,
 * 10 or 16; every event has a name and a loglevel of -1 or 0..14.  Names
 * are only known to be C identifiers after validate.c accepted the tree.
 */
#ifndef TPGEN_MODEL_H
#define TPGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

enum tp_type_kind {
	TP_TYPE_INT,		/* fixed-size integer, signed or unsigned */
	TP_TYPE_STRING,		/* NUL-terminated string, const char * */
};

struct tp_type {
	enum tp_type_kind kind;
	int line;			/* of the type element */
	union {
		struct {
			unsigned int size;	/* bytes: 1, 2, 4 or 8 */
			bool is_signed;
			unsigned int base;	/* display base: 2, 8, 10, 16 */
		} integer;
	} u;
};

struct tp_field {
	char *name;
	int line;
	struct tp_type *type;		/* owned */
};

/* An ordered list of fields: an event's payload (later: a struct's). */
struct tp_field_list {
	struct tp_field *v;
	size_t nr;
};

struct tp_event {
	char *name;
	int line;
	int loglevel;			/* -1 when the XML gives none */
	char *description;		/* whitespace-normalized, or NULL */
	struct tp_field_list fields;
};

struct tp_facility {
	char *name;
	int line;
	char *description;		/* whitespace-normalized, or NULL */
	struct tp_event *events;
	size_t nr_events;
};

struct tp_type *tp_type_new(enum tp_type_kind kind, int line);
void tp_type_free(struct tp_type *type);

/* Append a zeroed element; returns it, or NULL when out of memory. */
struct tp_field *tp_field_list_add(struct tp_field_list *list);
void tp_field_list_clear(struct tp_field_list *list);

struct tp_event *tp_facility_add_event(struct tp_facility *fac);
struct tp_facility *tp_facility_new(void);
void tp_facility_free(struct tp_facility *fac);

/*
 * The C type of a parameter of this type ("int32_t", "const char *").
 * Never NULL.
 */
const char *tp_type_c_name(const struct tp_type *type);

/* True when values of this type have one size known at build time. */
bool tp_type_is_fixed(const struct tp_type *type);

/* Size in bytes of a fixed-size type in the payload; 0 otherwise. */
size_t tp_type_fixed_size(const struct tp_type *type);

#endif /* TPGEN_MODEL_H */
