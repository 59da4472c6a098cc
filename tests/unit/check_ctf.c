/*
 * check_ctf.c - unit tests of ctf/: the event header encoding of
 * ctf/format.h at its boundaries (compact or extended), the UUID text
 * and the TSDL helpers of ctf/tsdl.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ctf/format.h"
#include "ctf/tsdl.h"

#define TS_LIMIT	(1ull << UST_EV_TS_BITS)	/* 2^27 */
#define VTID		0x01020304

/* Encode; returns the size and leaves the bytes in `h`. */
static size_t encode(uint8_t h[UST_EV_HEADER_MAX], uint32_t id, uint64_t ts,
		     uint64_t last_ts)
{
	memset(h, 0xee, UST_EV_HEADER_MAX);
	return ctf_ev_header_encode(h, id, ts, last_ts, VTID);
}

/* A compact header: id in bits 0-4, the timestamp's low 27 bits above. */
static void expect_compact(const uint8_t *h, uint32_t id, uint64_t ts)
{
	uint32_t word = ctf_get_le32(h);

	ck_assert_uint_eq(word & 0x1f, id);
	ck_assert_uint_eq(word >> 5, ts & (TS_LIMIT - 1));
	ck_assert_uint_eq(ctf_get_le32(h + UST_EV_COMPACT_SIZE), VTID);
}

static void expect_extended(const uint8_t *h, uint32_t id, uint64_t ts)
{
	ck_assert_uint_eq(h[0], UST_EV_EXTENDED);
	ck_assert_uint_eq(ctf_get_le32(h + 1), id);
	ck_assert_uint_eq(ctf_get_le64(h + 5), ts);
	ck_assert_uint_eq(ctf_get_le32(h + UST_EV_EXTENDED_SIZE), VTID);
}

START_TEST(test_header_id_boundary)
{
	uint8_t h[UST_EV_HEADER_MAX];

	ck_assert_uint_eq(encode(h, 0, 100, 100), 8);
	expect_compact(h, 0, 100);
	ck_assert_uint_eq(encode(h, 30, 100, 90), 8);
	expect_compact(h, 30, 100);
	/* 31 marks the extended header: an event with id 31 uses it. */
	ck_assert_uint_eq(encode(h, 31, 100, 90), 17);
	expect_extended(h, 31, 100);
	ck_assert_uint_eq(encode(h, 0xfffffffe, 100, 90), 17);
	expect_extended(h, 0xfffffffe, 100);
}
END_TEST

START_TEST(test_header_ts_boundary)
{
	uint64_t last = 5 * TS_LIMIT + 12345;
	uint8_t h[UST_EV_HEADER_MAX];

	/* Up to 2^27 - 1 ticks after the previous record: compact. */
	ck_assert_uint_eq(encode(h, 7, last + TS_LIMIT - 1, last), 8);
	expect_compact(h, 7, last + TS_LIMIT - 1);
	/* 2^27 later: a reader could not tell it from 0 ticks later. */
	ck_assert_uint_eq(encode(h, 7, last + TS_LIMIT, last), 17);
	expect_extended(h, 7, last + TS_LIMIT);
	/* Crossing a 2^27 boundary within the window stays compact. */
	ck_assert_uint_eq(encode(h, 2, 6 * TS_LIMIT + 1, 6 * TS_LIMIT - 1), 8);
	expect_compact(h, 2, 6 * TS_LIMIT + 1);
	/* A timestamp before the previous one is never compact. */
	ck_assert_uint_eq(encode(h, 2, last - 1, last), 17);
	expect_extended(h, 2, last - 1);
	ck_assert_uint_eq(encode(h, 2, UINT64_MAX, 0), 17);
	expect_extended(h, 2, UINT64_MAX);
}
END_TEST

/*
 * The context image and the ip are always stored, with no branch; only
 * the sizes given say what counts.
 */
