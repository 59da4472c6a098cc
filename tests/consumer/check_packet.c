/*
 * check_packet.c - unit tests of shm/packet.c: payload layouts and the
 * packet walker, on packets crafted byte by byte.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../check_run.h"
#include "shm/packet.h"

#define HDR		sizeof(struct ust_packet_header)
#define WRAP		(1ull << UST_EV_TS_BITS)

static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* A packet under construction, with the reader clock a CTF reader keeps. */
struct pkt {
	uint8_t b[4096];
	size_t len;
};

static struct ust_packet_header *ph(struct pkt *p)
{
	return (struct ust_packet_header *)p->b;
}

static void pkt_init(struct pkt *p, uint64_t begin, uint64_t end)
{
	memset(p, 0, sizeof(*p));
	ph(p)->magic = UST_CTF_MAGIC;
	memcpy(ph(p)->uuid, uuid, 16);
	ph(p)->stream_id = 3;
	ph(p)->timestamp_begin = begin;
	ph(p)->timestamp_end = end;
	p->len = HDR;
}

/* Close: content and packet sizes as the consumer writes them. */
static size_t pkt_close(struct pkt *p)
{
	ph(p)->content_size = p->len * 8;
	ph(p)->packet_size = p->len * 8;
	return p->len;
}

static void put(struct pkt *p, const void *v, size_t n)
{
	memcpy(p->b + p->len, v, n);
	p->len += n;
}

static void compact(struct pkt *p, uint32_t id, uint64_t ts, int32_t vtid)
{
	uint32_t w = id | (uint32_t)(ts << 5);

	put(p, &w, 4);
	put(p, &vtid, 4);
}

static void extended(struct pkt *p, uint32_t id, uint64_t ts, int32_t vtid)
{
	uint8_t tag = UST_EV_EXTENDED;

	put(p, &tag, 1);
	put(p, &id, 4);
	put(p, &ts, 8);
	put(p, &vtid, 4);
}

static const char *layouts[41];
static struct ust_layout_table table = {
	.layouts = layouts, .nr = 41, .event_context = UST_CTX_VTID,
};

static void setup(void)
{
	memset(layouts, 0, sizeof(layouts));
	table.event_context = UST_CTX_VTID;
	layouts[0] = "F4";
	layouts[2] = "S F2";
	layouts[4] = "";
	layouts[40] = "";
}

/* Records seen by the callback. */
static struct ust_record_view seen[16];
static int nr_seen;

static int collect(const struct ust_record_view *rec, void *arg)
{
	(void)arg;
	if (nr_seen < 16)
		seen[nr_seen] = *rec;
	nr_seen++;
	return 0;
}

static int walk(struct pkt *p, size_t len, struct ust_walk_result *res)
{
	nr_seen = 0;
	return shm_packet_walk(p->b, len, uuid, 3, &table, collect, NULL, res);
}

