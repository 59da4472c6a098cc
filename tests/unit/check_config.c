/*
 * check_config.c - unit tests of libust/config.c: every UST_* variable
 * (abi/env.h) as ust__config_load() reads it into struct ust_config.
 * A bad value keeps the default and says so on stderr, exactly.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "abi/consumerd.h"
#include "abi/env.h"
#include "unit.h"

static struct ust_config cfg;

/*
 * Load the configuration with UST_TRACE='*' and `var`=`value` (NULL:
 * only UST_TRACE); returns what was printed on stderr.
 */
static char *load_with(const char *var, const char *value)
{
	unit_env_clear();
	setenv(UST_ENV_TRACE, "*", 1);
	if (var)
		setenv(var, value, 1);
	memset(&cfg, 0, sizeof(cfg));
	unit_stderr_begin();
	ck_assert_int_eq(ust__config_load(&cfg), 0);
	return unit_stderr_end();
}

/* The same, checking that nothing was printed. */
static void load_quietly(const char *var, const char *value)
{
	char *err = load_with(var, value);

	ck_assert_msg(!*err, "%s='%s': unexpected warning [%s]", var, value, err);
	free(err);
}

static void teardown(void)
{
	unit_config_free(&cfg);
	unit_env_clear();
}

START_TEST(test_trace_unset)
{
	struct ust_config before;
	char *err;

	unit_env_clear();
	setenv(UST_ENV_MODE, "bogus", 1);	/* not even looked at */
	memset(&cfg, 0, sizeof(cfg));
	memcpy(&before, &cfg, sizeof(cfg));
	unit_stderr_begin();
	ck_assert_int_eq(ust__config_load(&cfg), -ENOENT);
	setenv(UST_ENV_TRACE, "", 1);
	ck_assert_int_eq(ust__config_load(&cfg), -ENOENT);
	err = unit_stderr_end();
	ck_assert_str_eq(err, "");
	free(err);
	ck_assert_mem_eq(&cfg, &before, sizeof(cfg));
}
END_TEST

START_TEST(test_defaults)
{
	load_quietly(NULL, NULL);
	ck_assert_uint_eq(cfg.nr_patterns, 1);
	ck_assert_str_eq(cfg.patterns[0], "*");
	ck_assert_str_eq(cfg.output, UST_DEFAULT_OUTPUT);
	ck_assert_str_eq(cfg.output, "/tmp/ltt-usertrace");
	ck_assert_uint_eq(cfg.mode, UST_MODE_DISCARD);
	ck_assert_uint_eq(cfg.blocking, 0);
	ck_assert_uint_eq(cfg.event_context, UST_CTX_VTID);
	ck_assert_uint_eq(cfg.subbuf_size, 1u << 20);
	ck_assert_uint_eq(cfg.subbuf_count, 4);
	ck_assert_uint_eq(cfg.read_timer_us, 1000);
	ck_assert_ptr_null(cfg.session_clock);
	ck_assert_uint_eq(cfg.clock_kind, ust__clock_detect_kind());
	ck_assert_ptr_null(cfg.summary_dir);
	ck_assert_str_eq(cfg.consumerd, PKGLIBEXECDIR "/" UST_CONSUMERD_NAME);
}
END_TEST

/* One value of a numeric variable and what it must leave in its field. */
struct u32_case {
	const char *var;
	const char *value;
	size_t field;		/* offsetof(struct ust_config, ...) */
	uint32_t want;
	const char *why;	/* the warning's reason, NULL when valid */
};

#define F(name) offsetof(struct ust_config, name)
#define SIZE_WHY "must be a power of two from 4096 to 1073741824"
#define COUNT_WHY "must be a power of two from 2 to 65536"
#define TIMER_WHY "must be from 100 to 10000000 microseconds"
#define MODE_WHY "must be 'discard', 'overwrite', 'block' or 'flight'"

