/*
 * check_hostile.c - filter programs from someone who means harm, or from
 * a corrupted control area: the validator refuses what is malformed, and
 * nothing it accepts makes the interpreter read outside the program or
 * the event's payload.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Payloads are recorded by the real probes of flt.xml and copied, segment
 * by segment, against inaccessible pages (harness.c); programs are placed
 * against one too.  A read one byte out of bounds therefore faults and
 * fails the test, without a sanitizer.  Random programs come from a
 * fixed seed: every run is the same.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check_run.h"
#include "compiler.h"
#include "flt_tp.h"
#include "harness.h"
#include "runtime.h"

/* ---- building programs by hand ---- */

struct builder {
	struct ust_filter_header h;
	struct ust_filter_insn insns[UST_FILTER_MAX_INSNS + 1];
	uint8_t pool[UST_FILTER_MAX_POOL];
	unsigned int n, pool_size;
	uint8_t bytes[UST_FILTER_MAX_SIZE + 64] __attribute__((aligned(8)));
};

static struct builder *b_new(void)
{
	struct builder *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(b);
	b->h.magic = UST_FILTER_MAGIC;
	return b;
}

static void b_op(struct builder *b, uint8_t op, uint8_t a, uint16_t bb,
		 uint32_t c)
{
	struct ust_filter_insn *in = &b->insns[b->n++];

	in->op = op;
	in->a = a;
	in->b = bb;
	in->c = c;
}

/* Raw bytes into the pool, padded to 8: their offset. */
static uint32_t b_pool(struct builder *b, const void *data, size_t len)
{
	uint32_t at = b->pool_size;

	memcpy(b->pool + at, data, len);
	b->pool_size += (uint32_t)((len + 7) & ~(size_t)7);
	return at;
}

static uint16_t b_slot(struct builder *b, uint64_t v)
{
	return (uint16_t)(b_pool(b, &v, 8) / 8);
}

/* The program's bytes, header from the counts. */
static size_t b_bytes(struct builder *b)
{
	size_t code = b->n * sizeof(b->insns[0]);

	b->h.nr_insns = (uint16_t)b->n;
	b->h.pool_size = b->pool_size;
	memcpy(b->bytes, &b->h, sizeof(b->h));
	memcpy(b->bytes + sizeof(b->h), b->insns, code);
	memcpy(b->bytes + sizeof(b->h) + code, b->pool, b->pool_size);
	return sizeof(b->h) + code + b->pool_size;
}

/* The validator's verdict on `b`: NULL when accepted, else its reason. */
static const char *verdict(struct builder *b, int *insn)
{
	static struct ust_filter_error err;
	size_t size = b_bytes(b);

	if (harness_use(b->bytes, size, &err) == 0)
		return NULL;
	*insn = err.insn;
	return err.what;
}

#define REFUSED(b, want_insn, want) do {				\
		int at_ = -2;						\
		const char *why_ = verdict(b, &at_);			\
		ck_assert_msg(why_ != NULL, "accepted, expected: %s", want); \
		ck_assert_str_eq(why_, want);				\
		ck_assert_int_eq(at_, want_insn);			\
		free(b);						\
	} while (0)