START_TEST(test_layout_check)
{
	static const char *good[] = { "", "F4", "S", "F4 S F8", "F0", "S S", "F1073741824" };
	static const char *bad[] = { " F4", "F4 ", "F4  S", "F", "Fx", "X", "SS",
				     "F4S", "F99999999999", "F1073741825", "F-1", "f4" };
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(shm_layout_check(good[i]) == 0, "'%s' rejected", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(shm_layout_check(bad[i]) == -EINVAL, "'%s' accepted", bad[i]);
	ck_assert_int_eq(shm_layout_check(NULL), -EINVAL);
}
END_TEST

START_TEST(test_layout_size)
{
	static const uint8_t buf[] = "abcdhi\0xyZ";	/* F4, "hi", F2, spare */

	ck_assert_int_eq(shm_layout_payload_size("F4 S F2", buf, sizeof(buf)), 9);
	ck_assert_int_eq(shm_layout_payload_size("F4 S F2", buf, 9), 9);
	ck_assert_int_eq(shm_layout_payload_size("F4 S F2", buf, 8), -1);
	ck_assert_int_eq(shm_layout_payload_size("", buf, 0), 0);
	ck_assert_int_eq(shm_layout_payload_size("F0", buf, 0), 0);
	/* The string is not terminated within the first 6 bytes. */
	ck_assert_int_eq(shm_layout_payload_size("F4 S", buf, 6), -1);
	ck_assert_int_eq(shm_layout_payload_size("S", buf, 4), -1);
	ck_assert_int_eq(shm_layout_payload_size("F4 X", buf, sizeof(buf)), -1);
	ck_assert_int_eq(shm_layout_payload_size("F11", buf, 10), -1);
}
END_TEST

/* Arrays, sequences, tags and variants (grammar in common/layout-walk.h). */
START_TEST(test_layout_compound_check)
{
	static const char *good[] = {
		"A3[F2]", "Q4[F4 S]", "Q1[]", "A2[Q1[S]]", "T1 V0[0:F4|1:S|2:]",
		"F4 T2 S V0[65535:F8]", "Q2[T1 V0[0:F1|1:F2]]",
		"T8 V0[18446744073709551615:S]", "A1[A1[A1[A1[F1]]]]",
	};
	static const char *bad[] = {
		"A0[F1]", "A65536[F1]", "A3[F2", "A3F2]", "A3[F2]]", "Q3[F1]",
		"Q4", "Q4[F1 ]", "V0[0:F4]", "T1 V1[0:F4]", "T1 V0[0F4]",
		"T1 V0[]", "T1 V0[0:F4|]", "T3", "T1 V0[0:F4", "V", "[F4]",
		"T1 V0[18446744073709551616:F1]", "T1 V0[0:F1] V1[0:F1]",
	};
	char deep[128] = "", tags[128] = "";
	size_t i, len;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(shm_layout_check(good[i]) == 0, "'%s' rejected", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(shm_layout_check(bad[i]) == -EINVAL, "'%s' accepted", bad[i]);
	/* Nesting is bounded: 16 levels pass, 17 do not. */
	for (i = 0; i < 17; i++)
		strcat(deep, "A1[");
	strcat(deep, "F1");
	for (i = 0; i < 17; i++)
		strcat(deep, "]");
	ck_assert_int_eq(shm_layout_check(deep), -EINVAL);
	len = strlen(deep);
	deep[len - 1] = '\0';
	ck_assert_int_eq(shm_layout_check(deep + 3), 0);
	/* So are tag slots: 16 pass, 17 do not. */
	for (i = 0; i < 17; i++)
		strcat(tags, i ? " T1" : "T1");
	ck_assert_int_eq(shm_layout_check(tags), -EINVAL);
	tags[strlen(tags) - 3] = '\0';
	ck_assert_int_eq(shm_layout_check(tags), 0);
}
END_TEST

START_TEST(test_layout_compound_size)
{
	/* Q2: length 2, then two { int32, string } elements. */
	static const uint8_t seq[] = { 2, 0, 1, 0, 0, 0, 'a', 0, 2, 0, 0, 0, 0, 9 };
	/* A2 of { tag u8, variant: 0 -> 1 byte, 1 -> 2 bytes }. */
	static const uint8_t arr[] = { 0, 7, 1, 8, 9, 5 };
	/* A sequence claiming 2^32-1 empty elements, and one of 2^32-1 bytes. */
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 1 };
	static const uint8_t tag[] = { 2, 'h', 'i', 0, 3 };

	ck_assert_int_eq(shm_layout_payload_size("Q2[F4 S]", seq, sizeof(seq)), 13);
	ck_assert_int_eq(shm_layout_payload_size("Q2[F4 S]", seq, 12), -1);
	ck_assert_int_eq(shm_layout_payload_size("Q1[F4]", seq, sizeof(seq)), 9);
	ck_assert_int_eq(shm_layout_payload_size("A3[F2]", seq, sizeof(seq)), 6);
	ck_assert_int_eq(shm_layout_payload_size("A2[T1 V0[0:F1|1:F2]]", arr,
						 sizeof(arr)), 5);
	ck_assert_int_eq(shm_layout_payload_size("Q4[]", huge, sizeof(huge)), 4);
	ck_assert_int_eq(shm_layout_payload_size("Q4[F1]", huge, sizeof(huge)), -1);
	/* The tag selects the option; no option for the value is corrupt. */
	ck_assert_int_eq(shm_layout_payload_size("T1 V0[1:F1|2:S]", tag,
						 sizeof(tag)), 4);
	ck_assert_int_eq(shm_layout_payload_size("T1 V0[1:F1|2:S] F1", tag,
						 sizeof(tag)), 5);
	ck_assert_int_eq(shm_layout_payload_size("T1 V0[0:F1|1:S]", tag,
						 sizeof(tag)), -1);
	/* A two-byte tag reads little endian: 0x6802 = 26626. */
	ck_assert_int_eq(shm_layout_payload_size("T2 V0[26626:F2|2:F1]", tag,
						 sizeof(tag)), 4);
	/* Syntax errors are errors with data too. */
	ck_assert_int_eq(shm_layout_payload_size("A2[F1", arr, sizeof(arr)), -1);
	ck_assert_int_eq(shm_layout_payload_size("Q1[F1", seq, sizeof(seq)), -1);
}
END_TEST

START_TEST(test_walk_good)
{
	struct ust_walk_result res;
	struct pkt p;
	uint64_t begin = 5 * WRAP - 100, t1 = begin + 50, t2 = 5 * WRAP + 10;
	uint64_t t3 = t2 + 10 * WRAP, t4 = t3 + WRAP - 1;
	int32_t v = -7;
	uint16_t two = 0xbeef;

	pkt_init(&p, begin, t4 + 5);
	compact(&p, 0, t1, 11);
	put(&p, &v, 4);
	compact(&p, 2, t2, 12);			/* low 27 bits wrap */
	put(&p, "hello", 6);
	put(&p, &two, 2);
	extended(&p, 40, t3, 13);		/* big gap, id > 30 */
	compact(&p, 0, t4, 14);			/* 2^27 - 1 later: one wrap */
	put(&p, &v, 4);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), 0);
	ck_assert_uint_eq(res.nr_records, 4);
	ck_assert_uint_eq(res.last_timestamp, t4);
	ck_assert_int_eq(nr_seen, 4);
	ck_assert_uint_eq(seen[0].timestamp, t1);
	ck_assert_uint_eq(seen[1].timestamp, t2);
	ck_assert_uint_eq(seen[2].timestamp, t3);
	ck_assert_uint_eq(seen[3].timestamp, t4);
	ck_assert_uint_eq(seen[1].id, 2);
	ck_assert_uint_eq(seen[2].id, 40);
	ck_assert_int_eq(seen[0].vtid, 11);
	ck_assert_int_eq(seen[3].vtid, 14);
	ck_assert_uint_eq(seen[1].payload_size, 8);
	ck_assert_str_eq((const char *)seen[1].payload, "hello");
	ck_assert_uint_eq(seen[2].payload_size, 0);
	ck_assert_uint_eq(seen[0].offset, HDR);
	ck_assert_uint_eq(seen[1].offset, HDR + 12);
}
END_TEST