START_TEST(test_header_context)
{
	uint8_t h[UST_EV_HEADER_MAX], img[UST_CTX_IMAGE_MAX];
	struct ctf_ctx_values v = { .vtid = VTID, .vpid = 77, .procname = "name",
				    .pthread_id = 0x1122334455667788ull };

	ck_assert_uint_eq(ctf_ev_context_size(UST_CTX_VTID), 4);
	ck_assert_uint_eq(ctf_ev_context_size(0), 0);
	ck_assert_uint_eq(ctf_ev_context_size(UST_CTX_ALL), 41);
	ck_assert_uint_eq(ctf_ev_context_image_size(UST_CTX_ALL), 33);
	ck_assert_uint_eq(ctf_ev_context_offset(UST_CTX_ALL, UST_CTX_PTHREAD_ID), 25);
	ck_assert_uint_eq(ctf_ev_context_offset(UST_CTX_VPID | UST_CTX_IP, UST_CTX_IP), 4);
	ck_assert_uint_eq(UST_EV_HEADER_MAX, 61);
	ctf_ev_context_image(img, UST_CTX_VTID, &v);
	memset(h, 0, sizeof(h));
	ck_assert_uint_eq(ctf_ev_header_encode_ctx(h, 3, 10, 0, img, 0, 4, 0), 4);
	expect_compact(h, 3, 10);
	ck_assert_uint_eq(ctf_ev_header_encode_ctx(h, 40, 10, 0, img, 0, 4, 0), 13);
	expect_extended(h, 40, 10);
	ck_assert_uint_eq(ctf_ev_header_encode_ctx(h, 3, 10, 0, img, 0, 4, 4), 8);

	/* Every field, in record order, after a compact header. */
	ctf_ev_context_image(img, UST_CTX_ALL, &v);
	ck_assert_uint_eq(ctf_ev_header_encode_ctx(h, 3, 10, 0, img, 0xabcdef,
						   33, 41), 45);
	expect_compact(h, 3, 10);
	ck_assert_uint_eq(ctf_get_le32(h + 8), 77);
	ck_assert_mem_eq(h + 12, "name\0\0\0\0\0\0\0\0\0\0\0\0", 17);
	ck_assert_uint_eq(ctf_get_le64(h + 29), 0x1122334455667788ull);
	ck_assert_uint_eq(ctf_get_le64(h + 37), 0xabcdef);

	/* A set without the vtid: the vpid comes first, the ip after it. */
	ctf_ev_context_image(img, UST_CTX_VPID | UST_CTX_IP, &v);
	ck_assert_uint_eq(ctf_ev_header_encode_ctx(h, 3, 10, 0, img, 0x42, 4, 12), 16);
	ck_assert_uint_eq(ctf_get_le32(h + 4), 77);
	ck_assert_uint_eq(ctf_get_le64(h + 8), 0x42);
}
END_TEST

START_TEST(test_packet_header_layout)
{
	/* The TSDL of ctf/tsdl.c declares these offsets, 84 bytes in all. */
	ck_assert_uint_eq(UST_PACKET_OFF(magic), 0);
	ck_assert_uint_eq(UST_PACKET_OFF(uuid), 4);
	ck_assert_uint_eq(UST_PACKET_OFF(stream_id), 20);
	ck_assert_uint_eq(UST_PACKET_OFF(stream_instance_id), 24);
	ck_assert_uint_eq(UST_PACKET_OFF(timestamp_begin), 32);
	ck_assert_uint_eq(UST_PACKET_OFF(packet_seq_num), 40);
	ck_assert_uint_eq(UST_PACKET_OFF(cpu_id), 48);
	ck_assert_uint_eq(UST_PACKET_CLOSE_OFFSET, 52);
	ck_assert_uint_eq(UST_PACKET_OFF(events_discarded), 76);
	ck_assert_uint_eq(UST_PACKET_HEADER_SIZE, 84);
	ck_assert_uint_eq(sizeof(struct ust_packet_close), 32);
}
END_TEST

START_TEST(test_le_helpers)
{
	uint8_t b[12] = { 0 };

	ctf_put_le64(b + 3, 0x0807060504030201ull);
	ck_assert_uint_eq(b[3], 1);
	ck_assert_uint_eq(b[10], 8);
	ck_assert_uint_eq(ctf_get_le64(b + 3), 0x0807060504030201ull);
	ck_assert_uint_eq(ctf_get_le32(b + 4), 0x05040302);
}
END_TEST

#define UUID_TEXT "00112233-4455-6677-8899-aabbccddeeff"

static const uint8_t uuid_bytes[16] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

/* Parse an exact-size copy of `text`, so an over-read is caught (ASan). */
static int parse_copy(const char *text, uint8_t u[16])
{
	char *copy = strdup(text);
	int ret;

	ck_assert_ptr_nonnull(copy);
	ret = ctf_uuid_parse(copy, u);
	free(copy);
	return ret;
}