START_TEST(hand_built)
{
	struct builder *b = b_new();
	int insn;

	b_op(b, UST_FOP_INT, 0, b_slot(b, 3), 0);
	b_op(b, UST_FOP_INT, 0, b_slot(b, 3), 0);
	b_op(b, UST_FOP_EQ, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	ck_assert_ptr_null(verdict(b, &insn));
	trace_flt_empty();
	ck_assert_int_eq(harness_result, 1);
	free(b);
}
END_TEST

START_TEST(bad_headers)
{
	struct ust_filter_error err;
	struct ust_filter f;
	struct builder *b = b_new();
	size_t size;

	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	size = b_bytes(b);
	ck_assert_int_eq(ust_filter_validate(&f, b->bytes, 10, &err), -1);
	ck_assert_str_eq(err.what, "shorter than its header");
	ck_assert_int_eq(err.insn, -1);
	ck_assert_int_eq(ust_filter_validate(&f, b->bytes, size - 1, &err), -1);
	ck_assert_str_eq(err.what, "inconsistent sizes in the header");
	ck_assert_int_eq(ust_filter_validate(&f, b->bytes, size + 8, &err), -1);
	ck_assert_str_eq(err.what, "inconsistent sizes in the header");
	/* The same bytes one byte off an 8-byte boundary. */
	memmove(b->bytes + 1, b->bytes, size);
	ck_assert_int_eq(ust_filter_validate(&f, b->bytes + 1, size, &err), -1);
	ck_assert_str_eq(err.what, "program not aligned on 8 bytes");
	free(b);

	b = b_new();
	b->h.magic = 0x12345678;
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, -1, "not a filter program (bad magic)");
	b = b_new();
	REFUSED(b, -1, "inconsistent sizes in the header");	/* no instruction */
	b = b_new();
	b->h.reserved0 = 1;
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, -1, "inconsistent sizes in the header");
	b = b_new();
	b->h.reserved1 = 1;
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, -1, "inconsistent sizes in the header");
	b = b_new();
	b->pool_size = 4;	/* not a multiple of 8 */
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, -1, "inconsistent sizes in the header");
	/* More instructions than allowed. */
	b = b_new();
	while (b->n < UST_FILTER_MAX_INSNS + 1)
		b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, -1, "inconsistent sizes in the header");
}
END_TEST

START_TEST(bad_operands)
{
	struct builder *b;
	const char *deep;
	uint16_t slot;
	uint32_t at;

	b = b_new();
	b_op(b, 200, 0, 0, 0);
	REFUSED(b, 0, "unknown instruction");
	b = b_new();
	b_op(b, UST_FOP_COUNT, 0, 0, 0);
	REFUSED(b, 0, "unknown instruction");
	/* A constant past the pool. */
	b = b_new();
	b_op(b, UST_FOP_INT, 0, 1, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_slot(b, 1);
	b_op(b, UST_FOP_INT, 0, 1, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	/* Loads: size 3, a flag that does not exist, a 2-byte double. */
	b = b_new();
	b_op(b, UST_FOP_LOAD_INT, 3, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_LOAD_INT, 4 | 0x80, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_LOAD_DBL, 2, 0, 0);
	b_op(b, UST_FOP_BOOL_D, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_LOAD_DBL, 8 | UST_FILTER_SIGNED, 0, 0);
	b_op(b, UST_FOP_BOOL_D, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	/* Context fields: procname is no integer, 4 does not exist. */
	b = b_new();
	b_op(b, UST_FOP_CTX_INT, UST_FILTER_CTX_PROCNAME, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_CTX_STR, 4, 0, 0);
	b_op(b, UST_FOP_STR_MATCH, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	/* Layout texts: bad syntax, a NUL, past the pool, empty. */
	b = b_new();
	at = b_pool(b, "Q3[F1]", 6);
	b_op(b, UST_FOP_SKIP, 0, 6, at);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	at = b_pool(b, "F1\0S", 4);
	b_op(b, UST_FOP_SKIP, 0, 4, at);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	at = b_pool(b, "F12", 3);
	b_op(b, UST_FOP_SKIP, 0, 9, at);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	deep = "A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[A2[S]]]]]]]]]]]]]]]]]";
	at = b_pool(b, deep, strlen(deep));
	b_op(b, UST_FOP_SKIP, 0, (uint16_t)strlen(deep), at);
	REFUSED(b, 0, "invalid operand");	/* 17 levels */
	b = b_new();
	b_op(b, UST_FOP_SKIP, 0, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	at = b_pool(b, "V0[1:F1]", 8);
	b_op(b, UST_FOP_SKIP, 0, 8, at);
	REFUSED(b, 0, "invalid operand");	/* no tag 0 */
	/* A pattern past the pool. */
	b = b_new();
	b_op(b, UST_FOP_CTX_STR, UST_FILTER_CTX_PROCNAME, 0, 0);
	b_op(b, UST_FOP_STR_MATCH, 0, 1, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "invalid operand");
	/* Ranges: none, or more than the pool holds. */
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_IN_RANGES, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "invalid operand");
	b = b_new();
	slot = b_slot(b, 1);
	b_slot(b, 2);
	b_op(b, UST_FOP_INT, 0, slot, 0);
	b_op(b, UST_FOP_IN_RANGES, 0, 2, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "invalid operand");
	/* Operands an instruction does not take must be zero. */
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_NEG, 0, 0, 1);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_RET, 1, 0, 0);
	REFUSED(b, 1, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_SEQ_INDEX, 3, 0, 0);
	REFUSED(b, 0, "invalid operand");
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_I2D, 2, 0, 0);
	REFUSED(b, 1, "invalid operand");
}
END_TEST

START_TEST(bad_stacks)
{
	struct builder *b;
	unsigned int i;

	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_ADD, 0, 0, 0);
	REFUSED(b, 1, "stack underflow");
	b = b_new();
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 0, "return without exactly one value");
	b = b_new();
	b_slot(b, 1);
	for (i = 0; i < UST_FILTER_MAX_STACK + 1; i++)
		b_op(b, UST_FOP_INT, 0, 0, 0);
	REFUSED(b, (int)UST_FILTER_MAX_STACK, "stack overflow");
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_CTX_STR, UST_FILTER_CTX_PROCNAME, 0, 0);
	b_op(b, UST_FOP_ADD, 0, 0, 0);
	REFUSED(b, 2, "operand of the wrong type");
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_INT, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 2, "return without exactly one value");
	b = b_new();
	b_op(b, UST_FOP_CTX_STR, UST_FILTER_CTX_PROCNAME, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "operand of the wrong type");
	b = b_new();
	b_op(b, UST_FOP_DBL, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_NEG, 0, 0, 0);
	REFUSED(b, 1, "operand of the wrong type");
	b = b_new();
	b_op(b, UST_FOP_CTX_STR, UST_FILTER_CTX_PROCNAME, 0, 0);
	b_op(b, UST_FOP_I2D, 0, 0, 0);
	REFUSED(b, 1, "operand of the wrong type");
	b = b_new();
	b_op(b, UST_FOP_DBL, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_AND, 0, 2, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 1, "operand of the wrong type");
	/* Falling off the end, code after a return. */
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	REFUSED(b, 1, "runs past its last instruction");
	b = b_new();
	b_op(b, UST_FOP_INT, 0, b_slot(b, 1), 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	b_op(b, UST_FOP_INT, 0, 0, 0);
	b_op(b, UST_FOP_RET, 0, 0, 0);
	REFUSED(b, 2, "unreachable instruction");
}
END_TEST

