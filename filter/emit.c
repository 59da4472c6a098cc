/*
 * emit.c - instructions for a checked filter expression.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Post-order: each node leaves its value on the stack.  A field is
 * reached from the payload's start: fixed-size fields before it add up
 * to a constant offset (the common case: one load, no position
 * instruction), a string before it is skipped with SKIP_STR, anything
 * else variable with SKIP and the layout text of what lies between; a
 * sequence element checks its index against the length first (SEQ_INDEX)
 * and a variant option checks the tag (TAG_IS).  The finished program is
 * run through the validator libust uses before it is returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "typed.h"

#define MAX_OPEN_JUMPS 64	/* as the validator allows */

struct emitter {
	struct ust_filter_insn insns[UST_FILTER_MAX_INSNS];
	uint32_t nr_insns;
	uint8_t pool[UST_FILTER_MAX_POOL];
	uint32_t pool_size;
	unsigned int depth, max_depth, open_jumps;
	const struct filter_event *ev;
	struct filter_error *err;
	bool failed;
};

/* Only the first error is told: the later ones follow from it. */
#define fail(e, col, ...)						\
	do {								\
		if (!(e)->failed)					\
			filter_fail((e)->err, (col), __VA_ARGS__);	\
		(e)->failed = true;					\
	} while (0)

/* How an instruction changes the stack's depth. */
static int stack_delta(uint8_t op)
{
	switch (op) {
	case UST_FOP_INT: case UST_FOP_DBL: case UST_FOP_LOAD_INT:
	case UST_FOP_LOAD_DBL: case UST_FOP_LOAD_STR: case UST_FOP_CTX_INT:
	case UST_FOP_CTX_STR:
		return 1;
	case UST_FOP_ADD ... UST_FOP_GE:
	case UST_FOP_ADD_D ... UST_FOP_GE_D:
	case UST_FOP_STR_EQ:
	case UST_FOP_AND: case UST_FOP_OR:	/* when they fall through */
	case UST_FOP_RET:
		return -1;
	default:
		return 0;
	}
}

static uint32_t insn(struct emitter *e, uint8_t op, uint8_t a, uint16_t b,
		     uint32_t c)
{
	struct ust_filter_insn *in;

	if (e->nr_insns == UST_FILTER_MAX_INSNS) {
		fail(e, 0, "the expression is too long (more than %u instructions)",
		     UST_FILTER_MAX_INSNS);
		return 0;
	}
	in = &e->insns[e->nr_insns];
	in->op = op;
	in->a = a;
	in->b = b;
	in->c = c;
	e->depth += (unsigned int)stack_delta(op);
	if (e->depth > e->max_depth)
		e->max_depth = e->depth;
	return e->nr_insns++;
}

/* `len` bytes into the pool, 8-aligned: their offset. */
static uint32_t pool_bytes(struct emitter *e, const void *data, size_t len)
{
	uint32_t at = e->pool_size;
	size_t padded = (len + 7) & ~(size_t)7;

	if (padded > UST_FILTER_MAX_POOL - at) {
		fail(e, 0, "the expression has too many constants (more than %u bytes)",
		     UST_FILTER_MAX_POOL);
		return 0;
	}
	memcpy(e->pool + at, data, len);
	e->pool_size += (uint32_t)padded;
	return at;
}

/* A 64-bit constant: its slot, shared with an equal one already there. */
static uint16_t pool_u64(struct emitter *e, uint64_t v)
{
	uint32_t at;

	for (at = 0; at + 8 <= e->pool_size; at += 8)
		if (!memcmp(e->pool + at, &v, 8))
			return (uint16_t)(at / 8);
	return (uint16_t)(pool_bytes(e, &v, 8) / 8);
}

/* ---- reaching a field ---- */

/* Where the next byte is: P + off when dynamic, else off itself. */
struct place {
	bool dynamic;
	uint64_t off;
};

/* Make P the current place. */
static void flush(struct emitter *e, struct place *p)
{
	if (p->off > UINT32_MAX)
		fail(e, 0, "a field lies too far into the payload");
	if (!p->dynamic)
		insn(e, UST_FOP_POS, 0, 0, (uint32_t)p->off);
	else if (p->off)
		insn(e, UST_FOP_POS, UST_FILTER_REL, 0, (uint32_t)p->off);
	p->dynamic = true;
	p->off = 0;
}

