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

static const char *const names[UST_FOP_COUNT] = {
	[UST_FOP_RET] = "RET", [UST_FOP_INT] = "INT", [UST_FOP_DBL] = "DBL",
	[UST_FOP_LOAD_INT] = "LOAD_INT", [UST_FOP_LOAD_DBL] = "LOAD_DBL",
	[UST_FOP_LOAD_STR] = "LOAD_STR", [UST_FOP_CTX_INT] = "CTX_INT",
	[UST_FOP_CTX_STR] = "CTX_STR", [UST_FOP_POS] = "POS",
	[UST_FOP_SKIP_STR] = "SKIP_STR", [UST_FOP_SKIP] = "SKIP",
	[UST_FOP_SEQ_INDEX] = "SEQ_INDEX", [UST_FOP_TAG_IS] = "TAG_IS",
	[UST_FOP_NEG] = "NEG", [UST_FOP_BNOT] = "BNOT", [UST_FOP_LNOT] = "LNOT",
	[UST_FOP_BOOL] = "BOOL", [UST_FOP_ADD] = "ADD", [UST_FOP_SUB] = "SUB",
	[UST_FOP_MUL] = "MUL", [UST_FOP_DIV] = "DIV", [UST_FOP_MOD] = "MOD",
	[UST_FOP_SHL] = "SHL", [UST_FOP_SHR] = "SHR", [UST_FOP_BAND] = "BAND",
	[UST_FOP_BOR] = "BOR", [UST_FOP_BXOR] = "BXOR", [UST_FOP_EQ] = "EQ",
	[UST_FOP_NE] = "NE", [UST_FOP_LT] = "LT", [UST_FOP_LE] = "LE",
	[UST_FOP_GT] = "GT", [UST_FOP_GE] = "GE",
	[UST_FOP_IN_RANGES] = "IN_RANGES", [UST_FOP_I2D] = "I2D",
	[UST_FOP_NEG_D] = "NEG_D", [UST_FOP_LNOT_D] = "LNOT_D",
	[UST_FOP_BOOL_D] = "BOOL_D", [UST_FOP_ADD_D] = "ADD_D",
	[UST_FOP_SUB_D] = "SUB_D", [UST_FOP_MUL_D] = "MUL_D",
	[UST_FOP_DIV_D] = "DIV_D", [UST_FOP_EQ_D] = "EQ_D",
	[UST_FOP_NE_D] = "NE_D", [UST_FOP_LT_D] = "LT_D", [UST_FOP_LE_D] = "LE_D",
	[UST_FOP_GT_D] = "GT_D", [UST_FOP_GE_D] = "GE_D",
	[UST_FOP_STR_EQ] = "STR_EQ", [UST_FOP_STR_MATCH] = "STR_MATCH",
	[UST_FOP_AND] = "AND", [UST_FOP_OR] = "OR",
	[UST_FOP_EQ_K] = "EQ_K", [UST_FOP_NE_K] = "NE_K", [UST_FOP_LT_K] = "LT_K",
	[UST_FOP_LE_K] = "LE_K", [UST_FOP_GT_K] = "GT_K", [UST_FOP_GE_K] = "GE_K",
	[UST_FOP_BAND_K] = "BAND_K",
	[UST_FOP_FIELD_EQ_K] = "FIELD_EQ_K", [UST_FOP_FIELD_NE_K] = "FIELD_NE_K",
	[UST_FOP_FIELD_LT_K] = "FIELD_LT_K", [UST_FOP_FIELD_LE_K] = "FIELD_LE_K",
	[UST_FOP_FIELD_GT_K] = "FIELD_GT_K", [UST_FOP_FIELD_GE_K] = "FIELD_GE_K",
	[UST_FOP_FIELD_BAND_K] = "FIELD_BAND_K",
};

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
