/*
 * emit-source.c - the generated <facility>_tp.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per event: its descriptor and its probe.  Then the provider, which lists
 * the descriptors, and the constructor and destructor that register and
 * unregister it with libust; last, the event list that `ust list PROGRAM`
 * reads from the binary.
 *
 * Initializers are positional, in the member order of struct
 * ust_event_desc and struct ust_provider (include/ust/tracepoint.h),
 * every member given so that -Wextra has no missing initializer to report:
 * C++ before C++20 has no designated initializers.  A comment names each
 * member.
 *
 * A probe copies nothing itself.  It describes the payload to
 * ust_event_write() as segments, following the plan of payload.h:
 *
 *	struct __attribute__((packed)) { int32_t a; uint8_t b; } __ust_fixed0
 *		one segment for each run of fixed-size fields
 *	{ s, strlen(s) }, { "", 1 }
 *		two for a string: its bytes, then a NUL from our own constant,
 *		so a string changed under our feet cannot lose its terminator;
 *		its length UST_SEG_CSTR for the filter, if the event has one
 *		(emit_seg_array())
 *
 * Locals are named __ust_*, which validate.c forbids as field names.
 */
#include <stdlib.h>
#include <ust/loglevel.h>

#include "emit.h"
#include "payload.h"

/* Indentation: "%.*s" with a depth. */
#define TABS "\t\t\t\t"

static void emit_helpers(FILE *out, const struct tp_facility *fac);

static int emit_banner(FILE *out, const struct tp_facility *fac,
		       const char *input_name)
{
	if (tp_emit_banner(out, fac, "c",
			   "event descriptors, probes and registration", NULL,
			   input_name))
		return -1;
	fprintf(out, "#include \"%s_tp.h\"\n", fac->name);
	emit_helpers(out, fac);
	return 0;
}

/*
 * The TSDL of the event's fields: one string literal per field, so that
 * it reads one per line; the last one followed by `end`.
 */
static int emit_tsdl_literals(FILE *out, const struct tp_event *event,
			      const char *end)
{
	char *decl = NULL;
	size_t len, i;
	FILE *mem;

	if (event->fields.nr == 0)
		fprintf(out, "\t\"\"%s", end);
	for (i = 0; i < event->fields.nr; i++) {
		mem = open_memstream(&decl, &len);
		if (!mem)
			return -1;
		tp_field_tsdl(mem, &event->fields.v[i]);
		if (i + 1 < event->fields.nr)
			fputc(' ', mem);
		if (fclose(mem)) {
			free(decl);
			return -1;
		}
		fputc('\t', out);
		tp_emit_c_string(out, decl);
		fputs(i + 1 < event->fields.nr ? "\n" : end, out);
		free(decl);
		decl = NULL;
	}
	return 0;
}

static int emit_tsdl_fields(FILE *out, const struct tp_event *event)
{
	fputs("\t/* .tsdl_fields */\n", out);
	return emit_tsdl_literals(out, event, ",\n");
}

static int emit_descriptor(FILE *out, const struct tp_facility *fac,
			   const struct tp_event *event)
{
	char *layout = tp_event_layout(event);

	if (!layout)
		return -1;
	fprintf(out, "\n/* %s:%s */\n", fac->name, event->name);
	fprintf(out, "struct ust_event_desc __ust_event_%s_%s = {\n",
		fac->name, event->name);
	fputs("\t/* .struct_size */ sizeof(struct ust_event_desc),\n"
	      "\t/* .enabled */ 0,\n", out);
	fprintf(out, "\t/* .name */ \"%s\",\n", event->name);
	fprintf(out, "\t/* .loglevel */ %d", event->loglevel);
	if (event->loglevel >= 0)
		fprintf(out, " /* %s */", ust_loglevel_name(event->loglevel));
	fputs(",\n", out);
	if (emit_tsdl_fields(out, event)) {
		free(layout);
		return -1;
	}
	fputs("\t/* .layout */ ", out);
	tp_emit_c_string(out, layout);
	fputs(",\n"
	      "\t/* .id, .reserved, .priv: set by libust */ 0, 0, NULL,\n"
	      "\t/* .description */ ", out);
	if (event->description)
		tp_emit_c_string_wrapped(out, event->description, "\t");
	else
		fputs("NULL", out);
	fputs(",\n};\n", out);
	free(layout);
	return 0;
}