static const struct u32_case u32_cases[] = {
	{ UST_ENV_MODE, "discard", F(mode), UST_MODE_DISCARD, NULL },
	{ UST_ENV_MODE, "overwrite", F(mode), UST_MODE_OVERWRITE, NULL },
	{ UST_ENV_MODE, "flight", F(mode), UST_MODE_FLIGHT, NULL },
	{ UST_ENV_MODE, "block", F(mode), UST_MODE_DISCARD, NULL },
	{ UST_ENV_MODE, "", F(mode), UST_MODE_DISCARD, NULL },
	{ UST_ENV_MODE, "fast", F(mode), UST_MODE_DISCARD, MODE_WHY },
	{ UST_ENV_MODE, "Overwrite", F(mode), UST_MODE_DISCARD, MODE_WHY },
	{ UST_ENV_MODE, "flight ", F(mode), UST_MODE_DISCARD, MODE_WHY },
	{ UST_ENV_CONTEXT, "tid", F(event_context), UST_CTX_VTID, NULL },
	{ UST_ENV_CONTEXT, "vtid", F(event_context), UST_CTX_VTID, NULL },
	{ UST_ENV_CONTEXT, "none", F(event_context), 0, NULL },
	{ UST_ENV_CONTEXT, "", F(event_context), UST_CTX_VTID, NULL },
	{ UST_ENV_CONTEXT, "vtid,vpid,procname,ip,pthread_id", F(event_context),
	  UST_CTX_ALL, NULL },
	{ UST_ENV_CONTEXT, "ip,tid,ip", F(event_context), UST_CTX_VTID | UST_CTX_IP, NULL },
	{ UST_ENV_CONTEXT, "pid", F(event_context), UST_CTX_VTID, "unknown context 'pid'" },
	{ UST_ENV_CONTEXT, "NONE", F(event_context), UST_CTX_VTID, "unknown context 'NONE'" },
	{ UST_ENV_CONTEXT, "none,vtid", F(event_context), UST_CTX_VTID,
	  "'none' cannot be combined with other contexts" },
	{ UST_ENV_CONTEXT, "vtid,,ip", F(event_context), UST_CTX_VTID, "empty context name" },
	{ UST_ENV_SUBBUF_SIZE, "4096", F(subbuf_size), 4096, NULL },
	{ UST_ENV_SUBBUF_SIZE, "4k", F(subbuf_size), 4096, NULL },
	{ UST_ENV_SUBBUF_SIZE, "64K", F(subbuf_size), 65536, NULL },
	{ UST_ENV_SUBBUF_SIZE, "2MiB", F(subbuf_size), 2u << 20, NULL },
	{ UST_ENV_SUBBUF_SIZE, "1GB", F(subbuf_size), 1u << 30, NULL },
	{ UST_ENV_SUBBUF_SIZE, "", F(subbuf_size), 1u << 20, NULL },
	{ UST_ENV_SUBBUF_SIZE, "2048", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "2G", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "6000", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "0", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "4kb", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, " 4096", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "-4096", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_SIZE, "99999999999999999999", F(subbuf_size), 1u << 20, SIZE_WHY },
	{ UST_ENV_SUBBUF_COUNT, "2", F(subbuf_count), 2, NULL },
	{ UST_ENV_SUBBUF_COUNT, "65536", F(subbuf_count), 65536, NULL },
	{ UST_ENV_SUBBUF_COUNT, "1", F(subbuf_count), 4, COUNT_WHY },
	{ UST_ENV_SUBBUF_COUNT, "3", F(subbuf_count), 4, COUNT_WHY },
	{ UST_ENV_SUBBUF_COUNT, "131072", F(subbuf_count), 4, COUNT_WHY },
	{ UST_ENV_SUBBUF_COUNT, "8k", F(subbuf_count), 4, COUNT_WHY },
	{ UST_ENV_READ_TIMER, "100", F(read_timer_us), 100, NULL },
	{ UST_ENV_READ_TIMER, "10000000", F(read_timer_us), 10000000, NULL },
	{ UST_ENV_READ_TIMER, "99", F(read_timer_us), 1000, TIMER_WHY },
	{ UST_ENV_READ_TIMER, "10000001", F(read_timer_us), 1000, TIMER_WHY },
	{ UST_ENV_READ_TIMER, "1k", F(read_timer_us), 1000, TIMER_WHY },
	{ UST_ENV_READ_TIMER, "0x100", F(read_timer_us), 1000, TIMER_WHY },
	{ UST_ENV_SESSION_CLOCK, "mono:1000000000:5:0:", F(clock_kind),
	  UST_CLOCK_MONOTONIC, NULL },
	{ UST_ENV_SESSION_CLOCK, "tsc:2500000000:5:7:", F(clock_kind),
	  UST_CLOCK_TSC, NULL },
};

/* Each value of the table: its field, and the warning or none. */
START_TEST(test_u32_values)
{
	size_t i;

	for (i = 0; i < sizeof(u32_cases) / sizeof(u32_cases[0]); i++) {
		const struct u32_case *c = &u32_cases[i];
		char want[256], *err = load_with(c->var, c->value);
		uint32_t got;

		memcpy(&got, (const char *)&cfg + c->field, sizeof(got));
		ck_assert_msg(got == c->want, "%s='%s': %u, expected %u", c->var,
			      c->value, got, c->want);
		if (c->why)
			snprintf(want, sizeof(want), "ust: ignoring %s='%s': %s\n",
				 c->var, c->value, c->why);
		else
			want[0] = '\0';
		ck_assert_str_eq(err, want);
		free(err);
		/* Only UST_MODE=block makes writers wait. */
		ck_assert_uint_eq(cfg.blocking, !strcmp(c->value, "block"));
		unit_config_free(&cfg);
	}
}
END_TEST