/*
 * Jumps (AND, OR: "if the top says so, jump to instruction B") the
 * validator refuses, each with where and why; slot 0 of the pool holds 1.
 */
#define INT1	{ UST_FOP_INT, 0, 0, 0 }	/* push slot 0 */
#define DBL1	{ UST_FOP_DBL, 0, 0, 0 }
#define RET	{ UST_FOP_RET, 0, 0, 0 }
#define AND(to)	{ UST_FOP_AND, 0, to, 0 }
#define OR(to)	{ UST_FOP_OR, 0, to, 0 }
static const struct {
	struct ust_filter_insn ins[8];
	unsigned int nr;
	int insn;
	const char *why;
} bad_jump_cases[] = {
	/* Backwards, to itself, past the end. */
	{ { INT1, AND(0), RET },
	  3, 1, "invalid operand" },
	{ { INT1, OR(1), RET },
	  3, 1, "invalid operand" },
	{ { INT1, AND(3), INT1 },
	  3, 1, "invalid operand" },
	/* Overlapping, not nested: 1 -> 4 then 3 -> 5. */
	{ { INT1, AND(4), INT1, AND(5), INT1, RET },
	  6, 3, "jumps that do not nest" },
	/* Landing with two values where the jump left one. */
	{ { INT1, AND(4), INT1, INT1, RET },
	  5, 4, "jumps that meet with different stacks" },
	/* Landing with a double where the jump left an integer. */
	{ { INT1, AND(3), DBL1, RET },
	  4, 3, "jumps that meet with different stacks" },
	/* Two jumps to one place with different stacks. */
	{ { INT1, INT1, AND(5), AND(5), INT1, RET },
	  6, 3, "jumps that meet with different stacks" },
};

