/*
 * validate.c - the checks libust runs on a filter program before it
 * accepts it.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * One pass over the instructions, following the stack's depth and the
 * type of each of its values (abstract interpretation).  Jumps go forward
 * only, so the pass sees every way into an instruction before reaching
 * it; they must also nest like the parentheses of the expression they
 * come from, so the pending ones form a stack: the validator needs a few
 * hundred bytes and no allocation, and a program it accepts runs each
 * instruction at most once.
 */
#include <stdbool.h>
#include <string.h>

#include "runtime.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif

/* Is the program run by valgrind (a client request: a few instructions)? */
static bool running_on_valgrind(void)
{
#ifdef RUNNING_ON_VALGRIND
	return RUNNING_ON_VALGRIND != 0;
#else
	return false;
#endif
}

/* Value types on the stack, 2 bits each. */
enum vtype { T_NONE = 0, T_INT = 1, T_DBL = 2, T_STR = 3 };

struct vstate {
	uint64_t types;		/* slot i at bits 2i..2i+1, slot 0 deepest */
	unsigned int depth;
};

#define MAX_PENDING 64u

struct pending {
	uint32_t target;
	struct vstate state;
};

struct checker {
	struct ust_filter *f;
	struct ust_filter_error *err;
	uint32_t pc;
	struct vstate st;
	bool live;		/* the previous instruction falls through */
	struct pending pend[MAX_PENDING];
	unsigned int nr_pend;
};

static int refuse(struct checker *c, const char *what)
{
	c->err->what = what;
	c->err->insn = (int)c->pc;
	return -1;
}

static enum vtype type_at(const struct vstate *s, unsigned int depth_from_top)
{
	unsigned int slot = s->depth - 1 - depth_from_top;

	return (enum vtype)((s->types >> (2 * slot)) & 3);
}

static int pop(struct checker *c, enum vtype want)
{
	if (c->st.depth == 0)
		return refuse(c, "stack underflow");
	if (type_at(&c->st, 0) != want)
		return refuse(c, "operand of the wrong type");
	c->st.depth--;
	c->st.types &= ~(3ull << (2 * c->st.depth));
	return 0;
}

static int push(struct checker *c, enum vtype t)
{
	if (c->st.depth == UST_FILTER_MAX_STACK)
		return refuse(c, "stack overflow");
	c->st.types |= (uint64_t)t << (2 * c->st.depth);
	c->st.depth++;
	return 0;
}

static bool same_state(const struct vstate *a, const struct vstate *b)
{
	return a->depth == b->depth && a->types == b->types;
}

/* Operand checks. */
static bool slot_ok(const struct ust_filter *f, uint64_t slot, uint64_t count)
{
	return (slot + count) * 8 <= f->pool_size;
}

static bool bytes_ok(const struct ust_filter *f, uint64_t off, uint64_t len)
{
	return off + len <= f->pool_size;
}