/* How a fixed-size field is put in its run's packed struct. */
enum staging {
	STAGE_VALUE,	/* a member of the parameter's type, initialized with it */
	STAGE_ENUM,	/* an integer of the enum's size, from a cast */
	STAGE_BYTES,	/* bytes, zeroed, then filled by statements */
};

static enum staging staging_of(const struct tp_type *type)
{
	type = tp_type_resolve(type);
	if (type->kind == TP_TYPE_ENUM)
		return STAGE_ENUM;
	if (type->kind == TP_TYPE_FLOAT ||
	    (type->kind == TP_TYPE_INT && !tp_type_is_swapped(type)))
		return STAGE_VALUE;
	return STAGE_BYTES;
}

/* The fixed-size integer type of an enum's values on the wire. */
static const char *enum_wire_type(const struct tp_type *type)
{
	const struct tp_enum *en = tp_type_resolve(type)->u.enumeration.def;

	return tp_fixed_int_c_name(en->size, en->is_signed);
}

/* Writing the statements that fill STAGE_BYTES members. */
struct filler {
	FILE *out;
	bool oom;
};

static void fill(struct filler *f, const struct tp_type *type, const char *dst,
		 const char *src, unsigned int depth);

/* A scalar at `dst` from the lvalue `src`. */
static void fill_scalar(struct filler *f, const struct tp_type *type,
			const char *dst, const char *src, unsigned int depth)
{
	tp_emit_indent(f->out, depth);
	if (type->kind == TP_TYPE_ENUM)
		fprintf(f->out, "__ust_put_u%u(%s, __ust_cast(uint%u_t, %s));\n",
			type->u.enumeration.def->size * 8, dst,
			type->u.enumeration.def->size * 8, src);
	else if (tp_type_is_swapped(type))
		fprintf(f->out, "__ust_put_%s%u(%s, &%s);\n",
			type->u.integer.byte_order == TP_ORDER_BE ? "be" : "le",
			type->u.integer.size * 8, dst, src);
	else
		fprintf(f->out, "__builtin_memcpy(%s, &%s, %zu);\n", dst, src,
			tp_type_fixed_size(type));
}

/*
 * An array: one memcpy() when C lays its elements out as the wire does,
 * else a loop over them.
 */
static void fill_array(struct filler *f, const struct tp_type *type,
		       const char *dst, const char *src, unsigned int depth)
{
	const struct tp_type *elem = type->u.array.elem;
	char *edst, *esrc;

	if (staging_of(elem) == STAGE_VALUE) {
		tp_emit_indent(f->out, depth);
		fprintf(f->out, "__builtin_memcpy(%s, %s, %zu);\n", dst, src,
			tp_type_fixed_size(type));
		return;
	}
	tp_emit_indent(f->out, depth);
	fprintf(f->out, "for (size_t __ust_i%u = 0; __ust_i%u < %u; __ust_i%u++) {\n",
		depth, depth, type->u.array.length, depth);
	edst = tp_fmt(&f->oom, "%s + %zu * __ust_i%u", dst,
		      tp_type_fixed_size(elem), depth);
	esrc = tp_fmt(&f->oom, "%s[__ust_i%u]", src, depth);
	if (edst && esrc)
		fill(f, elem, edst, esrc, depth + 1);
	free(edst);
	free(esrc);
	tp_emit_indent(f->out, depth);
	fputs("}\n", f->out);
}

/* A struct's members, back to back; `arrow` when `src` is a pointer. */
static void fill_struct(struct filler *f, const struct tp_type *type,
			const char *dst, const char *src, bool arrow,
			unsigned int depth)
{
	const struct tp_field_list *fields = &type->u.structure.fields;
	size_t offset = 0, i;
	char *mdst, *msrc;

	for (i = 0; i < fields->nr && !f->oom; i++) {
		mdst = offset ? tp_fmt(&f->oom, "%s + %zu", dst, offset) :
				tp_fmt(&f->oom, "%s", dst);
		msrc = tp_fmt(&f->oom, "%s%s%s", src, arrow ? "->" : ".",
			      fields->v[i].name);
		if (mdst && msrc)
			fill(f, fields->v[i].type, mdst, msrc, depth);
		free(mdst);
		free(msrc);
		offset += tp_type_fixed_size(fields->v[i].type);
	}
}

