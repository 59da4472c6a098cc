/*
 * check_consumer.c - unit tests of ust-consumerd's checks of untrusted
 * input: the shared-memory header and the TSDL of event classes.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../check_run.h"
#include "consumer.h"
#include "fakeshm.h"

static struct fake_shm f;

static void setup(void)
{
	ck_assert_int_eq(fake_shm_create(&f, 2, 4096, 4, UST_MODE_DISCARD, 42,
					 "unit", 1000, true), 0);
}

static void teardown(void)
{
	munmap(f.base, f.size);
	close(f.fd);
}

/* Map f through the consumer's checks; returns 0 or -EINVAL with `err`. */
static int check_shm(char *err, size_t len)
{
	struct shm_map m;
	int ret;

	ret = shm_map_open(&m, f.fd, err, len);
	if (!ret)
		munmap(m.base, m.size);
	return ret;
}

#define EXPECT_REJECT(what) do {					\
		char err_[160] = "";					\
		ck_assert_int_eq(check_shm(err_, sizeof(err_)), -EINVAL); \
		ck_assert_msg(strstr(err_, what), "error '%s', expected '%s'", \
			      err_, what);				\
	} while (0)

START_TEST(test_shm_good)
{
	struct shm_map m;
	char err[160];

	ck_assert_int_eq(shm_map_open(&m, f.fd, err, sizeof(err)), 0);
	ck_assert_uint_eq(m.nr_cpus, 2);
	ck_assert_uint_eq(m.nr_channels, 1);
	ck_assert_int_eq(m.pid, 42);
	ck_assert_str_eq(m.procname, "unit");
	ck_assert_str_eq(m.chan[0].name, "ust");
	ck_assert_uint_eq(m.chan[0].subbuf_shift, 12);
	ck_assert_ptr_eq(shm_buf(&m, 0, 1), (struct ust_shm_buf *)
			 (m.base + f.chan->bufs_offset) + 1);
	ck_assert_ptr_eq(shm_slot(&m, 0, 1, 5), m.base + f.chan->data_offset +
			 (4 + 1) * 4096);
	munmap(m.base, m.size);
}
END_TEST

START_TEST(test_shm_header)
{
	f.hdr->magic = 0;
	EXPECT_REJECT("bad magic");
	f.hdr->magic = UST_SHM_MAGIC;
	f.hdr->version = 2;	/* event_context was 0 (vtid) or 1 (none) */
	EXPECT_REJECT("unsupported version 2");
	f.hdr->version = UST_SHM_VERSION + 1;
	EXPECT_REJECT("unsupported version");
	f.hdr->version = UST_SHM_VERSION;
	f.hdr->total_size = f.size + 1;
	EXPECT_REJECT("total size");
	f.hdr->total_size = f.size;
	f.hdr->nr_cpus = 0;
	EXPECT_REJECT("number of CPUs");
	f.hdr->nr_cpus = UST_MAX_CPUS + 1;
	EXPECT_REJECT("number of CPUs");
	f.hdr->nr_cpus = 2;
	f.hdr->nr_channels = UST_MAX_CHANNELS + 1;
	EXPECT_REJECT("number of channels");
	f.hdr->nr_channels = 1;
	f.hdr->clock_kind = 0;
	EXPECT_REJECT("clock kind");
	f.hdr->clock_kind = UST_CLOCK_TSC;
	memset(f.hdr->procname, 'x', sizeof(f.hdr->procname));
	EXPECT_REJECT("process name");
}
END_TEST