static void skip_text(struct emitter *e, struct place *p, const char *text,
		      size_t len)
{
	uint32_t at;

	flush(e, p);
	if (len > UINT16_MAX) {
		fail(e, 0, "the fields before this one are too complex to skip");
		return;
	}
	at = pool_bytes(e, text, len);
	insn(e, UST_FOP_SKIP, 0, (uint16_t)len, at);
}

/* Move past a layout text: F items add up, S is SKIP_STR, the rest SKIP. */
static void skip_layout(struct emitter *e, struct place *p, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, " ");

		if (text[0] == 'F') {	/* F items are F and digits only */
			p->off += strtoull(text + 1, NULL, 10);
		} else if (len == 1 && text[0] == 'S') {
			flush(e, p);
			insn(e, UST_FOP_SKIP_STR, 0, 0, 0);
		} else {
			/* Nested or tagged: the rest in one walk (tags stay in it). */
			skip_text(e, p, text, strlen(text));
			return;
		}
		text += len;
		text += *text == ' ';
	}
}

/* Skip the first `to` members of struct `st`. */
static void skip_members(struct emitter *e, struct place *p,
			 const struct rd_type *st, size_t to)
{
	struct layout_text b;

	layout_text_init(&b);
	if (fields_layout(st, to, &b, e->err))
		e->failed = true;
	else if (b.s)
		skip_layout(e, p, b.s);
	layout_text_release(&b);
}

/* Skip `count` elements of type `elem`. */
static void skip_elements(struct emitter *e, struct place *p,
			  const struct rd_type *elem, uint64_t count)
{
	struct layout_text b;
	uint64_t size;

	if (count == 0)
		return;
	if (fields_fixed_size(elem, &size)) {
		p->off += count * size;
		return;
	}
	if (count > 65535) {
		fail(e, 0, "index %llu is too large for elements whose size varies",
		     (unsigned long long)count);
		return;
	}
	layout_text_init(&b);
	b.at_start = true;
	if (type_layout(elem, &b, e->err)) {
		e->failed = true;
	} else {
		char *text = NULL;

		if (asprintf(&text, "A%llu[%s]", (unsigned long long)count,
			     b.s ? b.s : "") < 0)
			fail(e, 0, "out of memory");
		else
			skip_text(e, p, text, strlen(text));
		free(text);
	}
	layout_text_release(&b);
}

static unsigned int int_bytes(const struct rd_type *t)
{
	return t->u.i.size / 8;
}

/* Follow `steps` from the payload's start. */
static void follow(struct emitter *e, struct place *p,
		   const struct access_step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n && !e->failed; i++) {
		const struct access_step *s = &steps[i];
		const struct rd_type *t;

		switch (s->kind) {
		case ST_MEMBER:
			t = s->parent->u.s.members[s->member].type;
			/* A sequence is reached at its length, for SEQ_INDEX. */
			skip_members(e, p, s->parent, t->kind == RD_SEQUENCE ?
				     (size_t)t->u.a.len_index : s->member);
			break;
		case ST_INDEX:
			if (s->parent->kind == RD_SEQUENCE) {
				const struct access_step *m = &steps[i - 1];
				const struct rd_type *len =
					m->parent->u.s.members[s->parent->u.a.len_index].type;

				flush(e, p);
				insn(e, UST_FOP_SEQ_INDEX, (uint8_t)int_bytes(len), 0,
				     (uint32_t)s->index);
			}
			skip_elements(e, p, s->parent->u.a.elem, s->index);
			break;
		default:	/* ST_OPTION: the option is where the variant is */
			break;
		}
	}
}

static uint8_t place_flags(const struct place *p)
{
	return p->dynamic ? UST_FILTER_REL : 0;
}

