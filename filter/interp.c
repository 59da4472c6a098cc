/*
 * interp.c - running a validated filter program on one event.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The validator (validate.c) has proved everything about the program
 * that does not depend on the event: operands inside the pool, stack
 * depths and types, forward jumps.  What is left here is the data: every
 * read of the payload goes through payload.c, which checks it against
 * the segments, and every operation whose result C leaves undefined
 * (division by zero, INT64_MIN / -1, shift counts outside 0..63) makes
 * the event discarded instead, as in LTTng.  Integer arithmetic wraps
 * (done on uint64_t).  No allocation, no lock, no system call: the stack
 * is a local array.
 */
#include <stdbool.h>
#include <string.h>

#include "fast.h"
#include "payload.h"
#include "runtime.h"

struct value {
	union {
		int64_t i;
		double d;
		const char *s;
	};
	size_t len;		/* strings */
};

struct run {
	const struct ust_filter *f;
	const struct ust_filter_ctx *ctx;
	struct flt_view view;
	uint64_t pos;		/* the position register P */
	/* The first segment: where fixed fields at fixed offsets usually are. */
	const uint8_t *base0;
	size_t len0;
};

static uint64_t pool_u64(const struct ust_filter *f, uint32_t slot)
{
	uint64_t v;

	memcpy(&v, f->pool + (size_t)slot * 8, sizeof(v));
	return v;
}

static uint64_t address(const struct run *r, const struct ust_filter_insn *in)
{
	return (in->a & UST_FILTER_REL ? r->pos : 0) + in->c;
}

/*
 * The `size`-byte unsigned integer at `off`: read in place when the first
 * segment holds it (the common case), else copied out of the segments.
 */
static inline int load_bits(struct run *r, uint64_t off, unsigned int size,
			    bool swap, uint64_t *out)
{
	uint8_t b[8];

	if (off < r->len0 && size <= r->len0 - off) {
		*out = ust_filter_bits_at(r->base0 + off, size, swap);
		return 0;
	}
	if (flt_view_read(&r->view, off, b, size))
		return -1;
	*out = ust_filter_bits_at(b, size, swap);
	return 0;
}

static int load_double(struct run *r, const struct ust_filter_insn *in,
		       double *out)
{
	unsigned int size = in->a & UST_FILTER_SIZE_MASK;
	uint64_t bits;

	if (load_bits(r, address(r, in), size, in->a & UST_FILTER_SWAP, &bits))
		return -1;
	if (size == 4) {
		uint32_t b32 = (uint32_t)bits;
		float f;

		memcpy(&f, &b32, sizeof(f));
		*out = f;
	} else {
		memcpy(out, &bits, sizeof(*out));
	}
	return 0;
}

/* SEQ_INDEX: the index must be below the sequence's length at P. */
static int seq_index(struct run *r, const struct ust_filter_insn *in)
{
	uint64_t len;

	if (load_bits(r, r->pos, in->a, false, &len) || in->c >= len)
		return -1;
	r->pos += in->a;
	return 0;
}

static int tag_is(struct run *r, const struct ust_filter_insn *in)
{
	uint64_t tag;

	if (load_bits(r, address(r, in), in->a & UST_FILTER_SIZE_MASK, false,
		      &tag))
		return -1;
	return tag == pool_u64(r->f, in->b) ? 0 : -1;
}

static int64_t in_ranges(const struct ust_filter *f,
			 const struct ust_filter_insn *in, int64_t x)
{
	uint32_t k;

	for (k = 0; k < in->b; k++) {
		int64_t lo = (int64_t)pool_u64(f, in->c + 2 * k);
		int64_t hi = (int64_t)pool_u64(f, in->c + 2 * k + 1);

		if (lo <= x && x <= hi)
			return 1;
	}
	return 0;
}

/* The binary integer operations that may fail: -1 discards the event. */
static int int_divide(uint8_t op, int64_t a, int64_t b, int64_t *out)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return -1;
	*out = op == UST_FOP_DIV ? a / b : a % b;
	return 0;
}

