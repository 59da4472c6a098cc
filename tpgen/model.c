/*
 * model.c - building, querying and freeing the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct tp_type *tp_type_new(enum tp_type_kind kind, int line)
{
	struct tp_type *type = calloc(1, sizeof(*type));

	if (!type)
		return NULL;
	type->kind = kind;
	type->line = line;
	if (kind == TP_TYPE_INT)
		type->u.integer.base = 10;
	return type;
}

void tp_type_free(struct tp_type *type)
{
	size_t i;

	if (!type)
		return;
	switch (type->kind) {
	case TP_TYPE_INT:
	case TP_TYPE_STRING:
	case TP_TYPE_FLOAT:
		break;
	case TP_TYPE_ENUM:
		free(type->u.enumeration.ref);
		break;
	case TP_TYPE_ARRAY:
		tp_type_free(type->u.array.elem);
		break;
	case TP_TYPE_SEQUENCE:
		tp_type_free(type->u.sequence.elem);
		break;
	case TP_TYPE_STRUCT:
		tp_field_list_clear(&type->u.structure.fields);
		free(type->u.structure.c_type);
		break;
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options; i++) {
			free(type->u.variant.options[i].label);
			tp_type_free(type->u.variant.options[i].type);
		}
		free(type->u.variant.options);
		free(type->u.variant.tag);
		free(type->u.variant.c_type);
		break;
	case TP_TYPE_TYPEREF:
		free(type->u.typeref.name);
		break;
	}
	free(type);
}

void *tp_array_add(void **array, size_t *nr, size_t size)
{
	char *v = *array;

	if ((*nr & (*nr - 1)) == 0) {
		v = realloc(*array, (*nr ? 2 * *nr : 1) * size);
		if (!v)
			return NULL;
		*array = v;
	}
	v += (*nr)++ * size;
	memset(v, 0, size);
	return v;
}

struct tp_field *tp_field_list_add(struct tp_field_list *list)
{
	return TP_ARRAY_ADD(list->v, list->nr);
}

void tp_field_list_clear(struct tp_field_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		free(list->v[i].name);
		tp_type_free(list->v[i].type);
	}
	free(list->v);
	list->v = NULL;
	list->nr = 0;
}

struct tp_event *tp_facility_add_event(struct tp_facility *fac)
{
	struct tp_event *event = TP_ARRAY_ADD(fac->events, fac->nr_events);

	if (event)
		event->loglevel = -1;
	return event;
}

struct tp_enum *tp_facility_add_enum(struct tp_facility *fac)
{
	return TP_ARRAY_ADD(fac->enums, fac->nr_enums);
}

struct tp_label *tp_enum_add_label(struct tp_enum *en)
{
	return TP_ARRAY_ADD(en->labels, en->nr_labels);
}

struct tp_typedef *tp_facility_add_typedef(struct tp_facility *fac)
{
	return TP_ARRAY_ADD(fac->typedefs, fac->nr_typedefs);
}

struct tp_option *tp_variant_add_option(struct tp_type *variant)
{
	return TP_ARRAY_ADD(variant->u.variant.options, variant->u.variant.nr_options);
}

struct tp_facility *tp_facility_new(void)
{
	return calloc(1, sizeof(struct tp_facility));
}

static void enum_free(struct tp_enum *en)
{
	size_t i;

	for (i = 0; i < en->nr_labels; i++)
		free(en->labels[i].name);
	free(en->labels);
	free(en->name);
	free(en->c_type);
}

void tp_facility_free(struct tp_facility *fac)
{
	size_t i;

	if (!fac)
		return;
	for (i = 0; i < fac->nr_events; i++) {
		free(fac->events[i].name);
		free(fac->events[i].description);
		tp_field_list_clear(&fac->events[i].fields);
	}
	for (i = 0; i < fac->nr_enums; i++)
		enum_free(&fac->enums[i]);
	for (i = 0; i < fac->nr_typedefs; i++) {
		free(fac->typedefs[i].name);
		tp_type_free(fac->typedefs[i].type);
	}
	free(fac->events);
	free(fac->enums);
	free(fac->typedefs);
	free(fac->name);
	free(fac->description);
	free(fac);
}

const struct tp_type *tp_type_resolve(const struct tp_type *type)
{
	while (type->kind == TP_TYPE_TYPEREF)
		type = type->u.typeref.def->type;
	return type;
}

const char *tp_fixed_int_c_name(unsigned int size, bool is_signed)
{
	static const char *const sint[] = {
		[1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t",
	};
	static const char *const uint[] = {
		[1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t",
	};

	return is_signed ? sint[size] : uint[size];
}

static const char *integer_c_name(const struct tp_type *type)
{
	bool s = type->u.integer.is_signed;

	switch (type->u.integer.ctype) {
	case TP_CTYPE_FIXED:
		return tp_fixed_int_c_name(type->u.integer.size, s);
	case TP_CTYPE_INT:
		return s ? "int" : "unsigned int";
	case TP_CTYPE_LONG:
		return s ? "long" : "unsigned long";
	case TP_CTYPE_SIZE_T:
		return s ? "ssize_t" : "size_t";
	case TP_CTYPE_POINTER:
		return "const void *";
	case TP_CTYPE_CHAR:
		return "char";
	}
	return "void";	/* unreachable */
}