/* For each variant option on the way, check that its tag selects it. */
static void check_tags(struct emitter *e, const struct access *a)
{
	size_t i;

	for (i = 1; i < a->nr_steps; i++) {
		const struct access_step *opt = &a->steps[i];
		const struct access_step *var = &a->steps[i - 1];
		const struct rd_type *v, *tag;
		const struct rd_enum_range *label;
		struct place p = { false, 0 };
		uint64_t value;
		unsigned int size;

		if (opt->kind != ST_OPTION)
			continue;
		v = opt->parent;
		tag = var->parent->u.s.members[v->u.v.tag_index].type;
		size = int_bytes(tag->u.e.container);
		label = NULL;
		for (size_t k = 0; k < tag->u.e.nr; k++)
			if (!strcmp(tag->u.e.ranges[k].label,
				    v->u.v.options[opt->member].name))
				label = &tag->u.e.ranges[k];
		if (!label || label->lo != label->hi) {
			fail(e, 0, "ust cannot filter on this variant option");
			return;
		}
		value = (uint64_t)label->lo;
		if (size < 8)
			value &= (1ull << (8 * size)) - 1;
		follow(e, &p, a->steps, i - 1);
		skip_members(e, &p, var->parent, (size_t)v->u.v.tag_index);
		if (p.off > UINT32_MAX)
			fail(e, 0, "a field lies too far into the payload");
		insn(e, UST_FOP_TAG_IS, (uint8_t)(size | place_flags(&p)),
		     pool_u64(e, value), (uint32_t)p.off);
	}
}

static void emit_load(struct emitter *e, const struct access *a)
{
	const struct rd_type *t = a->type;
	struct place p = { false, 0 };
	uint8_t flags;

	check_tags(e, a);
	follow(e, &p, a->steps, a->nr_steps);
	if (p.off > UINT32_MAX)
		fail(e, 0, "a field lies too far into the payload");
	flags = place_flags(&p);
	switch (t->kind) {
	case RD_STRING:
		insn(e, UST_FOP_LOAD_STR, flags, 0, (uint32_t)p.off);
		break;
	case RD_FLOAT:
		flags |= (uint8_t)fields_scalar_size(t);
		if (t->be)
			flags |= UST_FILTER_SWAP;
		insn(e, UST_FOP_LOAD_DBL, flags, 0, (uint32_t)p.off);
		break;
	default:	/* RD_INT, RD_ENUM */
		if (t->kind == RD_ENUM)
			t = t->u.e.container;
		flags |= (uint8_t)int_bytes(t);
		if (t->u.i.is_signed)
			flags |= UST_FILTER_SIGNED;
		if (t->be)
			flags |= UST_FILTER_SWAP;
		insn(e, UST_FOP_LOAD_INT, flags, 0, (uint32_t)p.off);
		break;
	}
}

/* ---- expressions ---- */

static void emit_node(struct emitter *e, const struct tnode *t);

static void emit_constant(struct emitter *e, const struct tnode *t,
			  enum vtype as)
{
	uint64_t bits;

	if (as == VT_FLOAT) {
		double d = t->type == VT_FLOAT ? t->d : (double)t->i;

		memcpy(&bits, &d, sizeof(bits));
		insn(e, UST_FOP_DBL, 0, pool_u64(e, bits), 0);
	} else {
		insn(e, UST_FOP_INT, 0, pool_u64(e, (uint64_t)t->i), 0);
	}
}

/* `t`'s value, converted to a double when `as` says so. */
static void emit_as(struct emitter *e, const struct tnode *t, enum vtype as)
{
	if (t->is_const) {
		emit_constant(e, t, as);
		return;
	}
	emit_node(e, t);
	if (as == VT_FLOAT && t->type == VT_INT)
		insn(e, UST_FOP_I2D, 0, 0, 0);
}

/* `t` as an integer that is 0 or 1 (or, with `any`, zero or not). */
static void emit_truth(struct emitter *e, const struct tnode *t, bool any)
{
	emit_as(e, t, t->type);
	if (t->type == VT_FLOAT)
		insn(e, UST_FOP_BOOL_D, 0, 0, 0);
	else if (!any && !t->is_bool)
		insn(e, UST_FOP_BOOL, 0, 0, 0);
}

