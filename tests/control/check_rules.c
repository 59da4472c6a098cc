/*
 * check_rules.c - unit tests of the selection rules shared by libust and
 * `ust ctl` (common/pattern.c, common/shm-ctl.c): UST_TRACE patterns,
 * `ust ctl` rules applied in order, and the checks on a control area
 * that another process wrote.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check_run.h"
#include "common/pattern.h"
#include "common/shm-ctl.h"
#include "shm/map.h"

START_TEST(trace_patterns)
{
	const char *both[] = { "app:*", "-app:b" };
	const char *excl[] = { NULL, "-app:b" };

	ck_assert(ust__patterns_match(both, 2, "app:a"));
	ck_assert(!ust__patterns_match(both, 2, "app:b"));
	ck_assert(!ust__patterns_match(both, 2, "other:a"));
	/* Only excluding patterns (NULL skipped): the rest is selected. */
	ck_assert(ust__patterns_match(excl, 2, "other:a"));
	ck_assert(!ust__patterns_match(excl, 2, "app:b"));
	ck_assert(ust__patterns_match(NULL, 0, "any:thing"));
	/* '*' crosses the ':'. */
	ck_assert(ust__glob_match("*b", "late:b"));
	ck_assert(!ust__glob_match("app:?", "app:bb"));
}
END_TEST

static struct ust_ctl_area *new_area(void)
{
	struct ust_ctl_area *a = calloc(1, sizeof(*a));

	ck_assert_ptr_nonnull(a);
	return a;
}

static void add(struct ust_ctl_area *a, const char *pattern, int enable)
{
	struct ust_ctl_rule *r = &a->rules[a->nr_rules++];

	strcpy(r->pattern, pattern);
	r->enable = enable;
}

START_TEST(rules_last_match_wins)
{
	struct ust_ctl_area *a = new_area();

	ck_assert(ust__ctl_rules_apply(a, 0, "app:b", true));
	ck_assert(!ust__ctl_rules_apply(a, 0, "app:b", false));
	add(a, "*:b", 0);
	add(a, "late:*", 1);
	ck_assert(!ust__ctl_rules_apply(a, a->nr_rules, "app:b", true));
	ck_assert(ust__ctl_rules_apply(a, a->nr_rules, "late:b", false));
	ck_assert(ust__ctl_rules_apply(a, a->nr_rules, "app:a", true));
	ck_assert(!ust__ctl_rules_apply(a, a->nr_rules, "app:a", false));
	/* Only the first `nr_rules` count. */
	ck_assert(!ust__ctl_rules_apply(a, 1, "late:b", true));
	free(a);
}
END_TEST

START_TEST(rules_from_garbage)
{
	struct ust_ctl_area *a = new_area();
	char name[UST_CTL_PATTERN_MAX + 1];

	/* A pattern with no NUL reads as its first 123 bytes. */
	memset(a->rules[0].pattern, 'x', sizeof(a->rules[0].pattern));
	a->rules[0].enable = 7;
	memset(name, 'x', sizeof(name));
	name[UST_CTL_PATTERN_MAX - 1] = '\0';
	ck_assert(ust__ctl_rules_apply(a, 1, name, false));
	name[UST_CTL_PATTERN_MAX - 1] = 'x';
	name[UST_CTL_PATTERN_MAX] = '\0';
	ck_assert(!ust__ctl_rules_apply(a, 1, name, false));
	/* Counts are clamped to the area's capacity. */
	a->nr_rules = 0xffffffffu;
	a->nr_events = 0xffffffffu;
	ck_assert_uint_eq(ust__ctl_nr_rules(a), UST_CTL_MAX_RULES);
	ck_assert_uint_eq(ust__ctl_nr_events(a), UST_CTL_MAX_EVENTS);
	ck_assert(!ust__ctl_rules_apply(a, a->nr_rules, "app:a", false));
	free(a);
}
END_TEST

/* A mapping of `size` bytes whose header places the area at `off`. */
static void fake_map(struct shm_map *m, uint64_t size, uint64_t off,
		     uint64_t ctl_size)
{
	struct ust_shm_header *h;

	memset(m, 0, sizeof(*m));
	m->base = calloc(1, size);
	ck_assert_ptr_nonnull(m->base);
	m->size = size;
	m->pid = 7;
	h = (struct ust_shm_header *)m->base;
	h->ctl_offset = off;
	h->ctl_size = ctl_size;
}

START_TEST(area_checked)
{
	const uint64_t sz = sizeof(struct ust_ctl_area);
	struct shm_map m;
	char err[128], want[128];

	fake_map(&m, UST_SHM_PAGE + sz, UST_SHM_PAGE, sz);
	ck_assert_ptr_eq(shm_ctl_area(&m, err, sizeof(err)), m.base + UST_SHM_PAGE);
	free(m.base);

	fake_map(&m, UST_SHM_PAGE + sz, 0, 0);
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	ck_assert_str_eq(err, "process 7: its libust has no runtime control (too old)");
	free(m.base);

	/* One byte short, past the end, misaligned, too small, wrapping. */
	fake_map(&m, UST_SHM_PAGE + sz - 1, UST_SHM_PAGE, sz);
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	snprintf(want, sizeof(want), "process 7: bad runtime control area "
		 "(offset 4096, size %llu)", (unsigned long long)sz);
	ck_assert_str_eq(err, want);
	((struct ust_shm_header *)m.base)->ctl_offset = 1ull << 40;
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	((struct ust_shm_header *)m.base)->ctl_offset = 8;
	((struct ust_shm_header *)m.base)->ctl_size = sz - 1;
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	((struct ust_shm_header *)m.base)->ctl_offset = 12;
	((struct ust_shm_header *)m.base)->ctl_size = sz;
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	((struct ust_shm_header *)m.base)->ctl_offset = ~0ull - 7;
	ck_assert_ptr_null(shm_ctl_area(&m, err, sizeof(err)));
	free(m.base);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "rules", NULL, NULL, 0, {
			trace_patterns, rules_last_match_wins,
			rules_from_garbage, area_checked, NULL } },
	};

	return CHECK_RUN_CASES("control rules", cases);
}