static void fill(struct filler *f, const struct tp_type *type, const char *dst,
		 const char *src, unsigned int depth)
{
	type = tp_type_resolve(type);
	if (type->kind == TP_TYPE_ARRAY)
		fill_array(f, type, dst, src, depth);
	else if (type->kind == TP_TYPE_STRUCT)
		fill_struct(f, type, dst, src, false, depth);
	else
		fill_scalar(f, type, dst, src, depth);
}

int tp_emit_fill(FILE *out, const struct tp_type *type, const char *dst,
		 const char *src, unsigned int depth)
{
	struct filler f = { .out = out };

	fill(&f, type, dst, src, depth);
	return f.oom ? -1 : 0;
}

/*
 * The statements for a STAGE_BYTES field of run `index`.  Arrays and
 * structs come by pointer: NULL leaves their bytes zero.
 */
static int fill_field(FILE *out, const struct tp_field *field,
		      unsigned int index)
{
	const struct tp_type *type = tp_type_resolve(field->type);
	struct filler f = { .out = out };
	char *dst = tp_fmt(&f.oom, "__ust_fixed%u.%s", index, field->name);

	if (!dst)
		return -1;
	if (type->kind != TP_TYPE_ARRAY && type->kind != TP_TYPE_STRUCT) {
		fill_scalar(&f, type, dst, field->name, 1);
		free(dst);
		return 0;
	}
	fprintf(out, "\tif (%s) {\n", field->name);
	if (type->kind == TP_TYPE_ARRAY)
		fill_array(&f, type, dst, field->name, 2);
	else
		fill_struct(&f, type, dst, field->name, true, 2);
	fputs("\t}\n", out);
	free(dst);
	return f.oom ? -1 : 0;
}

/* One member of a run's packed struct, and its initializer. */
static int emit_fixed_member(FILE *out, const struct tp_field *field,
			     struct tp_strlist *values)
{
	char *member;

	switch (staging_of(field->type)) {
	case STAGE_VALUE:
		member = tp_c_member(field->type, field->name);
		if (!member)
			return -1;
		fprintf(out, "\t\t%s;\n", member);
		free(member);
		tp_strlist_addf(values, "%s", field->name);
		break;
	case STAGE_ENUM:
		fprintf(out, "\t\t%s %s;\n", enum_wire_type(field->type),
			field->name);
		tp_strlist_addf(values, "__ust_cast(%s, %s)",
				enum_wire_type(field->type), field->name);
		break;
	case STAGE_BYTES:
		fprintf(out, "\t\tunsigned char %s[%zu];\n", field->name,
			tp_type_fixed_size(field->type));
		tp_strlist_addf(values, "{ 0 }");
		break;
	}
	return 0;
}

/*
 * The packed struct holding one run of fixed-size fields, initialized,
 * then the statements that fill its byte members.
 */
static int emit_fixed_part(FILE *out, const struct tp_event *event,
			   const struct tp_part *part, unsigned int index)
{
	const struct tp_field *f = &event->fields.v[part->first];
	struct tp_strlist values = { 0 };
	int ret = 0, column;
	size_t i;

	fputs("\tstruct __attribute__((packed)) {\n", out);
	for (i = 0; i < part->nr_fields && !ret; i++)
		ret = emit_fixed_member(out, &f[i], &values);
	/* The tab counts 8 columns, fprintf() 1. */
	column = fprintf(out, "\t} __ust_fixed%u = { ", index) + 7;
	if (!ret)
		ret = tp_emit_list(out, &values, ", ", (size_t)column, (size_t)column);
	fputs(" };\n", out);
	tp_strlist_clear(&values);
	for (i = 0; i < part->nr_fields && !ret; i++)
		if (staging_of(f[i].type) == STAGE_BYTES)
			ret = fill_field(out, &f[i], index);
	return ret;
}

/*
 * The helpers the probes of this facility use, only those: a cast that
 * C++ accepts under -Wold-style-cast, stores of enum values, and stores
 * in a byte order other than the host's (swapped or not at build time).
 */
static void emit_put_value(FILE *out, unsigned int bits)
{
	fprintf(out, "\nstatic inline void __ust_put_u%u(void *dst, uint%u_t value)\n"
		"{\n"
		"\t__builtin_memcpy(dst, &value, sizeof(value));\n"
		"}\n", bits, bits);
}

