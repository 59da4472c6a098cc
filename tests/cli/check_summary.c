/*
 * check_summary.c - unit tests of cli/summary.c: the summary directory,
 * reading the consumers' summary files and the lines printed from them.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../check_run.h"
#include "cli.h"
#include "summary.h"

#define BASE_TEMPLATE	"/tmp/ust-check-summary.XXXXXX"

static char base[sizeof(BASE_TEMPLATE)];
static struct ust_safe_dir out;
static char *sumdir;

static void setup(void)
{
	char err[256];

	memcpy(base, BASE_TEMPLATE, sizeof(base));
	ck_assert_ptr_nonnull(mkdtemp(base));
	ck_assert_int_eq(ust__safe_dir_open(base, 0, 0, &out, err, sizeof(err)), 0);
	ck_assert_int_eq(cli_summary_dir_create(&out, &sumdir), 0);
	cli_prog = "ust record";
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	ust__safe_dir_close(&out);
	free(sumdir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", sumdir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The printed summary, as one malloc'd string. */
static char *print_to_string(const struct ust_summary *sum, bool running,
			     bool hint)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cli_summary_print(sum, f, "app", running, hint);
	fclose(f);
	return buf;
}

START_TEST(test_dir_create)
{
	char want[PATH_MAX];
	struct stat st;

	snprintf(want, sizeof(want), "%s/.ust-record-%ld", base, (long)getpid());
	ck_assert_str_eq(sumdir, want);
	ck_assert_int_eq(lstat(sumdir, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(st.st_mode & 07777, 0700);
}
END_TEST

START_TEST(test_dir_stale_reused)
{
	char *again;

	write_file("old.summary", "events=1\n");
	ck_assert_int_eq(cli_summary_dir_create(&out, &again), 0);
	ck_assert_str_eq(again, sumdir);
	free(again);
	/* Emptied: nothing of the old session is read. */
	ck_assert_int_eq(rmdir(sumdir), 0);
}
END_TEST

START_TEST(test_dir_not_ours)
{
	char *again;

	ck_assert_int_eq(rmdir(sumdir), 0);
	ck_assert_int_eq(symlink("/", sumdir), 0);
	ck_assert_int_eq(cli_summary_dir_create(&out, &again), -EEXIST);
	ck_assert_int_eq(unlink(sumdir), 0);
}
END_TEST

START_TEST(test_dir_remove)
{
	write_file("a.summary", "events=1\n");
	write_file(".b.tmp", "events=1\n");
	cli_summary_dir_remove(sumdir);
	ck_assert_int_eq(access(sumdir, F_OK), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(rmdir(base), 0);
	ck_assert_int_eq(mkdir(base, 0700), 0);
}
END_TEST

START_TEST(test_read_sorted)
{
	struct ust_summary sum;

	write_file("b.summary",
		   "dir=/t/b\nevents=2\nlost=3\npackets=4\npackets_dropped=5\nbytes=6\nnew_key=7\n");
	write_file("a.summary", "dir=/t/a\nevents=10\nsnapshot=/t/a-snapshot-1-x\n"
		   "snapshot=/t/a-snapshot-2-SIGSEGV\n");
	write_file(".c.summary", "dir=/t/c\n");		/* still being written */
	write_file("d.summary.tmp", "dir=/t/d\n");
	ck_assert_int_eq(cli_summary_read(sumdir, &sum), 0);
	ck_assert_uint_eq(sum.nr, 2);
	ck_assert_str_eq(sum.traces[0].dir, "/t/a");
	ck_assert_uint_eq(sum.traces[0].events, 10);
	ck_assert_uint_eq(sum.traces[0].lost, 0);
	ck_assert_str_eq(sum.traces[0].snapshots,
			 "/t/a-snapshot-1-x\n/t/a-snapshot-2-SIGSEGV\n");
	ck_assert_ptr_null(sum.traces[1].snapshots);
	ck_assert_str_eq(sum.traces[1].dir, "/t/b");
	ck_assert_uint_eq(sum.traces[1].events, 2);
	ck_assert_uint_eq(sum.traces[1].lost, 3);
	ck_assert_uint_eq(sum.traces[1].packets, 4);
	ck_assert_uint_eq(sum.traces[1].packets_dropped, 5);
	ck_assert_uint_eq(sum.traces[1].bytes, 6);
	ck_assert_ptr_null(sum.traces[1].error);
	cli_summary_release(&sum);
}
END_TEST

/*
 * The summaries consumers began (hidden, .<consumer pid>.summary.tmp):
 * one never completed is a trace whose consumer did not finish; a
 * complete one (its rename failed) is a trace like the others.
 */
START_TEST(test_read_begun)
{
	struct ust_summary sum;

	write_file(".77.summary.tmp", "pid=70\ndir=/t/dead\n");
	write_file(".88.summary.tmp", "pid=80\ndir=/t/done\nevents=5\nlost=2\nunwritten=1\nend=1\n");
	write_file(".x.summary.tmp", "pid=90\ndir=/t/notours\n");
	ck_assert_int_eq(cli_summary_read(sumdir, &sum), 0);
	ck_assert_uint_eq(sum.nr, 2);
	ck_assert_str_eq(sum.traces[0].dir, "/t/dead");
	ck_assert_uint_eq(sum.traces[0].consumer, 77);
	ck_assert(!sum.traces[0].complete);
	ck_assert_str_eq(sum.traces[1].dir, "/t/done");
	ck_assert_uint_eq(sum.traces[1].consumer, 0);
	ck_assert(sum.traces[1].complete);
	ck_assert_uint_eq(sum.traces[1].pid, 80);
	ck_assert_uint_eq(sum.traces[1].unwritten, 1);
	ck_assert(cli_summary_failed(&sum));	/* the unfinished one */
	cli_summary_release(&sum);
	write_file(".77.summary.tmp", "pid=70\ndir=/t/dead\nend=1\n");
	ck_assert_int_eq(cli_summary_read(sumdir, &sum), 0);
	ck_assert_uint_eq(sum.nr, 2);
	ck_assert(!cli_summary_failed(&sum));
	cli_summary_release(&sum);
}
END_TEST

START_TEST(test_read_errors)
{
	struct ust_summary sum;

	write_file("x.summary",
		   "events=12\nerror=disk full\nlost=abc\nno equals sign\n\nerror=again");
	ck_assert_int_eq(cli_summary_read(sumdir, &sum), 0);
	ck_assert_uint_eq(sum.nr, 1);
	/* No dir= line: named after the file. */
	ck_assert_str_eq(sum.traces[0].dir, "x");
	ck_assert_uint_eq(sum.traces[0].events, 12);
	ck_assert_uint_eq(sum.traces[0].lost, 0);
	ck_assert_str_eq(sum.traces[0].error,
			 "disk full; malformed summary value 'lost=abc'; malformed summary line; again");
	cli_summary_release(&sum);
}
END_TEST

START_TEST(test_read_missing_dir)
{
	struct ust_summary sum;

	ck_assert_int_eq(cli_summary_read("/nonexistent/ust", &sum), 0);
	ck_assert_uint_eq(sum.nr, 0);
	cli_summary_release(&sum);
}
END_TEST

START_TEST(test_print_none)
{
	struct ust_summary sum = { 0 };
	char *text;

	text = print_to_string(&sum, false, true);
	ck_assert_str_eq(text, "ust record: no trace was written (is 'app' linked with libust?)\n");
	free(text);
	text = print_to_string(&sum, true, true);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

START_TEST(test_print_traces)
{
	struct cli_trace_summary t[] = {
		{ .dir = "/o/a-1", .events = 1000000, .bytes = 12476416,
		  .snapshots = "/o/a-1-snapshot-1-x\n/o/a-1-snapshot-2-y\n" },
		{ .dir = "/o/b-2", .events = 1, .lost = 1, .bytes = 100,
		  .packets_dropped = 1, .error = "disk full" },
	};
	struct ust_summary sum = { .traces = t, .nr = 2 };
	char *text;

	text = print_to_string(&sum, false, true);
	ck_assert_str_eq(text,
		"ust record: 2 traces, 1000001 events written, 1 lost, 11.9 MiB, 1 packet dropped\n"
		"ust record:   /o/a-1  (1000000 events, 0 lost)\n"
		"ust record:     snapshot /o/a-1-snapshot-1-x\n"
		"ust record:     snapshot /o/a-1-snapshot-2-y\n"
		"ust record:   /o/b-2  (1 event, 1 lost, 1 packet dropped)\n"
		"ust record: error: /o/b-2: disk full\n"
		"ust record: 1 event was lost: the buffers filled up; raise --subbuf-size or --subbuf-count\n");
	free(text);
	/* Overwrite mode loses on purpose: no hint. */
	sum.nr = 1;
	t[0].lost = 5;
	t[0].snapshots = NULL;
	text = print_to_string(&sum, false, false);
	ck_assert_str_eq(text,
		"ust record: 1 trace, 1000000 events written, 5 lost, 11.9 MiB\n"
		"ust record:   /o/a-1  (1000000 events, 5 lost)\n");
	free(text);
}
END_TEST

/* Unwritten records, notes, and a consumer that made no trace. */
START_TEST(test_print_unwritten_notes)
{
	struct cli_trace_summary t[] = {
		{ .dir = "/o/a", .events = 10, .lost = 7, .unwritten = 5, .bytes = 100,
		  .notes = "consumer 2 killed by SIGKILL; consumer 3 went on with the trace\n" },
		{ .dir = "", .pid = 42, .error = "cannot create a trace directory in '/o': Permission denied" },
	};
	struct ust_summary sum = { .traces = t, .nr = 2 };
	char *text;

	text = print_to_string(&sum, false, true);
	ck_assert_str_eq(text,
		"ust record: 1 trace, 10 events written, 7 lost, 100 B\n"
		"ust record:   /o/a  (10 events, 7 lost, of which 5 not written)\n"
		"ust record:     consumer 2 killed by SIGKILL; consumer 3 went on with the trace\n"
		"ust record: error: process 42: cannot create a trace directory in '/o': Permission denied\n"
		"ust record: 2 events were lost: the buffers filled up; raise --subbuf-size or --subbuf-count\n");
	free(text);
	ck_assert(cli_summary_failed(&sum));
}
END_TEST

/*
 * Relay traces with reliab's counts: a relay failure's cut records and a
 * full fallback disk's unwritten ones are lost, but neither is a loss of
 * the buffers (the hint); a trace whose consumer died while streaming
 * is listed as not counted, and a relay trace is a trace (no error).
 */
START_TEST(test_print_relay_unwritten)
{
	struct cli_trace_summary t[] = {
		{ .dir = "/o/a", .events = 10, .lost = 7, .unwritten = 5, .bytes = 100,
		  .relay = "net://h", .relay_path = "h/s/a", .relay_error = "closed",
		  .relay_events = 4, .relay_kept = 1, .relay_cut = 3, .complete = true },
		{ .dir = "", .relay = "net://h", .relay_path = "h/s/b", .uncounted = true,
		  .notes = "consumer 2 killed by SIGKILL while streaming; consumer 3 went on "
			   "with the trace in a new directory\n" },
		{ .dir = "", .relay = "net://h", .relay_path = "h/s/c", .events = 6, .bytes = 60,
		  .complete = true },
	};
	struct ust_summary sum = { .traces = t, .nr = 3 };
	char *text;

	text = print_to_string(&sum, false, true);
	ck_assert_str_eq(text,
		"ust record: 3 traces, 16 events written, 10 lost, 160 B\n"
		"ust record:   /o/a  (10 events, 10 lost, of which 5 not written)\n"
		"ust record:     relay failed: closed; 4 events went to h/s/a before, "
		"1 packet given back kept here, 3 events cut\n"
		"ust record:   h/s/b  (not counted) on net://h\n"
		"ust record:     consumer 2 killed by SIGKILL while streaming; consumer 3 went on "
		"with the trace in a new directory\n"
		"ust record:   h/s/c  (6 events, 0 lost) on net://h\n"
		"ust record: 2 events were lost: the buffers filled up; raise --subbuf-size or --subbuf-count\n");
	free(text);
	ck_assert(!cli_summary_failed(&sum));
}
END_TEST

START_TEST(test_print_units)
{
	static const struct {
		uint64_t bytes;
		const char *text;
	} cases[] = {
		{ 0, "0 B" }, { 1023, "1023 B" }, { 1024, "1.0 KiB" },
		{ 1536, "1.5 KiB" }, { 1048576, "1.0 MiB" },
		{ 3ull << 30, "3.0 GiB" }, { 5ull << 40, "5.0 TiB" },
		{ 2048ull << 40, "2048.0 TiB" },
	};
	struct cli_trace_summary t = { .dir = "/d" };
	struct ust_summary sum = { .traces = &t, .nr = 1 };
	char want[128], *text;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t.bytes = cases[i].bytes;
		text = print_to_string(&sum, false, true);
		snprintf(want, sizeof(want),
			 "ust record: 1 trace, 0 events written, 0 lost, %s\n",
			 cases[i].text);
		ck_assert_str_eq(strtok(text, "\n"), strtok(want, "\n"));
		free(text);
	}
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "dir", setup, teardown, 0, {
			test_dir_create, test_dir_stale_reused,
			test_dir_not_ours, test_dir_remove, NULL } },
		{ "read", setup, teardown, 0, {
			test_read_sorted, test_read_begun, test_read_errors,
			test_read_missing_dir, NULL } },
		{ "print", setup, teardown, 0, {
			test_print_none, test_print_traces, test_print_unwritten_notes,
			test_print_relay_unwritten, test_print_units, NULL } },
	};

	return CHECK_RUN_CASES("summary", cases);
}