/*
 * A channel recorded with no context (UST_CONTEXT=none): header then payload, no vtid.
 * The same bytes walked as a vtid channel do not parse.
 */
START_TEST(test_walk_no_context)
{
	struct ust_walk_result res;
	struct pkt p;
	uint64_t begin = 1000, t1 = 1010, t2 = begin + 3 * WRAP;
	uint32_t w = 0 | (uint32_t)(t1 << 5);
	uint8_t tag = UST_EV_EXTENDED;
	uint32_t id2 = 2;
	int32_t v = 77;

	pkt_init(&p, begin, t2);
	put(&p, &w, 4);				/* compact, id 0 */
	put(&p, &v, 4);
	put(&p, &tag, 1);			/* extended, id 2 */
	put(&p, &id2, 4);
	put(&p, &t2, 8);
	put(&p, "ab", 3);
	put(&p, &v, 2);
	table.event_context = 0;
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), 0);
	ck_assert_uint_eq(res.nr_records, 2);
	ck_assert_int_eq(nr_seen, 2);
	ck_assert_int_eq(seen[0].vtid, -1);
	ck_assert_int_eq(seen[1].vtid, -1);
	ck_assert_uint_eq(seen[0].offset, HDR);
	ck_assert_uint_eq(seen[0].payload_size, 4);
	ck_assert_int_eq(*(const int32_t *)seen[0].payload, 77);
	ck_assert_uint_eq(seen[1].offset, HDR + 8);
	ck_assert_uint_eq(seen[1].timestamp, t2);
	ck_assert_str_eq((const char *)seen[1].payload, "ab");
	ck_assert_uint_eq(seen[1].payload_size, 5);

	table.event_context = UST_CTX_VTID;
	ck_assert_int_eq(walk(&p, p.len, &res), -EINVAL);
}
END_TEST

START_TEST(test_walk_empty_and_padded)
{
	struct ust_walk_result res;
	struct pkt p;

	pkt_init(&p, 10, 10);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), 0);
	ck_assert_uint_eq(res.nr_records, 0);
	/* A buffer longer than the packet, packet_size padded: still fine. */
	ph(&p)->packet_size = 1024 * 8;
	ck_assert_int_eq(walk(&p, 1024, &res), 0);
}
END_TEST

