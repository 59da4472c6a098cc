/*
 * names.c - the C names of a facility's enums, structs and labels.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	<enum name="state">			enum app_state
 *	  <label name="idle">			APP_STATE_IDLE
 *	<typedef name="point"><struct>		struct app_point
 *	  <field name="pos"><struct>		struct app_point_pos
 *	event "move", <field name="to"><struct>	struct app_move_to
 *
 * Names are joined with '_', so different paths can make one name (a
 * typedef "move_to" and the field "to" of event "move"); such clashes are
 * reported here rather than left to the C compiler.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nameset.h"
#include "validate.h"

/* One C name given out, and the line of what it names. */
struct given {
	char *name;
	int line;
};

struct naming {
	struct tp_diag *diag;
	struct given *v;	/* grown by TP_ARRAY_ADD() */
	size_t nr;
	struct tp_nameset names;	/* v[i].name under i */
	bool oom;
};

/* Record `name` (taken over), reporting it when already given. */
static void give(struct naming *n, char *name, int line, const char *what)
{
	struct given *slot;
	size_t first;

	if (name && tp_nameset_find(&n->names, name, &first)) {
		tp_error(n->diag, line, "C %s name '%s' is already used on line %d",
			 what, name, n->v[first].line);
		free(name);
		return;
	}
	slot = name ? TP_ARRAY_ADD(n->v, n->nr) : NULL;
	if (!slot || tp_nameset_add(&n->names, name, n->nr - 1, &first) < 0) {
		if (slot)
			n->nr--;
		free(name);
		n->oom = true;
		return;
	}
	*slot = (struct given){ name, line };
}

static char *join(const char *a, const char *b)
{
	char *s;

	return asprintf(&s, "%s_%s", a, b) < 0 ? NULL : s;
}

static char *upper(char *s)
{
	char *p;

	for (p = s; p && *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return s;
}

static void name_type(struct naming *n, struct tp_type *type, const char *base);

static void name_member(struct naming *n, struct tp_type *type,
			const char *base, const char *member)
{
	char *name = join(base, member);

	if (!name) {
		n->oom = true;
		return;
	}
	name_type(n, type, name);
	free(name);
}

/* Name the structs and unions in `type`, which is reached by the path `base`. */
static void name_type(struct naming *n, struct tp_type *type, const char *base)
{
	struct tp_field_list *fields;
	size_t i;

	switch (type->kind) {
	case TP_TYPE_STRUCT:
		fields = &type->u.structure.fields;
		if (asprintf(&type->u.structure.c_type, "struct %s", base) < 0) {
			type->u.structure.c_type = NULL;
			n->oom = true;
			return;
		}
		give(n, strdup(base), type->line, "type");
		for (i = 0; i < fields->nr; i++)
			name_member(n, fields->v[i].type, base, fields->v[i].name);
		break;
	case TP_TYPE_ARRAY:
		name_type(n, type->u.array.elem, base);
		break;
	case TP_TYPE_SEQUENCE:
		name_type(n, type->u.sequence.elem, base);
		break;
	case TP_TYPE_VARIANT:
		if (asprintf(&type->u.variant.c_type, "union %s", base) < 0) {
			type->u.variant.c_type = NULL;
			n->oom = true;
			return;
		}
		give(n, strdup(base), type->line, "type");
		for (i = 0; i < type->u.variant.nr_options; i++)
			name_member(n, type->u.variant.options[i].type, base,
				    type->u.variant.options[i].label);
		break;
	default:
		break;
	}
}

static void name_enum(struct naming *n, const char *fac, struct tp_enum *en)
{
	char *base = join(fac, en->name);
	size_t i;

	if (!base || asprintf(&en->c_type, "enum %s", base) < 0) {
		en->c_type = NULL;
		free(base);
		n->oom = true;
		return;
	}
	give(n, strdup(base), en->line, "type");
	upper(base);
	for (i = 0; i < en->nr_labels && !n->oom; i++)
		give(n, upper(join(base, en->labels[i].name)),
		     en->labels[i].line, "constant");
	free(base);
}

int tp_name_types(struct tp_facility *fac, struct tp_diag *diag)
{
	struct naming n = { .diag = diag };
	unsigned int errors = diag->nr_errors;
	struct tp_event *event;
	char *base;
	size_t i, j;

	for (i = 0; i < fac->nr_enums && !n.oom; i++)
		name_enum(&n, fac->name, &fac->enums[i]);
	for (i = 0; i < fac->nr_typedefs && !n.oom; i++)
		name_member(&n, fac->typedefs[i].type, fac->name,
			    fac->typedefs[i].name);
	for (i = 0; i < fac->nr_events && !n.oom; i++) {
		event = &fac->events[i];
		base = join(fac->name, event->name);
		for (j = 0; base && j < event->fields.nr; j++)
			name_member(&n, event->fields.v[j].type, base,
				    event->fields.v[j].name);
		n.oom = n.oom || !base;
		free(base);
	}
	tp_nameset_clear(&n.names);
	for (i = 0; i < n.nr; i++)
		free(n.v[i].name);
	free(n.v);
	if (n.oom)
		return -2;
	return diag->nr_errors == errors ? 0 : -1;
}