START_TEST(test_session_clock)
{
	char *err;

	load_quietly(UST_ENV_SESSION_CLOCK, "mono:1000000000:5:0:");
	ck_assert_str_eq(cfg.session_clock, "mono:1000000000:5:0:");
	unit_config_free(&cfg);

	err = load_with(UST_ENV_SESSION_CLOCK, "mono:999:5:0:");
	ck_assert_str_eq(err, "ust: ignoring UST_SESSION_CLOCK='mono:999:5:0:': "
			 "not a session clock\n");
	free(err);
	ck_assert_ptr_null(cfg.session_clock);
	ck_assert_uint_eq(cfg.clock_kind, ust__clock_detect_kind());
}
END_TEST

START_TEST(test_paths)
{
	load_quietly(UST_ENV_OUTPUT, "/some/where");
	ck_assert_str_eq(cfg.output, "/some/where");
	unit_config_free(&cfg);
	load_quietly(UST_ENV_OUTPUT, "");
	ck_assert_str_eq(cfg.output, UST_DEFAULT_OUTPUT);
	unit_config_free(&cfg);

	load_quietly(UST_ENV_SUMMARY_DIR, "/run/summaries");
	ck_assert_str_eq(cfg.summary_dir, "/run/summaries");
	unit_config_free(&cfg);
	load_quietly(UST_ENV_SUMMARY_DIR, "");
	ck_assert_ptr_null(cfg.summary_dir);
	unit_config_free(&cfg);

	load_quietly(UST_ENV_CONSUMERD, "/opt/ust-consumerd");
	ck_assert_str_eq(cfg.consumerd, "/opt/ust-consumerd");
	unit_config_free(&cfg);
	load_quietly(UST_ENV_CONSUMERD, "");
	ck_assert_str_eq(cfg.consumerd, PKGLIBEXECDIR "/ust-consumerd");
}
END_TEST

/* Values are copies: the program may change its environment later. */
START_TEST(test_values_copied)
{
	load_quietly(UST_ENV_OUTPUT, "/first");
	setenv(UST_ENV_OUTPUT, "/second", 1);
	setenv(UST_ENV_TRACE, "changed", 1);
	ck_assert_str_eq(cfg.output, "/first");
	ck_assert_str_eq(cfg.patterns[0], "*");
}
END_TEST

START_TEST(test_pattern_list)
{
	/* Blanks before a pattern and empty patterns are dropped. */
	load_quietly(UST_ENV_TRACE, "app:*, -app:b,,  c:d,x");
	ck_assert_uint_eq(cfg.nr_patterns, 4);
	ck_assert_str_eq(cfg.patterns[0], "app:*");
	ck_assert_str_eq(cfg.patterns[1], "-app:b");
	ck_assert_str_eq(cfg.patterns[2], "c:d");
	ck_assert_str_eq(cfg.patterns[3], "x");
	ck_assert(ust__pattern_match(&cfg, "app:a", 0));
	ck_assert(!ust__pattern_match(&cfg, "app:b", 0));
	ck_assert(ust__pattern_match(&cfg, "c:d", 0));
	ck_assert(ust__pattern_match(&cfg, "x", 0));
	ck_assert(!ust__pattern_match(&cfg, "other:a", 0));
	unit_config_free(&cfg);

	/* Tracing is on; an empty list selects everything. */
	load_quietly(UST_ENV_TRACE, " ,, ");
	ck_assert_uint_eq(cfg.nr_patterns, 0);
	ck_assert(ust__pattern_match(&cfg, "any:event", 0));
}
END_TEST

/* "p0,p1,...,p(n-1)" */
static void pattern_list(char *buf, size_t len, unsigned int n)
{
	unsigned int i;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, len - used, "%sp%u",
					 i ? "," : "", i);
	ck_assert_uint_lt(used, len);
}

START_TEST(test_pattern_limit)
{
	char list[1024], *err;

	pattern_list(list, sizeof(list), UST_MAX_PATTERNS);
	load_quietly(UST_ENV_TRACE, list);
	ck_assert_uint_eq(cfg.nr_patterns, UST_MAX_PATTERNS);
	ck_assert_str_eq(cfg.patterns[UST_MAX_PATTERNS - 1], "p63");
	unit_config_free(&cfg);

	/* One warning, for the first pattern beyond the limit. */
	pattern_list(list, sizeof(list), UST_MAX_PATTERNS + 2);
	err = load_with(UST_ENV_TRACE, list);
	ck_assert_str_eq(err, "ust: ignoring UST_TRACE='p64': too many patterns\n");
	free(err);
	ck_assert_uint_eq(cfg.nr_patterns, UST_MAX_PATTERNS);
	ck_assert_str_eq(cfg.patterns[0], "p0");
	ck_assert_str_eq(cfg.patterns[UST_MAX_PATTERNS - 1], "p63");
	ck_assert(ust__pattern_match(&cfg, "p63", 0));
	ck_assert(!ust__pattern_match(&cfg, "p64", 0));
}
END_TEST