START_TEST(test_walk_truncated)
{
	struct ust_walk_result res;
	struct pkt p;
	int32_t v = 1;

	pkt_init(&p, 0, 100);
	compact(&p, 0, 1, 1);
	put(&p, &v, 4);
	compact(&p, 0, 2, 1);
	put(&p, &v, 2);				/* half the payload */
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_uint_eq(res.error_offset, HDR + 12);
	ck_assert_ptr_nonnull(strstr(res.error, "runs past"));
	ck_assert_int_eq(nr_seen, 1);

	/* Only 2 bytes of a header. */
	pkt_init(&p, 0, 100);
	put(&p, &v, 2);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "header truncated"));

	/* An extended header cut short. */
	pkt_init(&p, 0, 100);
	extended(&p, 0, 5, 1);
	p.len -= 6;
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "truncated"));
}
END_TEST

START_TEST(test_walk_unknown_id)
{
	struct ust_walk_result res;
	struct pkt p;

	pkt_init(&p, 0, 100);
	compact(&p, 1, 1, 1);			/* no layout for id 1 */
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "unknown event id 1"));

	pkt_init(&p, 0, 100);
	extended(&p, 1000, 1, 1);		/* beyond the table */
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "unknown event id 1000"));

	pkt_init(&p, 0, 100);
	compact(&p, 0, 1, 1);
	ck_assert_int_eq(shm_packet_walk(p.b, pkt_close(&p), uuid, 3, NULL,
					 NULL, NULL, &res), -EINVAL);
}
END_TEST

START_TEST(test_walk_bad_header)
{
	struct ust_walk_result res;
	struct pkt p;
	size_t len;

	pkt_init(&p, 0, 100);
	len = pkt_close(&p);
	ph(&p)->magic = 0xc1fc1fc2;
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);
	ck_assert_str_eq(res.error, "bad magic 0xc1fc1fc2");

	pkt_init(&p, 0, 100);
	len = pkt_close(&p);
	ph(&p)->uuid[7] ^= 1;
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "uuid"));

	pkt_init(&p, 0, 100);
	len = pkt_close(&p);
	ph(&p)->stream_id = 4;
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "stream id 4"));

	pkt_init(&p, 0, 100);
	ck_assert_int_eq(walk(&p, HDR - 1, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "shorter than its header"));

	pkt_init(&p, 100, 99);			/* ends before it begins */
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "timestamp_end"));
}
END_TEST

START_TEST(test_walk_bad_sizes)
{
	struct ust_walk_result res;
	struct pkt p;
	size_t len;

	pkt_init(&p, 0, 100);
	len = pkt_close(&p);
	ph(&p)->content_size = (len + 1) * 8;	/* content_size > len */
	ph(&p)->packet_size = (len + 1) * 8;
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "content_size"));

	ph(&p)->content_size = len * 8 - 3;	/* not whole bytes */
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);

	ph(&p)->content_size = (HDR - 1) * 8;	/* inside the header */
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);

	ph(&p)->content_size = len * 8;
	ph(&p)->packet_size = len * 8 - 8;	/* smaller than the content */
	ck_assert_int_eq(walk(&p, len, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "packet_size"));

	ph(&p)->packet_size = len * 8 + 4;	/* not a multiple of 8 */
	ck_assert_int_eq(walk(&p, len + 1, &res), -EINVAL);
}
END_TEST

START_TEST(test_walk_time)
{
	struct ust_walk_result res;
	struct pkt p;

	/* Extended timestamp going backwards. */
	pkt_init(&p, 1000, 5000);
	compact(&p, 4, 2000, 1);
	extended(&p, 40, 1500, 1);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "backwards"));
	ck_assert_uint_eq(res.error_offset, HDR + 8);

	/* Extended timestamp before timestamp_begin. */
	pkt_init(&p, 1000, 5000);
	extended(&p, 40, 999, 1);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "backwards"));

	/* A compact value below the clock's low bits reads as a wrap... */
	pkt_init(&p, 1000, 5000);
	compact(&p, 4, 999, 1);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	/* ...and so lands after timestamp_end. */
	ck_assert_ptr_nonnull(strstr(res.error, "after timestamp_end"));

	/* Past timestamp_end without a wrap. */
	pkt_init(&p, 1000, 5000);
	compact(&p, 4, 5001, 1);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);

	/* Exactly at both bounds is fine. */
	pkt_init(&p, 1000, 5000);
	compact(&p, 4, 1000, 1);
	extended(&p, 40, 5000, 1);
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), 0);
}
END_TEST

