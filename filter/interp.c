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

/* A `size`-byte unsigned integer at `off`, in payload byte order. */
static int load_bits(struct run *r, uint64_t off, unsigned int size,
		     bool swap, uint64_t *out)
{
	uint8_t b[8];
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	if (flt_view_read(&r->view, off, b, size))
		return -1;
	switch (size) {
	case 1:
		*out = b[0];
		return 0;
	case 2:
		memcpy(&u16, b, 2);
		*out = swap ? __builtin_bswap16(u16) : u16;
		return 0;
	case 4:
		memcpy(&u32, b, 4);
		*out = swap ? __builtin_bswap32(u32) : u32;
		return 0;
	default:
		memcpy(&u64, b, 8);
		*out = swap ? __builtin_bswap64(u64) : u64;
		return 0;
	}
}

static int load_int(struct run *r, const struct ust_filter_insn *in,
		    int64_t *out)
{
	unsigned int size = in->a & UST_FILTER_SIZE_MASK;
	unsigned int shift = 64 - 8 * size;
	uint64_t bits;

	if (load_bits(r, address(r, in), size, in->a & UST_FILTER_SWAP, &bits))
		return -1;
	if ((in->a & UST_FILTER_SIGNED) && shift)
		/* Sign-extend: move the sign bit to bit 63, shift back. */
		*out = (int64_t)(bits << shift) >> shift;
	else
		*out = (int64_t)bits;
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

int ust_filter_int_binary(uint8_t op, int64_t a, int64_t b, int64_t *out)
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
	case UST_FOP_LOAD_INT:
		return load_int(r, in, &v->i);
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

int ust_filter_run(const struct ust_filter *f, const struct ust_seg *segs,
		   unsigned int nr_segs, const struct ust_filter_ctx *ctx)
{
	struct value stack[UST_FILTER_MAX_STACK];
	struct value *top = stack - 1;
	struct run r;
	uint32_t pc = 0;

	r.f = f;
	r.ctx = ctx;
	r.pos = 0;
	flt_view_init(&r.view, segs, nr_segs);
	/* The validator proved pc, stack depth and types; checked again cheaply. */
	while (pc < f->nr_insns) {
		const struct ust_filter_insn *in = &f->insns[pc++];

		switch (in->op) {
		case UST_FOP_RET:
			return top->i != 0;
		case UST_FOP_INT:
		case UST_FOP_DBL:
		case UST_FOP_LOAD_INT:
		case UST_FOP_LOAD_DBL:
		case UST_FOP_LOAD_STR:
		case UST_FOP_CTX_INT:
		case UST_FOP_CTX_STR:
			if (top + 1 >= stack + UST_FILTER_MAX_STACK ||
			    fetch(&r, in, top + 1))
				return 0;
			top++;
			break;
		case UST_FOP_POS:
		case UST_FOP_SKIP_STR:
		case UST_FOP_SKIP:
		case UST_FOP_SEQ_INDEX:
		case UST_FOP_TAG_IS:
			if (move(&r, in))
				return 0;
			break;
		case UST_FOP_NEG:
			top->i = (int64_t)(0 - (uint64_t)top->i);
			break;
		case UST_FOP_BNOT:
			top->i = (int64_t)~(uint64_t)top->i;
			break;
		case UST_FOP_LNOT:
			top->i = top->i == 0;
			break;
		case UST_FOP_BOOL:
			top->i = top->i != 0;
			break;
		case UST_FOP_ADD ... UST_FOP_GE:
			if (ust_filter_int_binary(in->op, top[-1].i, top->i, &top[-1].i))
				return 0;
			top--;
			break;
		case UST_FOP_IN_RANGES:
			top->i = in_ranges(f, in, top->i);
			break;
		case UST_FOP_I2D:
			top[-(int)in->a].d = (double)top[-(int)in->a].i;
			break;
		case UST_FOP_NEG_D:
			top->d = -top->d;
			break;
		case UST_FOP_LNOT_D:
			top->i = top->d == 0;
			break;
		case UST_FOP_BOOL_D:
			top->i = top->d != 0;
			break;
		case UST_FOP_ADD_D ... UST_FOP_GE_D:
			dbl_binary(in->op, &top[-1], top->d);
			top--;
			break;
		case UST_FOP_STR_EQ:
			top[-1].i = top[-1].len == top->len &&
				    memcmp(top[-1].s, top->s, top->len) == 0;
			top--;
			break;
		case UST_FOP_STR_MATCH:
			top->i = ust_filter_match(top->s, top->len,
						  f->pool + in->c, in->b);
			break;
		case UST_FOP_AND:
			if (top->i == 0)
				pc = in->b;
			else
				top--;
			break;
		case UST_FOP_OR:
			if (top->i != 0) {
				top->i = 1;
				pc = in->b;
			} else {
				top--;
			}
			break;
		default:
			return 0;
		}
	}
	return 0;
}