/* UST_TRACE's entry options: log levels (events without one count as 13). */
START_TEST(test_pattern_loglevels)
{
	char *err;

	load_quietly(UST_ENV_TRACE, "app:*;loglevel=TRACE_WARNING,b:*;loglevel-only=6,-app:x");
	ck_assert_uint_eq(cfg.nr_patterns, 3);
	ck_assert_str_eq(cfg.patterns[0], "app:*");
	ck_assert(ust__pattern_match(&cfg, "app:a", 4));	/* TRACE_WARNING */
	ck_assert(ust__pattern_match(&cfg, "app:a", 0));
	ck_assert(!ust__pattern_match(&cfg, "app:a", 5));
	ck_assert(!ust__pattern_match(&cfg, "app:a", -1));	/* 13 */
	ck_assert(!ust__pattern_match(&cfg, "app:x", 0));
	ck_assert(ust__pattern_match(&cfg, "b:c", 6));
	ck_assert(!ust__pattern_match(&cfg, "b:c", 5));
	unit_config_free(&cfg);

	/* A bad option: the entry selects nothing, the others still work. */
	err = load_with(UST_ENV_TRACE, "app:*;loglevel=TRACE_LOUD,b:*");
	ck_assert_str_eq(err, "ust: ignoring UST_TRACE='app:*': unknown option or "
			      "log level; it selects nothing\n");
	free(err);
	ck_assert_uint_eq(cfg.nr_patterns, 2);
	ck_assert(!ust__pattern_match(&cfg, "app:a", 0));
	ck_assert(ust__pattern_match(&cfg, "b:a", 0));
	unit_config_free(&cfg);

	err = load_with(UST_ENV_TRACE, "app:*;filter=AAAA");
	ck_assert_str_eq(err, "ust: ignoring UST_TRACE='app:*': its filter is not "
			      "one ust record wrote; it selects nothing\n");
	free(err);
	ck_assert(!cfg.have_filters);
	ck_assert(!ust__pattern_match(&cfg, "app:a", 0));
}
END_TEST

/* UST_RATE_LIMIT: the last rule that matches wins; bad rules are skipped. */
START_TEST(test_rate_limits)
{
	char *err;

	load_quietly(UST_ENV_RATE_LIMIT, "app:*=100,app:tick=5");
	ck_assert_uint_eq(cfg.nr_rates, 2);
	ck_assert_uint_eq(ust__rate_limit(&cfg, "app:a"), 100);
	ck_assert_uint_eq(ust__rate_limit(&cfg, "app:tick"), 5);
	ck_assert_uint_eq(ust__rate_limit(&cfg, "other:a"), 0);
	unit_config_free(&cfg);

	err = load_with(UST_ENV_RATE_LIMIT, "app:*=0,=5,b:*=x,c:*=7");
	ck_assert_str_eq(err,
		"ust: ignoring UST_RATE_LIMIT='app:*=0': must be PATTERN=N, N records a second from 1\n"
		"ust: ignoring UST_RATE_LIMIT='=5': must be PATTERN=N, N records a second from 1\n"
		"ust: ignoring UST_RATE_LIMIT='b:*=x': must be PATTERN=N, N records a second from 1\n");
	free(err);
	ck_assert_uint_eq(cfg.nr_rates, 1);
	ck_assert_uint_eq(ust__rate_limit(&cfg, "c:d"), 7);
}
END_TEST

/* Every bad variable is reported, each keeping its default. */
START_TEST(test_several_warnings)
{
	char *err;

	unit_env_clear();
	setenv(UST_ENV_TRACE, "*", 1);
	setenv(UST_ENV_MODE, "x", 1);
	setenv(UST_ENV_SUBBUF_COUNT, "y", 1);
	memset(&cfg, 0, sizeof(cfg));
	unit_stderr_begin();
	ck_assert_int_eq(ust__config_load(&cfg), 0);
	err = unit_stderr_end();
	ck_assert_str_eq(err, "ust: ignoring UST_MODE='x': " MODE_WHY "\n"
			 "ust: ignoring UST_SUBBUF_COUNT='y': " COUNT_WHY "\n");
	free(err);
	ck_assert_uint_eq(cfg.mode, UST_MODE_DISCARD);
	ck_assert_uint_eq(cfg.subbuf_count, 4);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "environment", NULL, teardown, 0, {
			test_trace_unset, test_defaults, test_u32_values,
			test_session_clock, test_paths, test_values_copied,
			test_pattern_list, test_pattern_limit,
			test_pattern_loglevels, test_rate_limits,
			test_several_warnings, NULL } },
	};

	return CHECK_RUN_CASES("config", cases);
}
