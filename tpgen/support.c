/*
 * support.c - what this version of tpgen validates but cannot generate.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The consumer finds the end of a payload with its layout string, whose
 * grammar ("F<n>", "S") knows fixed-size runs and top-level strings only.
 * Sequences, variants and strings inside compound types need a richer
 * grammar (a later version), so they are refused here, after the whole
 * description was validated.  Every fixed-size field is staged on the
 * probe's stack, which bounds an event's fixed-size fields.
 */
#include "validate.h"

/* Bytes of fixed-size fields one event may have: they are on the stack. */
#define TP_MAX_FIXED_PAYLOAD 65536u

static void report(struct tp_diag *diag, const struct tp_type *type,
		   const char *what, const char *parent)
{
	if (parent)
		tp_error(diag, type->line,
			 "<%s> inside <%s> is not supported by this version of tpgen yet",
			 what, parent);
	else
		tp_error(diag, type->line,
			 "<%s> is not supported by this version of tpgen yet", what);
}

/*
 * `parent` is the element of the compound type that holds `type`
 * ("array", "struct"), NULL for a field of an event or a typedef's body.
 * A typeref stands for its typedef, whose body is checked on its own:
 * only a string behind it matters here.
 */
static void check_type(struct tp_diag *diag, const struct tp_type *type,
		       const char *parent)
{
	size_t i;

	switch (type->kind) {
	case TP_TYPE_SEQUENCE:
		report(diag, type, "sequence", NULL);
		break;
	case TP_TYPE_VARIANT:
		report(diag, type, "variant", NULL);
		break;
	case TP_TYPE_STRING:
		if (parent)
			report(diag, type, "string", parent);
		break;
	case TP_TYPE_TYPEREF:
		if (parent && tp_type_resolve(type)->kind == TP_TYPE_STRING)
			report(diag, type, "string", parent);
		break;
	case TP_TYPE_ARRAY:
		check_type(diag, type->u.array.elem, "array");
		break;
	case TP_TYPE_STRUCT:
		for (i = 0; i < type->u.structure.fields.nr; i++)
			check_type(diag, type->u.structure.fields.v[i].type,
				   "struct");
		break;
	case TP_TYPE_INT:
	case TP_TYPE_FLOAT:
	case TP_TYPE_ENUM:
		break;
	}
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

int tp_check_support(const struct tp_facility *fac, struct tp_diag *diag)
{
	unsigned int errors = diag->nr_errors;
	const struct tp_event *event;
	size_t i, j;

	for (i = 0; i < fac->nr_typedefs; i++)
		check_type(diag, fac->typedefs[i].type, NULL);
	for (i = 0; i < fac->nr_events; i++) {
		event = &fac->events[i];
		for (j = 0; j < event->fields.nr; j++)
			check_type(diag, event->fields.v[j].type, NULL);
	}
	if (diag->nr_errors != errors)
		return -1;
	for (i = 0; i < fac->nr_events; i++) {
		event = &fac->events[i];
		if (fixed_payload(event) > TP_MAX_FIXED_PAYLOAD)
			tp_error(diag, event->line,
				 "event '%s' is too large: its fixed-size fields take more than %u bytes",
				 event->name, TP_MAX_FIXED_PAYLOAD);
	}
	return diag->nr_errors == errors ? 0 : -1;
}
