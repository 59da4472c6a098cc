/*
 * nameset.h - sets of names, so that checks by name stay linear.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every check that looks a name up among many (duplicate events, fields,
 * labels and C names, references to enums and typedefs, variant options
 * and their labels) goes through a hash set rather than a scan of what
 * came before: a facility of 200 000 events or an enum of 100 000
 * labels is checked in time proportional to its size.
 *
 * The set does not copy the names: they belong to the tree (or to the
 * caller) and must outlive the set.  Each name maps to an index in the
 * caller's array, the first one added under that name.
 */
#ifndef TPGEN_NAMESET_H
#define TPGEN_NAMESET_H

#include <stdbool.h>
#include <stddef.h>

struct tp_nameset_slot {
	const char *name;	/* NULL: free */
	size_t index;
};

struct tp_nameset {
	struct tp_nameset_slot *slots;	/* NULL until the first add */
	size_t mask;			/* capacity - 1; capacity a power of 2 */
	size_t nr;
	bool fold_case;			/* names equal regardless of ASCII case */
};

/* An empty set; `fold_case` compares names as strcasecmp() does. */
void tp_nameset_init(struct tp_nameset *set, bool fold_case);

/*
 * Add `name` under `index`.  Returns 0 when added, 1 when an equal name
 * was there already (its index in *first, the set unchanged), -1 when
 * memory ran out.
 */
int tp_nameset_add(struct tp_nameset *set, const char *name, size_t index,
		   size_t *first);

/* Whether `name` is in the set; its index in *index when it is. */
bool tp_nameset_find(const struct tp_nameset *set, const char *name,
		     size_t *index);

void tp_nameset_clear(struct tp_nameset *set);

#endif /* TPGEN_NAMESET_H */
