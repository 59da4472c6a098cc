/*
 * check.c - type-check a filter expression against one event's fields,
 * folding what is constant.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The rules (doc/filters.md): integers are 64-bit signed, as LTTng casts
 * every integer constant and field; an operation with a float operand is
 * done on doubles; strings compare only with == and !=, against a
 * pattern (a literal, where * is a wildcard) or another string; an enum
 * compares as its integer value, or with == and != against a label (or
 * a pattern over its labels); && || ! take numbers (zero is false) and
 * give 0 or 1.  Only constant subtrees are folded, with the interpreter's
 * own integer operations, so that a folded program selects exactly what
 * the unfolded one would; a left operand of && or || that is constant
 * decides, as it would at run time, whether the right one is evaluated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "typed.h"

struct checker {
	const struct filter_event *ev;
	struct filter_error *err;
};

/* filter_fail() where no node is made: NULL, to return. */
#define fail(c, col, ...) (filter_fail((c)->err, (col), __VA_ARGS__), NULL)

static struct tnode *new_tnode(struct checker *c, enum tkind kind,
			       enum vtype type, const struct node *n)
{
	struct tnode *t = calloc(1, sizeof(*t));

	if (!t)
		return fail(c, n->column, "out of memory");
	t->kind = kind;
	t->type = type;
	t->op = n->op;
	t->column = n->column;
	return t;
}

void tnode_free(struct tnode *t)
{
	if (!t)
		return;
	tnode_free(t->left);
	tnode_free(t->right);
	fields_access_release(&t->access);
	free(t->ranges);
	free(t);
}

static const char *type_name(enum vtype t)
{
	return t == VT_INT ? "an integer" : t == VT_FLOAT ? "a float" : "a string";
}

static struct tnode *constant_int(struct checker *c, const struct node *n,
				  int64_t v, bool is_bool)
{
	struct tnode *t = new_tnode(c, TK_CONST, VT_INT, n);

	if (t) {
		t->is_const = true;
		t->i = v;
		t->is_bool = is_bool;
	}
	return t;
}

static struct tnode *constant_float(struct checker *c, const struct node *n,
				    double v)
{
	struct tnode *t = new_tnode(c, TK_CONST, VT_FLOAT, n);

	if (t) {
		t->is_const = true;
		t->d = v;
	}
	return t;
}

/* ---- leaves ---- */

static struct tnode *check_field(struct checker *c, const struct node *n)
{
	struct tnode *t = new_tnode(c, TK_LOAD, VT_INT, n);
	const struct rd_type *type;

	if (!t)
		return NULL;
	if (fields_resolve(c->ev, n, &t->access, c->err)) {
		free(t);
		return NULL;
	}
	type = t->access.type;
	if (type->kind == RD_FLOAT)
		t->type = VT_FLOAT;
	else if (type->kind == RD_STRING)
		t->type = VT_STRING;
	else if (type->kind == RD_ENUM)
		t->enum_type = type;
	return t;
}

static const struct {
	const char *name;
	unsigned int field;
	enum vtype type;
} contexts[] = {
	{ "cpu_id", UST_FILTER_CTX_CPU_ID, VT_INT },
	{ "procname", UST_FILTER_CTX_PROCNAME, VT_STRING },
	{ "vpid", UST_FILTER_CTX_VPID, VT_INT },
	{ "vtid", UST_FILTER_CTX_VTID, VT_INT },
};

static struct tnode *check_context(struct checker *c, const struct node *n)
{
	struct tnode *t;
	size_t i;

	for (i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
		if (strcmp(contexts[i].name, n->ctx))
			continue;
		t = new_tnode(c, TK_CONTEXT, contexts[i].type, n);
		if (t)
			t->ctx = contexts[i].field;
		return t;
	}
	return fail(c, n->column,
		    "unknown context field '$ctx.%s'; ust has $ctx.cpu_id, $ctx.procname, $ctx.vpid, $ctx.vtid",
		    n->ctx);
}

static struct tnode *check_leaf(struct checker *c, const struct node *n)
{
	struct tnode *t;

	switch (n->kind) {
	case N_INT:
		return constant_int(c, n, (int64_t)n->ival, false);
	case N_FLOAT:
		return constant_float(c, n, n->fval);
	case N_STRING:
		t = new_tnode(c, TK_CONST, VT_STRING, n);
		if (t) {
			t->is_const = true;
			t->pat = n->str;
			t->pat_len = n->str_len;
			t->glob = n->glob;
		}
		return t;
	case N_FIELD:
		return check_field(c, n);
	default:
		return check_context(c, n);
	}
}

/* ---- operators ---- */

static struct tnode *check_node(struct checker *c, const struct node *n);

static double as_double(const struct tnode *t)
{
	return t->type == VT_FLOAT ? t->d : (double)t->i;
}