START_TEST(bad_jumps)
{
	unsigned int i, j;

	for (i = 0; i < sizeof(bad_jump_cases) / sizeof(bad_jump_cases[0]); i++) {
		struct builder *b = b_new();

		b_slot(b, 1);
		for (j = 0; j < bad_jump_cases[i].nr; j++)
			b->insns[b->n++] = bad_jump_cases[i].ins[j];
		REFUSED(b, bad_jump_cases[i].insn, bad_jump_cases[i].why);
	}
}
END_TEST
#undef INT1
#undef DBL1
#undef RET
#undef AND
#undef OR

/* ---- payloads and random programs ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64: the same sequence on every run. */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* Run the current program on every captured payload. */
static void run_everywhere(void)
{
	unsigned int i;

	for (i = 0; i < harness_nr_payloads(); i++) {
		int r = harness_run_payload(i);

		ck_assert(r == 0 || r == 1);
	}
}

static const char *const layouts[] = {
	"S", "F4 S", "Q1[F4] Q2[S] F4", "A3[S] F4", "T2 V0[65535:F8|0:S|7:F4] F1",
	"Q8[S]", "Q4[A2[S F1]]", "F4294967295", "A65535[S]", "Q1[T1 V0[0:F1|1:S]]",
	"F0", "Q2[Q2[Q2[F1]]]",
};

/* Random operands for an instruction that reads the payload. */
static uint32_t rnd_offset(void)
{
	switch (below(8)) {
	case 0: return (uint32_t)rnd();
	case 1: return UINT32_MAX - below(16);
	default: return below(48);
	}
}

static uint8_t rnd_size(void)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8 };

	return sizes[below(4)];
}

static uint8_t rnd_rel(void)
{
	return below(2) ? UST_FILTER_REL : 0;
}

/* A position instruction, which any stack allows. */
static void gen_move(struct builder *b)
{
	unsigned int k = below(sizeof(layouts) / sizeof(layouts[0]));

	switch (below(5)) {
	case 0:
		b_op(b, UST_FOP_POS, rnd_rel(), 0, rnd_offset());
		break;
	case 1:
		b_op(b, UST_FOP_SKIP_STR, 0, 0, 0);
		break;
	case 2:
		b_op(b, UST_FOP_SKIP, 0, (uint16_t)strlen(layouts[k]),
		     b_pool(b, layouts[k], strlen(layouts[k])));
		break;
	case 3:
		b_op(b, UST_FOP_SEQ_INDEX, rnd_size(), 0, below(5));
		break;
	default:
		b_op(b, UST_FOP_TAG_IS, (uint8_t)(rnd_size() | rnd_rel()),
		     b_slot(b, below(3)), rnd_offset());
		break;
	}
}

static void gen_int(struct builder *b, unsigned int depth);

static void gen_str(struct builder *b)
{
	if (below(3) == 0)
		b_op(b, UST_FOP_CTX_STR, UST_FILTER_CTX_PROCNAME, 0, 0);
	else
		b_op(b, UST_FOP_LOAD_STR, rnd_rel(), 0, rnd_offset());
}

static void gen_dbl(struct builder *b, unsigned int depth)
{
	switch (depth ? below(4) : below(2)) {
	case 0:
		b_op(b, UST_FOP_DBL, 0, b_slot(b, rnd()), 0);
		break;
	case 1:
		b_op(b, UST_FOP_LOAD_DBL,
		     (uint8_t)((below(2) ? 4 : 8) | (below(2) ? UST_FILTER_SWAP : 0) |
			       rnd_rel()), 0, rnd_offset());
		break;
	case 2:
		gen_int(b, depth - 1);
		b_op(b, UST_FOP_I2D, 0, 0, 0);
		break;
	default:
		gen_dbl(b, depth - 1);
		gen_dbl(b, depth - 1);
		b_op(b, (uint8_t)(UST_FOP_ADD_D + below(4)), 0, 0, 0);
		break;
	}
}

