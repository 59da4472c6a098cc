/*
 * model.h - the facility description as tpgen understands it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * parse.c builds this tree from the XML document, validate.c checks it
 * and resolves its references (enum and typedef names, C names of enums
 * and structs), and the emitters only read it.  Types are a tree of
 * struct tp_type nodes tagged by a kind; compound types (arrays,
 * sequences, structs, variants) hold child types and fields of their own.
 *
 * Invariants once parse.c returned a tree without errors: every type has a
 * valid kind and every attribute it reads a valid value (integer sizes 1,
 * 2, 4 or 8, bases 2, 8, 10 or 16, array lengths 1..65535, ...); every
 * compound type has its children; every event has a name and a loglevel
 * of -1 or 0..14.  Names are only known to be C identifiers, references
 * to resolve and typedefs not to be recursive after validate.c accepted
 * the tree.
 */
#ifndef TPGEN_MODEL_H
#define TPGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

enum tp_type_kind {
	TP_TYPE_INT,		/* integer, fixed or host size: u.integer */
	TP_TYPE_STRING,		/* NUL-terminated string, const char * */
	TP_TYPE_FLOAT,		/* <float/> or <double/>: u.floating */
	TP_TYPE_ENUM,		/* <enum ref="..."/>: u.enumeration */
	TP_TYPE_ARRAY,		/* <array length="N">: u.array */
	TP_TYPE_SEQUENCE,	/* <sequence lengthsize="N">: u.sequence */
	TP_TYPE_STRUCT,		/* <struct>: u.structure */
	TP_TYPE_VARIANT,	/* <variant tag="...">: u.variant */
	TP_TYPE_TYPEREF,	/* <typeref name="..."/>: u.typeref */
};

/* The C type behind an integer: its own size, or the host's. */
enum tp_int_ctype {
	TP_CTYPE_FIXED,		/* int8_t ... uint64_t */
	TP_CTYPE_INT,		/* int, unsigned int */
	TP_CTYPE_LONG,		/* long, unsigned long */
	TP_CTYPE_SIZE_T,	/* size_t, ssize_t */
	TP_CTYPE_POINTER,	/* const void *, recorded unsigned */
	TP_CTYPE_CHAR,		/* char, with the host's signedness */
};

enum tp_byte_order {
	TP_ORDER_HOST,		/* the trace's: native */
	TP_ORDER_LE,
	TP_ORDER_BE,		/* "be" and "network" */
};

struct tp_field;
struct tp_enum;
struct tp_typedef;

/* An ordered list of fields: an event's payload, or a struct's members. */
struct tp_field_list {
	struct tp_field *v;
	size_t nr;
};

/* One <option label="L"> of a variant. */
struct tp_option {
	char *label;
	int line;
	struct tp_type *type;		/* owned */
};

struct tp_type {
	enum tp_type_kind kind;
	int line;			/* of the type element */
	union {
		struct {
			unsigned int size;	/* bytes: 1, 2, 4 or 8 */
			bool is_signed;
			unsigned int base;	/* display base: 2, 8, 10, 16 */
			enum tp_byte_order byte_order;
			enum tp_int_ctype ctype;
		} integer;
		struct {
			unsigned int size;	/* 4: float, 8: double */
		} floating;
		struct {
			char *ref;
			const struct tp_enum *def;	/* set by validate.c */
		} enumeration;
		struct {
			unsigned int length;	/* 1..65535 */
			struct tp_type *elem;	/* owned */
		} array;
		struct {
			unsigned int lengthsize;	/* 1, 2, 4 or 8 */
			struct tp_type *elem;	/* owned */
		} sequence;
		struct {
			struct tp_field_list fields;
			char *c_type;	/* "struct app_point", set by validate.c */
		} structure;
		struct {
			char *tag;
			struct tp_option *options;
			size_t nr_options;
			char *c_type;	/* "union app_e_v", set by names.c */
		} variant;
		struct {
			char *name;
			const struct tp_typedef *def;	/* set by validate.c */
		} typeref;
	} u;
};

struct tp_field {
	char *name;
	int line;
	struct tp_type *type;		/* owned */
};

struct tp_label {
	char *name;
	int line;
	long long value;
};

/* A named enumeration, declared at facility level. */
struct tp_enum {
	char *name;
	int line;
	unsigned int size;		/* bytes on the wire: 1, 2, 4 or 8 */
	bool is_signed;			/* some value is negative (validate.c) */
	char *c_type;			/* "enum app_state", set by validate.c */
	struct tp_label *labels;
	size_t nr_labels;
};

/* <typedef name="..."> T </typedef>, declared at facility level. */
struct tp_typedef {
	char *name;
	int line;
	struct tp_type *type;		/* owned */
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
	struct tp_enum *enums;
	size_t nr_enums;
	struct tp_typedef *typedefs;
	size_t nr_typedefs;
};

/*
 * Append a zeroed element to an array of `size`-byte elements holding
 * `*nr` of them, and return it (NULL when out of memory, the array
 * unchanged).  The array has room for the smallest power of two >= *nr
 * elements and doubles when *nr is one (or 0): appending n elements
 * costs O(n) copies in all, without a capacity field.  Every array
 * grown by it must be grown only by it.
 */
void *tp_array_add(void **array, size_t *nr, size_t size);

#define TP_ARRAY_ADD(array, nr) \
	((__typeof__(array))tp_array_add((void **)&(array), &(nr), sizeof(*(array))))

struct tp_type *tp_type_new(enum tp_type_kind kind, int line);
void tp_type_free(struct tp_type *type);

/* Append a zeroed element; returns it, or NULL when out of memory. */
struct tp_field *tp_field_list_add(struct tp_field_list *list);
void tp_field_list_clear(struct tp_field_list *list);

struct tp_event *tp_facility_add_event(struct tp_facility *fac);
struct tp_enum *tp_facility_add_enum(struct tp_facility *fac);
struct tp_label *tp_enum_add_label(struct tp_enum *en);
struct tp_typedef *tp_facility_add_typedef(struct tp_facility *fac);
struct tp_option *tp_variant_add_option(struct tp_type *variant);
struct tp_facility *tp_facility_new(void);
void tp_facility_free(struct tp_facility *fac);

/*
 * The type a typeref stands for, following typedefs; the type itself for
 * any other kind.  Only for a tree that validate.c accepted (no
 * dangling or recursive typeref).
 */
const struct tp_type *tp_type_resolve(const struct tp_type *type);

/*
 * The C type of a scalar, enum, string, struct or variant ("int32_t",
 * "const char *", "enum app_state", "struct app_point", "union
 * app_e_v"), following typerefs.  NULL for an array or sequence, which
 * have declarators instead.
 */
const char *tp_type_c_name(const struct tp_type *type);

/* "int8_t" ... "uint64_t": the fixed-size integer of `size` bytes (1, 2, 4, 8). */
const char *tp_fixed_int_c_name(unsigned int size, bool is_signed);

/* True when values of this type have one size known at build time. */
bool tp_type_is_fixed(const struct tp_type *type);

/*
 * Size in bytes of a fixed-size type in the payload; 0 otherwise.
 * Saturates at SIZE_MAX (nested arrays can multiply past it).
 */
size_t tp_type_fixed_size(const struct tp_type *type);

/* Host sizes that tpgen assumes, and that the generated code checks. */
unsigned int tp_host_size(enum tp_int_ctype ctype);
bool tp_host_char_is_signed(void);

#endif /* TPGEN_MODEL_H */