const char *tp_type_c_name(const struct tp_type *type)
{
	type = tp_type_resolve(type);
	switch (type->kind) {
	case TP_TYPE_INT:
		return integer_c_name(type);
	case TP_TYPE_STRING:
		return "const char *";
	case TP_TYPE_FLOAT:
		return type->u.floating.size == 4 ? "float" : "double";
	case TP_TYPE_ENUM:
		return type->u.enumeration.def->c_type;
	case TP_TYPE_STRUCT:
		return type->u.structure.c_type;
	case TP_TYPE_VARIANT:
		return type->u.variant.c_type;
	case TP_TYPE_ARRAY:
	case TP_TYPE_SEQUENCE:
	case TP_TYPE_TYPEREF:
		break;
	}
	return NULL;
}

bool tp_type_is_fixed(const struct tp_type *type)
{
	return tp_type_fixed_size(type) != 0;
}

static size_t add_sat(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t mul_sat(size_t a, size_t b)
{
	return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/* 0 as soon as one member is not fixed. */
static size_t struct_fixed_size(const struct tp_field_list *fields)
{
	size_t size = 0, one, i;

	for (i = 0; i < fields->nr; i++) {
		one = tp_type_fixed_size(fields->v[i].type);
		if (!one)
			return 0;
		size = add_sat(size, one);
	}
	return size;
}

size_t tp_type_fixed_size(const struct tp_type *type)
{
	type = tp_type_resolve(type);
	switch (type->kind) {
	case TP_TYPE_INT:
		return type->u.integer.size;
	case TP_TYPE_FLOAT:
		return type->u.floating.size;
	case TP_TYPE_ENUM:
		return type->u.enumeration.def->size;
	case TP_TYPE_ARRAY:
		return mul_sat(tp_type_fixed_size(type->u.array.elem),
			       type->u.array.length);
	case TP_TYPE_STRUCT:
		return struct_fixed_size(&type->u.structure.fields);
	case TP_TYPE_STRING:
	case TP_TYPE_SEQUENCE:
	case TP_TYPE_VARIANT:
	case TP_TYPE_TYPEREF:
		break;
	}
	return 0;
}

unsigned int tp_host_size(enum tp_int_ctype ctype)
{
	switch (ctype) {
	case TP_CTYPE_INT:
		return sizeof(int);
	case TP_CTYPE_LONG:
		return sizeof(long);
	case TP_CTYPE_SIZE_T:
		return sizeof(size_t);
	case TP_CTYPE_POINTER:
		return sizeof(void *);
	case TP_CTYPE_CHAR:
	case TP_CTYPE_FIXED:
		break;
	}
	return 1;
}

bool tp_host_char_is_signed(void)
{
	return (char)-1 < 0;
}
