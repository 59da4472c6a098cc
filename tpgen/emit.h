/*
 * emit.h - writing the generated C header and source.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The emitters only read a tree that validate.c accepted: every name is a C
 * identifier that is safe as a parameter.  Everything else that reaches
 * the output (descriptions, the input file name) goes through
 * tp_emit_c_string() or tp_emit_comment(), which escape it.  The output
 * must compile without warnings as C99 and as C++ with -Wall -Wextra.
 */
#ifndef TPGEN_EMIT_H
#define TPGEN_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/* What the command line chooses about the generated code. */
struct tp_emit_options {
	bool sdt;	/* each trace_*() is also a <sys/sdt.h> probe */
};

/*
 * Write <fac>_tp.h / <fac>_tp.c.  `input_name` is the base name of the
 * XML file, quoted in the banner.  Return 0, or -1 when memory ran out;
 * write errors are left in the stream's error flag.
 */
int tp_emit_header(FILE *out, const struct tp_facility *fac,
		   const char *input_name, const struct tp_emit_options *opts);
int tp_emit_source(FILE *out, const struct tp_facility *fac,
		   const char *input_name, const struct tp_emit_options *opts);

/* sdt.h's limit on the arguments of a probe (STAP_PROBE12). */
#define TP_SDT_MAX_ARGS 12

/* The sdt probes' semaphores, for <facility>_tp.c (emit-header.c). */
void tp_emit_semaphore_definitions(FILE *out, const struct tp_facility *fac);

/* Helpers shared by both emitters (emit-util.c). */

/*
 * A block comment at column 0 whose paragraphs (NULL ones skipped) are
 * wrapped at 72 columns and made harmless: no comment end, no nested
 * comment start, no trigraph.
 */
void tp_emit_comment(FILE *out, const char *const *paragraphs, size_t nr);

/*
 * The opening comment of the generated file <facility>_tp.<ext>: what it
 * holds (`what` "of the '<facility>' facility"), then `description` (may
 * be NULL), then where it comes from.  Returns 0 or -1.
 */
int tp_emit_banner(FILE *out, const struct tp_facility *fac, const char *ext,
		   const char *what, const char *description,
		   const char *input_name);

/* `s` as one C string literal, valid in C99 and C++, quotes included. */
void tp_emit_c_string(FILE *out, const char *s);

/*
 * `s` as adjacent literals of about 64 bytes each, cut after spaces, the
 * ones after the first on new lines after `indent`.
 */
void tp_emit_c_string_wrapped(FILE *out, const char *s, const char *indent);

/* `depth` tabs. */
void tp_emit_indent(FILE *out, unsigned int depth);

/* A malloc'ed string, or NULL with *oom set when out of memory. */
char *tp_fmt(bool *oom, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* A list of strings to write with tp_emit_list(). */
struct tp_strlist {
	char **v;
	size_t nr;
	bool oom;		/* an item could not be added */
};

void tp_strlist_addf(struct tp_strlist *list, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tp_strlist_clear(struct tp_strlist *list);

/*
 * Write the items separated by `sep` (", ", " + "), the first at `column`
 * (0-based).  An item that would end past column 80 starts a new line
 * instead: the separator without its trailing space ends the line, and
 * tabs then spaces indent the item to column `indent`, kernel style.
 * Returns -1 when the list is incomplete (out of memory), else 0.
 */
int tp_emit_list(FILE *out, const struct tp_strlist *list, const char *sep,
		 size_t column, size_t indent);

/*
 * Add the parameters of an event's functions ("int32_t a", "const char
 * *s", "size_t q_len", "const int8_t *q"; "void" for none), or the
 * arguments that forward them ("a", "s", "q_len", "q").
 */
void tp_event_params(const struct tp_event *event, struct tp_strlist *list);

/*
 * C declarations, malloc'ed (NULL when out of memory): a struct member
 * ("uint16_t m[2][3]", "struct app_point p", "const int32_t *s" for a
 * sequence's elements) and a parameter, where arrays, sequences,
 * structs and variants are passed by pointer to read-only elements
 * ("const uint16_t *a", "const struct app_point *p", "const union
 * app_e_v *v").  A sequence's length parameter is tp_event_params()'s.
 */
char *tp_c_member(const struct tp_type *type, const char *name);
char *tp_c_param(const struct tp_type *type, const char *name);

/*
 * The member declarations of a struct's field, without the last ';':
 * one, or for a sequence two ("size_t s_len;\n\tconst T *s").
 */
char *tp_c_members(const struct tp_field *field);

/* What a facility needs in its generated files beyond the basics. */
struct tp_features {
	bool host;		/* host-size integers: ABI check, <sys/types.h> */
	bool enums;		/* enum fields: the probes' cast macro */
	/* Sizes in bytes (1 | 2 | 4 | 8) of the stores the probes use: */
	unsigned int put_u;	/* enum values inside arrays and structs */
	unsigned int put_be;	/* big-endian integers */
	unsigned int put_le;	/* little-endian integers */
	bool packed;		/* some event packs a field per element */
	bool sequences;		/* some event has a sequence field */
};

void tp_facility_features(const struct tp_facility *fac,
			  struct tp_features *feat);

/*
 * Statements that store the fixed-size value `src` (an lvalue) at the
 * byte pointer `dst`, indented by `depth` tabs.  Returns 0 or -1.
 */
int tp_emit_fill(FILE *out, const struct tp_type *type, const char *dst,
		 const char *src, unsigned int depth);

struct tp_plan;

/*
 * The statements of a probe that pack its TP_PART_PACKED fields into a
 * buffer on its stack (emit-pack.c): afterwards, __ust_at_<field> and
 * __ust_size_<field> give each one's bytes.  `drop` is the statement
 * that gives up on the record.  Returns 0 or -1.
 */
int tp_emit_packed(FILE *out, const struct tp_event *event,
		   const struct tp_plan *plan, const char *drop);

/* The helper functions of sequences and of the packed path. */
void tp_emit_pack_helpers(FILE *out, const struct tp_features *feat);

/*
 * The largest length a sequence records: what its lengthsize holds, and
 * at most 2^32 elements or bytes of fixed-size elements (a record that
 * large never fits a sub-buffer, so it is lost whatever its length).
 */
unsigned long long tp_sequence_max(const struct tp_type *sequence);

/* "APP_STATE_IDLE": the C constant of label `label` of `en`. */
char *tp_label_constant(const struct tp_enum *en, const char *label);

/* An integer whose bytes the probe must put in another order than C's. */
bool tp_type_is_swapped(const struct tp_type *type);
void tp_event_args(const struct tp_event *event, struct tp_strlist *list);

#endif /* TPGEN_EMIT_H */
