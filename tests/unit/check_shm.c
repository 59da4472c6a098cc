/*
 * check_shm.c - unit tests of shm/map.c and shm/attach.c: the consumer's
 * checks of a shared mapping (I1 of abi/shm.h), on the mapping libust
 * itself lays out with one field broken at a time, and finding a
 * process's mapping through /proc.  The checks of single header fields
 * and of one channel are in tests/consumer/check_consumer.c; packets and
 * layouts in tests/consumer/check_packet.c.
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
#include <sys/mman.h>
#include <unistd.h>

#include "check_run.h"
#include "shm/map.h"
#include "unit.h"

static struct ust_config cfg;
static struct ust_session *session;
static int fd = -1;
static struct ust_shm_channel *chan;	/* the shared channel table */

/* A flight-mode session: two channels, the events' and the state's. */
static void setup(void)
{
	unit_config(&cfg, "*", UST_MODE_FLIGHT, 4096, 4);
	session = ust__session_map(&cfg, &fd);
	ck_assert_ptr_nonnull(session);
	chan = (struct ust_shm_channel *)((uint8_t *)session->base +
					  session->hdr->channels_offset);
}

static void teardown(void)
{
	ust__session_destroy(session);
	session = NULL;
	close(fd);
	fd = -1;
	unit_config_free(&cfg);
}