static void gen_leaf(struct builder *b)
{
	uint8_t load = (uint8_t)(rnd_size() | (below(2) ? UST_FILTER_SIGNED : 0) |
				 (below(2) ? UST_FILTER_SWAP : 0) | rnd_rel());

	switch (below(4)) {
	case 0:
		b_op(b, UST_FOP_INT, 0, b_slot(b, rnd() >> below(64)), 0);
		break;
	case 1:
		b_op(b, UST_FOP_LOAD_INT, load, 0, rnd_offset());
		break;
	case 2:
		b_op(b, (uint8_t)(UST_FOP_FIELD_EQ_K + below(7)), load,
		     b_slot(b, rnd() >> below(64)), rnd_offset());
		break;
	default:
		b_op(b, UST_FOP_CTX_INT, (uint8_t)below(3), 0, 0);
		break;
	}
}

/* Code that leaves one integer, maybe moving P on the way. */
static void gen_int(struct builder *b, unsigned int depth)
{
	uint32_t jump;

	if (below(3) == 0)
		gen_move(b);
	switch (depth ? below(8) : 0) {
	case 0:
		gen_leaf(b);
		break;
	case 1:
		gen_int(b, depth - 1);
		b_op(b, (uint8_t)(UST_FOP_NEG + below(4)), 0, 0, 0);
		break;
	case 2:
		gen_int(b, depth - 1);
		gen_int(b, depth - 1);
		b_op(b, (uint8_t)(UST_FOP_ADD + below(UST_FOP_GE - UST_FOP_ADD + 1)),
		     0, 0, 0);
		break;
	case 3:
		gen_dbl(b, depth - 1);
		gen_dbl(b, depth - 1);
		b_op(b, (uint8_t)(UST_FOP_EQ_D + below(6)), 0, 0, 0);
		break;
	case 4:
		gen_str(b);
		if (below(2)) {
			gen_str(b);
			b_op(b, UST_FOP_STR_EQ, 0, 0, 0);
		} else {
			b_op(b, UST_FOP_STR_MATCH, 0, 3, b_pool(b, "t\0x", 3));
		}
		break;
	case 5:
		gen_int(b, depth - 1);
		jump = b->n;
		b_op(b, below(2) ? UST_FOP_AND : UST_FOP_OR, 0, 0, 0);
		gen_int(b, depth - 1);
		b_op(b, UST_FOP_BOOL, 0, 0, 0);
		b->insns[jump].b = (uint16_t)b->n;
		break;
	case 6:
		gen_int(b, depth - 1);
		b_op(b, UST_FOP_IN_RANGES, 0, 1, b_slot(b, (uint64_t)-3));
		b_slot(b, 3);
		break;
	default:
		gen_dbl(b, depth - 1);
		b_op(b, below(2) ? UST_FOP_BOOL_D : UST_FOP_LNOT_D, 0, 0, 0);
		break;
	}
}

/*
 * Random programs that are well formed (the validator must accept each)
 * but read anywhere: random offsets, sizes, positions, layouts.  Run on
 * every payload, none reads outside it.
 */
START_TEST(random_programs)
{
	unsigned int i;

	harness_capture_samples();
	for (i = 0; i < 3000; i++) {
		struct builder *b = b_new();
		int insn = -2;
		const char *why;

		gen_int(b, 1 + below(5));
		b_op(b, UST_FOP_RET, 0, 0, 0);
		why = verdict(b, &insn);
		ck_assert_msg(why == NULL, "program %u refused at %d: %s", i,
			      insn, why);
		run_everywhere();
		free(b);
	}
}
END_TEST

/* Bytes at random: refused, or run without harm. */
START_TEST(garbage)
{
	unsigned int i, n_accepted = 0;

	harness_capture_samples();
	for (i = 0; i < 100000; i++) {
		struct builder *b = b_new();
		unsigned int n = 1 + below(6), k;
		int insn;

		for (k = 0; k < n; k++) {
			/* Mostly opcodes that exist, operands often zero. */
			b_op(b, (uint8_t)below(UST_FOP_COUNT + 4),
			     (uint8_t)(below(2) ? 0 : below(4) ? below(16) : rnd()),
			     (uint16_t)(below(2) ? 0 : below(6)),
			     (uint32_t)(below(2) ? 0 : below(4) ? below(32) : rnd()));
		}
		if (below(2))
			b_op(b, UST_FOP_RET, 0, 0, 0);
		for (k = 0; k < below(5); k++)
			b_slot(b, below(2) ? rnd() : below(8));
		if (!verdict(b, &insn)) {
			n_accepted++;
			run_everywhere();
		}
		free(b);
	}
	/* Some got through the validator, so the interpreter was exercised. */
	fprintf(stderr, "garbage: %u of 100000 accepted\n", n_accepted);
	ck_assert_uint_gt(n_accepted, 20);
}
END_TEST

