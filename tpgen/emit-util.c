/*
 * emit-util.c - helpers shared by the header and source emitters.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "payload.h"

#define COMMENT_WIDTH 72	/* columns of text after " * " */

/*
 * Write one character of comment text.  A space goes between '*' and '/'
 * (comment end), '/' and '*' (-Wcomment) and two '?' (a trigraph under
 * -std=c99), judged on the previous character of the same line.
 */
static void comment_putc(FILE *out, char prev, char c)
{
	if ((prev == '*' && c == '/') || (prev == '/' && c == '*') ||
	    (prev == '?' && c == '?'))
		fputc(' ', out);
	fputc(c, out);
}

/* Length of the word at `s`, which ends at a space or the end. */
static size_t word_len(const char *s)
{
	const char *space = strchr(s, ' ');

	return space ? (size_t)(space - s) : strlen(s);
}

/*
 * One paragraph, wrapped.  A word longer than a line gets a line of its
 * own.  Words never contain spaces, so each starts after one.
 */
static void comment_paragraph(FILE *out, const char *text)
{
	size_t column = 0, len, i;
	char prev;

	while (*text) {
		while (*text == ' ')
			text++;
		if (!*text)
			break;
		len = word_len(text);
		if (column && column + 1 + len > COMMENT_WIDTH) {
			fputc('\n', out);
			column = 0;
		}
		if (column == 0)
			fputs(" * ", out);
		else
			fputc(' ', out);
		column += (column ? 1 : 0) + len;
		for (prev = ' ', i = 0; i < len; prev = text[i], i++)
			comment_putc(out, prev, text[i]);
		text += len;
	}
	fputc('\n', out);
}

void tp_emit_comment(FILE *out, const char *const *paragraphs, size_t nr)
{
	bool first = true;
	size_t i;

	fputs("/*\n", out);
	for (i = 0; i < nr; i++) {
		if (!paragraphs[i])
			continue;
		if (!first)
			fputs(" *\n", out);
		first = false;
		comment_paragraph(out, paragraphs[i]);
	}
	fputs(" */\n", out);
}

/*
 * Printable ASCII goes as is, except '"' and '\\', and '?' which is
 * escaped so that no trigraph can form.  Every other byte (controls,
 * UTF-8 sequences) is a three-digit octal escape, which cannot run into a
 * following digit the way a hexadecimal one does.
 */
static void emit_c_string_n(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\' || p[i] == '?')
			fprintf(out, "\\%c", p[i]);
		else if (p[i] >= 0x20 && p[i] < 0x7f)
			fputc(p[i], out);
		else
			fprintf(out, "\\%03o", p[i]);
	}
	fputc('"', out);
}

void tp_emit_c_string(FILE *out, const char *s)
{
	emit_c_string_n(out, s, strlen(s));
}

#define LITERAL_PIECE 64	/* bytes of a wrapped literal, about */

void tp_emit_c_string_wrapped(FILE *out, const char *s, const char *indent)
{
	size_t len;

	do {
		/* Cut after the first space at or past LITERAL_PIECE bytes. */
		for (len = 0; s[len]; len++)
			if (len + 1 >= LITERAL_PIECE && s[len] == ' ')
				break;
		if (s[len])
			len++;
		emit_c_string_n(out, s, len);
		s += len;
		if (*s)
			fprintf(out, "\n%s", indent);
	} while (*s);
}

void tp_emit_indent(FILE *out, unsigned int depth)
{
	while (depth--)
		fputc('\t', out);
}

char *tp_fmt(bool *oom, const char *format, ...)
{
	va_list ap;
	char *s;
	int ret;

	va_start(ap, format);
	ret = vasprintf(&s, format, ap);
	va_end(ap);
	if (ret >= 0)
		return s;
	*oom = true;
	return NULL;
}

void tp_strlist_addf(struct tp_strlist *list, const char *fmt, ...)
{
	char **slot, *item;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&item, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		list->oom = true;
		return;
	}
	slot = TP_ARRAY_ADD(list->v, list->nr);
	if (!slot) {
		free(item);
		list->oom = true;
		return;
	}
	*slot = item;
}

void tp_strlist_clear(struct tp_strlist *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->v[i]);
	free(list->v);
	*list = (struct tp_strlist){ 0 };
}