/* A store of `bits` that swaps bytes where the host's order is `other`. */
static void emit_put_order(FILE *out, const char *order, const char *other,
			   unsigned int bits)
{
	fprintf(out, "\nstatic inline void __ust_put_%s%u(void *dst, const void *src)\n"
		"{\n"
		"\tuint%u_t value;\n"
		"\n"
		"\t__builtin_memcpy(&value, src, sizeof(value));\n"
		"#if __BYTE_ORDER__ == __ORDER_%s_ENDIAN__\n"
		"\tvalue = __builtin_bswap%u(value);\n"
		"#endif\n"
		"\t__builtin_memcpy(dst, &value, sizeof(value));\n"
		"}\n", order, bits, bits, other, bits);
}

static void emit_helpers(FILE *out, const struct tp_facility *fac)
{
	struct tp_features feat;
	unsigned int size;

	tp_facility_features(fac, &feat);
	if (feat.enums || feat.packed || feat.sequences)
		fputs("\n#ifdef __cplusplus\n"
		      "#define __ust_cast(type, value) static_cast<type>(value)\n"
		      "#else\n"
		      "#define __ust_cast(type, value) ((type)(value))\n"
		      "#endif\n", out);
	for (size = 1; size <= 8; size *= 2) {
		if (feat.put_u & size)
			emit_put_value(out, size * 8);
		if (feat.put_be & size)
			emit_put_order(out, "be", "LITTLE", size * 8);
		if (feat.put_le & size)
			emit_put_order(out, "le", "BIG", size * 8);
	}
	tp_emit_pack_helpers(out, &feat);
}

/*
 * The string to record (NULL recorded as "(null)"); it is measured after
 * the filter (emit_seg_array()).
 */
static void emit_string_part(FILE *out, const struct tp_event *event,
			     const struct tp_part *part)
{
	const char *name = event->fields.v[part->first].name;

	fprintf(out, "\tconst char *__ust_str_%s = %s ? %s : \"(null)\";\n",
		name, name, name);
}

/*
 * A sequence of flat elements: its clamped length, and that length as
 * the K-byte integer recorded before the elements.
 */
static void emit_sequence_part(FILE *out, const struct tp_event *event,
			       const struct tp_part *part)
{
	const struct tp_field *field = &event->fields.v[part->first];
	const struct tp_type *type = tp_type_resolve(field->type);
	unsigned int bits = type->u.sequence.lengthsize * 8;
	const char *name = field->name;

	fprintf(out, "\tsize_t __ust_n_%s = __ust_seq_len(%s, %s_len, %lluu);\n",
		name, name, name, tp_sequence_max(type));
	fprintf(out, "\tuint%u_t __ust_qlen_%s = __ust_cast(uint%u_t, __ust_n_%s);\n",
		bits, name, bits, name);
}

/* The locals each part needs, in payload order; packed fields last. */
static int emit_part_locals(FILE *out, const struct tp_facility *fac,
			    const struct tp_event *event,
			    const struct tp_plan *plan)
{
	unsigned int fixed = 0;
	char *drop;
	size_t i;
	int ret;

	for (i = 0; i < plan->nr_parts; i++) {
		if (plan->parts[i].kind == TP_PART_STRING)
			emit_string_part(out, event, &plan->parts[i]);
		else if (plan->parts[i].kind == TP_PART_SEQUENCE)
			emit_sequence_part(out, event, &plan->parts[i]);
		else if (plan->parts[i].kind == TP_PART_FIXED &&
			 emit_fixed_part(out, event, &plan->parts[i], fixed++))
			return -1;
	}
	if (!plan->packed)
		return 0;
	if (asprintf(&drop, "ust_event_write(&__ust_event_%s_%s, NULL, 0, UST_PAYLOAD_DROP);",
		     fac->name, event->name) < 0)
		return -1;
	ret = tp_emit_packed(out, event, plan, drop);
	free(drop);
	return ret;
}

/* Bytes of one element of a sequence field. */
static size_t elem_size(const struct tp_field *field)
{
	return tp_type_fixed_size(tp_type_resolve(field->type)->u.sequence.elem);
}

/*
 * The segment array, one line per segment.  A string's bytes are
 * measured only when the event has no gate (`__ust_gated`, see
 * emit_gated_write()); else their length is UST_SEG_CSTR, for libust to
 * measure if the filter keeps the record.
 */
