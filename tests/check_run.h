/*
 * check_run.h - run one check suite and turn its result into an exit code.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_TESTS_CHECK_RUN_H
#define UST_TESTS_CHECK_RUN_H

#include <check.h>
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

#endif /* UST_TESTS_CHECK_RUN_H */
