/*
 * check_outdir.c - unit tests of cli/outdir.c and common/safepath.c:
 * mkdir -p, and the checks `ust record` makes on its output directory.
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
#include "common/fs.h"
#include "outdir.h"

#define BASE_TEMPLATE	"/tmp/ust-check-outdir.XXXXXX"

static char base[sizeof(BASE_TEMPLATE)];
static char path[PATH_MAX];
static char err[2 * PATH_MAX];

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

/* cli_outdir_prepare() on `p`: 0 or -errno, the message in err. */
static int prepare(const char *p)
{
	struct ust_safe_dir d;
	char note[PATH_MAX + 256];
	int ret;

	ret = cli_outdir_prepare(p, &d, note, sizeof(note), err, sizeof(err));
	if (!ret)
		ust__safe_dir_close(&d);
	return ret;
}

START_TEST(test_prepare_creates)
{
	ck_assert_int_eq(prepare(at("/p/q")), 0);
	ck_assert_int_eq(mode_of(at("/p/q")), 0755);
	/* An existing directory keeps its mode. */
	ck_assert_int_eq(chmod(at("/p/q"), 0700), 0);
	ck_assert_int_eq(prepare(at("/p/q")), 0);
	ck_assert_int_eq(mode_of(at("/p/q")), 0700);
}
END_TEST

/* The probe file is gone: the directory can be removed. */
START_TEST(test_writable_leaves_nothing)
{
	ck_assert_int_eq(prepare(base), 0);
	ck_assert_int_eq(rmdir(base), 0);
	ck_assert_int_eq(mkdir(base, 0700), 0);
}
END_TEST

START_TEST(test_writable_denied)
{
	if (geteuid() == 0)
		return;	/* root may write in a 0500 directory */
	ck_assert_int_eq(mkdir(at("/ro"), 0500), 0);
	ck_assert_int_eq(prepare(at("/ro")), -EACCES);
	ck_assert_str_eq(err, "Permission denied");
	ck_assert_int_eq(prepare(at("/ro/sub")), -EACCES);
}
END_TEST

START_TEST(test_not_a_directory)
{
	int fd = open(at("/file"), O_CREAT | O_WRONLY, 0644);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(prepare(at("/file/x")), -ENOTDIR);
	ck_assert_str_eq(err, "Not a directory");
}
END_TEST

/*
 * In a world-writable directory, a link is not followed, wherever it
 * is on the path; in our own, it is.
 */
START_TEST(test_link_in_shared_dir)
{
	char want[PATH_MAX + 160], target[PATH_MAX];

	ck_assert_int_eq(mkdir(at("/shared"), 0777), 0);
	ck_assert_int_eq(chmod(at("/shared"), 01777), 0);
	ck_assert_int_eq(mkdir(at("/target"), 0755), 0);
	snprintf(target, sizeof(target), "%s", at("/target"));
	ck_assert_int_eq(symlink(target, at("/shared/link")), 0);
	ck_assert_int_eq(prepare(at("/shared/link/sub")), -ELOOP);
	snprintf(want, sizeof(want), "'%s/shared/link' is a symbolic link in the "
		 "world-writable directory '%s/shared'; links there are not followed",
		 base, base);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(access(at("/target/sub"), F_OK), -1);
	/* The same link in a directory only we can write is followed. */
	ck_assert_int_eq(symlink(target, at("/mine")), 0);
	ck_assert_int_eq(prepare(at("/mine/sub")), 0);
	ck_assert_int_eq(mode_of(at("/target/sub")), 0755);
}
END_TEST

/* Every spelling of the default location is the default. */
START_TEST(test_default_spellings)
{
	ck_assert(ust__output_is_default("/tmp/ltt-usertrace"));
	ck_assert(ust__output_is_default("/tmp/ltt-usertrace/"));
	ck_assert(ust__output_is_default("/tmp//ltt-usertrace"));
	ck_assert(ust__output_is_default("//tmp/./ltt-usertrace/."));
	ck_assert(!ust__output_is_default("tmp/ltt-usertrace"));
	ck_assert(!ust__output_is_default("/tmp/ltt-usertrace2"));
	ck_assert(!ust__output_is_default("/tmp/ltt-usertrace/x"));
	ck_assert(!ust__output_is_default("/tmp/../tmp/ltt-usertrace"));
	ck_assert(!ust__output_is_default("/var/tmp/ltt-usertrace"));
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "mkdir_p", setup, teardown, 0, {
			test_mkdir_p_parents, test_mkdir_p_slashes,
			test_mkdir_p_errors, NULL } },
		{ "prepare", setup, teardown, 0, {
			test_prepare_creates, test_writable_leaves_nothing,
			test_writable_denied, test_not_a_directory,
			test_link_in_shared_dir, test_default_spellings, NULL } },
	};

	return CHECK_RUN_CASES("outdir", cases);
}
