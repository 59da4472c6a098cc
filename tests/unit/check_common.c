/*
 * check_common.c - unit tests of common/: the numbers users type
 * (parse.c), the event selection globs (pattern.c), the file helpers
 * (fs.c) and the bounds of the session clock text (clock.c).  The clock
 * round trip is in tests/consumer/check_clock.c, `ust ctl` rules in
 * tests/control/check_rules.c, mkdir -p's basics in tests/cli.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "common/clock.h"
#include "common/fs.h"
#include "common/parse.h"
#include "common/pattern.h"

#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* Each text in `bad` is refused by `parse`, which leaves *out alone. */
static void expect_refused(int (*parse)(const char *, uint64_t *),
			   const char *const *bad, size_t n)
{
	uint64_t v = UNTOUCHED;
	size_t i;

	for (i = 0; i < n; i++) {
		/* An exact-size copy: a read past the NUL is caught (ASan). */
		char *copy = bad[i] ? strdup(bad[i]) : NULL;

		ck_assert_msg(parse(copy, &v) == -EINVAL, "'%s' accepted", bad[i]);
		ck_assert_uint_eq(v, UNTOUCHED);
		free(copy);
	}
}

#define N(array) (sizeof(array) / sizeof((array)[0]))

START_TEST(test_parse_u64)
{
	static const char *const bad[] = {
		NULL, "", "-1", "+1", " 1", "1 ", "1x", "0x10", "1k",
		"18446744073709551616", "99999999999999999999999",
	};
	uint64_t v;

	ck_assert_int_eq(ust__parse_u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ust__parse_u64("007", &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(ust__parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	expect_refused(ust__parse_u64, bad, N(bad));
}
END_TEST

START_TEST(test_parse_pid)
{
	static const char *const bad[] = {
		"0", "-1", "2147483648", "4294967297", "1.5", "self", "", " 1",
	};
	pid_t pid = 42;
	size_t i;

	ck_assert_int_eq(ust__parse_pid("1", &pid), 0);
	ck_assert_int_eq(pid, 1);
	ck_assert_int_eq(ust__parse_pid("2147483647", &pid), 0);
	ck_assert_int_eq(pid, INT_MAX);
	for (i = 0; i < N(bad); i++) {
		ck_assert_msg(ust__parse_pid(bad[i], &pid) == -EINVAL,
			      "'%s' accepted", bad[i]);
		ck_assert_int_eq(pid, INT_MAX);
	}
}
END_TEST

START_TEST(test_parse_size)
{
	static const struct { const char *text; uint64_t value; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "1k", 1024 }, { "1K", 1024 },
		{ "3m", 3 << 20 }, { "1M", 1 << 20 }, { "2g", 2ull << 30 },
		{ "1G", 1ull << 30 }, { "4KB", 4096 }, { "4KiB", 4096 },
		{ "4kiB", 4096 }, { "1MiB", 1 << 20 }, { "0k", 0 },
		{ "18446744073709551615", UINT64_MAX },
		/* The largest number of GiB that fits in 64 bits. */
		{ "17179869183G", 17179869183ull << 30 },
	};
	static const char *const bad[] = {
		NULL, "", "k", "-1k", " 1k", "1k ", "1 k", "1Kb", "1kb", "1KiBx",
		"1KBB", "1iB", "1Ki", "1T", "1kk", "1.5M", "0x1000",
		"17179869184G", "18446744073709551616",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < N(good); i++) {
		ck_assert_msg(ust__parse_size(good[i].text, &v) == 0,
			      "'%s' refused", good[i].text);
		ck_assert_uint_eq(v, good[i].value);
	}
	expect_refused(ust__parse_size, bad, N(bad));
}
END_TEST

START_TEST(test_is_pow2)
{
	ck_assert(!ust__is_pow2(0));
	ck_assert(ust__is_pow2(1));
	ck_assert(ust__is_pow2(4096));
	ck_assert(ust__is_pow2(1ull << 63));
	ck_assert(!ust__is_pow2(3));
	ck_assert(!ust__is_pow2(6000));
	ck_assert(!ust__is_pow2(UINT64_MAX));
}
END_TEST

START_TEST(test_glob)
{
	ck_assert(ust__glob_match("app:*", "app:"));
	ck_assert(ust__glob_match("*", ""));
	ck_assert(ust__glob_match("a?p:x", "amp:x"));
	ck_assert(!ust__glob_match("a?p:x", "ap:x"));
	ck_assert(ust__glob_match("app:[ab]", "app:b"));
	ck_assert(!ust__glob_match("app:[ab]", "app:c"));
	ck_assert(ust__glob_match("app:[!ab]", "app:c"));
	/* A backslash quotes: "\\*" matches only a star. */
	ck_assert(ust__glob_match("app:\\*", "app:*"));
	ck_assert(!ust__glob_match("app:\\*", "app:x"));
	/* Case matters, and a pattern matches the whole name. */
	ck_assert(!ust__glob_match("App:x", "app:x"));
	ck_assert(!ust__glob_match("app", "app:x"));
	ck_assert(!ust__glob_match("app:x", "app:xy"));
}
END_TEST

static bool select_name(const char *name, unsigned int nr, ...)
{
	const char *patterns[8];
	unsigned int i;
	va_list ap;

	va_start(ap, nr);
	for (i = 0; i < nr; i++)
		patterns[i] = va_arg(ap, const char *);
	va_end(ap);
	return ust__patterns_match(patterns, nr, name);
}

/* UST_TRACE lists: a name is selected by an include and no exclude. */
START_TEST(test_pattern_lists)
{
	/* An exclusion wins wherever it stands in the list. */
	ck_assert(!select_name("a:b", 2, "-a:b", "a:*"));
	ck_assert(!select_name("a:b", 2, "a:*", "-a:b"));
	ck_assert(!select_name("a:b", 2, "a:b", "-a:*"));
	ck_assert(select_name("a:c", 2, "-a:b", "a:*"));
	/* Any include selects. */
	ck_assert(select_name("b:x", 3, "a:*", "b:x", "c:*"));
	ck_assert(!select_name("d:x", 3, "a:*", "b:x", "c:*"));
	/* Only excludes: everything else. */
	ck_assert(select_name("z:z", 2, "-a:*", "-b:*"));
	ck_assert(!select_name("b:q", 2, "-a:*", "-b:*"));
	/* A '-' only starts an exclude: "--x" excludes names "-x". */
	ck_assert(!select_name("-x", 2, "*", "--x"));
	ck_assert(select_name("x", 2, "*", "--x"));
	/* "-" alone excludes only the empty name. */
	ck_assert(select_name("a:b", 1, "-"));
	/* NULL entries (a shorter list) are skipped. */
	ck_assert(!select_name("a:b", 3, NULL, "x:*", NULL));
	ck_assert(select_name("a:b", 2, NULL, NULL));
}
END_TEST

static char base[] = "/tmp/ust-check-common.XXXXXX";

static void fs_setup(void)
{
	memcpy(base + sizeof(base) - 7, "XXXXXX", 6);
	ck_assert_ptr_nonnull(mkdtemp(base));
}

static void fs_teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	ck_assert_int_eq(system(cmd), 0);
}

/* base + suffix, in one of two buffers: a call may take two paths. */
static const char *at(const char *suffix)
{
	static char paths[2][PATH_MAX];
	static unsigned int last;

	last ^= 1;
	snprintf(paths[last], sizeof(paths[last]), "%s%s", base, suffix);
	return paths[last];
}

/* mkdir -p through symbolic links, and relative to the current directory. */
START_TEST(test_mkdir_p_links)
{
	char cwd[PATH_MAX];
	struct stat st;
	bool created;

	ck_assert_int_eq(mkdir(at("/real"), 0755), 0);
	ck_assert_int_eq(symlink(at("/real"), at("/link")), 0);
	ck_assert_int_eq(ust__mkdir_p(at("/link/a/b"), &created), 0);
	ck_assert(created);
	ck_assert_int_eq(stat(at("/real/a/b"), &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(ust__mkdir_p(at("/link"), &created), 0);
	ck_assert(!created);
	/* A dangling link is not a directory that can be made. */
	ck_assert_int_eq(symlink(at("/nowhere"), at("/dangling")), 0);
	ck_assert_int_eq(ust__mkdir_p(at("/dangling/x"), &created), -ENOENT);
	ck_assert(!created);

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(base), 0);
	ck_assert_int_eq(ust__mkdir_p("rel/dir/", &created), 0);
	ck_assert(created);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_int_eq(stat(at("/rel/dir"), &st), 0);
}
END_TEST

START_TEST(test_read_small_file)
{
	char buf[8];
	FILE *f = fopen(at("/f"), "w");

	ck_assert_ptr_nonnull(f);
	fputs("hello, world\n", f);
	fclose(f);
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ust__read_small_file(at("/f"), buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "hello, ");	/* len - 1 bytes, terminated */
	ck_assert_int_eq(ust__read_small_file(at("/f"), buf, 2), 0);
	ck_assert_str_eq(buf, "h");
	ck_assert_int_eq(ust__read_small_file(at("/missing"), buf, sizeof(buf)),
			 -ENOENT);
	ck_assert_int_eq(ust__read_small_file(base, buf, sizeof(buf)), -EISDIR);
}
END_TEST

/* The limits of the session clock text (UST_SESSION_CLOCK). */
START_TEST(test_clock_bounds)
{
	static const char *const good[] = {
		"tsc:1000000:0:999999:",		/* 1 MHz, the lowest */
		"tsc:100000000000:0:0:",		/* 100 GHz, the highest */
		"tsc:2500000000:-9223372036854775808:0:",
		"tsc:2500000000:9223372036854775807:0:",
		"mono:1000000000:-1:999999999:",
	};
	static const char *const bad[] = {
		"tsc:999999:0:0:", "tsc:100000000001:0:0:",
		"tsc:2500000000:9223372036854775808:0:",
		"tsc:2500000000:+5:0:", "mono:1000000000:0:1000000000:",
		"tsc:2500000000:0:0:\n", "TSC:2500000000:0:0:",
	};
	struct ust_clock c, back;
	char text[128];
	size_t i;

	for (i = 0; i < N(good); i++) {
		ck_assert_msg(ust__clock_parse(good[i], &c) == 0, "'%s' refused", good[i]);
		ck_assert_int_eq(ust__clock_format(&c, text, sizeof(text)), 0);
		ck_assert_str_eq(text, good[i]);
		ck_assert_int_eq(ust__clock_parse(text, &back), 0);
	}
	for (i = 0; i < N(bad); i++)
		ck_assert_msg(ust__clock_parse(bad[i], &c) == -EINVAL, "'%s' accepted", bad[i]);
	/* A boot id that is not terminated is not formatted. */
	ck_assert_int_eq(ust__clock_parse("mono:1000000000:0:0:", &c), 0);
	memset(c.uuid, 'a', sizeof(c.uuid));
	ck_assert_int_eq(ust__clock_format(&c, text, sizeof(text)), -EINVAL);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "parse", NULL, NULL, 0, {
			test_parse_u64, test_parse_pid, test_parse_size,
			test_is_pow2, test_clock_bounds, NULL } },
		{ "pattern", NULL, NULL, 0, {
			test_glob, test_pattern_lists, NULL } },
		{ "fs", fs_setup, fs_teardown, 0, {
			test_mkdir_p_links, test_read_small_file, NULL } },
	};

	return CHECK_RUN_CASES("common", cases);
}