/* shm_map_open() on `map_fd` fails with exactly `want`. */
static void expect_refused_fd(int map_fd, const char *want)
{
	struct shm_map m;
	char err[200] = "";

	ck_assert_int_eq(shm_map_open(&m, map_fd, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(m.base);
}

static void expect_refused(const char *want)
{
	expect_refused_fd(fd, want);
}

static void expect_accepted(struct shm_map *m)
{
	char err[200] = "";

	ck_assert_msg(shm_map_open(m, fd, err, sizeof(err)) == 0, "refused: %s", err);
}

START_TEST(test_not_a_mapping)
{
	int pipe_fds[2], small, dir;

	expect_refused_fd(-1, "fstat: Bad file descriptor");
	ck_assert_int_eq(pipe(pipe_fds), 0);
	expect_refused_fd(pipe_fds[0], "not a shared-memory file of a sane size");
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	dir = open("/", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dir, 0);
	expect_refused_fd(dir, "not a shared-memory file of a sane size");
	close(dir);
	/* One byte short of the header's page. */
	small = memfd_create("ust-trace", MFD_CLOEXEC);
	ck_assert_int_ge(small, 0);
	ck_assert_int_eq(ftruncate(small, UST_SHM_PAGE - 1), 0);
	expect_refused_fd(small, "not a shared-memory file of a sane size");
	close(small);
}
END_TEST

START_TEST(test_total_size)
{
	char want[160];
	struct shm_map m;
	uint64_t size = session->hdr->total_size;

	session->hdr->total_size = UST_SHM_PAGE - 1;
	snprintf(want, sizeof(want), "total size 4095 does not match the "
		 "%llu-byte mapping", (unsigned long long)size);
	expect_refused(want);
	/* Checked against the size the header claims, not the file's. */
	session->hdr->total_size = chan[1].data_offset;
	expect_refused("channel 1: data outside the mapping");
	session->hdr->total_size = size;
	ck_assert_int_eq(ftruncate(fd, (off_t)size + 8192), 0);
	expect_accepted(&m);
	ck_assert_uint_eq(m.size, size);
	ck_assert_uint_eq(m.map_size, size + 8192);
	shm_map_close(&m);
}
END_TEST

START_TEST(test_alignment)
{
	uint64_t v;

	session->hdr->nr_channels = 0;
	expect_refused("bad number of channels 0");
	session->hdr->nr_channels = 2;
	v = session->hdr->channels_offset;
	session->hdr->channels_offset = v + 4;
	expect_refused("channel table outside the mapping");
	session->hdr->channels_offset = v;
	v = session->hdr->meta_offset;
	session->hdr->meta_offset = v + 4;
	expect_refused("metadata log outside the mapping");
	session->hdr->meta_offset = v;
	v = chan[1].bufs_offset;
	chan[1].bufs_offset = v + 32;
	expect_refused("channel 1: control blocks outside the mapping");
	chan[1].bufs_offset = v;
	v = chan[1].data_offset;
	chan[1].data_offset = v + 64;
	expect_refused("channel 1: data outside the mapping");
	chan[1].data_offset = v;
}
END_TEST

/* Two channels must not share a stream, a name, or bytes. */
START_TEST(test_two_channels)
{
	struct ust_shm_channel state = chan[1];
	struct shm_map m;

	chan[1].stream_id = chan[0].stream_id;
	expect_refused("channels 0 and 1 share stream id 0");
	chan[1] = state;
	memcpy(chan[1].name, "ust", 4);
	expect_refused("channels 0 and 1 share name 'ust'");
	chan[1] = state;
	chan[1].bufs_offset = chan[0].bufs_offset;
	expect_refused("control blocks overlaps control blocks");
	chan[1] = state;
	chan[1].data_offset = chan[0].data_offset;
	expect_refused("ring buffer data overlaps ring buffer data");
	chan[1] = state;
	session->hdr->meta_size = chan[0].data_offset - session->hdr->meta_offset + 1;
	expect_refused("ring buffer data overlaps metadata log");
	/* No metadata log at all is no region. */
	session->hdr->meta_size = 0;
	expect_accepted(&m);
	ck_assert_uint_eq(m.meta_size, 0);
	shm_map_close(&m);
}
END_TEST

/* I1: what was validated is a private copy; later writes do not move it. */
START_TEST(test_private_copy)
{
	struct shm_map m;

	expect_accepted(&m);
	session->hdr->nr_channels = 99;
	session->hdr->nr_cpus = 0;
	chan[0].subbuf_size = 3;
	chan[0].data_offset = UINT64_MAX;
	memcpy(chan[1].name, "../x", 5);
	ck_assert_uint_eq(m.nr_channels, 2);
	ck_assert_uint_eq(m.nr_cpus, session->nr_cpus);
	ck_assert_uint_eq(m.chan[0].subbuf_size, 4096);
	ck_assert_str_eq(m.chan[1].name, "state");
	ck_assert_ptr_eq(shm_slot(&m, 0, 0, 0), m.base +
			 (session->chan[0].data - (uint8_t *)session->base));
	shm_map_close(&m);
}
END_TEST

/* A mapping whose header names another process is not that process's. */
START_TEST(test_attach_other_pid)
{
	struct shm_map m;
	char err[200], want[200];
	int attached = -1;

	session->hdr->pid = getpid() + 1;
	ck_assert_int_eq(shm_map_attach_fd(&m, getpid(), &attached, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "process %d: its trace memory belongs to "
		 "process %d", (int)getpid(), (int)getpid() + 1);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(attached, -1);
}
END_TEST

START_TEST(test_attach_untraced)
{
	struct shm_map m;
	char err[200], want[200];

	ck_assert_int_eq(shm_map_attach(&m, INT_MAX, err, sizeof(err)), -ESRCH);
	ck_assert_str_eq(err, "no process 2147483647");
	/* This process has no ust-trace memfd. */
	ck_assert_int_eq(shm_map_attach(&m, getpid(), err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "process %d is not traced by libust (start "
		 "it with UST_TRACE set, or under `ust record`)", (int)getpid());
	ck_assert_str_eq(err, want);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "map", setup, teardown, 0, {
			test_not_a_mapping, test_total_size, test_alignment,
			test_two_channels, test_private_copy,
			test_attach_other_pid, NULL } },
		{ "attach", NULL, NULL, 0, { test_attach_untraced, NULL } },
	};

	return CHECK_RUN_CASES("shm", cases);
}