static void emit_unary(struct emitter *e, const struct tnode *t)
{
	bool dbl = t->left->type == VT_FLOAT;

	emit_node(e, t->left);
	switch (t->op) {
	case OP_MINUS:
		insn(e, dbl ? UST_FOP_NEG_D : UST_FOP_NEG, 0, 0, 0);
		break;
	case OP_NOT:
		insn(e, dbl ? UST_FOP_LNOT_D : UST_FOP_LNOT, 0, 0, 0);
		break;
	default:	/* OP_BNOT */
		insn(e, UST_FOP_BNOT, 0, 0, 0);
		break;
	}
}

/* The constant-operand form of an integer operator (EQ_K ...), or 0. */
static uint8_t constant_form(enum ast_op op)
{
	switch (op) {
	case OP_EQ: return UST_FOP_EQ_K;
	case OP_NE: return UST_FOP_NE_K;
	case OP_LT: return UST_FOP_LT_K;
	case OP_LE: return UST_FOP_LE_K;
	case OP_GT: return UST_FOP_GT_K;
	case OP_GE: return UST_FOP_GE_K;
	case OP_BAND: return UST_FOP_BAND_K;
	default: return 0;
	}
}

/* `k OP x` as `x OP' k`: the mirrored comparison (& is symmetric). */
static enum ast_op mirrored(enum ast_op op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_LE: return OP_GE;
	case OP_GT: return OP_LT;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

/* Is there a jump among the instructions from `start` on? */
static bool has_jump(const struct emitter *e, uint32_t start)
{
	uint32_t i;

	for (i = start; i < e->nr_insns; i++)
		if (e->insns[i].op == UST_FOP_AND || e->insns[i].op == UST_FOP_OR)
			return true;
	return false;
}

/*
 * An integer against an integer constant, in one instruction (with the
 * field's load when it is a field): true when emitted that way.
 */
static bool emit_with_constant(struct emitter *e, const struct tnode *t)
{
	const struct tnode *var = t->right->is_const ? t->left : t->right;
	const struct tnode *k = t->right->is_const ? t->right : t->left;
	enum ast_op op = k == t->right ? t->op : mirrored(t->op);

	uint32_t start = e->nr_insns;

	if (var->type != VT_INT || k->type != VT_INT || !k->is_const ||
	    var->is_const || !constant_form(op))
		return false;
	emit_node(e, var);
	/*
	 * A field alone (its LOAD_INT last, after position instructions at
	 * most: no jump lands after it) fuses with the comparison.
	 */
	if (!e->failed && e->nr_insns > start &&
	    e->insns[e->nr_insns - 1].op == UST_FOP_LOAD_INT &&
	    !has_jump(e, start)) {
		struct ust_filter_insn *load = &e->insns[e->nr_insns - 1];

		load->op = (uint8_t)(constant_form(op) - UST_FOP_EQ_K +
				     UST_FOP_FIELD_EQ_K);
		load->b = pool_u64(e, (uint64_t)k->i);
		return true;
	}
	insn(e, constant_form(op), 0, pool_u64(e, (uint64_t)k->i), 0);
	return true;
}

/* An operator of two numbers: both made `as`, then the opcode. */
static void emit_numbers(struct emitter *e, const struct tnode *t)
{
	enum vtype as = t->left->type == VT_FLOAT || t->right->type == VT_FLOAT ?
			VT_FLOAT : VT_INT;

	if (emit_with_constant(e, t))
		return;
	emit_as(e, t->left, as);
	emit_as(e, t->right, as);
	insn(e, tnode_opcode(t->op, as == VT_FLOAT), 0, 0, 0);
}

static void emit_logical(struct emitter *e, const struct tnode *t)
{
	uint32_t jump;

	emit_truth(e, t->left, true);
	if (++e->open_jumps > MAX_OPEN_JUMPS)
		fail(e, t->column, "too many nested && and || (more than %u)",
		     MAX_OPEN_JUMPS);
	jump = insn(e, t->op == OP_AND ? UST_FOP_AND : UST_FOP_OR, 0, 0, 0);
	emit_truth(e, t->right, false);
	/* The jump lands after the right side, which left one value too. */
	if (!e->failed)
		e->insns[jump].b = (uint16_t)e->nr_insns;
	e->open_jumps--;
}

static void emit_enum_in(struct emitter *e, const struct tnode *t)
{
	uint16_t first = 0;
	size_t k;

	emit_node(e, t->left);
	/* Consecutive slots, never shared: pool_bytes, not pool_u64. */
	for (k = 0; k < 2 * t->nr_ranges; k++) {
		uint32_t at = pool_bytes(e, &t->ranges[k], 8);

		if (k == 0)
			first = (uint16_t)(at / 8);
	}
	insn(e, UST_FOP_IN_RANGES, 0, (uint16_t)t->nr_ranges, first);
}

static void emit_node(struct emitter *e, const struct tnode *t)
{
	if (e->failed)
		return;
	if (t->is_const) {
		emit_constant(e, t, t->type);
		return;
	}
	switch (t->kind) {
	case TK_LOAD:
		emit_load(e, &t->access);
		break;
	case TK_CONTEXT:
		insn(e, t->type == VT_STRING ? UST_FOP_CTX_STR : UST_FOP_CTX_INT,
		     (uint8_t)t->ctx, 0, 0);
		break;
	case TK_UNARY:
		emit_unary(e, t);
		break;
	case TK_ARITH:
	case TK_COMPARE:
		emit_numbers(e, t);
		break;
	case TK_STR_MATCH:
		emit_node(e, t->left);
		insn(e, UST_FOP_STR_MATCH, 0, (uint16_t)t->pat_len,
		     pool_bytes(e, t->pat, t->pat_len));
		break;
	case TK_STR_EQ:
		emit_node(e, t->left);
		emit_node(e, t->right);
		insn(e, UST_FOP_STR_EQ, 0, 0, 0);
		break;
	case TK_ENUM_IN:
		emit_enum_in(e, t);
		break;
	case TK_LOGICAL:
		emit_logical(e, t);
		return;
	default:	/* TK_TRUTH */
		emit_truth(e, t->left, false);
		return;
	}
	/* != of strings and labels: the match, negated. */
	if ((t->kind == TK_STR_MATCH || t->kind == TK_STR_EQ ||
	     t->kind == TK_ENUM_IN) && t->op == OP_NE)
		insn(e, UST_FOP_LNOT, 0, 0, 0);
}

/* Header, instructions and pool, then the validator's word on them. */
static int finish(struct emitter *e, struct filter_program *out)
{
	struct ust_filter_header h = {
		.magic = UST_FILTER_MAGIC,
		.nr_insns = (uint16_t)e->nr_insns,
		.pool_size = e->pool_size,
		.signature = e->ev->signature,
	};
	size_t code = (size_t)e->nr_insns * sizeof(e->insns[0]);
	struct ust_filter_error verr;
	struct ust_filter f;

	out->size = sizeof(h) + code + e->pool_size;
	out->bytes = malloc(out->size);
	if (!out->bytes) {
		fail(e, 0, "out of memory");
		return -1;
	}
	memcpy(out->bytes, &h, sizeof(h));
	memcpy(out->bytes + sizeof(h), e->insns, code);
	memcpy(out->bytes + sizeof(h) + code, e->pool, e->pool_size);
	if (ust_filter_validate(&f, out->bytes, out->size, &verr)) {
		fail(e, 0, "internal error: the program is refused at instruction %d: %s",
		     verr.insn, verr.what);
		filter_program_free(out);
		return -1;
	}
	return 0;
}

int emit_program(const struct tnode *t, const struct filter_event *ev,
		 struct filter_program *out, struct filter_error *err)
{
	struct emitter *e = calloc(1, sizeof(*e));
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!e) {
		err->column = 0;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	e->ev = ev;
	e->err = err;
	emit_truth(e, t, true);
	insn(e, UST_FOP_RET, 0, 0, 0);
	if (!e->failed && e->max_depth > UST_FILTER_MAX_STACK)
		fail(e, 0, "the expression is too deeply nested (it needs more than %u stack slots)",
		     UST_FILTER_MAX_STACK);
	if (!e->failed)
		ret = finish(e, out);
	free(e);
	return ret;
}

void filter_program_free(struct filter_program *p)
{
	free(p->bytes);
	p->bytes = NULL;
	p->size = 0;
}