#define LINE_WIDTH 80

int tp_emit_list(FILE *out, const struct tp_strlist *list, const char *sep,
		 size_t column, size_t indent)
{
	size_t sep_len = strlen(sep), len, i;

	if (list->oom)
		return -1;
	for (i = 0; i < list->nr; i++) {
		len = strlen(list->v[i]);
		if (i && column + sep_len + len > LINE_WIDTH) {
			fprintf(out, "%.*s\n", (int)(sep_len - 1), sep);
			for (column = 0; column + 8 <= indent; column += 8)
				fputc('\t', out);
			for (; column < indent; column++)
				fputc(' ', out);
		} else if (i) {
			fputs(sep, out);
			column += sep_len;
		}
		fputs(list->v[i], out);
		column += len;
	}
	return 0;
}

/*
 * The declarator of `declarator` of type `type`, element type first:
 * "uint16_t m[2][3]", "const void *p"; with `konst`, elements read-only:
 * "const uint16_t (*m)[3]", "const void *const *p".  NULL when out of
 * memory.  Takes over `declarator`.
 */
static char *c_decl(const struct tp_type *type, char *declarator, bool konst)
{
	const char *ctype;
	bool pointer;
	char *s;
	int ret;

	if (!declarator)
		return NULL;
	type = tp_type_resolve(type);
	if (type->kind == TP_TYPE_ARRAY) {
		ret = asprintf(&s, declarator[0] == '*' ? "(%s)[%u]" : "%s[%u]",
			       declarator, type->u.array.length);
		free(declarator);
		return ret < 0 ? NULL : c_decl(type->u.array.elem, s, konst);
	}
	ctype = tp_type_c_name(type);
	pointer = ctype[strlen(ctype) - 1] == '*';
	ret = asprintf(&s, "%s%s%s%s", konst && !pointer ? "const " : "", ctype,
		       pointer ? (konst ? "const " : "") : " ", declarator);
	free(declarator);
	return ret < 0 ? NULL : s;
}

/* "const T *name": a pointer to read-only elements of `elem`. */
static char *c_pointer(const struct tp_type *elem, const char *name)
{
	char *pointer;

	if (asprintf(&pointer, "*%s", name) < 0)
		return NULL;
	return c_decl(elem, pointer, true);
}

char *tp_c_member(const struct tp_type *type, const char *name)
{
	const struct tp_type *t = tp_type_resolve(type);

	if (t->kind == TP_TYPE_SEQUENCE)
		return c_pointer(t->u.sequence.elem, name);
	return c_decl(type, strdup(name), false);
}

char *tp_c_param(const struct tp_type *type, const char *name)
{
	const struct tp_type *t = tp_type_resolve(type);

	switch (t->kind) {
	case TP_TYPE_ARRAY:
		return c_pointer(t->u.array.elem, name);
	case TP_TYPE_SEQUENCE:
		return c_pointer(t->u.sequence.elem, name);
	case TP_TYPE_STRUCT:
	case TP_TYPE_VARIANT:
		return c_pointer(t, name);
	default:
		return c_decl(type, strdup(name), false);
	}
}

/* A sequence `name` is two parameters or members: `name_len`, `name`. */
static bool has_length(const struct tp_field *field)
{
	return tp_type_resolve(field->type)->kind == TP_TYPE_SEQUENCE;
}

void tp_event_params(const struct tp_event *event, struct tp_strlist *list)
{
	const struct tp_field *f = event->fields.v;
	char *param;
	size_t i;

	if (event->fields.nr == 0)
		tp_strlist_addf(list, "void");
	for (i = 0; i < event->fields.nr; i++) {
		if (has_length(&f[i]))
			tp_strlist_addf(list, "size_t %s_len", f[i].name);
		param = tp_c_param(f[i].type, f[i].name);
		if (!param)
			list->oom = true;
		else
			tp_strlist_addf(list, "%s", param);
		free(param);
	}
}

char *tp_c_members(const struct tp_field *field)
{
	char *member = tp_c_member(field->type, field->name), *both;

	if (!member || !has_length(field))
		return member;
	if (asprintf(&both, "size_t %s_len;\n\t%s", field->name, member) < 0)
		both = NULL;
	free(member);
	return both;
}