START_TEST(test_shm_regions)
{
	uint64_t v;

	v = f.hdr->channels_offset;
	f.hdr->channels_offset = f.size - 8;
	EXPECT_REJECT("channel table outside");
	f.hdr->channels_offset = UINT64_MAX - 8;	/* wraps around */
	EXPECT_REJECT("channel table outside");
	f.hdr->channels_offset = v;
	v = f.hdr->meta_size;
	f.hdr->meta_size = UINT64_MAX;
	EXPECT_REJECT("metadata log outside");
	f.hdr->meta_size = v;
	v = f.hdr->meta_offset;
	f.hdr->meta_offset = f.chan->data_offset;
	EXPECT_REJECT("overlaps");
	f.hdr->meta_offset = v;
	f.chan->bufs_offset = 0;
	EXPECT_REJECT("overlaps");
}
END_TEST

START_TEST(test_shm_channel)
{
	struct ust_shm_channel good = *f.chan;

	f.chan->event_context = UST_CTX_ALL + 1;
	EXPECT_REJECT("channel 0: bad event context 0x20");
	f.chan->event_context = UST_CTX_ALL;
	ck_assert_int_eq(check_shm(NULL, 0), 0);
	f.chan->event_context = 0;
	ck_assert_int_eq(check_shm(NULL, 0), 0);
	*f.chan = good;
	f.chan->subbuf_size = 6000;
	EXPECT_REJECT("sub-buffer size");
	f.chan->subbuf_size = 2048;
	EXPECT_REJECT("sub-buffer size");
	*f.chan = good;
	f.chan->subbuf_count = 1;
	EXPECT_REJECT("sub-buffer count");
	f.chan->subbuf_count = 3;
	EXPECT_REJECT("sub-buffer count");
	f.chan->subbuf_count = UST_SUBBUF_COUNT_MAX * 2;
	EXPECT_REJECT("sub-buffer count");
	*f.chan = good;
	f.chan->subbuf_count = 8;	/* data would run past the mapping */
	EXPECT_REJECT("data outside");
	*f.chan = good;
	f.chan->data_offset += 8;
	EXPECT_REJECT("data outside");
	*f.chan = good;
	f.chan->bufs_offset += 8;
	EXPECT_REJECT("control blocks outside");
	*f.chan = good;
	f.chan->mode = UST_MODE_FLIGHT + 1;
	EXPECT_REJECT("bad mode");
	*f.chan = good;
	memcpy(f.chan->name, "../x", 5);
	EXPECT_REJECT("bad name");
	memset(f.chan->name, 'a', sizeof(f.chan->name));
	EXPECT_REJECT("bad name");
	f.chan->name[0] = '\0';
	EXPECT_REJECT("bad name");
	*f.chan = good;
	ck_assert_int_eq(check_shm(NULL, 0), 0);
}
END_TEST

START_TEST(test_tsdl_check)
{
	static const char *good[] = {
		"", "int32_t v;", "string s; int32_t n;",
		"struct { uint8_t a; string c; } pt;",
		"enum : uint8_t { \"DISK SLEEP\" = 2, \"a}\" = 3 } state;",
		"enum : uint8_t { \"q\\\"}\" = 1 } e;",
		"integer { size = 16; align = 8; signed = false; base = 16; }\n\tx;",
	};
	static const char *bad[] = {
		"int32_t v; }; event { name = \"x\"; ", "struct { int32_t v;",
		"int32_t v; } x; struct {", "/* hidden */ int32_t v;", "int32_t v; // c",
		"enum : uint8_t { \"open } e;", "int32_t \x01v;", "int32_t v;\r",
		"enum : uint8_t { \"a\\\x01\" = 1 } e;",	/* escaped, still unprintable */
	};
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(cd_meta_tsdl_check(good[i], err, sizeof(err)) == 0,
			      "'%s' rejected: %s", good[i], err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(cd_meta_tsdl_check(bad[i], err, sizeof(err)) == -EINVAL,
			      "'%s' accepted", bad[i]);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "shm", setup, teardown, 0, {
			test_shm_good, test_shm_header, test_shm_regions,
			test_shm_channel, NULL } },
		{ "metadata", NULL, NULL, 0, {
			test_tsdl_check, NULL } },
	};

	return CHECK_RUN_CASES("consumer", cases);
}