static bool truth(const struct tnode *t)
{
	return t->type == VT_FLOAT ? t->d != 0 : t->i != 0;
}

/* Build a node of `kind` over `l` (and `r`), or free them. */
static struct tnode *combine(struct checker *c, const struct node *n,
			     enum tkind kind, enum vtype type,
			     struct tnode *l, struct tnode *r)
{
	struct tnode *t = new_tnode(c, kind, type, n);

	if (!t) {
		tnode_free(l);
		tnode_free(r);
		return NULL;
	}
	t->left = l;
	t->right = r;
	return t;
}

/* combine() for an operator whose result is a condition: 0 or 1. */
static struct tnode *combine_bool(struct checker *c, const struct node *n,
				  enum tkind kind, struct tnode *l,
				  struct tnode *r)
{
	struct tnode *t = combine(c, n, kind, VT_INT, l, r);

	if (t)
		t->is_bool = true;
	return t;
}

static struct tnode *fold_unary(struct checker *c, const struct node *n,
				struct tnode *x)
{
	struct tnode *t;

	if (n->op == OP_NOT)
		t = constant_int(c, n, !truth(x), true);
	else if (x->type == VT_FLOAT)
		t = constant_float(c, n, n->op == OP_MINUS ? -x->d : x->d);
	else if (n->op == OP_MINUS)
		t = constant_int(c, n, (int64_t)(0 - (uint64_t)x->i), false);
	else if (n->op == OP_BNOT)
		t = constant_int(c, n, (int64_t)~(uint64_t)x->i, false);
	else
		t = constant_int(c, n, x->i, x->is_bool);
	tnode_free(x);
	return t;
}

static struct tnode *check_unary(struct checker *c, const struct node *n)
{
	struct tnode *x = check_node(c, n->left);
	enum vtype type;

	if (!x)
		return NULL;
	if (x->type == VT_STRING || (n->op == OP_BNOT && x->type == VT_FLOAT)) {
		const char *what = type_name(x->type);

		tnode_free(x);
		return fail(c, n->column, "'%s' needs %s, not %s",
			    ast_op_name(n->op),
			    n->op == OP_BNOT ? "an integer" : "a number", what);
	}
	if (x->is_const)
		return fold_unary(c, n, x);
	if (n->op == OP_PLUS)
		return x;
	type = n->op == OP_NOT ? VT_INT : x->type;
	x = combine(c, n, TK_UNARY, type, x, NULL);
	if (x)
		x->is_bool = n->op == OP_NOT;
	return x;
}

uint8_t tnode_opcode(enum ast_op op, bool dbl)
{
	static const uint8_t codes[][2] = {
		[OP_MUL] = { UST_FOP_MUL, UST_FOP_MUL_D },
		[OP_DIV] = { UST_FOP_DIV, UST_FOP_DIV_D },
		[OP_MOD] = { UST_FOP_MOD, 0 },
		[OP_ADD] = { UST_FOP_ADD, UST_FOP_ADD_D },
		[OP_SUB] = { UST_FOP_SUB, UST_FOP_SUB_D },
		[OP_SHL] = { UST_FOP_SHL, 0 }, [OP_SHR] = { UST_FOP_SHR, 0 },
		[OP_BAND] = { UST_FOP_BAND, 0 }, [OP_BXOR] = { UST_FOP_BXOR, 0 },
		[OP_BOR] = { UST_FOP_BOR, 0 },
		[OP_LT] = { UST_FOP_LT, UST_FOP_LT_D },
		[OP_LE] = { UST_FOP_LE, UST_FOP_LE_D },
		[OP_GT] = { UST_FOP_GT, UST_FOP_GT_D },
		[OP_GE] = { UST_FOP_GE, UST_FOP_GE_D },
		[OP_EQ] = { UST_FOP_EQ, UST_FOP_EQ_D },
		[OP_NE] = { UST_FOP_NE, UST_FOP_NE_D },
	};

	return codes[op][dbl];
}

static bool is_comparison(enum ast_op op)
{
	return op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE ||
	       op == OP_EQ || op == OP_NE;
}

static struct tnode *fold_float(struct checker *c, const struct node *n,
				double a, double b)
{
	switch (n->op) {
	case OP_ADD: return constant_float(c, n, a + b);
	case OP_SUB: return constant_float(c, n, a - b);
	case OP_MUL: return constant_float(c, n, a * b);
	case OP_DIV: return constant_float(c, n, a / b);
	case OP_LT: return constant_int(c, n, a < b, true);
	case OP_LE: return constant_int(c, n, a <= b, true);
	case OP_GT: return constant_int(c, n, a > b, true);
	case OP_GE: return constant_int(c, n, a >= b, true);
	case OP_EQ: return constant_int(c, n, a == b, true);
	default: return constant_int(c, n, a != b, true);	/* OP_NE */
	}
}

