/*
 * emit-pack.c - probe code for fields whose C layout is not their wire
 * layout: variants, sequences of anything but flat elements, and arrays
 * or structs that hold strings, sequences or variants.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Such fields (TP_PART_PACKED in payload.h) are packed element by element
 * into one buffer on the probe's stack, in two passes over the same
 * generated walk:
 *
 *	measure		__ust_room = bytes the packed fields take (strlen()
 *			of each string, clamped lengths of sequences, the
 *			option each tag selects), saturating;
 *	pack		__ust_p moves through a buffer of __ust_room bytes;
 *			every store first checks that it fits, and a store
 *			that does not fit (the application changed a string
 *			or a length between the passes), or a tag that
 *			selects no option, sets __ust_p to NULL.
 *
 * The probe drops the record (ust_event_write() with UST_PAYLOAD_DROP,
 * counted lost) when __ust_room exceeds TP_PACK_MAX or __ust_p ends
 * NULL, so that it never records bytes that its layout and TSDL do not
 * describe.  NULL pointers to arrays, structs and variants stand for
 * zeroed ones, read from a static zero object.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "payload.h"

/* Bytes the packed fields of one event may take: they are on the stack. */
#define TP_PACK_MAX 65536u

struct gen {
	FILE *out;
	bool pack;		/* the pack pass, else the measure pass */
	const size_t *tags;	/* tp_field_tags() of the event's fields */
	bool oom;
};

