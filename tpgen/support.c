/*
 * support.c - what tpgen validates but cannot generate code for.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Checks that need the resolved tree and concern the generated code
 * rather than the language:
 *
 *   - a sequence is a field (of an event or a struct): its C form is two
 *     members, a length and a pointer, and its CTF form needs a length
 *     field beside it.  So not directly the element of an array or a
 *     sequence, nor a variant's option: wrap it in a <struct>;
 *   - a sequence `x` gives the C parameter (or member) `x_len`, which no
 *     other field of the same list may be named;
 *   - the layout walker (common/layout-walk.h) follows at most 16
 *     tag fields and 16 nested brackets per event;
 *   - every fixed-size field is staged on the probe's stack, which bounds
 *     an event's fixed-size fields.
 */
#include <stdlib.h>
#include <string.h>

#include "nameset.h"
#include "payload.h"
#include "validate.h"

/* Bytes of fixed-size fields one event may have: they are on the stack. */
#define TP_MAX_FIXED_PAYLOAD 65536u

/* What common/layout-walk.h accepts (UST__LAYOUT_MAX_TAGS, _DEPTH). */
#define TP_MAX_LAYOUT_TAGS 16u
#define TP_MAX_LAYOUT_DEPTH 16u

/*
 * `parent` is the element that holds `type` directly ("array",
 * "sequence", "option"), NULL for a field of an event or struct, or a
 * typedef's body.  A typeref stands for its typedef, whose body is
 * checked on its own: only what it resolves to matters here.
 */
static void check_type(struct tp_diag *diag, const struct tp_type *type,
		       const char *parent)
{
	const struct tp_type *resolved = tp_type_resolve(type);
	size_t i;

	if (parent && resolved->kind == TP_TYPE_SEQUENCE) {
		tp_error(diag, type->line,
			 "<sequence> directly inside <%s>: put it in a <struct>",
			 parent);
		return;
	}
	switch (type->kind) {
	case TP_TYPE_SEQUENCE:
		check_type(diag, type->u.sequence.elem, "sequence");
		break;
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options; i++)
			check_type(diag, type->u.variant.options[i].type,
				   "option");
		break;
	case TP_TYPE_ARRAY:
		check_type(diag, type->u.array.elem, "array");
		break;
	case TP_TYPE_STRUCT:
		for (i = 0; i < type->u.structure.fields.nr; i++)
			check_type(diag, type->u.structure.fields.v[i].type,
				   NULL);
		break;
	case TP_TYPE_TYPEREF:
	case TP_TYPE_STRING:
	case TP_TYPE_INT:
	case TP_TYPE_FLOAT:
	case TP_TYPE_ENUM:
		break;
	}
}

static int check_length_names(struct tp_diag *diag,
			      const struct tp_field_list *fields);

/* The field lists inside `type`, for check_length_names(). */
static int check_nested_lists(struct tp_diag *diag, const struct tp_type *type)
{
	size_t i;
	int ret = 0;

	switch (type->kind) {
	case TP_TYPE_STRUCT:
		return check_length_names(diag, &type->u.structure.fields);
	case TP_TYPE_ARRAY:
		return check_nested_lists(diag, type->u.array.elem);
	case TP_TYPE_SEQUENCE:
		return check_nested_lists(diag, type->u.sequence.elem);
	case TP_TYPE_VARIANT:
		for (i = 0; i < type->u.variant.nr_options && !ret; i++)
			ret = check_nested_lists(diag, type->u.variant.options[i].type);
		return ret;
	default:
		return 0;
	}
}

/*
 * No field of a list is named like the length of a sequence of it.
 * Returns -1 when memory ran out, else 0.
 */
static int check_length_names(struct tp_diag *diag,
			      const struct tp_field_list *fields)
{
	const struct tp_field *f = fields->v;
	struct tp_nameset names;
	char *length = NULL;
	size_t i, j;
	int ret = 0;

	tp_nameset_init(&names, false);
	for (i = 0; i < fields->nr && !ret; i++)
		ret = tp_nameset_add(&names, f[i].name, i, &j) < 0 ? -1 : 0;
	for (i = 0; i < fields->nr && !ret; i++) {
		ret = check_nested_lists(diag, f[i].type);
		if (ret || tp_type_resolve(f[i].type)->kind != TP_TYPE_SEQUENCE)
			continue;
		if (asprintf(&length, "%s_len", f[i].name) < 0) {
			ret = -1;
			break;
		}
		if (tp_nameset_find(&names, length, &j))
			tp_error(diag, f[j].line,
				 "field name '%s' is the length parameter of sequence '%s' (line %d)",
				 f[j].name, f[i].name, f[i].line);
		free(length);
	}
	tp_nameset_clear(&names);
	return ret;
}

static size_t fixed_payload(const struct tp_event *event)
{
	size_t size = 0, one, i;

	for (i = 0; i < event->fields.nr; i++) {
		one = tp_type_fixed_size(event->fields.v[i].type);
		if (one > TP_MAX_FIXED_PAYLOAD - size)
			return TP_MAX_FIXED_PAYLOAD + 1;
		size += one;
	}
	return size;
}

/* Tag fields and bracket depth of the event's layout string. */
static int check_layout(struct tp_diag *diag, const struct tp_event *event)
{
	unsigned int tags = 0, depth = 0, max_depth = 0;
	char *layout = tp_event_layout(event);
	const char *p;

	if (!layout)
		return -1;
	for (p = layout; *p; p++) {
		tags += *p == 'T';
		if (*p == '[' && ++depth > max_depth)
			max_depth = depth;
		depth -= *p == ']';
	}
	free(layout);
	if (tags > TP_MAX_LAYOUT_TAGS)
		tp_error(diag, event->line,
			 "event '%s' has more than %u variant tags",
			 event->name, TP_MAX_LAYOUT_TAGS);
	if (max_depth > TP_MAX_LAYOUT_DEPTH)
		tp_error(diag, event->line,
			 "event '%s' nests arrays, sequences and variants more than %u deep",
			 event->name, TP_MAX_LAYOUT_DEPTH);
	return 0;
}

int tp_check_support(const struct tp_facility *fac, struct tp_diag *diag)
{
	unsigned int errors = diag->nr_errors;
	const struct tp_event *event;
	size_t i, j;

	for (i = 0; i < fac->nr_typedefs; i++) {
		check_type(diag, fac->typedefs[i].type, NULL);
		if (check_nested_lists(diag, fac->typedefs[i].type))
			goto oom;
	}
	for (i = 0; i < fac->nr_events; i++) {
		event = &fac->events[i];
		for (j = 0; j < event->fields.nr; j++)
			check_type(diag, event->fields.v[j].type, NULL);
		if (check_length_names(diag, &event->fields))
			goto oom;
	}
	if (diag->nr_errors != errors)
		return -1;
	for (i = 0; i < fac->nr_events; i++) {
		event = &fac->events[i];
		if (fixed_payload(event) > TP_MAX_FIXED_PAYLOAD)
			tp_error(diag, event->line,
				 "event '%s' is too large: its fixed-size fields take more than %u bytes",
				 event->name, TP_MAX_FIXED_PAYLOAD);
		if (check_layout(diag, event))
			goto oom;
	}
	return diag->nr_errors == errors ? 0 : -1;
oom:
	tp_fatal(diag, "out of memory");
	return -1;
}