static const struct {
	const char *expr;
	const struct ust_event_desc *event;
} compiled[] = {
	{ "i8 == -1 && u64 > 2 || be32 == -9", &__ust_event_flt_ints },
	{ "f * 2 > d || !f", &__ust_event_flt_floats },
	{ "text == \"so*t*\" && after == 2 || other != text", &__ust_event_flt_text },
	{ "s == \"D*\" && d == \"up\"", &__ust_event_flt_enums },
	{ "names[2] == \"*here\" && tail == 7 && matrix[1][2] == 6", &__ust_event_flt_arrays },
	{ "vals[2] == 3 && words[1] == \"\" && tail == 8", &__ust_event_flt_seqs },
	{ "box.corners[1].y == 4 && tail == 9 && box.name == \"\"", &__ust_event_flt_structs },
	{ "value.TEXT == \"t\" || value.PAIR.y == 2 && tail == 2", &__ust_event_flt_variants },
	{ "$ctx.procname == \"h*\" && $ctx.vtid << 2 > $ctx.cpu_id % 3", &__ust_event_flt_empty },
};

/*
 * Compiled programs with one to four bytes changed anywhere (header,
 * instructions, pool): refused, or run without harm.
 */
START_TEST(mutations)
{
	unsigned int e, m, n_accepted = 0;

	harness_capture_samples();
	for (e = 0; e < sizeof(compiled) / sizeof(compiled[0]); e++) {
		struct filter_event ev;
		struct filter_error err;
		struct filter_program p;
		struct filter_expr *x = filter_parse(compiled[e].expr, &err);
		uint8_t *copy;

		ck_assert_ptr_nonnull(x);
		ck_assert_int_eq(harness_event(compiled[e].event, &ev, &err), 0);
		ck_assert_msg(filter_compile(x, &ev, &p, &err) == 0, "%s", err.msg);
		copy = malloc(p.size);
		ck_assert_ptr_nonnull(copy);
		for (m = 0; m < 3000; m++) {
			unsigned int flips = 1 + below(4), k;
			struct ust_filter_error verr;

			memcpy(copy, p.bytes, p.size);
			for (k = 0; k < flips; k++) {
				size_t at = below((unsigned int)p.size);

				copy[at] = below(2) ? (uint8_t)rnd() :
						      copy[at] ^ (uint8_t)(1u << below(8));
			}
			if (harness_use(copy, p.size, &verr) == 0) {
				n_accepted++;
				run_everywhere();
			}
		}
		free(copy);
		filter_program_free(&p);
		filter_event_release(&ev);
		filter_expr_free(x);
	}
	fprintf(stderr, "mutations: %u accepted\n", n_accepted);
	ck_assert_uint_gt(n_accepted, 100);
}
END_TEST

/* The compiled programs on every payload, including the wrong events'. */
START_TEST(wrong_payloads)
{
	unsigned int e;

	harness_capture_samples();
	for (e = 0; e < sizeof(compiled) / sizeof(compiled[0]); e++) {
		char err[FILTER_ERROR_MAX + 32];

		ck_assert_int_eq(harness_set(compiled[e].expr, compiled[e].event,
					     err, sizeof(err)), 0);
		run_everywhere();
	}
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("hostile");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hand_built);
	tcase_add_test(tc, bad_headers);
	tcase_add_test(tc, bad_operands);
	tcase_add_test(tc, bad_stacks);
	tcase_add_test(tc, bad_jumps);
	tcase_add_test(tc, random_programs);
	tcase_add_test(tc, garbage);
	tcase_add_test(tc, mutations);
	tcase_add_test(tc, wrong_payloads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(hostile_suite());
}