/* One line of code at `depth`. */
static void line(struct gen *g, unsigned int depth, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static void line(struct gen *g, unsigned int depth, const char *format, ...)
{
	va_list ap;

	tp_emit_indent(g->out, depth);
	va_start(ap, format);
	vfprintf(g->out, format, ap);
	va_end(ap);
	fputc('\n', g->out);
}

static void gen_value(struct gen *g, const struct tp_type *type,
		      const char *src, unsigned int depth);
static void gen_fields(struct gen *g, const struct tp_field_list *fields,
		       const char *prefix, unsigned int depth);

/* A fixed-size value: its size, or its bytes stored by tp_emit_fill(). */
static void gen_fixed(struct gen *g, const struct tp_type *type,
		      const char *src, unsigned int depth)
{
	size_t size = tp_type_fixed_size(type);

	if (!g->pack) {
		line(g, depth, "__ust_room = __ust_grow(__ust_room, 1, %zu);", size);
		return;
	}
	line(g, depth, "__ust_p = __ust_room_for(__ust_p, __ust_end, %zu);", size);
	line(g, depth, "if (__ust_p) {");
	if (tp_emit_fill(g->out, type, "__ust_p", src, depth + 1))
		g->oom = true;
	line(g, depth + 1, "__ust_p += %zu;", size);
	line(g, depth, "}");
}

static void gen_string(struct gen *g, const char *src, unsigned int depth)
{
	if (g->pack)
		line(g, depth, "__ust_p = __ust_put_str(__ust_p, __ust_end, %s);", src);
	else
		line(g, depth, "__ust_room = __ust_grow(__ust_room, 1, __builtin_strlen(%s ? %s : \"(null)\") + 1);",
		     src, src);
}

/* `length` elements of `elem` from the expression `base` (indexable). */
static void gen_elements(struct gen *g, const struct tp_type *elem,
			 const char *base, const char *length,
			 unsigned int depth)
{
	char *src;

	if (tp_type_is_fixed(elem) && !g->pack) {
		line(g, depth, "__ust_room = __ust_grow(__ust_room, %s, %zu);",
		     length, tp_type_fixed_size(elem));
		return;
	}
	if (tp_type_is_flat(elem)) {
		line(g, depth, "__ust_p = __ust_put_raw(__ust_p, __ust_end, %s, %s, %zu);",
		     base, length, tp_type_fixed_size(elem));
		return;
	}
	line(g, depth, "for (size_t __ust_i%u = 0; __ust_i%u < %s; __ust_i%u++) {",
	     depth, depth, length, depth);
	src = tp_fmt(&g->oom, "%s[__ust_i%u]", base, depth);
	if (src)
		gen_value(g, elem, src, depth + 1);
	free(src);
	line(g, depth, "}");
}

/* A sequence: its clamped length, stored as a K-byte integer, then it. */
static void gen_sequence(struct gen *g, const struct tp_type *type,
			 const char *ptr, const char *len, unsigned int depth)
{
	unsigned int k = type->u.sequence.lengthsize;
	char *n = tp_fmt(&g->oom, "__ust_n%u", depth);

	if (!n)
		return;
	line(g, depth, "{");
	line(g, depth + 1, "size_t %s = __ust_seq_len(%s, %s, %lluu);", n, ptr,
	     len, tp_sequence_max(type));
	if (!g->pack) {
		line(g, depth + 1, "__ust_room = __ust_grow(__ust_room, 1, %u);", k);
	} else {
		line(g, depth + 1, "__ust_p = __ust_room_for(__ust_p, __ust_end, %u);", k);
		line(g, depth + 1, "if (__ust_p) {");
		line(g, depth + 2, "__ust_put_u%u(__ust_p, __ust_cast(uint%u_t, %s));",
		     k * 8, k * 8, n);
		line(g, depth + 2, "__ust_p += %u;", k);
		line(g, depth + 1, "}");
	}
	gen_elements(g, tp_type_resolve(type->u.sequence.elem), ptr, n, depth + 1);
	line(g, depth, "}");
	free(n);
}

/*
 * A variant: the option whose label is the value of `tag`, read from the
 * union `un`.  A value that is no label selects nothing: the pack pass
 * gives up on the record.
 */
static void gen_variant(struct gen *g, const struct tp_type *type,
			const struct tp_enum *en, const char *tag,
			const char *un, unsigned int depth)
{
	const struct tp_option *opt;
	char *constant, *src;
	size_t i;

	for (i = 0; i < type->u.variant.nr_options && !g->oom; i++) {
		opt = &type->u.variant.options[i];
		constant = tp_label_constant(en, opt->label);
		src = tp_fmt(&g->oom, "%s.%s", un, opt->label);
		if (!constant || !src) {
			g->oom = true;
		} else {
			line(g, depth, "%sif (%s == %s) {", i ? "} else " : "",
			     tag, constant);
			gen_value(g, opt->type, src, depth + 1);
		}
		free(constant);
		free(src);
	}
	if (g->pack) {
		line(g, depth, "} else {");
		line(g, depth + 1, "__ust_p = NULL;");
	}
	line(g, depth, "}");
}

/* The enum of the tag of field `index` of `fields`, a variant. */
static const struct tp_enum *tag_enum(const struct tp_field_list *fields,
				      const size_t *tags, size_t index)
{
	return tp_type_resolve(fields->v[tags[index]].type)->u.enumeration.def;
}

static void gen_value(struct gen *g, const struct tp_type *type,
		      const char *src, unsigned int depth)
{
	type = tp_type_resolve(type);
	if (tp_type_is_fixed(type)) {
		gen_fixed(g, type, src, depth);
		return;
	}
	switch (type->kind) {
	case TP_TYPE_STRING:
		gen_string(g, src, depth);
		break;
	case TP_TYPE_ARRAY: {
		char *length = tp_fmt(&g->oom, "%u", type->u.array.length);

		if (length)
			gen_elements(g, tp_type_resolve(type->u.array.elem), src,
				     length, depth);
		free(length);
		break;
	}
	case TP_TYPE_STRUCT: {
		char *prefix = tp_fmt(&g->oom, "%s.", src);

		if (prefix)
			gen_fields(g, &type->u.structure.fields, prefix, depth);
		free(prefix);
		break;
	}
	default:
		/* Sequences and variants are fields: gen_fields(). */
		break;
	}
}

/* The members of a struct, `prefix` being "s." or "p->". */
static void gen_fields(struct gen *g, const struct tp_field_list *fields,
		       const char *prefix, unsigned int depth)
{
	size_t *tags = tp_field_tags(fields);
	const struct tp_type *type;
	char *a, *b;
	size_t i;

	g->oom = g->oom || !tags;
	for (i = 0; i < fields->nr && !g->oom; i++) {
		type = tp_type_resolve(fields->v[i].type);
		a = tp_fmt(&g->oom, "%s%s", prefix, fields->v[i].name);
		b = type->kind == TP_TYPE_SEQUENCE ?
		    tp_fmt(&g->oom, "%s%s_len", prefix, fields->v[i].name) :
		    type->kind == TP_TYPE_VARIANT ?
		    tp_fmt(&g->oom, "%s%s", prefix, type->u.variant.tag) : NULL;
		if (a && type->kind == TP_TYPE_SEQUENCE && b)
			gen_sequence(g, type, a, b, depth);
		else if (a && type->kind == TP_TYPE_VARIANT && b)
			gen_variant(g, type, tag_enum(fields, tags, i), b, a, depth);
		else if (a && !b)
			gen_value(g, type, a, depth);
		free(a);
		free(b);
	}
	free(tags);
}

/*
 * A packed field of the event.  Arrays, structs and variants come by
 * pointer, as __ust_s_<name> once NULL was replaced by a zero object.
 */
static void gen_event_field(struct gen *g, const struct tp_event *event,
			    size_t index)
{
	const struct tp_field *field = &event->fields.v[index];
	const struct tp_type *type = tp_type_resolve(field->type);
	char *src, *len;

	switch (type->kind) {
	case TP_TYPE_SEQUENCE:
		len = tp_fmt(&g->oom, "%s_len", field->name);
		if (len)
			gen_sequence(g, type, field->name, len, 1);
		free(len);
		break;
	case TP_TYPE_VARIANT:
		src = tp_fmt(&g->oom, "(*__ust_s_%s)", field->name);
		if (src)
			gen_variant(g, type, tag_enum(&event->fields, g->tags, index),
				    type->u.variant.tag, src, 1);
		free(src);
		break;
	case TP_TYPE_STRUCT:
		src = tp_fmt(&g->oom, "__ust_s_%s->", field->name);
		if (src)
			gen_fields(g, &type->u.structure.fields, src, 1);
		free(src);
		break;
	default:
		src = tp_fmt(&g->oom, "__ust_s_%s", field->name);
		if (src)
			gen_value(g, type, src, 1);
		free(src);
		break;
	}
}

/* static T __ust_zero_x; const T *__ust_s_x = x ? x : &__ust_zero_x; */
static int emit_zero_object(FILE *out, const struct tp_field *field)
{
	const struct tp_type *type = tp_type_resolve(field->type);
	char *zero, *pointer, *name;
	int ret = -1;

	if (type->kind == TP_TYPE_SEQUENCE)
		return 0;
	if (asprintf(&name, "__ust_zero_%s", field->name) < 0)
		return -1;
	zero = tp_c_member(type, name);
	free(name);
	if (asprintf(&name, "__ust_s_%s", field->name) < 0)
		name = NULL;
	pointer = name ? tp_c_param(type, name) : NULL;
	if (zero && pointer) {
		fprintf(out, "\tstatic %s;\n\t%s = %s ? %s : %s__ust_zero_%s;\n",
			zero, pointer, field->name, field->name,
			type->kind == TP_TYPE_ARRAY ? "" : "&", field->name);
		ret = 0;
	}
	free(zero);
	free(pointer);
	free(name);
	return ret;
}

/* One pass over every packed field, in payload order. */
static void gen_pass(struct gen *g, const struct tp_event *event,
		     const struct tp_plan *plan, const char *drop)
{
	const char *name;
	size_t i;

	for (i = 0; i < plan->nr_parts; i++) {
		if (plan->parts[i].kind != TP_PART_PACKED)
			continue;
		name = event->fields.v[plan->parts[i].first].name;
		if (g->pack)
			fprintf(g->out, "\tunsigned char *__ust_at_%s = __ust_p;\n",
				name);
		gen_event_field(g, event, plan->parts[i].first);
		if (g->pack)
			fprintf(g->out, "\tif (!__ust_p) {\n\t\t%s\n\t\treturn;\n\t}\n"
				"\tsize_t __ust_size_%s = __ust_cast(size_t, __ust_p - __ust_at_%s);\n",
				drop, name, name);
	}
}

int tp_emit_packed(FILE *out, const struct tp_event *event,
		   const struct tp_plan *plan, const char *drop)
{
	size_t *tags = tp_field_tags(&event->fields);
	struct gen g = { .out = out, .tags = tags };
	size_t i;

	for (i = 0; i < plan->nr_parts; i++)
		if (!tags || (plan->parts[i].kind == TP_PART_PACKED &&
			      emit_zero_object(out, &event->fields.v[plan->parts[i].first]))) {
			free(tags);
			return -1;
		}
	fputs("\tsize_t __ust_room = 0;\n", out);
	gen_pass(&g, event, plan, drop);
	fprintf(out, "\tif (__ust_room > %uu) {\n\t\t%s\n\t\treturn;\n\t}\n",
		TP_PACK_MAX, drop);
	fputs("\tunsigned char *__ust_buf = __ust_cast(unsigned char *,\n"
	      "\t\t\t\t\t     __builtin_alloca(__ust_room));\n"
	      "\tconst unsigned char *__ust_end = __ust_buf + __ust_room;\n"
	      "\tunsigned char *__ust_p = __ust_buf;\n", out);
	g.pack = true;
	gen_pass(&g, event, plan, drop);
	free(tags);
	return g.oom ? -1 : 0;
}

unsigned long long tp_sequence_max(const struct tp_type *sequence)
{
	unsigned int k = sequence->u.sequence.lengthsize;
	unsigned long long max = k == 8 ? ~0ull : (1ull << (8 * k)) - 1;
	unsigned long long cap = 1ull << 32;
	size_t size = tp_type_fixed_size(sequence->u.sequence.elem);

	if (size)
		cap /= size;
	return max < cap ? max : cap;
}

char *tp_label_constant(const struct tp_enum *en, const char *label)
{
	char *s, *p;

	if (asprintf(&s, "%s_%s", en->c_type + strlen("enum "), label) < 0)
		return NULL;
	for (p = s; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return s;
}

/*
 * Sizes saturate at SIZE_MAX; stores check their room and propagate
 * NULL; a NULL string is "(null)"; a NULL sequence is empty.
 */
void tp_emit_pack_helpers(FILE *out, const struct tp_features *feat)
{
	if (feat->sequences)
		fputs("\nstatic inline size_t __ust_seq_len(const void *ptr, size_t len, size_t max)\n"
		      "{\n"
		      "\treturn !ptr ? 0 : len < max ? len : max;\n"
		      "}\n", out);
	if (!feat->packed)
		return;
	fputs("\nstatic inline size_t __ust_grow(size_t room, size_t count, size_t size)\n"
	      "{\n"
	      "\tif (size && count > (~__ust_cast(size_t, 0) - room) / size)\n"
	      "\t\treturn ~__ust_cast(size_t, 0);\n"
	      "\treturn room + count * size;\n"
	      "}\n"
	      "\nstatic inline unsigned char *__ust_room_for(unsigned char *p,\n"
	      "\t\t\t\t\t     const unsigned char *end, size_t size)\n"
	      "{\n"
	      "\treturn p && __ust_cast(size_t, end - p) >= size ? p : NULL;\n"
	      "}\n"
	      "\nstatic inline unsigned char *__ust_put_raw(unsigned char *p,\n"
	      "\t\t\t\t\t    const unsigned char *end,\n"
	      "\t\t\t\t\t    const void *src, size_t count,\n"
	      "\t\t\t\t\t    size_t size)\n"
	      "{\n"
	      "\tif (!p || count > __ust_cast(size_t, end - p) / size)\n"
	      "\t\treturn NULL;\n"
	      "\tif (count)\n"
	      "\t\t__builtin_memcpy(p, src, count * size);\n"
	      "\treturn p + count * size;\n"
	      "}\n"
	      "\nstatic inline unsigned char *__ust_put_str(unsigned char *p,\n"
	      "\t\t\t\t\t    const unsigned char *end,\n"
	      "\t\t\t\t\t    const char *s)\n"
	      "{\n"
	      "\tsize_t len;\n"
	      "\n"
	      "\tif (!s)\n"
	      "\t\ts = \"(null)\";\n"
	      "\tlen = __builtin_strlen(s);\n"
	      "\tp = __ust_room_for(p, end, len + 1);\n"
	      "\tif (p) {\n"
	      "\t\t__builtin_memcpy(p, s, len);\n"
	      "\t\tp[len] = 0;\n"
	      "\t\tp += len + 1;\n"
	      "\t}\n"
	      "\treturn p;\n"
	      "}\n", out);
}