static void emit_seg_array(FILE *out, const struct tp_event *event,
			   const struct tp_plan *plan)
{
	unsigned int fixed = 0;
	const char *name;
	size_t i;

	fprintf(out, "	struct ust_seg __ust_segs[%u] = {\n", plan->nr_segs);
	for (i = 0; i < plan->nr_parts; i++) {
		name = event->fields.v[plan->parts[i].first].name;
		switch (plan->parts[i].kind) {
		case TP_PART_FIXED:
			fprintf(out, "\t\t{ &__ust_fixed%u, sizeof(__ust_fixed%u) },\n",
				fixed, fixed);
			fixed++;
			break;
		case TP_PART_STRING:
			fprintf(out, "\t\t{ __ust_str_%s, __ust_gated ? UST_SEG_CSTR :\n"
				"\t\t\t\t\t\t__builtin_strlen(__ust_str_%s) },\n"
				"\t\t{ \"\", 1 },\n", name, name);
			break;
		case TP_PART_SEQUENCE:
			fprintf(out, "\t\t{ &__ust_qlen_%s, sizeof(__ust_qlen_%s) },\n"
				"\t\t{ %s, __ust_n_%s * %zu },\n", name, name,
				name, name,
				elem_size(&event->fields.v[plan->parts[i].first]));
			break;
		case TP_PART_PACKED:
			fprintf(out, "\t\t{ __ust_at_%s, __ust_size_%s },\n",
				name, name);
			break;
		}
	}
	fputs("\t};\n", out);
}

/*
 * The sum of the segment lengths, in the order of emit_seg_array(); with
 * `known`, without the strings' bytes (ust_event_write_gated()).
 */
static void payload_size_terms(const struct tp_event *event,
			       const struct tp_plan *plan, bool known,
			       struct tp_strlist *terms)
{
	unsigned int fixed = 0, seg = 0;
	size_t i;

	const struct tp_field *field;

	for (i = 0; i < plan->nr_parts; i++) {
		field = &event->fields.v[plan->parts[i].first];
		switch (plan->parts[i].kind) {
		case TP_PART_FIXED:
			tp_strlist_addf(terms, "sizeof(__ust_fixed%u)", fixed++);
			break;
		case TP_PART_STRING:
			if (known)
				tp_strlist_addf(terms, "1");
			else
				tp_strlist_addf(terms, "__ust_segs[%u].len + 1", seg);
			break;
		case TP_PART_SEQUENCE:
			tp_strlist_addf(terms, "sizeof(__ust_qlen_%s)", field->name);
			tp_strlist_addf(terms, "__ust_n_%s * %zu", field->name,
					elem_size(field));
			break;
		case TP_PART_PACKED:
			tp_strlist_addf(terms, "__ust_size_%s", field->name);
			break;
		}
		seg += tp_part_nr_segs(&plan->parts[i]);
	}
}

/*
 * A probe with strings: when the event has a filter or a rate limit,
 * libust decides first, on the strings not measured yet
 * (ust_event_write_gated()), so that a record the filter discards costs
 * no strlen(); otherwise the probe measures them (emit_seg_array()), and
 * goes on as without filters.
 */
static void emit_gate_test(FILE *out, const struct tp_facility *fac,
			   const struct tp_event *event)
{
	fprintf(out, "\tconst long __ust_gated = UST_EVENT_GATED(&__ust_event_%s_%s);\n",
		fac->name, event->name);
}

static int emit_gated_write(FILE *out, const struct tp_facility *fac,
			    const struct tp_event *event,
			    const struct tp_plan *plan)
{
	struct tp_strlist terms = { 0 };
	int ret;

	fprintf(out, "\n\tif (__ust_gated) {\n"
		"\t\tust_event_write_gated(&__ust_event_%s_%s, __ust_segs, %u,\n\t\t\t\t",
		fac->name, event->name, plan->nr_segs);
	payload_size_terms(event, plan, true, &terms);
	ret = tp_emit_list(out, &terms, " + ", 32, 32);
	tp_strlist_clear(&terms);
	fputs(");\n\t\treturn;\n\t}\n", out);
	return ret;
}

static bool plan_has_string(const struct tp_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nr_parts; i++)
		if (plan->parts[i].kind == TP_PART_STRING)
			return true;
	return false;
}

/*
 * A payload small enough to pass by value (ust_event_write_small()): one
 * run of fixed-size fields, 8 bytes at most.
 */
