/*
 * ast.h - a parsed filter expression, before it meets any event.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * parse.c builds it from the text; compile.c type-checks it against one
 * event's fields and emits a program.  Every node keeps the column (1 is
 * the first byte of the text) that its error messages point at.
 */
#ifndef UST_FILTER_AST_H
#define UST_FILTER_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum node_kind {
	N_INT,		/* integer constant (its 64 bits; LTTng reads them as int64) */
	N_FLOAT,	/* floating-point constant */
	N_STRING,	/* string literal: a pattern, NUL bytes for unescaped '*' */
	N_FIELD,	/* payload field: path */
	N_CTX,		/* $ctx.NAME */
	N_UNARY,	/* op, left */
	N_BINARY,	/* op, left, right; && and || too */
};

/* Operators: the token kinds of lex.h that are operators. */
enum ast_op {
	OP_NONE,
	OP_PLUS, OP_MINUS, OP_NOT, OP_BNOT,	/* unary */
	OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
	OP_BAND, OP_BXOR, OP_BOR,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_AND, OP_OR,
};

/* One step of a field path: `name`, `.name` or `[index]`. */
struct path_step {
	bool is_index;
	char *name;
	uint64_t index;
	int column;
};

struct node {
	enum node_kind kind;
	enum ast_op op;
	int column;
	struct node *left, *right;
	uint64_t ival;
	double fval;
	uint8_t *str;		/* N_STRING: pattern bytes */
	size_t str_len;
	bool glob;		/* N_STRING: holds a star */
	struct path_step *path;	/* N_FIELD */
	size_t path_len;
	char *ctx;		/* N_CTX: NAME */
};

struct filter_error;

/* The operator's spelling, for messages ("&&", "<<", "-"). */
const char *ast_op_name(enum ast_op op);

/* Parse `text`: the tree, or NULL with `err` set. */
struct node *ast_parse(const char *text, struct filter_error *err);
void ast_free(struct node *n);

#endif /* UST_FILTER_AST_H */
