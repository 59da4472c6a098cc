/*
 * functions.c - what `ust record --functions` adds to CMD's environment:
 * libust-cyg-profile.so in LD_PRELOAD, and the function-tracing events
 * in the patterns.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The library is the installed one, LIBDIR/libust-cyg-profile.so, unless
 * UST_CYG_PROFILE_LIB names another (tests use the build tree's).  It is
 * appended to an LD_PRELOAD that CMD already has, so a hook library the
 * user preloads on purpose keeps precedence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/env.h"
#include "cli.h"

#define CYG_PROFILE_LIB		LIBDIR "/libust-cyg-profile.so"

/* The events --functions turns on even when -e patterns are given. */
const char *const cli_functions_patterns[] = {
	"ust_cyg_profile:*", "lttng_ust_statedump:*", "lttng_ust_dl:*",
	"lttng_ust_lib:*", NULL,
};

int cli_functions_preload(void)
{
	const char *lib = getenv(UST_ENV_CYG_PROFILE_LIB);
	const char *old = getenv("LD_PRELOAD");
	char *value;
	int ret;

	if (!lib || !*lib)
		lib = CYG_PROFILE_LIB;
	if (access(lib, R_OK)) {
		cli_error("--functions: cannot read '%s': %s (install ust, or set "
			  UST_ENV_CYG_PROFILE_LIB " to the library's path)",
			  lib, strerror(errno));
		return -1;
	}
	if (old && *old)
		ret = asprintf(&value, "%s:%s", old, lib);
	else
		ret = asprintf(&value, "%s", lib);
	if (ret < 0) {
		cli_error("out of memory");
		return -1;
	}
	ret = setenv("LD_PRELOAD", value, 1);
	free(value);
	if (ret) {
		cli_error("cannot set LD_PRELOAD: %s", strerror(errno));
		return -1;
	}
	return 0;
}