static bool plan_is_small(const struct tp_plan *plan)
{
	return plan->nr_parts == 1 && plan->parts[0].kind == TP_PART_FIXED &&
	       plan->parts[0].size <= sizeof(uint64_t);
}

static void emit_small_write(FILE *out, const struct tp_facility *fac,
			     const struct tp_event *event)
{
	fprintf(out, "\tuint64_t __ust_small = 0;\n\n"
		"\t__builtin_memcpy(&__ust_small, &__ust_fixed0, sizeof(__ust_fixed0));\n"
		"\tust_event_write_small(&__ust_event_%s_%s, __ust_small,\n"
		"\t\t\t      sizeof(__ust_fixed0));\n", fac->name, event->name);
}

static int emit_probe_body(FILE *out, const struct tp_facility *fac,
			   const struct tp_event *event,
			   const struct tp_plan *plan)
{
	struct tp_strlist terms = { 0 };
	int ret;

	if (plan->nr_parts == 0) {
		fprintf(out, "\tust_event_write(&__ust_event_%s_%s, NULL, 0, 0);\n",
			fac->name, event->name);
		return 0;
	}
	if (emit_part_locals(out, fac, event, plan))
		return -1;
	if (plan_is_small(plan)) {
		emit_small_write(out, fac, event);
		return 0;
	}
	if (plan_has_string(plan))
		emit_gate_test(out, fac, event);
	emit_seg_array(out, event, plan);
	if (plan_has_string(plan) && emit_gated_write(out, fac, event, plan))
		return -1;
	/* The size goes on a line of its own, under the first argument. */
	fprintf(out, "\n\tust_event_write(&__ust_event_%s_%s, __ust_segs, %u,\n\t\t\t",
		fac->name, event->name, plan->nr_segs);
	payload_size_terms(event, plan, false, &terms);
	ret = tp_emit_list(out, &terms, " + ", 24, 24);
	fputs(");\n", out);
	tp_strlist_clear(&terms);
	return ret;
}

static int emit_probe(FILE *out, const struct tp_facility *fac,
		      const struct tp_event *event)
{
	struct tp_strlist params = { 0 };
	struct tp_plan plan;
	int ret = -1;

	if (tp_plan_build(event, &plan))
		return -1;
	tp_event_params(event, &params);
	fputs("\n__attribute__((noinline))\n", out);
	if (tp_emit_call(out, 0, "void __ust_probe_", fac->name, event->name, &params,
			 ")\n{\n") ||
	    emit_probe_body(out, fac, event, &plan))
		goto out;
	fputs("}\n", out);
	ret = 0;
out:
	tp_strlist_clear(&params);
	tp_plan_clear(&plan);
	return ret;
}

/* The descriptor table; none for a facility without events. */
static void emit_event_table(FILE *out, const struct tp_facility *fac)
{
	size_t i;

	if (fac->nr_events == 0)
		return;
	fprintf(out, "\nstatic struct ust_event_desc *const __ust_events_%s[] = {\n",
		fac->name);
	for (i = 0; i < fac->nr_events; i++)
		fprintf(out, "\t&__ust_event_%s_%s,\n", fac->name,
			fac->events[i].name);
	fputs("};\n", out);
}

static void emit_provider(FILE *out, const struct tp_facility *fac)
{
	const char *f = fac->name;

	emit_event_table(out, fac);
	fprintf(out, "\nstatic struct ust_provider __ust_provider_%s = {\n"
		"\t/* .struct_size */ sizeof(struct ust_provider),\n"
		"\t/* .abi_version */ UST_ABI_VERSION,\n"
		"\t/* .facility */ \"%s\",\n"
		"\t/* .description */ ", f, f);
	if (fac->description)
		tp_emit_c_string_wrapped(out, fac->description, "\t");
	else
		fputs("NULL", out);
	fputs(",\n\t/* .events */ ", out);
	if (fac->nr_events)
		fprintf(out, "__ust_events_%s,\n", f);
	else
		fputs("NULL,\n", out);
	fprintf(out, "\t/* .nr_events */ %zu,\n"
		"\t/* .registered, .priv: set by libust */ 0, { NULL, NULL },\n"
		"};\n", fac->nr_events);

	fprintf(out, "\nstatic void __ust_provider_%s_register(void) __attribute__((constructor));\n"
		"static void __ust_provider_%s_register(void)\n"
		"{\n"
		"\t(void)ust_provider_register(&__ust_provider_%s);\n"
		"}\n", f, f, f);
	fprintf(out, "\nstatic void __ust_provider_%s_unregister(void) __attribute__((destructor));\n"
		"static void __ust_provider_%s_unregister(void)\n"
		"{\n"
		"\tust_provider_unregister(&__ust_provider_%s);\n"
		"}\n", f, f, f);
}