START_TEST(test_walk_strings)
{
	struct ust_walk_result res;
	struct pkt p;

	pkt_init(&p, 0, 100);
	compact(&p, 2, 1, 1);
	put(&p, "abc", 3);			/* no NUL before the end */
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.error, "runs past"));

	/* The NUL exists, but only beyond content_size. */
	pkt_init(&p, 0, 100);
	compact(&p, 2, 1, 1);
	put(&p, "abc", 4);
	p.len -= 1;
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);

	/* Padding bits of an extended header must be zero. */
	pkt_init(&p, 0, 100);
	extended(&p, 40, 1, 1);
	p.b[HDR] |= 0x20;
	ck_assert_int_eq(walk(&p, pkt_close(&p), &res), -EINVAL);
}
END_TEST

static int stop_at_second(const struct ust_record_view *rec, void *arg)
{
	int *n = arg;

	(void)rec;
	return ++*n == 2 ? 42 : 0;
}

START_TEST(test_walk_callback_stops)
{
	struct ust_walk_result res;
	struct pkt p;
	int n = 0;

	pkt_init(&p, 0, 100);
	compact(&p, 4, 1, 1);
	compact(&p, 4, 2, 1);
	compact(&p, 4, 3, 1);
	ck_assert_int_eq(shm_packet_walk(p.b, pkt_close(&p), uuid, 3, &table,
					 stop_at_second, &n, &res), 42);
	ck_assert_int_eq(n, 2);
	/* NULL uuid: not checked. */
	ck_assert_int_eq(shm_packet_walk(p.b, p.len, NULL, 3, &table, NULL,
					 NULL, &res), 0);
	ck_assert_uint_eq(res.nr_records, 3);
}
END_TEST

/*
 * The counted path (abi/shm.h, I17): a count the writer published is
 * taken when the packet's header is sound and the count can fill its
 * content; any other count is refused, so the consumer walks instead.
 */
START_TEST(test_counted)
{
	struct ust_walk_result res;
	struct pkt p;
	size_t len;

	pkt_init(&p, 100, 200);
	compact(&p, 0, 110, 1);		/* 8 bytes each */
	compact(&p, 4, 120, 1);
	compact(&p, 4, 130, 1);
	len = pkt_close(&p);
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 3, &res), 0);
	ck_assert_uint_eq(res.nr_records, 3);
	ck_assert_uint_eq(res.last_timestamp, 200);
	/* Up to one record per 4 bytes is plausible (24 bytes: 6)... */
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 6, &res), 0);
	/* ...more is not, nor none for content, nor a wrong stream. */
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 7, &res), -EINVAL);
	ck_assert_str_eq(res.error, "7 records cannot fill 24 bytes");
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 0, &res), -EINVAL);
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 4, 3, &res), -EINVAL);
	/* A damaged header is refused whatever the count. */
	ph(&p)->magic ^= 1;
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 3, &res), -EINVAL);
	ph(&p)->magic ^= 1;
	ph(&p)->content_size = (len + 4096) * 8;
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 3, &res), -EINVAL);

	/* An empty packet: 0 records only. */
	pkt_init(&p, 10, 10);
	len = pkt_close(&p);
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 0, &res), 0);
	ck_assert_uint_eq(res.nr_records, 0);
	ck_assert_int_eq(shm_packet_counted(p.b, len, uuid, 3, 1, &res), -EINVAL);
}
END_TEST

/* The fixed payload sizes the walk uses instead of the layout string. */
START_TEST(test_layout_fixed_size)
{
	ck_assert_int_eq(shm_layout_fixed_size(""), 0);
	ck_assert_int_eq(shm_layout_fixed_size("F4"), 4);
	ck_assert_int_eq(shm_layout_fixed_size("F8 F4 F1"), 13);
	ck_assert_int_eq(shm_layout_fixed_size("F4 S"), -1);
	ck_assert_int_eq(shm_layout_fixed_size("Q2[F4]"), -1);
	ck_assert_int_eq(shm_layout_fixed_size("A2[F4]"), -1);
	ck_assert_int_eq(shm_layout_fixed_size("F"), -1);
	ck_assert_int_eq(shm_layout_fixed_size("X4"), -1);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "layout", NULL, NULL, 0, {
			test_layout_check, test_layout_size,
			test_layout_compound_check, test_layout_compound_size,
			test_layout_fixed_size, NULL } },
		{ "walk", setup, NULL, 0, {
			test_walk_good, test_walk_no_context,
			test_walk_empty_and_padded, test_walk_truncated,
			test_walk_unknown_id, test_walk_bad_header,
			test_walk_bad_sizes, test_walk_time, test_walk_strings,
			test_walk_callback_stops, test_counted, NULL } },
	};

	return CHECK_RUN_CASES("packet", cases);
}