static int int_shift(uint8_t op, int64_t a, int64_t b, int64_t *out)
{
	if (b < 0 || b > 63)
		return -1;
	*out = (int64_t)(op == UST_FOP_SHL ? (uint64_t)a << b
					   : (uint64_t)a >> b);
	return 0;
}

static inline int int_binary(uint8_t op, int64_t a, int64_t b, int64_t *out)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case UST_FOP_ADD: *out = (int64_t)(ua + ub); return 0;
	case UST_FOP_SUB: *out = (int64_t)(ua - ub); return 0;
	case UST_FOP_MUL: *out = (int64_t)(ua * ub); return 0;
	case UST_FOP_DIV:
	case UST_FOP_MOD: return int_divide(op, a, b, out);
	case UST_FOP_SHL:
	case UST_FOP_SHR: return int_shift(op, a, b, out);
	case UST_FOP_BAND: *out = (int64_t)(ua & ub); return 0;
	case UST_FOP_BOR: *out = (int64_t)(ua | ub); return 0;
	case UST_FOP_BXOR: *out = (int64_t)(ua ^ ub); return 0;
	case UST_FOP_EQ: *out = a == b; return 0;
	case UST_FOP_NE: *out = a != b; return 0;
	case UST_FOP_LT: *out = a < b; return 0;
	case UST_FOP_LE: *out = a <= b; return 0;
	case UST_FOP_GT: *out = a > b; return 0;
	case UST_FOP_GE: *out = a >= b; return 0;
	default: return -1;
	}
}

int ust_filter_int_binary(uint8_t op, int64_t a, int64_t b, int64_t *out)
{
	return int_binary(op, a, b, out);
}

/* D D -> D or I. */
static void dbl_binary(uint8_t op, struct value *a, double b)
{
	double x = a->d;

	switch (op) {
	case UST_FOP_ADD_D: a->d = x + b; break;
	case UST_FOP_SUB_D: a->d = x - b; break;
	case UST_FOP_MUL_D: a->d = x * b; break;
	case UST_FOP_DIV_D: a->d = x / b; break;
	case UST_FOP_EQ_D: a->i = x == b; break;
	case UST_FOP_NE_D: a->i = x != b; break;
	case UST_FOP_LT_D: a->i = x < b; break;
	case UST_FOP_LE_D: a->i = x <= b; break;
	case UST_FOP_GT_D: a->i = x > b; break;
	default: a->i = x >= b; break;	/* GE_D */
	}
}

/* The instructions that push a value read from the event or context. */
static int fetch(struct run *r, const struct ust_filter_insn *in,
		 struct value *v)
{
	switch (in->op) {
	case UST_FOP_INT:
		v->i = (int64_t)pool_u64(r->f, in->b);
		return 0;
	case UST_FOP_DBL: {
		uint64_t bits = pool_u64(r->f, in->b);

		memcpy(&v->d, &bits, sizeof(v->d));
		return 0;
	}
	case UST_FOP_LOAD_DBL:
		return load_double(r, in, &v->d);
	case UST_FOP_LOAD_STR:
		return flt_view_string(&r->view, address(r, in), &v->s, &v->len);
	case UST_FOP_CTX_INT:
		v->i = in->a == UST_FILTER_CTX_VTID ? r->ctx->vtid :
		       in->a == UST_FILTER_CTX_VPID ? r->ctx->vpid :
						      r->ctx->cpu_id;
		return 0;
	default:	/* CTX_STR: $ctx.procname */
		v->s = r->ctx->procname ? r->ctx->procname : "";
		v->len = strlen(v->s);
		return 0;
	}
}

/* The position instructions. */
static int move(struct run *r, const struct ust_filter_insn *in)
{
	switch (in->op) {
	case UST_FOP_POS:
		r->pos = address(r, in);
		return 0;
	case UST_FOP_SKIP_STR:
		return flt_view_skip_string(&r->view, &r->pos);
	case UST_FOP_SKIP:
		return flt_view_skip_layout(&r->view, &r->pos,
					    (const char *)r->f->pool + in->c,
					    in->b);
	case UST_FOP_SEQ_INDEX:
		return seq_index(r, in);
	default:	/* TAG_IS */
		return tag_is(r, in);
	}
}