static bool size_ok(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* `a` of a load: a size among `sizes`, and no flag outside `flags`. */
static bool load_flags_ok(uint8_t a, bool any_size, unsigned int flags)
{
	unsigned int size = a & UST_FILTER_SIZE_MASK;

	if (a & ~(UST_FILTER_SIZE_MASK | flags))
		return false;
	return any_size ? size_ok(size) : size == 4 || size == 8;
}

/* Stack effects of the instructions that have simple ones. */
struct effect {
	uint8_t in1, in2;	/* popped: in2 first (the top), then in1 */
	uint8_t out;
};

static const struct effect effects[UST_FOP_COUNT] = {
	[UST_FOP_RET] = { T_NONE, T_INT, T_NONE },
	[UST_FOP_INT] = { T_NONE, T_NONE, T_INT },
	[UST_FOP_DBL] = { T_NONE, T_NONE, T_DBL },
	[UST_FOP_LOAD_INT] = { T_NONE, T_NONE, T_INT },
	[UST_FOP_LOAD_DBL] = { T_NONE, T_NONE, T_DBL },
	[UST_FOP_LOAD_STR] = { T_NONE, T_NONE, T_STR },
	[UST_FOP_CTX_INT] = { T_NONE, T_NONE, T_INT },
	[UST_FOP_CTX_STR] = { T_NONE, T_NONE, T_STR },
	[UST_FOP_NEG] = { T_NONE, T_INT, T_INT },
	[UST_FOP_BNOT] = { T_NONE, T_INT, T_INT },
	[UST_FOP_LNOT] = { T_NONE, T_INT, T_INT },
	[UST_FOP_BOOL] = { T_NONE, T_INT, T_INT },
	[UST_FOP_ADD] = { T_INT, T_INT, T_INT },
	[UST_FOP_SUB] = { T_INT, T_INT, T_INT },
	[UST_FOP_MUL] = { T_INT, T_INT, T_INT },
	[UST_FOP_DIV] = { T_INT, T_INT, T_INT },
	[UST_FOP_MOD] = { T_INT, T_INT, T_INT },
	[UST_FOP_SHL] = { T_INT, T_INT, T_INT },
	[UST_FOP_SHR] = { T_INT, T_INT, T_INT },
	[UST_FOP_BAND] = { T_INT, T_INT, T_INT },
	[UST_FOP_BOR] = { T_INT, T_INT, T_INT },
	[UST_FOP_BXOR] = { T_INT, T_INT, T_INT },
	[UST_FOP_EQ] = { T_INT, T_INT, T_INT },
	[UST_FOP_NE] = { T_INT, T_INT, T_INT },
	[UST_FOP_LT] = { T_INT, T_INT, T_INT },
	[UST_FOP_LE] = { T_INT, T_INT, T_INT },
	[UST_FOP_GT] = { T_INT, T_INT, T_INT },
	[UST_FOP_GE] = { T_INT, T_INT, T_INT },
	[UST_FOP_IN_RANGES] = { T_NONE, T_INT, T_INT },
	[UST_FOP_NEG_D] = { T_NONE, T_DBL, T_DBL },
	[UST_FOP_LNOT_D] = { T_NONE, T_DBL, T_INT },
	[UST_FOP_BOOL_D] = { T_NONE, T_DBL, T_INT },
	[UST_FOP_ADD_D] = { T_DBL, T_DBL, T_DBL },
	[UST_FOP_SUB_D] = { T_DBL, T_DBL, T_DBL },
	[UST_FOP_MUL_D] = { T_DBL, T_DBL, T_DBL },
	[UST_FOP_DIV_D] = { T_DBL, T_DBL, T_DBL },
	[UST_FOP_EQ_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_NE_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_LT_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_LE_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_GT_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_GE_D] = { T_DBL, T_DBL, T_INT },
	[UST_FOP_STR_EQ] = { T_STR, T_STR, T_INT },
	[UST_FOP_STR_MATCH] = { T_NONE, T_STR, T_INT },
	[UST_FOP_EQ_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_NE_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_LT_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_LE_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_GT_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_GE_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_BAND_K] = { T_NONE, T_INT, T_INT },
	[UST_FOP_FIELD_EQ_K ... UST_FOP_FIELD_BAND_K] = { T_NONE, T_NONE, T_INT },
};

static int apply_effect(struct checker *c, uint8_t op)
{
	const struct effect *e = &effects[op];

	if (e->in2 != T_NONE && pop(c, (enum vtype)e->in2))
		return -1;
	if (e->in1 != T_NONE && pop(c, (enum vtype)e->in1))
		return -1;
	if (e->out != T_NONE && push(c, (enum vtype)e->out))
		return -1;
	return 0;
}

/* Operands of instruction `in`; 0 when they are valid. */
static int check_operands(struct checker *c, const struct ust_filter_insn *in)
{
	const struct ust_filter *f = c->f;
	bool ok;

	switch (in->op) {
	case UST_FOP_INT:
	case UST_FOP_DBL:
	case UST_FOP_EQ_K ... UST_FOP_BAND_K:
		ok = !in->a && !in->c && slot_ok(f, in->b, 1);
		break;
	case UST_FOP_LOAD_INT:
		ok = !in->b && load_flags_ok(in->a, true,
					     UST_FILTER_SIGNED | UST_FILTER_SWAP |
					     UST_FILTER_REL);
		break;
	case UST_FOP_FIELD_EQ_K ... UST_FOP_FIELD_BAND_K:
		ok = slot_ok(f, in->b, 1) &&
		     load_flags_ok(in->a, true, UST_FILTER_SIGNED | UST_FILTER_SWAP |
						UST_FILTER_REL);
		break;
	case UST_FOP_LOAD_DBL:
		ok = !in->b && load_flags_ok(in->a, false,
					     UST_FILTER_SWAP | UST_FILTER_REL);
		break;
	case UST_FOP_LOAD_STR:
	case UST_FOP_POS:
		ok = !in->b && !(in->a & ~UST_FILTER_REL);
		break;
	case UST_FOP_CTX_INT:
		ok = !in->b && !in->c && in->a < UST_FILTER_CTX_PROCNAME;
		break;
	case UST_FOP_CTX_STR:
		ok = !in->b && !in->c && in->a == UST_FILTER_CTX_PROCNAME;
		break;
	case UST_FOP_SKIP:
		ok = !in->a && in->b && bytes_ok(f, in->c, in->b) &&
		     ust_filter_layout_check((const char *)f->pool + in->c,
					     in->b) == 0;
		break;
	case UST_FOP_SEQ_INDEX:
		ok = !in->b && size_ok(in->a);
		break;
	case UST_FOP_TAG_IS:
		ok = load_flags_ok(in->a, true, UST_FILTER_REL) &&
		     slot_ok(f, in->b, 1);
		break;
	case UST_FOP_IN_RANGES:
		ok = !in->a && in->b && slot_ok(f, in->c, 2ull * in->b);
		break;
	case UST_FOP_I2D:
		ok = !in->b && !in->c && in->a <= 1;
		break;
	case UST_FOP_STR_MATCH:
		ok = !in->a && bytes_ok(f, in->c, in->b);
		break;
	case UST_FOP_AND:
	case UST_FOP_OR:
		ok = !in->a && !in->c && in->b > c->pc && in->b < f->nr_insns;
		break;
	default:	/* no operand */
		ok = !in->a && !in->b && !in->c;
		break;
	}
	return ok ? 0 : refuse(c, "invalid operand");
}

/* A forward jump from here to `target`, with the current state. */
static int add_jump(struct checker *c, uint32_t target)
{
	struct pending *top = c->nr_pend ? &c->pend[c->nr_pend - 1] : NULL;

	if (top && target > top->target)
		return refuse(c, "jumps that do not nest");
	if (top && target == top->target) {
		if (!same_state(&top->state, &c->st))
			return refuse(c, "jumps that meet with different stacks");
		return 0;
	}
	if (c->nr_pend == MAX_PENDING)
		return refuse(c, "jumps nested too deeply");
	c->pend[c->nr_pend].target = target;
	c->pend[c->nr_pend].state = c->st;
	c->nr_pend++;
	return 0;
}

/* Merge the jumps that land on the current instruction. */
static int land(struct checker *c)
{
	while (c->nr_pend && c->pend[c->nr_pend - 1].target == c->pc) {
		struct pending *p = &c->pend[--c->nr_pend];

		if (!c->live) {
			c->st = p->state;
			c->live = true;
		} else if (!same_state(&c->st, &p->state)) {
			return refuse(c, "jumps that meet with different stacks");
		}
	}
	return c->live ? 0 : refuse(c, "unreachable instruction");
}

static int check_insn(struct checker *c, const struct ust_filter_insn *in)
{
	if (in->op >= UST_FOP_COUNT)
		return refuse(c, "unknown instruction");
	if (check_operands(c, in))
		return -1;
	switch (in->op) {
	case UST_FOP_RET:
		if (c->st.depth != 1)
			return refuse(c, "return without exactly one value");
		if (apply_effect(c, in->op))
			return -1;
		c->live = false;
		return 0;
	case UST_FOP_I2D:
		if (c->st.depth <= in->a || type_at(&c->st, in->a) != T_INT)
			return refuse(c, "operand of the wrong type");
		c->st.types ^= (uint64_t)(T_INT ^ T_DBL)
			       << (2 * (c->st.depth - 1 - in->a));
		return 0;
	case UST_FOP_AND:
	case UST_FOP_OR:
		if (c->st.depth == 0 || type_at(&c->st, 0) != T_INT)
			return refuse(c, "operand of the wrong type");
		if (add_jump(c, in->b))
			return -1;
		return pop(c, T_INT);
	case UST_FOP_CTX_INT:
	case UST_FOP_CTX_STR:
		c->f->ctx_needed |= 1u << in->a;
		return apply_effect(c, in->op);
	default:
		return apply_effect(c, in->op);
	}
}

static int check_header(struct ust_filter *f, const void *bytes, size_t size,
			struct ust_filter_error *err)
{
	struct ust_filter_header h;

	err->insn = -1;
	if (size < sizeof(h)) {
		err->what = "shorter than its header";
		return -1;
	}
	memcpy(&h, bytes, sizeof(h));
	if (h.magic != UST_FILTER_MAGIC) {
		err->what = "not a filter program (bad magic)";
		return -1;
	}
	if (h.reserved0 || h.reserved1 || h.nr_insns == 0 ||
	    h.nr_insns > UST_FILTER_MAX_INSNS ||
	    h.pool_size > UST_FILTER_MAX_POOL || h.pool_size % 8 ||
	    size != sizeof(h) + (size_t)h.nr_insns * 8 + h.pool_size) {
		err->what = "inconsistent sizes in the header";
		return -1;
	}
	if ((uintptr_t)bytes % 8) {
		err->what = "program not aligned on 8 bytes";
		return -1;
	}
	f->insns = (const struct ust_filter_insn *)((const uint8_t *)bytes +
						    sizeof(h));
	f->nr_insns = h.nr_insns;
	f->pool = (const uint8_t *)(f->insns + h.nr_insns);
	f->pool_size = h.pool_size;
	f->signature = h.signature;
	f->ctx_needed = 0;
	return 0;
}

/*
 * INT_K's load and comparison as fast.h runs them.  Signed order is the
 * unsigned order of x - INT64_MIN, so x <= k is x - INT64_MIN <=
 * k - INT64_MIN; x > k is its negation, and so on.
 */
static void int_k_apart(struct ust_filter_fast *fast)
{
	const uint64_t min = (uint64_t)INT64_MIN, k = (uint64_t)fast->k;
	unsigned int size = fast->load & UST_FILTER_SIZE_MASK;
	uint64_t end = (uint64_t)fast->offset + size;

	fast->size = (uint8_t)size;
	fast->shift = (fast->load & UST_FILTER_SIGNED) && size < 8 ?
		      (uint8_t)(64 - 8 * size) : 0;
	fast->end = fast->load & UST_FILTER_SWAP || end > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)end;
	if (end <= sizeof(uint64_t)) {	/* else the word path is not taken */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		fast->word_shl = (uint8_t)(64 - 8 * end);
#else
		fast->word_shl = (uint8_t)(8 * fast->offset);
#endif
		fast->word_shr = (uint8_t)(64 - 8 * size);
	}
	fast->band = fast->op == UST_FOP_BAND_K;
	fast->neg = fast->op == UST_FOP_NE_K || fast->op == UST_FOP_GT_K ||
		    fast->op == UST_FOP_GE_K;
	switch (fast->op) {
	case UST_FOP_EQ_K:
	case UST_FOP_NE_K:
		fast->lo = k;
		fast->span = 0;
		break;
	case UST_FOP_LE_K:
	case UST_FOP_GT_K:	/* not x <= k */
		fast->lo = min;
		fast->span = k - min;
		break;
	default:		/* LT_K, GE_K (not x < k); BAND_K unused */
		fast->lo = min;
		if (k == min) {	/* x < INT64_MIN: never */
			fast->span = UINT64_MAX;
			fast->neg = !fast->neg;
		} else {
			fast->span = k - 1 - min;
		}
		break;
	}
}

