/*
 * disasm.c - a program in words, one instruction a line.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	0  LOAD_INT s32 @0
 *	1  INT 10
 *	2  GT
 *	3  RET
 *
 * Only validated programs are printed (their operands are then known to
 * be inside the pool); others get the validator's reason.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "runtime.h"

/* An instruction's name is its opcode's, UST_FOP_ left out. */
#define NAME(op)	[UST_FOP_##op] = #op

static const char *const names[UST_FOP_COUNT] = {
	NAME(RET), NAME(INT), NAME(DBL),
	NAME(LOAD_INT), NAME(LOAD_DBL), NAME(LOAD_STR), NAME(CTX_INT), NAME(CTX_STR),
	NAME(POS), NAME(SKIP_STR), NAME(SKIP), NAME(SEQ_INDEX), NAME(TAG_IS),
	NAME(NEG), NAME(BNOT), NAME(LNOT), NAME(BOOL),
	NAME(ADD), NAME(SUB), NAME(MUL), NAME(DIV), NAME(MOD),
	NAME(SHL), NAME(SHR), NAME(BAND), NAME(BOR), NAME(BXOR),
	NAME(EQ), NAME(NE), NAME(LT), NAME(LE), NAME(GT), NAME(GE), NAME(IN_RANGES),
	NAME(I2D), NAME(NEG_D), NAME(LNOT_D), NAME(BOOL_D),
	NAME(ADD_D), NAME(SUB_D), NAME(MUL_D), NAME(DIV_D),
	NAME(EQ_D), NAME(NE_D), NAME(LT_D), NAME(LE_D), NAME(GT_D), NAME(GE_D),
	NAME(STR_EQ), NAME(STR_MATCH), NAME(AND), NAME(OR),
	NAME(EQ_K), NAME(NE_K), NAME(LT_K), NAME(LE_K), NAME(GT_K), NAME(GE_K),
	NAME(BAND_K),
	NAME(FIELD_EQ_K), NAME(FIELD_NE_K), NAME(FIELD_LT_K), NAME(FIELD_LE_K),
	NAME(FIELD_GT_K), NAME(FIELD_GE_K), NAME(FIELD_BAND_K),
};

#undef NAME

static const char *const ctx_names[UST_FILTER_CTX_COUNT] = {
	"vtid", "vpid", "cpu_id", "procname",
};

static uint64_t slot(const struct ust_filter *f, uint32_t i)
{
	uint64_t v;

	memcpy(&v, f->pool + (size_t)i * 8, 8);
	return v;
}

/* "@4", "@P+4": where a load or TAG_IS reads. */
static void where(const struct ust_filter_insn *in, FILE *out)
{
	fprintf(out, " @%s%" PRIu32, in->a & UST_FILTER_REL ? "P+" : "", in->c);
}

/* "s32", "u16be", "f64". */
static void scalar(const struct ust_filter_insn *in, char kind, FILE *out)
{
	if (kind == 'i')
		kind = in->a & UST_FILTER_SIGNED ? 's' : 'u';
	fprintf(out, " %c%u%s", kind, 8 * (in->a & UST_FILTER_SIZE_MASK),
		in->a & UST_FILTER_SWAP ? "be" : "");
}

/* Pool bytes as a quoted text, NUL shown as '*' (patterns). */
static void text(const struct ust_filter *f, const struct ust_filter_insn *in,
		 FILE *out)
{
	uint32_t i;

	fputs(" \"", out);
	for (i = 0; i < in->b; i++) {
		uint8_t ch = f->pool[in->c + i];

		if (ch == 0)
			fputc('*', out);
		else if (ch == '"' || ch == '\\' || ch == '*')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(out, "\\x%02x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void operands(const struct ust_filter *f, const struct ust_filter_insn *in,
		     FILE *out)
{
	uint64_t v;
	double d;
	uint32_t k;

	switch (in->op) {
	case UST_FOP_INT:
	case UST_FOP_EQ_K ... UST_FOP_BAND_K:
		fprintf(out, " %" PRId64, (int64_t)slot(f, in->b));
		break;
	case UST_FOP_DBL:
		v = slot(f, in->b);
		memcpy(&d, &v, sizeof(d));
		fprintf(out, " %.17g", d);
		break;
	case UST_FOP_LOAD_INT:
		scalar(in, 'i', out);
		where(in, out);
		break;
	case UST_FOP_FIELD_EQ_K ... UST_FOP_FIELD_BAND_K:
		scalar(in, 'i', out);
		where(in, out);
		fprintf(out, " %" PRId64, (int64_t)slot(f, in->b));
		break;
	case UST_FOP_LOAD_DBL:
		scalar(in, 'f', out);
		where(in, out);
		break;
	case UST_FOP_LOAD_STR:
	case UST_FOP_POS:
		where(in, out);
		break;
	case UST_FOP_CTX_INT:
	case UST_FOP_CTX_STR:
		fprintf(out, " %s", ctx_names[in->a]);
		break;
	case UST_FOP_SKIP:
	case UST_FOP_STR_MATCH:
		text(f, in, out);
		break;
	case UST_FOP_SEQ_INDEX:
		fprintf(out, " u%u [%" PRIu32 "]", 8 * in->a, in->c);
		break;
	case UST_FOP_TAG_IS:
		fprintf(out, " u%u", 8 * (in->a & UST_FILTER_SIZE_MASK));
		where(in, out);
		fprintf(out, " == %" PRIu64, slot(f, in->b));
		break;
	case UST_FOP_IN_RANGES:
		for (k = 0; k < in->b; k++) {
			int64_t lo = (int64_t)slot(f, in->c + 2 * k);
			int64_t hi = (int64_t)slot(f, in->c + 2 * k + 1);

			if (lo == hi)
				fprintf(out, " %" PRId64, lo);
			else
				fprintf(out, " %" PRId64 "..%" PRId64, lo, hi);
		}
		break;
	case UST_FOP_I2D:
		if (in->a)
			fprintf(out, " %u", in->a);
		break;
	case UST_FOP_AND:
	case UST_FOP_OR:
		fprintf(out, " -> %u", in->b);
		break;
	default:
		break;
	}
}

void filter_disasm(const void *bytes, size_t size, FILE *out)
{
	struct ust_filter_error err;
	struct ust_filter f;
	uint32_t pc;

	if (ust_filter_validate(&f, bytes, size, &err)) {
		fprintf(out, "invalid program (instruction %d): %s\n", err.insn,
			err.what);
		return;
	}
	for (pc = 0; pc < f.nr_insns; pc++) {
		const struct ust_filter_insn *in = &f.insns[pc];

		fprintf(out, "%3" PRIu32 "  %s", pc, names[in->op]);
		operands(&f, in, out);
		fputc('\n', out);
	}
}