/* A field against a constant, when the first segment does not hold it. */
int ust_filter_run_int_k_slow(const struct ust_filter_fast *fast,
			      const struct ust_seg *segs, unsigned int nr_segs)
{
	unsigned int size = fast->load & UST_FILTER_SIZE_MASK;
	struct flt_view view;
	uint8_t b[8];
	uint64_t bits;

	flt_view_init(&view, segs, nr_segs);
	if (flt_view_read(&view, fast->offset, b, size))
		return 0;
	bits = ust_filter_bits_at(b, size, fast->load & UST_FILTER_SWAP);
	return ust_filter_compare_k(fast->op, ust_filter_extend(bits, fast->load),
				    fast->k) != 0;
}

/*
 * Does the string at `s`, with `rest` bytes of segment `i` from it (its
 * NUL among them, or at the start of the next non-empty segment), match
 * `p`?  1 or 0; -1 when it does not end (LOAD_STR would fail).  A pattern
 * without star is decided by the byte after its own: the string's NUL,
 * or not; whether a string that does not match ends is looked at only
 * when it matters (`ne`, for !=).
 */
static int string_matches(const struct ust_filter_pattern *p, const char *s,
			  size_t rest, const struct ust_seg *segs,
			  unsigned int nr_segs, unsigned int i, bool ne)
{
	const char *nul;

	if (!p->star && p->head <= rest &&
	    ust_filter_same_bytes(s, p->bytes, p->head)) {
		if (p->head < rest && s[p->head] == '\0')
			return 1;
		if (p->head == rest && ust_filter_str_ends(s, 0, segs, nr_segs, i))
			return 1;
	} else if (p->star) {
		nul = memchr(s, '\0', rest);
		if (!nul && !ust_filter_str_ends(s, 0, segs, nr_segs, i))
			return -1;
		return ust_filter_pattern_match(p, s, nul ? (size_t)(nul - s) : rest);
	}
	if (!ne)
		return 0;
	return ust_filter_str_ends(s, rest, segs, nr_segs, i) ? 0 : -1;
}

/* A string against a pattern: STR_MATCH's program without the interpreter. */
static int run_str_match(const struct ust_filter_fast *fast,
			 const struct ust_seg *segs, unsigned int nr_segs)
{
	uint64_t in = fast->offset;
	unsigned int i;
	int r;

	if (fast->prefix)	/* as libust's gate runs it (libust/gate.h) */
		return ust_filter_str_prefix_keeps(fast, segs, nr_segs);
	i = ust_filter_seg_of(segs, nr_segs, &in);
	if (i == nr_segs)
		return 0;
	r = string_matches(&fast->pattern, (const char *)segs[i].ptr + in,
			   segs[i].len - in, segs, nr_segs, i, fast->op);
	return r < 0 ? 0 : r ^ fast->op;
}

/*
 * The dispatch: each instruction jumps straight to the next one's code
 * (GCC's labels as values), after checking the program counter and the
 * opcode again, which the validator has proved already.
 */