static struct tnode *fold_numbers(struct checker *c, const struct node *n,
				  struct tnode *l, struct tnode *r)
{
	struct tnode *t = NULL;
	int64_t v;

	if (l->type == VT_FLOAT || r->type == VT_FLOAT)
		t = fold_float(c, n, as_double(l), as_double(r));
	else if (ust_filter_int_binary(tnode_opcode(n->op, false), l->i, r->i, &v) == 0)
		t = constant_int(c, n, v, is_comparison(n->op));
	else if (n->op == OP_SHL || n->op == OP_SHR)
		filter_fail(c->err, n->column, "shift count %lld is outside 0..63",
			    (long long)r->i);
	else if (r->i == 0)
		filter_fail(c->err, n->column, "division by zero");
	else
		filter_fail(c->err, n->column, "%lld %s %lld overflows",
			    (long long)l->i, ast_op_name(n->op), (long long)r->i);
	tnode_free(l);
	tnode_free(r);
	return t;
}

/* + - * / % << >> & ^ | and numeric comparisons. */
static struct tnode *check_numbers(struct checker *c, const struct node *n,
				   struct tnode *l, struct tnode *r)
{
	bool int_only = n->op == OP_MOD || n->op == OP_SHL || n->op == OP_SHR ||
			n->op == OP_BAND || n->op == OP_BXOR || n->op == OP_BOR;
	enum vtype type = l->type == VT_FLOAT || r->type == VT_FLOAT ?
			  VT_FLOAT : VT_INT;

	if (int_only && type == VT_FLOAT) {
		tnode_free(l);
		tnode_free(r);
		return fail(c, n->column, "'%s' needs integers, not a float",
			    ast_op_name(n->op));
	}
	if (r->is_const && r->type == VT_INT && (n->op == OP_SHL || n->op == OP_SHR) &&
	    (r->i < 0 || r->i > 63)) {
		filter_fail(c->err, n->column, "shift count %lld is outside 0..63",
			    (long long)r->i);
		tnode_free(l);
		tnode_free(r);
		return NULL;
	}
	if (l->is_const && r->is_const)
		return fold_numbers(c, n, l, r);
	if (is_comparison(n->op))
		return combine_bool(c, n, TK_COMPARE, l, r);
	return combine(c, n, TK_ARITH, type, l, r);
}

static struct tnode *check_logical(struct checker *c, const struct node *n,
				   struct tnode *l, struct tnode *r)
{
	bool is_and = n->op == OP_AND;
	struct tnode *t;

	if (l->type == VT_STRING || r->type == VT_STRING) {
		tnode_free(l);
		tnode_free(r);
		return fail(c, n->column,
			    "'%s' needs conditions or numbers, not a string",
			    ast_op_name(n->op));
	}
	if (!l->is_const)
		return combine_bool(c, n, TK_LOGICAL, l, r);
	/* A constant left side decides whether the right one runs. */
	if (truth(l) != is_and) {
		tnode_free(l);
		tnode_free(r);
		return constant_int(c, n, !is_and, true);
	}
	tnode_free(l);
	if (r->is_const) {
		t = constant_int(c, n, truth(r), true);
		tnode_free(r);
		return t;
	}
	return combine_bool(c, n, TK_TRUTH, r, NULL);
}

/* ---- strings and enum labels ---- */

/* Enum values whose labels match the pattern of string constant `s`. */
static int label_ranges(struct checker *c, struct tnode *t,
			const struct rd_type *e, const struct tnode *s)
{
	size_t i;

	t->ranges = calloc(2 * (e->u.e.nr ? e->u.e.nr : 1), sizeof(int64_t));
	if (!t->ranges)
		return -1;
	for (i = 0; i < e->u.e.nr; i++) {
		const struct rd_enum_range *r = &e->u.e.ranges[i];

		if (!ust_filter_match(r->label, strlen(r->label), s->pat,
				      s->pat_len))
			continue;
		t->ranges[2 * t->nr_ranges] = r->lo;
		t->ranges[2 * t->nr_ranges + 1] = r->hi;
		t->nr_ranges++;
	}
	return 0;
}

static void label_list(const struct rd_type *e, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < e->u.e.nr && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       e->u.e.ranges[i].label);
}

static struct tnode *check_label(struct checker *c, const struct node *n,
				 struct tnode *field, struct tnode *s)
{
	const struct rd_type *e = field->enum_type;
	struct access *a = &field->access;
	char labels[256], text[128];
	struct tnode *t;
	size_t i;

