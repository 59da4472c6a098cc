/*
 * nameset.c - open-addressing hash sets of names (nameset.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Linear probing in a power-of-two table kept at most half full, so a
 * lookup inspects a few slots on average.  The hash is FNV-1a over the
 * bytes, lowered first for a case-folding set, so that equal names
 * always hash alike.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nameset.h"

#define MIN_SLOTS 16

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static size_t hash_name(const char *name, bool fold_case)
{
	const unsigned char *p = (const unsigned char *)name;
	uint64_t h = 14695981039346656037ULL;

	for (; *p; p++) {
		h ^= fold_case ? lower(*p) : *p;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

static bool same_name(const struct tp_nameset *set, const char *a,
		      const char *b)
{
	return set->fold_case ? strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

/* The slot holding `name`, or the free slot where it would go. */
static struct tp_nameset_slot *probe(const struct tp_nameset *set,
				     const char *name)
{
	size_t i = hash_name(name, set->fold_case) & set->mask;

	while (set->slots[i].name && !same_name(set, set->slots[i].name, name))
		i = (i + 1) & set->mask;
	return &set->slots[i];
}

void tp_nameset_init(struct tp_nameset *set, bool fold_case)
{
	*set = (struct tp_nameset){ .fold_case = fold_case };
}

/* Double the table (or make the first one), moving every name over. */
static int grow(struct tp_nameset *set)
{
	size_t old_slots = set->slots ? set->mask + 1 : 0;
	size_t nr_slots = old_slots ? 2 * old_slots : MIN_SLOTS;
	struct tp_nameset_slot *old = set->slots, *slot;
	size_t i;

	set->slots = calloc(nr_slots, sizeof(*set->slots));
	if (!set->slots) {
		set->slots = old;
		return -1;
	}
	set->mask = nr_slots - 1;
	for (i = 0; i < old_slots; i++) {
		if (!old[i].name)
			continue;
		slot = probe(set, old[i].name);
		*slot = old[i];
	}
	free(old);
	return 0;
}

int tp_nameset_add(struct tp_nameset *set, const char *name, size_t index,
		   size_t *first)
{
	struct tp_nameset_slot *slot;

	/* At most half full after this add: probes stay short. */
	if ((!set->slots || 2 * (set->nr + 1) > set->mask + 1) && grow(set))
		return -1;
	slot = probe(set, name);
	if (slot->name) {
		*first = slot->index;
		return 1;
	}
	*slot = (struct tp_nameset_slot){ name, index };
	set->nr++;
	return 0;
}

bool tp_nameset_find(const struct tp_nameset *set, const char *name,
		     size_t *index)
{
	const struct tp_nameset_slot *slot;

	if (!set->slots)
		return false;
	slot = probe(set, name);
	if (!slot->name)
		return false;
	*index = slot->index;
	return true;
}

void tp_nameset_clear(struct tp_nameset *set)
{
	free(set->slots);
	tp_nameset_init(set, set->fold_case);
}