/*
 * A prefix of 8 bytes at most as the word fast.h compares in one load,
 * but under valgrind, which would report the load's bytes past a string.
 */
static void prefix_word(struct ust_filter_fast *fast)
{
	uint32_t n = fast->pattern.head;

	if (n > sizeof(fast->head_word) || running_on_valgrind())
		return;
	memset(&fast->head_mask, 0xff, n);
	memcpy(&fast->head_word, fast->pattern.bytes, n);
}

/*
 * Recognise the shapes of struct ust_filter_fast in a valid program (so
 * every operand is known to be in bounds already).
 */
static void find_shape(struct ust_filter *f)
{
	const struct ust_filter_insn *in = f->insns;
	struct ust_filter_fast *fast = &f->fast;
	uint64_t k = 0;

	memset(fast, 0, sizeof(*fast));
	if (f->nr_insns == 2 && in[0].op >= UST_FOP_FIELD_EQ_K &&
	    in[0].op <= UST_FOP_FIELD_BAND_K && !(in[0].a & UST_FILTER_REL)) {
		/* FIELD_x_K, RET: what the compiler writes */
		memcpy(&k, f->pool + (size_t)in[0].b * 8, sizeof(k));
		fast->op = (uint8_t)(in[0].op - UST_FOP_FIELD_EQ_K + UST_FOP_EQ_K);
	} else if (f->nr_insns == 3 && in[0].op == UST_FOP_LOAD_INT &&
		   !(in[0].a & UST_FILTER_REL) && in[1].op >= UST_FOP_EQ_K &&
		   in[1].op <= UST_FOP_BAND_K) {
		/* LOAD_INT, x_K, RET: the same in two instructions */
		memcpy(&k, f->pool + (size_t)in[1].b * 8, sizeof(k));
		fast->op = in[1].op;
	}
	if (fast->op) {
		fast->shape = UST_FILTER_SHAPE_INT_K;
		fast->load = in[0].a;
		fast->offset = in[0].c;
		fast->k = (int64_t)k;
		int_k_apart(fast);
		return;
	}
	if ((f->nr_insns == 3 || (f->nr_insns == 4 && in[2].op == UST_FOP_LNOT)) &&
	    in[0].op == UST_FOP_LOAD_STR && !(in[0].a & UST_FILTER_REL) &&
	    in[1].op == UST_FOP_STR_MATCH && in[f->nr_insns - 1].op == UST_FOP_RET) {
		fast->shape = UST_FILTER_SHAPE_STR_MATCH;
		fast->op = f->nr_insns == 4;
		fast->offset = in[0].c;
		ust_filter_pattern_prepare(&fast->pattern, f->pool + in[1].c,
					   in[1].b);
		fast->prefix = fast->pattern.star &&
			       fast->pattern.tail_at == fast->pattern.len &&
			       fast->pattern.head == fast->pattern.len - 1;
		if (fast->prefix)
			prefix_word(fast);
	}
}

int ust_filter_validate(struct ust_filter *f, const void *bytes, size_t size,
			struct ust_filter_error *err)
{
	struct checker c;

	_Static_assert(sizeof(struct ust_filter_header) == 24, "header size");
	_Static_assert(sizeof(struct ust_filter_insn) == 8, "insn size");
	_Static_assert(2 * UST_FILTER_MAX_STACK <= 64, "stack types in 64 bits");
	if (check_header(f, bytes, size, err))
		return -1;
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.err = err;
	c.live = true;
	for (c.pc = 0; c.pc < f->nr_insns; c.pc++) {
		if (land(&c) || check_insn(&c, &f->insns[c.pc]))
			return -1;
	}
	if (c.live)
		return refuse(&c, "runs past its last instruction");
	find_shape(f);
	return 0;
}