START_TEST(test_uuid)
{
	static const char *const bad[] = {
		"", "00112233", "00112233-4455-6677-8899-aabbccddeef",
		"00112233-4455-6677-8899-aabbccddeeff0",
		"00112233-4455-6677-8899-aabbccddeeff ",
		"0011223-34455-6677-8899-aabbccddeeff",
		"00112233+4455-6677-8899-aabbccddeeff",
		"g0112233-4455-6677-8899-aabbccddeeff",
		"00112233-4455-6677-8899-aabbccddeef-",
		"{00112233-4455-6677-8899-aabbccddeef}",
	};
	char text[37];
	uint8_t u[16];
	size_t i;

	ctf_uuid_format(uuid_bytes, text);
	ck_assert_str_eq(text, UUID_TEXT);
	memset(u, 0, sizeof(u));
	ck_assert_int_eq(parse_copy(UUID_TEXT, u), 0);
	ck_assert_mem_eq(u, uuid_bytes, 16);
	/* Upper case, and the newline of a file such as the boot id. */
	memset(u, 0, sizeof(u));
	ck_assert_int_eq(parse_copy("00112233-4455-6677-8899-AABBCCDDEEFF\n", u), 0);
	ck_assert_mem_eq(u, uuid_bytes, 16);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(parse_copy(bad[i], u) == -EINVAL, "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(test_literal_sanitize)
{
	char s[] = "a\"b\\c\n\x01\x7f\xc3\xa9 ok~";

	ctf_tsdl_literal_sanitize(s);
	ck_assert_str_eq(s, "a_b_c_____ ok~");
}
END_TEST

/* What a TSDL writer prints, as a string to be freed. */
static char *printed(void (*write)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	write(f, arg);
	fclose(f);
	return text;
}

static void write_prelude(FILE *f, const void *uuid) { ctf_tsdl_prelude(f, uuid); }
static void write_clock(FILE *f, const void *clk) { ctf_tsdl_clock(f, clk); }

START_TEST(test_tsdl_prelude)
{
	char *text = printed(write_prelude, UUID_TEXT);

	ck_assert_msg(!strncmp(text, "/* CTF 1.8 */\n", 14), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\tuuid = \"" UUID_TEXT "\";\n"));
	ck_assert_ptr_nonnull(strstr(text, "\tbyte_order = le;\n"));
	ck_assert_ptr_nonnull(strstr(text, "\tpacket.header := struct {\n"
				     "\t\tuint32_t magic;\n"
				     "\t\tuint8_t uuid[16];\n"
				     "\t\tuint32_t stream_id;\n"
				     "\t\tuint64_t stream_instance_id;\n"
				     "\t} align(8);\n"));
	free(text);
}
END_TEST

START_TEST(test_tsdl_clock)
{
	struct ust_clock clk = { UST_CLOCK_TSC, 2500000000ull, -5, 7, UUID_TEXT };
	char *text = printed(write_clock, &clk);

	ck_assert_ptr_nonnull(strstr(text, "clock {\n\tname = \"ust_clock\";\n"
				     "\tuuid = \"" UUID_TEXT "\";\n"
				     "\tdescription = \"TSC\";\n"
				     "\tfreq = 2500000000;\n"
				     "\tprecision = 1;\n"
				     "\toffset_s = -5;\n"
				     "\toffset = 7;\n"
				     "\tabsolute = TRUE;\n};\n"));
	ck_assert_ptr_nonnull(strstr(text, "map = clock.ust_clock.value; } := uint27_clock_ust_t;\n"));
	free(text);

	/* No boot id: no uuid line. */
	clk = (struct ust_clock){ UST_CLOCK_MONOTONIC, 1000000000, 0, 0, "" };
	text = printed(write_clock, &clk);
	ck_assert_ptr_nonnull(strstr(text, "clock {\n\tname = \"ust_clock\";\n"
				     "\tdescription = \"CLOCK_MONOTONIC\";\n"
				     "\tfreq = 1000000000;\n"));
	ck_assert_ptr_null(strstr(text, "uuid"));
	free(text);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "format", NULL, NULL, 0, {
			test_header_id_boundary, test_header_ts_boundary,
			test_header_context, test_packet_header_layout,
			test_le_helpers, NULL } },
		{ "tsdl", NULL, NULL, 0, {
			test_uuid, test_literal_sanitize, test_tsdl_prelude,
			test_tsdl_clock, NULL } },
	};

	return CHECK_RUN_CASES("ctf", cases);
}