/*
 * GCC would merge the copies of NEXT() into one indirect jump, which
 * predicts worse than one per instruction: not in this function.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define INTERPRET_ATTRS __attribute__((noinline, optimize("no-crossjumping", "no-gcse")))
#else
#define INTERPRET_ATTRS __attribute__((noinline))
#endif

static INTERPRET_ATTRS
int interpret(const struct ust_filter *f, const struct ust_seg *segs,
	      unsigned int nr_segs, const struct ust_filter_ctx *ctx)
{
	static const void *const code[UST_FOP_COUNT] = {
		[UST_FOP_RET] = &&ret,
		[UST_FOP_INT] = &&fetch, [UST_FOP_DBL] = &&fetch,
		[UST_FOP_LOAD_INT] = &&load_int, [UST_FOP_LOAD_DBL] = &&fetch,
		[UST_FOP_LOAD_STR] = &&fetch, [UST_FOP_CTX_INT] = &&fetch,
		[UST_FOP_CTX_STR] = &&fetch,
		[UST_FOP_POS] = &&move, [UST_FOP_SKIP_STR] = &&move,
		[UST_FOP_SKIP] = &&move, [UST_FOP_SEQ_INDEX] = &&move,
		[UST_FOP_TAG_IS] = &&move,
		[UST_FOP_NEG] = &&neg, [UST_FOP_BNOT] = &&bnot,
		[UST_FOP_LNOT] = &&lnot, [UST_FOP_BOOL] = &&to_bool,
		[UST_FOP_ADD ... UST_FOP_GE] = &&int_op,
		[UST_FOP_IN_RANGES] = &&in_ranges,
		[UST_FOP_I2D] = &&i2d, [UST_FOP_NEG_D] = &&neg_d,
		[UST_FOP_LNOT_D] = &&lnot_d, [UST_FOP_BOOL_D] = &&bool_d,
		[UST_FOP_ADD_D ... UST_FOP_GE_D] = &&dbl_op,
		[UST_FOP_STR_EQ] = &&str_eq, [UST_FOP_STR_MATCH] = &&str_match,
		[UST_FOP_AND] = &&and, [UST_FOP_OR] = &&or,
		[UST_FOP_EQ_K] = &&eq_k, [UST_FOP_NE_K] = &&ne_k,
		[UST_FOP_LT_K] = &&lt_k, [UST_FOP_LE_K] = &&le_k,
		[UST_FOP_GT_K] = &&gt_k, [UST_FOP_GE_K] = &&ge_k,
		[UST_FOP_BAND_K] = &&band_k,
		[UST_FOP_FIELD_EQ_K] = &&field_eq_k, [UST_FOP_FIELD_NE_K] = &&field_ne_k,
		[UST_FOP_FIELD_LT_K] = &&field_lt_k, [UST_FOP_FIELD_LE_K] = &&field_le_k,
		[UST_FOP_FIELD_GT_K] = &&field_gt_k, [UST_FOP_FIELD_GE_K] = &&field_ge_k,
		[UST_FOP_FIELD_BAND_K] = &&field_band_k,
	};
	/* stack[0] lies below the bottom (never read): values from stack[1]. */
	struct value stack[1 + UST_FILTER_MAX_STACK];
	struct value *top = stack;
	const struct ust_filter_insn *in;
	struct run r;
	uint32_t pc = 0;
	int64_t k, result;
	/* In registers: nothing the program does changes them. */
	const struct ust_filter_insn *const insns = f->insns;
	const uint32_t nr_insns = f->nr_insns;
	const uint8_t *const pool = f->pool;
	const uint8_t *const base0 = nr_segs ? segs[0].ptr : NULL;
	const size_t len0 = nr_segs ? segs[0].len : 0;

	r.f = f;
	r.ctx = ctx;
	r.pos = 0;
	r.base0 = nr_segs ? segs[0].ptr : NULL;
	r.len0 = nr_segs ? segs[0].len : 0;
	flt_view_init(&r.view, segs, nr_segs);
#define NEXT()								\
	do {								\
		if (__builtin_expect(pc >= nr_insns, 0))		\
			return 0;					\
		in = &insns[pc++];					\
		if (__builtin_expect(in->op >= UST_FOP_COUNT, 0))	\
			return 0;					\
		goto *code[in->op];					\
	} while (0)
#define CONSTANT() (memcpy(&k, pool + (size_t)in->b * 8, sizeof(k)), k)
/* Push LOAD_INT's field, read in place when the first segment holds it. */
#define LOAD_FIELD()							\
	do {								\
		uint64_t off_ = (in->a & UST_FILTER_REL ? r.pos : 0) + in->c; \
		unsigned int size_ = in->a & UST_FILTER_SIZE_MASK;	\
		uint64_t bits_;						\
									\
		if (top >= stack + UST_FILTER_MAX_STACK)		\
			return 0;					\
		if (__builtin_expect(off_ < len0 && size_ <= len0 - off_, 1)) \
			bits_ = ust_filter_bits_at(base0 + off_, size_,	\
						   in->a & UST_FILTER_SWAP); \
		else if (load_bits(&r, off_, size_, in->a & UST_FILTER_SWAP, \
				   &bits_))				\
			return 0;					\
		top++;							\
		top->i = ust_filter_extend(bits_, in->a);		\
	} while (0)

	NEXT();
ret:
	return top->i != 0;
