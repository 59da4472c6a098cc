/*
 * parse.c - from the text of a filter expression to its tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Recursive descent with precedence climbing.  The precedence is LTTng's
 * (lttng-enable-event(1), and its grammar in lttng-tools): C's, except
 * that the bitwise operators & ^ | bind tighter than the comparisons, so
 * `x & 1 == 1` is `(x & 1) == 1`.  From the loosest:
 *
 *	||   &&   == !=   < <= > >=   |   ^   &   << >>   + -   * / %
 *
 * then the unary - + ! ~ (right to left), then field paths (`a.b[2]`),
 * constants and parentheses.  Binary operators group left to right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "compiler.h"
#include "lex.h"

#define MAX_NESTING 200

struct parser {
	struct lexer lx;
	struct token tok;
	struct filter_error *err;
	unsigned int depth;
};

/* filter_fail() where no node is made: NULL, to return. */
#define fail(ps, col, ...) (filter_fail((ps)->err, (col), __VA_ARGS__), NULL)

static int advance(struct parser *ps)
{
	free(ps->tok.str);
	return lex_next(&ps->lx, &ps->tok);
}

static struct node *unexpected(struct parser *ps, const char *wanted)
{
	char what[64];

	lex_describe(&ps->tok, what, sizeof(what));
	return fail(ps, ps->tok.column, "expected %s, found %s", wanted, what);
}

/* Move to the next token, which must be a `kind`: 0, or -1 with the error. */
static int advance_to(struct parser *ps, enum tok_kind kind, const char *wanted)
{
	if (advance(ps))
		return -1;
	if (ps->tok.kind != kind) {
		unexpected(ps, wanted);
		return -1;
	}
	return 0;
}

static struct node *new_node(struct parser *ps, enum node_kind kind, int col)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		return fail(ps, col, "out of memory");
	n->kind = kind;
	n->column = col;
	return n;
}

void ast_free(struct node *n)
{
	size_t i;

	if (!n)
		return;
	ast_free(n->left);
	ast_free(n->right);
	free(n->str);
	for (i = 0; i < n->path_len; i++)
		free(n->path[i].name);
	free(n->path);
	free(n->ctx);
	free(n);
}

static const struct {
	enum tok_kind tok;
	enum ast_op op;
	int level;
} binary_ops[] = {
	{ TK_OROR, OP_OR, 1 }, { TK_ANDAND, OP_AND, 2 },
	{ TK_EQ, OP_EQ, 3 }, { TK_NE, OP_NE, 3 },
	{ TK_LT, OP_LT, 4 }, { TK_LE, OP_LE, 4 }, { TK_GT, OP_GT, 4 },
	{ TK_GE, OP_GE, 4 },
	{ TK_PIPE, OP_BOR, 5 }, { TK_CARET, OP_BXOR, 6 }, { TK_AMP, OP_BAND, 7 },
	{ TK_SHL, OP_SHL, 8 }, { TK_SHR, OP_SHR, 8 },
	{ TK_PLUS, OP_ADD, 9 }, { TK_MINUS, OP_SUB, 9 },
	{ TK_STAR, OP_MUL, 10 }, { TK_SLASH, OP_DIV, 10 }, { TK_PERCENT, OP_MOD, 10 },
};