	if (n->op != OP_EQ && n->op != OP_NE) {
		tnode_free(field);
		tnode_free(s);
		return fail(c, n->column, "'%s' cannot compare an enum with a label: only == and != do",
			    ast_op_name(n->op));
	}
	t = combine_bool(c, n, TK_ENUM_IN, field, NULL);
	if (t && label_ranges(c, t, e, s)) {
		tnode_free(t);
		t = fail(c, n->column, "out of memory");
	}
	if (t && t->nr_ranges == 0) {
		for (i = 0; i < s->pat_len && i + 1 < sizeof(text); i++)
			text[i] = s->pat[i] ? (char)s->pat[i] : '*';
		text[i] = '\0';
		label_list(e, labels, sizeof(labels));
		if (s->glob)
			filter_fail(c->err, s->column, "no label of enum field '%s' in %s matches '%s'; labels are %s",
				    a->display, c->ev->name, text, labels);
		else
			filter_fail(c->err, s->column, "unknown label '%s' of enum field '%s' in %s; labels are %s",
				    text, a->display, c->ev->name, labels);
		tnode_free(t);
		t = NULL;
	}
	tnode_free(s);
	return t;
}

static struct tnode *fold_strings(struct checker *c, const struct node *n,
				  struct tnode *l, struct tnode *r)
{
	struct tnode *t = NULL;
	int same;

	if (l->glob && r->glob) {
		filter_fail(c->err, n->column, "cannot compare two patterns");
	} else {
		/* One side is plain text: match it against the other. */
		const struct tnode *text = l->glob ? r : l;
		const struct tnode *pat = l->glob ? l : r;

		same = ust_filter_match((const char *)text->pat, text->pat_len,
					pat->pat, pat->pat_len);
		t = constant_int(c, n, n->op == OP_EQ ? same : !same, true);
	}
	tnode_free(l);
	tnode_free(r);
	return t;
}

/* == and != between a string and anything, and between enums and labels. */
static struct tnode *check_strings(struct checker *c, const struct node *n,
				   struct tnode *l, struct tnode *r)
{
	struct tnode *t;

	if (l->type != VT_STRING || r->type != VT_STRING) {
		struct tnode *num = l->type == VT_STRING ? r : l;
		struct tnode *str = l->type == VT_STRING ? l : r;

		const char *num_type = type_name(num->type);

		if (num->enum_type && str->is_const)
			return check_label(c, n, num, str);
		tnode_free(l);
		tnode_free(r);
		return fail(c, n->column, "'%s' cannot compare %s with a string",
			    ast_op_name(n->op), num_type);
	}
	if (n->op != OP_EQ && n->op != OP_NE) {
		tnode_free(l);
		tnode_free(r);
		return fail(c, n->column, "'%s' cannot compare strings: only == and != do",
			    ast_op_name(n->op));
	}
	if (l->is_const && r->is_const)
		return fold_strings(c, n, l, r);
	if (l->is_const || r->is_const) {
		struct tnode *pat = l->is_const ? l : r;
		struct tnode *val = l->is_const ? r : l;

		t = combine_bool(c, n, TK_STR_MATCH, val, NULL);
		if (t) {
			t->pat = pat->pat;
			t->pat_len = pat->pat_len;
		}
		tnode_free(pat);
		return t;
	}
	return combine_bool(c, n, TK_STR_EQ, l, r);
}

static struct tnode *check_binary(struct checker *c, const struct node *n)
{
	struct tnode *l = check_node(c, n->left), *r;

	if (!l)
		return NULL;
	r = check_node(c, n->right);
	if (!r) {
		tnode_free(l);
		return NULL;
	}
	if (n->op == OP_AND || n->op == OP_OR)
		return check_logical(c, n, l, r);
	if (l->type == VT_STRING || r->type == VT_STRING) {
		if (!is_comparison(n->op)) {
			tnode_free(l);
			tnode_free(r);
			return fail(c, n->column, "'%s' needs numbers, not a string",
				    ast_op_name(n->op));
		}
		return check_strings(c, n, l, r);
	}
	return check_numbers(c, n, l, r);
}

static struct tnode *check_node(struct checker *c, const struct node *n)
{
	switch (n->kind) {
	case N_UNARY:
		return check_unary(c, n);
	case N_BINARY:
		return check_binary(c, n);
	default:
		return check_leaf(c, n);
	}
}

struct tnode *check_expr(const struct node *n, const struct filter_event *ev,
			 struct filter_error *err)
{
	struct checker c = { ev, err };
	struct tnode *t;

	memset(err, 0, sizeof(*err));
	t = check_node(&c, n);
	if (t && t->type != VT_INT) {
		filter_fail(err, n->column,
			    "the filter is %s, not a condition: compare it (as %s)",
			    type_name(t->type),
			    t->type == VT_FLOAT ? "x > 0.5" : "name == \"abc*\"");
		tnode_free(t);
		return NULL;
	}
	return t;
}
