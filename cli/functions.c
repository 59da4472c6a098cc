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
#include "common/parse.h"
#include "cli.h"

#define CYG_PROFILE_LIB		LIBDIR "/libust-cyg-profile.so"

/* The events --functions turns on even when -e patterns are given. */
const char *const cli_functions_patterns[] = {
	"ust_func:*", "ust_cyg_profile:*", "lttng_ust_cyg_profile:*",
	"lttng_ust_cyg_profile_fast:*", "lttng_ust_statedump:*", "lttng_ust_dl:*",
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

/* --functions=LAYOUT: one of UST_FUNCTIONS's values. */
static int layout_option(struct cli_func_opts *f, const char *arg)
{
	static const char *const names[] = {
		UST_FUNCTIONS_NAME_COMPACT, UST_FUNCTIONS_NAME_FULL,
		UST_FUNCTIONS_NAME_LTTNG_FAST, UST_FUNCTIONS_NAME_LTTNG,
	};
	size_t i;

	for (i = 0; arg && i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			f->layout = names[i];
			return 0;
		}
	}
	if (!arg)
		return 0;
	cli_error("invalid --functions '%s': a layout is compact (the default), "
		  "full, lttng-fast or lttng", arg);
	return -1;
}

/* Append the globs of `arg` to the comma-separated list `*list`. */
static int globs_option(char **list, const char *name, const char *arg)
{
	char *more;

	if (!*arg || strchr(arg, ' ')) {
		cli_error("invalid %s '%s': function names or globs, comma-separated",
			  name, arg);
		return -1;
	}
	if (asprintf(&more, "%s%s%s", *list ? *list : "", *list ? "," : "", arg) < 0) {
		cli_error("out of memory");
		return -1;
	}
	free(*list);
	*list = more;
	return 0;
}

int cli_functions_option(struct cli_func_opts *f, enum cli_func_opt which,
			 const char *arg)
{
	uint64_t n;

	switch (which) {
	case CLI_FUNC_LAYOUT:
		return layout_option(f, arg);
	case CLI_FUNC_TIME:
		if (ust__parse_duration_ns(arg, &n) || n == 0) {
			cli_error("invalid --time-filter '%s': a duration from 1ns, "
				  "with ns (the default), us, ms or s", arg);
			return -1;
		}
		f->time_ns = n;
		return 0;
	case CLI_FUNC_DEPTH:
		if (ust__parse_u64(arg, &n) || n == 0 || n > UINT32_MAX) {
			cli_error("invalid --depth '%s': a depth from 1", arg);
			return -1;
		}
		f->depth = (uint32_t)n;
		return 0;
	case CLI_FUNC_ONLY:
		return globs_option(&f->only, "--filter-func", arg);
	default:
		return globs_option(&f->exclude, "--exclude-func", arg);
	}
}

bool cli_functions_filtered(const struct cli_func_opts *f)
{
	return f->time_ns || f->depth || f->only || f->exclude;
}

int cli_functions_env(const struct cli_func_opts *f)
{
	char num[32];
	int ret = 0;

	if (f->layout)
		ret |= setenv(UST_ENV_FUNCTIONS, f->layout, 1);
	if (f->time_ns) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)f->time_ns);
		ret |= setenv(UST_ENV_FUNC_TIME, num, 1);
	}
	if (f->depth) {
		snprintf(num, sizeof(num), "%u", f->depth);
		ret |= setenv(UST_ENV_FUNC_DEPTH, num, 1);
	}
	if (f->only)
		ret |= setenv(UST_ENV_FUNC_FILTER, f->only, 1);
	if (f->exclude)
		ret |= setenv(UST_ENV_FUNC_EXCLUDE, f->exclude, 1);
	if (ret)
		cli_error("cannot set the environment: %s", strerror(errno));
	return ret ? -1 : 0;
}

void cli_functions_release(struct cli_func_opts *f)
{
	free(f->only);
	free(f->exclude);
	memset(f, 0, sizeof(*f));
}
