/*
 * fields.h - an event's fields for the compiler: where a field path
 * leads, and the layout text of the fields before it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_FILTER_FIELDS_H
#define UST_FILTER_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "reader/tsdl.h"

struct node;

/* One step from the payload's start towards a field. */
enum step_kind {
	ST_MEMBER,	/* member `member` of struct `parent` */
	ST_INDEX,	/* element `index` of array or sequence `parent` */
	ST_OPTION,	/* option `member` of variant `parent` */
};

struct access_step {
	enum step_kind kind;
	const struct rd_type *parent;
	size_t member;
	uint64_t index;
};

/* Where a field path leads: the steps and the scalar at their end. */
struct access {
	struct access_step *steps;
	size_t nr_steps;
	const struct rd_type *type;	/* RD_INT, RD_ENUM, RD_FLOAT, RD_STRING */
	char display[256];		/* the path as written, for messages */
};

/* Resolve the path of N_FIELD node `n` in `ev`: 0, or -1 with `err`. */
int fields_resolve(const struct filter_event *ev, const struct node *n,
		   struct access *a, struct filter_error *err);
void fields_access_release(struct access *a);

/* A growing layout text; `oom` set on allocation failure. */
struct layout_text {
	char *s;
	size_t len, cap;
	long last_f;		/* where the last F item at this level starts, or -1 */
	uint64_t last_f_bytes;
	unsigned int next_tag;	/* tag slots used so far */
	bool at_start;		/* no item yet at this level */
	bool oom;
};

void layout_text_init(struct layout_text *b);
void layout_text_release(struct layout_text *b);

/*
 * Append the layout of the first `to` members of struct `st` (tpgen's
 * grammar, fixed runs merged): 0, or -1 with `err` when they are not
 * something tpgen writes (an unsupported type or arrangement).
 */
int fields_layout(const struct rd_type *st, size_t to, struct layout_text *b,
		  struct filter_error *err);
/* The same for one type, as an array element. */
int type_layout(const struct rd_type *t, struct layout_text *b,
		struct filter_error *err);

/* Bytes of a type whose size is fixed: true and *size, else false. */
bool fields_fixed_size(const struct rd_type *t, uint64_t *size);

/* Size in bytes of an integer, enum or float type (payload bytes). */
unsigned int fields_scalar_size(const struct rd_type *t);

/* "an integer", "a string", ... for messages. */
const char *fields_kind_name(const struct rd_type *t);

#endif /* UST_FILTER_FIELDS_H */