load_int:
	LOAD_FIELD();
	NEXT();
field_eq_k:
	LOAD_FIELD();
	top->i = top->i == CONSTANT();
	NEXT();
field_ne_k:
	LOAD_FIELD();
	top->i = top->i != CONSTANT();
	NEXT();
field_lt_k:
	LOAD_FIELD();
	top->i = top->i < CONSTANT();
	NEXT();
field_le_k:
	LOAD_FIELD();
	top->i = top->i <= CONSTANT();
	NEXT();
field_gt_k:
	LOAD_FIELD();
	top->i = top->i > CONSTANT();
	NEXT();
field_ge_k:
	LOAD_FIELD();
	top->i = top->i >= CONSTANT();
	NEXT();
field_band_k:
	LOAD_FIELD();
	top->i = (int64_t)((uint64_t)top->i & (uint64_t)CONSTANT());
	NEXT();
fetch:
	if (top >= stack + UST_FILTER_MAX_STACK || fetch(&r, in, top + 1))
		return 0;
	top++;
	NEXT();
move:
	if (move(&r, in))
		return 0;
	NEXT();
neg:
	top->i = (int64_t)(0 - (uint64_t)top->i);
	NEXT();
bnot:
	top->i = (int64_t)~(uint64_t)top->i;
	NEXT();
lnot:
	top->i = top->i == 0;
	NEXT();
to_bool:
	top->i = top->i != 0;
	NEXT();
/*
 * A binary operation pops its right operand first, then writes its result
 * over the left one, the new top (the validator proved the depth is at
 * least 2 here).  Not a store through &top[-1]: GCC's object-size pass
 * sees `top` start at stack[0] and cannot know the depth, so
 * -fsanitize=object-size reports such a store as out of bounds although
 * it is inside stack[] (doc/reliability.md, finding F1).
 */
int_op:
	if (int_binary(in->op, top[-1].i, top->i, &result))
		return 0;
	top--;
	top->i = result;
	NEXT();
in_ranges:
	top->i = in_ranges(f, in, top->i);
	NEXT();
i2d:
	top[-(int)in->a].d = (double)top[-(int)in->a].i;
	NEXT();
neg_d:
	top->d = -top->d;
	NEXT();
lnot_d:
	top->i = top->d == 0;
	NEXT();
bool_d:
	top->i = top->d != 0;
	NEXT();
dbl_op:
	top--;
	dbl_binary(in->op, top, top[1].d);
	NEXT();
str_eq:
	top--;
	top->i = top->len == top[1].len &&
		 memcmp(top->s, top[1].s, top[1].len) == 0;
	NEXT();
str_match:
	top->i = ust_filter_match(top->s, top->len, f->pool + in->c, in->b);
	NEXT();
and:
	if (top->i == 0)
		pc = in->b;
	else
		top--;
	NEXT();
or:
	if (top->i != 0) {
		top->i = 1;
		pc = in->b;
	} else {
		top--;
	}
	NEXT();
eq_k:
	top->i = top->i == CONSTANT();
	NEXT();
ne_k:
	top->i = top->i != CONSTANT();
	NEXT();
lt_k:
	top->i = top->i < CONSTANT();
	NEXT();
le_k:
	top->i = top->i <= CONSTANT();
	NEXT();
gt_k:
	top->i = top->i > CONSTANT();
	NEXT();
ge_k:
	top->i = top->i >= CONSTANT();
	NEXT();
band_k:
	top->i = (int64_t)((uint64_t)top->i & (uint64_t)CONSTANT());
	NEXT();
#undef NEXT
#undef CONSTANT
#undef LOAD_FIELD
}

int ust_filter_run(const struct ust_filter *f, const struct ust_seg *segs,
		   unsigned int nr_segs, const struct ust_filter_ctx *ctx)
{
	switch (f->fast.shape) {
	case UST_FILTER_SHAPE_INT_K:
		return ust_filter_run_int_k(&f->fast, segs, nr_segs);
	case UST_FILTER_SHAPE_STR_MATCH:
		return run_str_match(&f->fast, segs, nr_segs);
	default:
		return interpret(f, segs, nr_segs, ctx);
	}
}
