/*
 * payload.c - record layout, layout strings and TSDL of events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nameset.h"
#include "payload.h"

bool tp_type_is_flat(const struct tp_type *type)
{
	type = tp_type_resolve(type);
	if (type->kind == TP_TYPE_ARRAY)
		return tp_type_is_flat(type->u.array.elem);
	return type->kind == TP_TYPE_FLOAT ||
	       (type->kind == TP_TYPE_INT &&
		(type->u.integer.size == 1 ||
		 type->u.integer.byte_order == TP_ORDER_HOST));
}

size_t *tp_field_tags(const struct tp_field_list *fields)
{
	size_t *tags = malloc((fields->nr ? fields->nr : 1) * sizeof(*tags));
	const struct tp_type *type;
	struct tp_nameset names;
	size_t i, first;
	bool failed = !tags;

	tp_nameset_init(&names, false);
	for (i = 0; i < fields->nr && !failed; i++) {
		tags[i] = TP_NO_TAG;
		type = tp_type_resolve(fields->v[i].type);
		if (type->kind == TP_TYPE_VARIANT)
			tags[i] = tp_nameset_find(&names, type->u.variant.tag,
						  &first) ? first : TP_NO_TAG;
		failed = tp_nameset_add(&names, fields->v[i].name, i, &first) < 0;
	}
	tp_nameset_clear(&names);
	if (!failed)
		return tags;
	free(tags);
	return NULL;
}

static enum tp_part_kind part_kind(const struct tp_type *type)
{
	type = tp_type_resolve(type);
	if (tp_type_is_fixed(type))
		return TP_PART_FIXED;
	if (type->kind == TP_TYPE_STRING)
		return TP_PART_STRING;
	if (type->kind == TP_TYPE_SEQUENCE &&
	    tp_type_is_flat(type->u.sequence.elem))
		return TP_PART_SEQUENCE;
	return TP_PART_PACKED;
}

/* Start a new part, or extend the last one when both are fixed. */
static int plan_add_field(struct tp_plan *plan, size_t index,
			  const struct tp_field *field)
{
	struct tp_part *last = plan->nr_parts ?
			       &plan->parts[plan->nr_parts - 1] : NULL;
	enum tp_part_kind kind = part_kind(field->type);
	struct tp_part *part;

	if (kind == TP_PART_FIXED && last && last->kind == TP_PART_FIXED) {
		last->nr_fields++;
		last->size += tp_type_fixed_size(field->type);
		return 0;
	}
	part = TP_ARRAY_ADD(plan->parts, plan->nr_parts);
	if (!part)
		return -1;
	*part = (struct tp_part){
		.kind = kind,
		.first = index,
		.nr_fields = 1,
		.size = tp_type_fixed_size(field->type),
	};
	plan->packed = plan->packed || kind == TP_PART_PACKED;
	return 0;
}

int tp_plan_build(const struct tp_event *event, struct tp_plan *plan)
{
	size_t i;

	*plan = (struct tp_plan){ 0 };
	for (i = 0; i < event->fields.nr; i++) {
		if (plan_add_field(plan, i, &event->fields.v[i])) {
			tp_plan_clear(plan);
			return -1;
		}
	}
	for (i = 0; i < plan->nr_parts; i++)
		plan->nr_segs += tp_part_nr_segs(&plan->parts[i]);
	return 0;
}

void tp_plan_clear(struct tp_plan *plan)
{
	free(plan->parts);
	*plan = (struct tp_plan){ 0 };
}

unsigned int tp_part_nr_segs(const struct tp_part *part)
{
	return part->kind == TP_PART_STRING || part->kind == TP_PART_SEQUENCE ?
	       2 : 1;
}

/*
 * Close a memory stream and hand over its buffer, or NULL on failure.
 * `*buf` is only up to date once the stream is closed.
 */
