/*
 * check_outdir.c - unit tests of cli/outdir.c: mkdir -p and the checks
 * `ust record` makes on its output directory.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../check_run.h"
#include "outdir.h"

#define BASE_TEMPLATE	"/tmp/ust-check-outdir.XXXXXX"

static char base[sizeof(BASE_TEMPLATE)];
static char path[PATH_MAX];

static void setup(void)
{
	memcpy(base, BASE_TEMPLATE, sizeof(base));
	ck_assert_ptr_nonnull(mkdtemp(base));
	umask(022);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	ck_assert_int_eq(system(cmd), 0);
}

/* path = base + suffix */
static const char *at(const char *suffix)
{
	snprintf(path, sizeof(path), "%s%s", base, suffix);
	return path;
}

static mode_t mode_of(const char *p)
{
	struct stat st;

	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	return st.st_mode & 07777;
}

START_TEST(test_mkdir_p_parents)
{
	bool created;

	ck_assert_int_eq(ust__mkdir_p(at("/a/b/c"), &created), 0);
	ck_assert(created);
	ck_assert_int_eq(mode_of(at("/a")), 0755);
	ck_assert_int_eq(mode_of(at("/a/b/c")), 0755);
	ck_assert_int_eq(ust__mkdir_p(at("/a/b/c"), &created), 0);
	ck_assert(!created);
	ck_assert_int_eq(ust__mkdir_p(at("/a/b"), &created), 0);
	ck_assert(!created);
}
END_TEST

START_TEST(test_mkdir_p_slashes)
{
	bool created;

	ck_assert_int_eq(ust__mkdir_p(at("//x///y//"), &created), 0);
	ck_assert(created);
	mode_of(at("/x/y"));
	ck_assert_int_eq(ust__mkdir_p("/", &created), 0);
	ck_assert(!created);
}
END_TEST

START_TEST(test_mkdir_p_errors)
{
	bool created;
	int fd;

	fd = open(at("/file"), O_CREAT | O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(ust__mkdir_p(at("/file"), &created), -ENOTDIR);
	ck_assert_int_eq(ust__mkdir_p(at("/file/x/y"), &created), -ENOTDIR);
	ck_assert(!created);
	ck_assert_int_eq(ust__mkdir_p("", &created), -ENOENT);
}
END_TEST

START_TEST(test_prepare_shared)
{
	ck_assert_int_eq(cli_outdir_prepare(at("/shared"), true), 0);
	ck_assert_int_eq(mode_of(at("/shared")), 01777);
	/* An existing directory keeps its mode. */
	ck_assert_int_eq(chmod(at("/shared"), 0700), 0);
	ck_assert_int_eq(cli_outdir_prepare(at("/shared"), true), 0);
	ck_assert_int_eq(mode_of(at("/shared")), 0700);
}
END_TEST

START_TEST(test_prepare_private)
{
	ck_assert_int_eq(cli_outdir_prepare(at("/p/q"), false), 0);
	ck_assert_int_eq(mode_of(at("/p/q")), 0755);
}
END_TEST

START_TEST(test_writable_leaves_nothing)
{
	ck_assert_int_eq(cli_dir_check_writable(base), 0);
	/* The probe file is gone: the directory can be removed. */
	ck_assert_int_eq(rmdir(base), 0);
	ck_assert_int_eq(mkdir(base, 0700), 0);
}
END_TEST

START_TEST(test_writable_denied)
{
	if (geteuid() == 0)
		return;	/* root may write in a 0500 directory */
	ck_assert_int_eq(mkdir(at("/ro"), 0500), 0);
	ck_assert_int_eq(cli_dir_check_writable(at("/ro")), -EACCES);
	ck_assert_int_eq(cli_outdir_prepare(at("/ro/sub"), false), -EACCES);
}
END_TEST

START_TEST(test_writable_missing)
{
	ck_assert_int_eq(cli_dir_check_writable(at("/none")), -ENOENT);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "mkdir_p", setup, teardown, 0, {
			test_mkdir_p_parents, test_mkdir_p_slashes,
			test_mkdir_p_errors, NULL } },
		{ "prepare", setup, teardown, 0, {
			test_prepare_shared, test_prepare_private,
			test_writable_leaves_nothing, test_writable_denied,
			test_writable_missing, NULL } },
	};

	return CHECK_RUN_CASES("outdir", cases);
}
