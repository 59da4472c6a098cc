/*
 * model.c - building, querying and freeing the facility tree.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>

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
	free(type);
}

/*
 * Grow an array of `size`-byte elements holding `*nr` of them by one
 * element.  Facilities have tens of events and fields, so reallocating
 * every time costs nothing worth a capacity field.
 */
static void *array_add(void *array, size_t *nr, size_t size)
{
	void *v = realloc(array, (*nr + 1) * size);

	if (v)
		(*nr)++;
	return v;
}

struct tp_field *tp_field_list_add(struct tp_field_list *list)
{
	struct tp_field *v = array_add(list->v, &list->nr, sizeof(*v));
	struct tp_field *field;

	if (!v)
		return NULL;
	list->v = v;
	field = &v[list->nr - 1];
	*field = (struct tp_field){ 0 };
	return field;
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
	struct tp_event *v = array_add(fac->events, &fac->nr_events, sizeof(*v));
	struct tp_event *event;

	if (!v)
		return NULL;
	fac->events = v;
	event = &v[fac->nr_events - 1];
	*event = (struct tp_event){ .loglevel = -1 };
	return event;
}

struct tp_facility *tp_facility_new(void)
{
	return calloc(1, sizeof(struct tp_facility));
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
	free(fac->events);
	free(fac->name);
	free(fac->description);
	free(fac);
}

const char *tp_type_c_name(const struct tp_type *type)
{
	static const char *const sint[] = {
		[1] = "int8_t", [2] = "int16_t", [4] = "int32_t", [8] = "int64_t",
	};
	static const char *const uint[] = {
		[1] = "uint8_t", [2] = "uint16_t", [4] = "uint32_t", [8] = "uint64_t",
	};

	switch (type->kind) {
	case TP_TYPE_INT:
		if (type->u.integer.is_signed)
			return sint[type->u.integer.size];
		return uint[type->u.integer.size];
	case TP_TYPE_STRING:
		return "const char *";
	}
	return "void";	/* unreachable: every kind is handled above */
}

bool tp_type_is_fixed(const struct tp_type *type)
{
	return tp_type_fixed_size(type) != 0;
}

size_t tp_type_fixed_size(const struct tp_type *type)
{
	switch (type->kind) {
	case TP_TYPE_INT:
		return type->u.integer.size;
	case TP_TYPE_STRING:
		return 0;
	}
	return 0;
}