/*
 * What the facility's types need from the generated code, recursively.
 * `probe`: the type is an event field's, so the probes use its helpers
 * (not so for unused typedefs, whose helpers clang would call unused).
 */
static void scan_type(const struct tp_type *type, struct tp_features *feat,
		      bool nested, bool probe)
{
	unsigned int size;
	size_t i;

	type = tp_type_resolve(type);
	switch (type->kind) {
	case TP_TYPE_INT:
		size = type->u.integer.size;
		feat->host = feat->host || type->u.integer.ctype != TP_CTYPE_FIXED;
		if (probe && tp_type_is_swapped(type) &&
		    type->u.integer.byte_order == TP_ORDER_BE)
			feat->put_be |= size;
		else if (probe && tp_type_is_swapped(type))
			feat->put_le |= size;
		break;
	case TP_TYPE_ENUM:
		feat->enums = feat->enums || probe;
		if (probe && nested)
			feat->put_u |= type->u.enumeration.def->size;
		break;
	case TP_TYPE_ARRAY:
		scan_type(type->u.array.elem, feat, true, probe);
		break;
	case TP_TYPE_SEQUENCE:
		/* A flat one of an event is recorded without a store. */
		if (probe && (nested || !tp_type_is_flat(type->u.sequence.elem)))
			feat->put_u |= type->u.sequence.lengthsize;
		feat->sequences = feat->sequences || probe;
		scan_type(type->u.sequence.elem, feat, true, probe);
		break;
	case TP_TYPE_STRUCT:
		for (i = 0; i < type->u.structure.fields.nr; i++)
			scan_type(type->u.structure.fields.v[i].type, feat, true,
				  probe);
		break;
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options; i++)
			scan_type(type->u.variant.options[i].type, feat, true,
				  probe);
		break;
	default:
		break;
	}
}

/* An event's field: its types, and how the probe records it. */
static void scan_field(const struct tp_type *type, struct tp_features *feat)
{
	const struct tp_type *t = tp_type_resolve(type);
	bool flat_seq = t->kind == TP_TYPE_SEQUENCE &&
			tp_type_is_flat(t->u.sequence.elem);

	scan_type(type, feat, false, true);
	feat->packed = feat->packed ||
		       (!tp_type_is_fixed(t) && t->kind != TP_TYPE_STRING &&
			!flat_seq);
}

void tp_facility_features(const struct tp_facility *fac,
			  struct tp_features *feat)
{
	size_t i, j;

	*feat = (struct tp_features){ 0 };
	for (i = 0; i < fac->nr_typedefs; i++)
		scan_type(fac->typedefs[i].type, feat, false, false);
	for (i = 0; i < fac->nr_events; i++)
		for (j = 0; j < fac->events[i].fields.nr; j++)
			scan_field(fac->events[i].fields.v[j].type, feat);
}

bool tp_type_is_swapped(const struct tp_type *type)
{
	return type->kind == TP_TYPE_INT && type->u.integer.size > 1 &&
	       type->u.integer.byte_order != TP_ORDER_HOST;
}

void tp_event_args(const struct tp_event *event, struct tp_strlist *list)
{
	size_t i;

	for (i = 0; i < event->fields.nr; i++) {
		if (has_length(&event->fields.v[i]))
			tp_strlist_addf(list, "%s_len", event->fields.v[i].name);
		tp_strlist_addf(list, "%s", event->fields.v[i].name);
	}
}

int tp_emit_banner(FILE *out, const struct tp_facility *fac, const char *ext,
		   const char *what, const char *description,
		   const char *input_name)
{
	const char *paragraphs[3];
	char *title, *origin;

	if (asprintf(&title, "%s_tp.%s - %s of the '%s' facility.", fac->name,
		     ext, what, fac->name) < 0)
		return -1;
	if (asprintf(&origin, "Generated by tpgen from %s; do not edit.",
		     input_name) < 0) {
		free(title);
		return -1;
	}
	paragraphs[0] = title;
	paragraphs[1] = description;
	paragraphs[2] = origin;
	tp_emit_comment(out, paragraphs, 3);
	free(origin);
	free(title);
	return 0;
}