static const char *const op_names[] = {
	[OP_NONE] = "?", [OP_PLUS] = "+", [OP_MINUS] = "-", [OP_NOT] = "!",
	[OP_BNOT] = "~", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
	[OP_ADD] = "+", [OP_SUB] = "-", [OP_SHL] = "<<", [OP_SHR] = ">>",
	[OP_BAND] = "&", [OP_BXOR] = "^", [OP_BOR] = "|", [OP_LT] = "<",
	[OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=", [OP_EQ] = "==",
	[OP_NE] = "!=", [OP_AND] = "&&", [OP_OR] = "||",
};

const char *ast_op_name(enum ast_op op)
{
	return op_names[op];
}

static struct node *parse_binary(struct parser *ps, int min_level);

/* `[N]`: LTTng takes only a constant, non-negative integer. */
static int parse_index(struct parser *ps, struct path_step *step)
{
	step->is_index = true;
	step->column = ps->tok.column;
	if (advance_to(ps, TK_INT, "an index (a non-negative integer constant)"))
		return -1;
	step->index = ps->tok.ival;
	if (advance_to(ps, TK_RBRACKET, "']'"))
		return -1;
	return advance(ps);
}

static int add_step(struct parser *ps, struct node *n)
{
	struct path_step *grown = realloc(n->path,
					  (n->path_len + 1) * sizeof(*grown));

	if (!grown)
		return filter_fail(ps->err, ps->tok.column, "out of memory");
	n->path = grown;
	memset(&grown[n->path_len], 0, sizeof(*grown));
	n->path_len++;
	return 0;
}

/* A name step at the current identifier. */
static int name_step(struct parser *ps, struct node *n)
{
	struct path_step *step;

	if (add_step(ps, n))
		return -1;
	step = &n->path[n->path_len - 1];
	step->column = ps->tok.column;
	step->name = strndup(ps->tok.text, ps->tok.len);
	if (!step->name)
		return filter_fail(ps->err, ps->tok.column, "out of memory");
	return advance(ps);
}

/* name ('[' N ']' | '.' name)* */
static struct node *parse_path(struct parser *ps)
{
	struct node *n = new_node(ps, N_FIELD, ps->tok.column);

	if (!n || name_step(ps, n))
		goto error;
	for (;;) {
		if (ps->tok.kind == TK_LBRACKET) {
			if (add_step(ps, n) ||
			    parse_index(ps, &n->path[n->path_len - 1]))
				goto error;
		} else if (ps->tok.kind == TK_DOT) {
			if (advance_to(ps, TK_IDENT, "a member name after '.'") ||
			    name_step(ps, n))
				goto error;
		} else if (ps->tok.kind == TK_ARROW) {
			filter_fail(ps->err, ps->tok.column,
				    "'->' is not supported: write '.' for a member");
			goto error;
		} else {
			return n;
		}
	}
error:
	ast_free(n);
	return NULL;
}

/* $ctx.NAME */
static struct node *parse_global(struct parser *ps)
{
	int col = ps->tok.column;
	struct node *n;

	if (ps->tok.len == 4 && !strncmp(ps->tok.text, "$app", 4))
		return fail(ps, col, "application contexts ($app.) are not supported by ust");
	if (ps->tok.len != 4 || strncmp(ps->tok.text, "$ctx", 4))
		return fail(ps, col, "unknown '%.*s': context fields are $ctx.NAME",
			    (int)ps->tok.len, ps->tok.text);
	if (advance_to(ps, TK_DOT, "'.' after $ctx") ||
	    advance_to(ps, TK_IDENT, "a context field name after '$ctx.'"))
		return NULL;
	n = new_node(ps, N_CTX, col);
	if (!n)
		return NULL;
	n->ctx = strndup(ps->tok.text, ps->tok.len);
	if (!n->ctx || advance(ps)) {
		if (!n->ctx)
			filter_fail(ps->err, col, "out of memory");
		ast_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_constant(struct parser *ps)
{
	static const enum node_kind kinds[] = {
		[TK_INT] = N_INT, [TK_FLOAT] = N_FLOAT, [TK_STRING] = N_STRING,
	};
	struct node *n = new_node(ps, kinds[ps->tok.kind], ps->tok.column);

	if (!n)
		return NULL;
	n->ival = ps->tok.ival;
	n->fval = ps->tok.fval;
	n->str = ps->tok.str;
	n->str_len = ps->tok.str_len;
	n->glob = ps->tok.glob;
	ps->tok.str = NULL;	/* the node owns it now */
	if (advance(ps)) {
		ast_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_paren(struct parser *ps)
{
	int col = ps->tok.column;
	struct node *n;
	char what[64];

	if (advance(ps) || !(n = parse_binary(ps, 1)))
		return NULL;
	if (ps->tok.kind != TK_RPAREN) {
		lex_describe(&ps->tok, what, sizeof(what));
		ast_free(n);
		return fail(ps, ps->tok.column,
			    "expected ')' to close the '(' of column %d, found %s",
			    col, what);
	}
	if (advance(ps)) {
		ast_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_primary(struct parser *ps)
{
	switch (ps->tok.kind) {
	case TK_INT:
	case TK_FLOAT:
	case TK_STRING:
		return parse_constant(ps);
	case TK_LPAREN:
		return parse_paren(ps);
	case TK_IDENT:
		return parse_path(ps);
	case TK_GLOBAL:
		return parse_global(ps);
	default:
		return unexpected(ps, "a value");
	}
}

static struct node *parse_unary(struct parser *ps)
{
	enum ast_op op;
	struct node *n, *operand;
	int col = ps->tok.column;

	switch (ps->tok.kind) {
	case TK_PLUS: op = OP_PLUS; break;
	case TK_MINUS: op = OP_MINUS; break;
	case TK_BANG: op = OP_NOT; break;
	case TK_TILDE: op = OP_BNOT; break;
	default: return parse_primary(ps);
	}
	if (advance(ps) || !(operand = parse_unary(ps)))
		return NULL;
	n = new_node(ps, N_UNARY, col);
	if (!n) {
		ast_free(operand);
		return NULL;
	}
	n->op = op;
	n->left = operand;
	return n;
}

static int binary_level(enum tok_kind tok, enum ast_op *op)
{
	size_t i;

	for (i = 0; i < sizeof(binary_ops) / sizeof(binary_ops[0]); i++) {
		if (binary_ops[i].tok == tok) {
			*op = binary_ops[i].op;
			return binary_ops[i].level;
		}
	}
	return 0;
}

static struct node *parse_binary(struct parser *ps, int min_level)
{
	struct node *left;

	if (++ps->depth > MAX_NESTING)
		return fail(ps, ps->tok.column, "expression nested too deeply");
	left = parse_unary(ps);
	while (left) {
		enum ast_op op;
		int level = binary_level(ps->tok.kind, &op);
		int col = ps->tok.column;
		struct node *right, *n;

		if (!level || level < min_level)
			break;
		if (advance(ps) || !(right = parse_binary(ps, level + 1))) {
			ast_free(left);
			return NULL;
		}
		n = new_node(ps, N_BINARY, col);
		if (!n) {
			ast_free(left);
			ast_free(right);
			return NULL;
		}
		n->op = op;
		n->left = left;
		n->right = right;
		left = n;
	}
	ps->depth--;
	return left;
}

struct node *ast_parse(const char *text, struct filter_error *err)
{
	struct parser ps;
	struct node *n;

	memset(&ps, 0, sizeof(ps));
	memset(err, 0, sizeof(*err));
	ps.lx.text = ps.lx.p = text;
	ps.lx.err = err;
	ps.err = err;
	if (lex_next(&ps.lx, &ps.tok))
		return NULL;
	if (ps.tok.kind == TK_END)
		return fail(&ps, 0, "empty expression");
	n = parse_binary(&ps, 1);
	if (n && ps.tok.kind != TK_END) {
		unexpected(&ps, "an operator");
		ast_free(n);
		n = NULL;
	}
	free(ps.tok.str);
	return n;
}