/* "facility:event(parameters)", malloc'ed, or NULL when out of memory. */
static char *event_signature(const struct tp_facility *fac,
			     const struct tp_event *event)
{
	struct tp_strlist params = { 0 };
	char *sig = NULL;
	size_t len, i;
	FILE *mem;

	tp_event_params(event, &params);
	mem = params.oom ? NULL : open_memstream(&sig, &len);
	if (mem) {
		fprintf(mem, "%s:%s(", fac->name, event->name);
		for (i = 0; i < params.nr; i++)
			fprintf(mem, "%s%s", i ? ", " : "", params.v[i]);
		fputc(')', mem);
		if (fclose(mem)) {
			free(sig);
			sig = NULL;
		}
	}
	tp_strlist_clear(&params);
	return sig;
}

/*
 * The facility's events as plain strings in the section "ust_events",
 * read by `ust list PROGRAM` (cli/list.c) from the binary without running
 * it: one NUL-terminated "facility:event(parameters)" per event.  The
 * arrays of every facility linked in end up one after the other in the
 * section (aligned(1): no padding); `used` keeps them although nothing
 * refers to them.
 */
static int emit_event_list(FILE *out, const struct tp_facility *fac)
{
	char *sig;
	size_t i;

	if (fac->nr_events == 0)
		return 0;
	fputs("\n/* The events, for `ust list PROGRAM`. */\n", out);
	fprintf(out, "static const char __ust_list_%s[]\n"
		"\t__attribute__((used, section(\"ust_events\"), aligned(1))) =\n",
		fac->name);
	for (i = 0; i < fac->nr_events; i++) {
		sig = event_signature(fac, &fac->events[i]);
		if (!sig)
			return -1;
		fputc('\t', out);
		tp_emit_c_string(out, sig);
		fputs(i + 1 < fac->nr_events ? " \"\\0\"\n" : ";\n", out);
		free(sig);
	}
	return 0;
}

/*
 * Each event with its fields, in the section "ust_fields", for the `ust`
 * command to compile filters (filter/) without running the program: one
 * array per event (a C99 compiler need not take longer strings), four
 * NUL-terminated strings: "@1" (the format), "facility:event", its layout
 * and its TSDL fields, exactly as in its descriptor.  Like "ust_events":
 * no pointer, no padding between the arrays.
 */
static int emit_field_list(FILE *out, const struct tp_facility *fac)
{
	size_t i;

	if (fac->nr_events)
		fputs("\n/* The events' fields, for `ust record --filter`. */\n", out);
	for (i = 0; i < fac->nr_events; i++) {
		const struct tp_event *event = &fac->events[i];
		char *layout = tp_event_layout(event);

		if (!layout)
			return -1;
		fprintf(out, "static const char __ust_fields_%s_%s[]\n"
			"\t__attribute__((used, section(\"ust_fields\"), aligned(1))) =\n"
			"\t\"@1\" \"\\0\" \"%s:%s\" \"\\0\" ", fac->name,
			event->name, fac->name, event->name);
		tp_emit_c_string(out, layout);
		fputs(" \"\\0\"\n", out);
		free(layout);
		if (emit_tsdl_literals(out, event, ";\n"))
			return -1;
	}
	return 0;
}

int tp_emit_source(FILE *out, const struct tp_facility *fac,
		   const char *input_name, const struct tp_emit_options *opts)
{
	size_t i;

	if (emit_banner(out, fac, input_name))
		return -1;
	if (opts->sdt)
		tp_emit_semaphore_definitions(out, fac);
	for (i = 0; i < fac->nr_events; i++) {
		if (emit_descriptor(out, fac, &fac->events[i]) ||
		    emit_probe(out, fac, &fac->events[i]))
			return -1;
	}
	emit_provider(out, fac);
	if (emit_event_list(out, fac))
		return -1;
	return emit_field_list(out, fac);
}
