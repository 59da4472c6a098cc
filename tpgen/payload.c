/*
 * payload.c - record layout, layout strings and TSDL of events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>

#include "payload.h"

/* Start a new part, or extend the last one when both are fixed. */
static int plan_add_field(struct tp_plan *plan, size_t index,
			  const struct tp_field *field)
{
	struct tp_part *last = plan->nr_parts ?
			       &plan->parts[plan->nr_parts - 1] : NULL;
	struct tp_part *parts;
	bool fixed = tp_type_is_fixed(field->type);

	if (fixed && last && last->kind == TP_PART_FIXED) {
		last->nr_fields++;
		last->size += tp_type_fixed_size(field->type);
		return 0;
	}
	parts = realloc(plan->parts, (plan->nr_parts + 1) * sizeof(*parts));
	if (!parts)
		return -1;
	plan->parts = parts;
	parts[plan->nr_parts++] = (struct tp_part){
		.kind = fixed ? TP_PART_FIXED : TP_PART_STRING,
		.first = index,
		.nr_fields = 1,
		.size = tp_type_fixed_size(field->type),
	};
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
	return part->kind == TP_PART_STRING ? 2 : 1;
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

char *tp_event_layout(const struct tp_event *event)
{
	struct tp_plan plan;
	char *buf = NULL;
	size_t len, i;
	FILE *out;

	if (tp_plan_build(event, &plan))
		return NULL;
	out = open_memstream(&buf, &len);
	if (!out) {
		tp_plan_clear(&plan);
		return NULL;
	}
	for (i = 0; i < plan.nr_parts; i++) {
		const struct tp_part *part = &plan.parts[i];

		if (i)
			fputc(' ', out);
		if (part->kind == TP_PART_FIXED)
			fprintf(out, "F%zu", part->size);
		else
			fputc('S', out);
	}
	tp_plan_clear(&plan);
	return memstream_finish(out, &buf);
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

static void decl_tsdl(FILE *out, const struct tp_type *type, const char *name);

/* struct { ... } align(8): members byte-packed, names with '_' too. */
static void struct_tsdl(FILE *out, const struct tp_field_list *fields)
{
	size_t i;

	fputs("struct {", out);
	for (i = 0; i < fields->nr; i++) {
		fputc(' ', out);
		decl_tsdl(out, fields->v[i].type, fields->v[i].name);
	}
	fputs(" } align(8)", out);
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
	case TP_TYPE_ARRAY:
	case TP_TYPE_SEQUENCE:
	case TP_TYPE_VARIANT:
	case TP_TYPE_TYPEREF:
		/* Arrays are declarators; the rest support.c refused. */
		break;
	}
}

/*
 * "<type> _<name>[N][M];": the element type, then one dimension per
 * array level, outermost first, as in C.
 */
static void decl_tsdl(FILE *out, const struct tp_type *type, const char *name)
{
	const struct tp_type *elem = tp_type_resolve(type);

	while (elem->kind == TP_TYPE_ARRAY)
		elem = tp_type_resolve(elem->u.array.elem);
	type_tsdl(out, elem);
	fprintf(out, " _%s", name);
	for (type = tp_type_resolve(type); type->kind == TP_TYPE_ARRAY;
	     type = tp_type_resolve(type->u.array.elem))
		fprintf(out, "[%u]", type->u.array.length);
	fputc(';', out);
}

/*
 * The field name gets a leading '_': CTF readers strip one, and it keeps
 * names such as "event" or "string" clear of TSDL keywords.
 */
void tp_field_tsdl(FILE *out, const struct tp_field *field)
{
	decl_tsdl(out, field->type, field->name);
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
