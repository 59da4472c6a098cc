/*
 * check_run.h - run one check suite and turn its result into an exit code.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_TESTS_CHECK_RUN_H
#define UST_TESTS_CHECK_RUN_H

#include <check.h>
#include <stddef.h>
#include <stdlib.h>

static inline int check_run(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define CHECK_CASE_MAX_TESTS	32

/*
 * One test case: its name, its fixture (run around each test, in the
 * test's process; NULL for none), its timeout in seconds (0: check's
 * default) and its tests (START_TEST names), up to the first NULL.
 */
struct check_case {
	const char *name;
	SFun setup;
	SFun teardown;
	unsigned int timeout;
	const TTest *tests[CHECK_CASE_MAX_TESTS];
};

/*
 * Run the `nr` test cases as suite `name`; the exit code of check_run().
 * CHECK_RUN_CASES counts the cases of an array.
 */
static inline int check_run_cases(const char *name,
				  const struct check_case *cases, size_t nr)
{
	Suite *suite = suite_create(name);
	size_t i, t;

	for (i = 0; i < nr; i++) {
		TCase *tc = tcase_create(cases[i].name);

		if (cases[i].setup || cases[i].teardown)
			tcase_add_checked_fixture(tc, cases[i].setup,
						  cases[i].teardown);
		if (cases[i].timeout)
			tcase_set_timeout(tc, cases[i].timeout);
		for (t = 0; t < CHECK_CASE_MAX_TESTS && cases[i].tests[t]; t++)
			tcase_add_test(tc, cases[i].tests[t]);
		suite_add_tcase(suite, tc);
	}
	return check_run(suite);
}

#define CHECK_RUN_CASES(name, cases) \
	check_run_cases((name), (cases), sizeof(cases) / sizeof((cases)[0]))

#endif /* UST_TESTS_CHECK_RUN_H */