static char *memstream_finish(FILE *out, char **buf)
{
	bool failed = ferror(out);

	if (fclose(out) || failed) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

/*
 * Writing a layout string: consecutive fixed bytes are one "F<n>" token,
 * flushed before any other token; `space` says whether the next token
 * needs a separator (not after '[', ':' or '|').  Tag slots are numbered
 * in text order, as common/layout-walk.h counts them.
 */
struct lay {
	FILE *out;
	size_t fixed;
	bool space;
	unsigned int nr_tags;
	bool oom;
};

static void lay_flush(struct lay *l)
{
	if (!l->fixed)
		return;
	fprintf(l->out, "%sF%zu", l->space ? " " : "", l->fixed);
	l->fixed = 0;
	l->space = true;
}

/* Start a token: flush the fixed bytes, then the separator. */
static void lay_begin(struct lay *l)
{
	lay_flush(l);
	if (l->space)
		fputc(' ', l->out);
	l->space = true;
}

/* End a bracketed body: its last fixed bytes, then `c` (']' or '|'). */
static void lay_close(struct lay *l, char c)
{
	lay_flush(l);
	fputc(c, l->out);
	l->space = c == ']';
}

static void lay_fields(struct lay *l, const struct tp_field_list *fields);
static void lay_type(struct lay *l, const struct tp_type *type);

/* "A<n>[elem]" (an array of n) or "Q<n>[elem]" (an n-byte length first). */
static void lay_repeat(struct lay *l, char item, unsigned int n,
		       const struct tp_type *elem)
{
	lay_begin(l);
	fprintf(l->out, "%c%u[", item, n);
	l->space = false;
	lay_type(l, elem);
	lay_close(l, ']');
}

static void lay_type(struct lay *l, const struct tp_type *type)
{
	type = tp_type_resolve(type);
	if (tp_type_is_fixed(type)) {
		l->fixed += tp_type_fixed_size(type);
		return;
	}
	switch (type->kind) {
	case TP_TYPE_STRING:
		lay_begin(l);
		fputc('S', l->out);
		break;
	case TP_TYPE_ARRAY:
		lay_repeat(l, 'A', type->u.array.length, type->u.array.elem);
		break;
	case TP_TYPE_SEQUENCE:
		lay_repeat(l, 'Q', type->u.sequence.lengthsize,
			   type->u.sequence.elem);
		break;
	case TP_TYPE_STRUCT:
		lay_fields(l, &type->u.structure.fields);
		break;
	default:
		/* Variants only as fields (lay_fields()); the rest is fixed. */
		break;
	}
}

/*
 * "V<slot>[v:layout|v:layout]": each option under its label's value, as
 * the K-byte unsigned integer the tag field holds.
 */
static void lay_variant(struct lay *l, const struct tp_type *variant,
			const struct tp_enum *en, unsigned int slot)
{
	uint64_t mask = en->size == 8 ? UINT64_MAX :
			(UINT64_C(1) << (8 * en->size)) - 1;
	const struct tp_option *opt;
	struct tp_nameset labels;
	size_t i, j;

	tp_nameset_init(&labels, false);
	for (i = 0; i < en->nr_labels && !l->oom; i++)
		l->oom = tp_nameset_add(&labels, en->labels[i].name, i, &j) < 0;
	lay_begin(l);
	fprintf(l->out, "V%u[", slot);
	for (i = 0; i < variant->u.variant.nr_options && !l->oom; i++) {
		opt = &variant->u.variant.options[i];
		/* validate.c made sure that every option is a label. */
		tp_nameset_find(&labels, opt->label, &j);
		if (i)
			lay_close(l, '|');
		fprintf(l->out, "%" PRIu64 ":", (uint64_t)en->labels[j].value & mask);
		l->space = false;
		lay_type(l, opt->type);
	}
	lay_close(l, ']');
	tp_nameset_clear(&labels);
}

/* A field list; a tag field is a "T<k>" token, its slot kept for later. */
static void lay_fields(struct lay *l, const struct tp_field_list *fields)
{
	unsigned int *slots = calloc(fields->nr ? fields->nr : 1, sizeof(*slots));
	bool *is_tag = calloc(fields->nr ? fields->nr : 1, sizeof(*is_tag));
	size_t *tags = tp_field_tags(fields);
	const struct tp_type *type, *tag_type;
	size_t i, j;

	if (!slots || !is_tag || !tags) {
		l->oom = true;
		goto out;
	}
	for (i = 0; i < fields->nr; i++)
		if (tags[i] != TP_NO_TAG)
			is_tag[tags[i]] = true;
	for (i = 0; i < fields->nr; i++) {
		type = tp_type_resolve(fields->v[i].type);
		j = tags[i];
		if (is_tag[i]) {
			lay_begin(l);
			fprintf(l->out, "T%u", type->u.enumeration.def->size);
			slots[i] = l->nr_tags++;
		} else if (j != TP_NO_TAG) {
			tag_type = tp_type_resolve(fields->v[j].type);
			lay_variant(l, type, tag_type->u.enumeration.def, slots[j]);
		} else {
			lay_type(l, type);
		}
	}
out:
	free(slots);
	free(is_tag);
	free(tags);
}

char *tp_event_layout(const struct tp_event *event)
{
	char *buf = NULL;
	struct lay l;
	size_t len;
	FILE *out;

	out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	l = (struct lay){ .out = out };
	lay_fields(&l, &event->fields);
	lay_flush(&l);
	buf = memstream_finish(out, &buf);
	if (l.oom) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Integers: size in bits; alignment always 8, since records are packed;
 * byte order the trace's default (the native one) unless the field says.
 */
static void integer_tsdl(FILE *out, const struct tp_type *type)
{
	static const char *const orders[] = {
		[TP_ORDER_HOST] = "", [TP_ORDER_LE] = " byte_order = le;",
		[TP_ORDER_BE] = " byte_order = be;",
	};

	fprintf(out, "integer { size = %u; align = 8; signed = %s; encoding = none; base = %u;%s }",
		type->u.integer.size * 8,
		type->u.integer.is_signed ? "true" : "false",
		type->u.integer.base, orders[type->u.integer.byte_order]);
}

/* IEEE 754 binary32 and binary64, byte-aligned like everything else. */
static void float_tsdl(FILE *out, const struct tp_type *type)
{
	if (type->u.floating.size == 4)
		fputs("floating_point { exp_dig = 8; mant_dig = 24; align = 8; }", out);
	else
		fputs("floating_point { exp_dig = 11; mant_dig = 53; align = 8; }", out);
}

/* enum : integer { ... } { "IDLE" = 0, "BUSY" = 1 } */
static void enum_tsdl(FILE *out, const struct tp_enum *en)
{
	size_t i;

	fprintf(out, "enum : integer { size = %u; align = 8; signed = %s; encoding = none; base = 10; } {",
		en->size * 8, en->is_signed ? "true" : "false");
	for (i = 0; i < en->nr_labels; i++)
		fprintf(out, "%s \"%s\" = %lld", i ? "," : "",
			en->labels[i].name, en->labels[i].value);
	fputs(" }", out);
}

static void decl_tsdl(FILE *out, const struct tp_type *type, const char *name,
		      const char *prefix);

/* struct { ... } align(8): members byte-packed, names with '_' too. */
static void struct_tsdl(FILE *out, const struct tp_field_list *fields)
{
	size_t i;

	fputs("struct {", out);
	for (i = 0; i < fields->nr; i++) {
		fputc(' ', out);
		tp_field_tsdl(out, &fields->v[i]);
	}
	fputs(" } align(8)", out);
}

/*
 * variant <_tag> { T L1; T L2; }: an option per label, named exactly
 * like it, without the '_' of fields: babeltrace2 matches the names
 * before it strips a '_'.
 */
static void variant_tsdl(FILE *out, const struct tp_type *type)
{
	size_t i;

	fprintf(out, "variant <_%s> {", type->u.variant.tag);
	for (i = 0; i < type->u.variant.nr_options; i++) {
		fputc(' ', out);
		decl_tsdl(out, type->u.variant.options[i].type,
			  type->u.variant.options[i].label, "");
	}
	fputs(" }", out);
}

/* The type specifier of a type that is not an array. */
static void type_tsdl(FILE *out, const struct tp_type *type)
{
	switch (type->kind) {
	case TP_TYPE_INT:
		integer_tsdl(out, type);
		break;
	case TP_TYPE_FLOAT:
		float_tsdl(out, type);
		break;
	case TP_TYPE_STRING:
		fputs("string", out);
		break;
	case TP_TYPE_ENUM:
		enum_tsdl(out, type->u.enumeration.def);
		break;
	case TP_TYPE_STRUCT:
		struct_tsdl(out, &type->u.structure.fields);
		break;
	case TP_TYPE_VARIANT:
		variant_tsdl(out, type);
		break;
	case TP_TYPE_ARRAY:
	case TP_TYPE_SEQUENCE:
	case TP_TYPE_TYPEREF:
		/* Declarators, or resolved before. */
		break;
	}
}

/*
 * "<type> <prefix><name>[N][M];": the element type, then one dimension per
 * array level, outermost first, as in C.  A sequence is one more
 * dimension, first, naming its length field: "<type> _<name>[__<name>_length][N]".
 */
static void decl_tsdl(FILE *out, const struct tp_type *type, const char *name,
		      const char *prefix)
{
	const struct tp_type *elem = tp_type_resolve(type);

	if (elem->kind == TP_TYPE_SEQUENCE)
		elem = tp_type_resolve(elem->u.sequence.elem);
	while (elem->kind == TP_TYPE_ARRAY)
		elem = tp_type_resolve(elem->u.array.elem);
	type_tsdl(out, elem);
	fprintf(out, " %s%s", prefix, name);
	type = tp_type_resolve(type);
	if (type->kind == TP_TYPE_SEQUENCE) {
		fprintf(out, "[__%s_length]", name);
		type = tp_type_resolve(type->u.sequence.elem);
	}
	for (; type->kind == TP_TYPE_ARRAY;
	     type = tp_type_resolve(type->u.array.elem))
		fprintf(out, "[%u]", type->u.array.length);
	fputc(';', out);
}

/*
 * The field name gets a leading '_': CTF readers strip one, and it keeps
 * names such as "event" or "string" clear of TSDL keywords.  A sequence
 * is preceded by its length, an unsigned integer of its lengthsize named
 * "__<name>_length" ("_<name>_length" once a reader stripped the '_').
 */
void tp_field_tsdl(FILE *out, const struct tp_field *field)
{
	const struct tp_type *type = tp_type_resolve(field->type);

	if (type->kind == TP_TYPE_SEQUENCE)
		fprintf(out, "integer { size = %u; align = 8; signed = false; encoding = none; base = 10; } __%s_length; ",
			type->u.sequence.lengthsize * 8, field->name);
	decl_tsdl(out, field->type, field->name, "_");
}

char *tp_event_tsdl(const struct tp_event *event)
{
	char *buf = NULL;
	size_t len, i;
	FILE *out;

	out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	for (i = 0; i < event->fields.nr; i++) {
		if (i)
			fputc(' ', out);
		tp_field_tsdl(out, &event->fields.v[i]);
	}
	return memstream_finish(out, &buf);
}
