/*
 * typed.h - a filter expression checked against one event: each node's
 * type, constant value and what to emit for it.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * check.c builds it from the tree of ast.h (which stays the same for
 * every event) and folds constants; emit.c turns it into instructions.
 */
#ifndef UST_FILTER_TYPED_H
#define UST_FILTER_TYPED_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "fields.h"

enum vtype { VT_INT, VT_FLOAT, VT_STRING };

enum tkind {
	TK_CONST,	/* i, d or the literal's pattern */
	TK_LOAD,	/* a payload field: access */
	TK_CONTEXT,	/* a $ctx field: ctx */
	TK_UNARY,	/* op on left */
	TK_ARITH,	/* op on left, right: + - * / % << >> & | ^ */
	TK_COMPARE,	/* op on two numbers */
	TK_STR_MATCH,	/* left (not constant) against the pattern in pat */
	TK_STR_EQ,	/* left and right, two strings from the event */
	TK_ENUM_IN,	/* left (an enum) among the ranges */
	TK_LOGICAL,	/* && or || */
	TK_TRUTH,	/* left as 0 or 1 (what remains of a folded && ||) */
};

struct tnode {
	enum tkind kind;
	enum vtype type;
	enum ast_op op;
	int column;
	bool is_const;
	bool is_bool;		/* 0 or 1 only */
	int64_t i;		/* VT_INT constants */
	double d;		/* VT_FLOAT constants */
	const uint8_t *pat;	/* VT_STRING constants, TK_STR_MATCH */
	size_t pat_len;
	bool glob;
	const struct rd_type *enum_type;	/* an enum field's type */
	struct access access;	/* TK_LOAD */
	unsigned int ctx;	/* TK_CONTEXT: enum ust_filter_ctx_field */
	int64_t *ranges;	/* TK_ENUM_IN: lo, hi pairs */
	size_t nr_ranges;
	struct tnode *left, *right;
};

/* The checked tree of `n` for `ev`, or NULL with `err`. */
struct tnode *check_expr(const struct node *n, const struct filter_event *ev,
			 struct filter_error *err);
void tnode_free(struct tnode *t);

/* The instruction of a binary operator, on integers or on doubles. */
uint8_t tnode_opcode(enum ast_op op, bool dbl);

/* The program of checked tree `t`: 0, or -1 with `err`. */
int emit_program(const struct tnode *t, const struct filter_event *ev,
		 struct filter_program *out, struct filter_error *err);

#endif /* UST_FILTER_TYPED_H */
