/*
 * check_reader.c - unit tests of the reader: the TSDL parser on the
 * metadata our consumer writes and on bad input, the cycles-to-ns
 * conversion, the timestamp rebuild over 27-bit wraps on a trace
 * written here byte by byte, and the number formatting of the printer
 * against snprintf().
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../check_run.h"
#include "reader.h"
#include "abi/shm.h"
#include "ctf/format.h"

static const char meta_text[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"trace { major = 1; minor = 8; uuid = \"63db57ce-64dc-4244-b4c2-be066ac2aca8\";\n"
	"  byte_order = le;\n"
	"  packet.header := struct { uint32_t magic; uint8_t uuid[16];\n"
	"    uint32_t stream_id; uint64_t stream_instance_id; } align(8); };\n"
	"env { hostname = \"h\"; procname = \"p\"; vpid = 42; };\n"
	"clock { name = \"c\"; freq = 1000000000; offset_s = 1700000000; offset = 1500000000; absolute = TRUE; };\n"
	"typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_clock_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_clock_t;\n"
	"struct packet_context { uint64_clock_t timestamp_begin; uint64_t packet_seq_num;\n"
	"  uint32_t cpu_id; uint64_clock_t timestamp_end; uint64_t content_size;\n"
	"  uint64_t packet_size; uint64_t events_discarded; } align(8);\n"
	"struct event_header { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"  variant <id> { struct { uint27_clock_t timestamp; } compact;\n"
	"    struct { uint32_t id; uint64_clock_t timestamp; } align(8) extended; } v; } align(8);\n"
	"stream { id = 0; packet.context := struct packet_context;\n"
	"  event.header := struct event_header; event.context := struct { int32_t _vtid; } align(8); };\n"
	"event { name = \"a:b\"; id = 0; stream_id = 0; fields := struct {\n"
	"  integer { size = 16; align = 8; signed = false; base = 16; } _x; string _s; }; };\n";

START_TEST(test_parse_consumer_metadata)
{
	const struct rd_stream_class *sc;
	struct rd_metadata md;
	const struct rd_type *f;
	char err[256];

	ck_assert_int_eq(rd_metadata_parse(&md, meta_text, strlen(meta_text),
					   err, sizeof(err)), 0);
	ck_assert(md.has_uuid);
	ck_assert_uint_eq(md.uuid[0], 0x63);
	ck_assert_uint_eq(md.clock.offset_s, 1700000001);	/* normalized */
	ck_assert_uint_eq(md.clock.offset, 500000000);
	ck_assert_int_eq(rd_metadata_env(&md, "vpid")->num, 42);
	sc = rd_metadata_stream(&md, 0);
	ck_assert_ptr_nonnull(sc);
	ck_assert_int_eq(sc->event_header->kind, RD_STRUCT);
	ck_assert_int_eq(sc->event_header->u.s.members[1].type->kind, RD_VARIANT);
	ck_assert_int_eq(sc->event_header->u.s.members[1].type->u.v.tag_index, 0);
	ck_assert_str_eq(sc->event_context->u.s.members[0].name, "vtid");
	f = sc->events[0]->fields;
	ck_assert_str_eq(f->u.s.members[0].name, "x");
	ck_assert_uint_eq(f->u.s.members[0].type->u.i.base, 16);
	ck_assert_int_eq(f->u.s.members[1].type->kind, RD_STRING);
	ck_assert_uint_eq(md.packet_header->u.s.members[1].type->kind, RD_ARRAY);
	rd_metadata_release(&md);
}
END_TEST

static void expect_error(const char *text, const char *want)
{
	struct rd_metadata md;
	char err[256];

	ck_assert_int_eq(rd_metadata_parse(&md, text, strlen(text), err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, want), "got \"%s\", want \"%s\"", err, want);
}

START_TEST(test_parse_errors)
{
	expect_error("garbage", "missing \"/* CTF 1.8\" signature");
	expect_error("/* CTF 1.8 */ trace { major = 1 }", "line 1: expected ';', got '}'");
	expect_error("/* CTF 1.8 */\n\ntypealias integer { size = 65; } := x;", "line 3: integer size 65");
	expect_error("/* CTF 1.8 */ typealias foo := bar;", "unknown type 'foo'");
	expect_error("/* CTF 1.8 */ trace { uuid = \"zz\"; };", "bad uuid");
	expect_error("/* CTF 1.8 */ /* open", "unterminated comment");
	expect_error("/* CTF 1.8 */ env { a = \"x", "unterminated string");
	expect_error("/* CTF 1.8 */ struct { struct { struct { struct { struct { struct { struct { struct {"
		     "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
		     "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
		     "struct { struct { struct { struct { struct { struct { struct { struct {", "nested too deeply");
	expect_error("/* CTF 1.8 */ trace { major = 1; minor = 8; };", "no clock block");
	expect_error("/* CTF 1.8 */ clock { freq = 0; };", "freq must be positive");
	expect_error("/* CTF 1.8 */ typealias floating_point { exp_dig = 8; } := f;",
		     "floating_point with exp_dig 8 and mant_dig 0: only IEEE 754 binary32 and binary64 are supported");
	expect_error("/* CTF 1.8 */ typealias floating_point { exp_dig = 8; mant_dig = 24; base = 2; } := f;",
		     "unknown floating_point attribute 'base'");
	expect_error("/* CTF 1.8 */ typealias floating_point { byte_order = middle; } := f;",
		     "line 1: bad byte_order 'middle'");
	expect_error("/* CTF 1.8 */ typealias integer { size = 8; base = 3; } := u8;",
		     "line 1: bad integer base");
	expect_error("/* CTF 1.8 */ typealias integer { size = 8 } := u8;",
		     "line 1: expected ';', got '}'");
	expect_error("/* CTF 1.8 */ stream { packet.header := struct { }; };",
		     "line 1: unknown stream scope 'packet.header'");
	expect_error("/* CTF 1.8 */ stream { event.context := integer { size = 8; }; };",
		     "line 1: event.context must be a struct");
	expect_error("/* CTF 1.8 */ event { payload := struct { }; };",
		     "line 1: unknown event scope 'payload'");
}
END_TEST

START_TEST(test_clock_ns)
{
	struct rd_clock c = { .freq = 1000000000, .offset_s = 10, .offset = 5 };

	rd_clock_set_origin(&c);
	ck_assert_int_eq(rd_clock_ns(&c, 7), 10000000012LL);
	/* Non-GHz: each part through a double, truncated, like babeltrace2. */
	c.freq = 2596139809ULL;
	c.offset_s = 1795239813;
	c.offset = 1696537105;
	rd_clock_set_origin(&c);
	ck_assert_int_eq(rd_clock_ns(&c, 0), 1795239813000000000LL +
			 (int64_t)(1e9 * 1696537105.0 / 2596139809.0));
	ck_assert_int_eq(rd_clock_ns(&c, 123456789012345ULL), 1795239813000000000LL +
			 (int64_t)(1e9 * 1696537105.0 / 2596139809.0) +
			 (int64_t)(1e9 * 123456789012345.0 / 2596139809.0));
}
END_TEST

/* Write a one-packet trace whose events' compact timestamps wrap. */
static void write_trace(const char *dir, const uint64_t *ts, size_t n)
{
	uint8_t pkt[4096] = { 0 }, *p;
	struct ust_packet_header h = { .magic = UST_CTF_MAGIC };
	uint64_t last;
	char path[512];
	size_t i, off = sizeof(h);
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(meta_text, f);
	fclose(f);
	h.timestamp_begin = last = ts[0];
	for (i = 0; i < n; i++) {
		uint16_t x = i;

		p = pkt + off;
		off += ctf_ev_header_encode(p, 0, ts[i], last, 7);
		memcpy(pkt + off, &x, 2);
		pkt[off + 2] = 'a';
		pkt[off + 3] = '\0';
		off += 4;
		last = ts[i];
	}
	h.timestamp_end = last;
	h.content_size = off * 8;
	h.packet_size = sizeof(pkt) * 8;
	memcpy(pkt, &h, sizeof(h));
	snprintf(path, sizeof(path), "%s/ust_0", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(pkt, 1, sizeof(pkt), f);
	fclose(f);
}

START_TEST(test_timestamp_rebuild)
{
	const uint64_t wrap = 1ull << 27;
	/* steps below 2^27 that cross 2^27 boundaries; a big gap (extended) */
	const uint64_t ts[] = { 1000, wrap - 10, wrap + 5, 3 * wrap - 1,
				3 * wrap + wrap - 2, 50 * wrap + 3, 50 * wrap + 3 };
	char dir[] = "/tmp/check_reader.XXXXXX", cmd[64], err[256], want[128];
	const char *paths[1] = { dir };
	struct rd_reader *r;
	struct rd_msg m;
	struct rd_out o;
	size_t i = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_trace(dir, ts, sizeof(ts) / sizeof(ts[0]));
	ck_assert_msg(rd_reader_open(&r, paths, 1, err, sizeof(err)) == 0, "%s", err);
	rd_out_init(&o, NULL);
	while (rd_reader_next(r, &m) > 0) {
		ck_assert_uint_lt(i, sizeof(ts) / sizeof(ts[0]));
		ck_assert_uint_eq(m.cycles, ts[i]);
		ck_assert_int_eq(m.ns, 1700000001500000000LL + (int64_t)ts[i]);
		ck_assert_int_eq(m.vtid, 7);
		o.len = 0;
		ck_assert_int_eq(rd_reader_print_event(r, &m, &o), 0);
		rd_out_char(&o, '\0');
		snprintf(want, sizeof(want),
			 "h:p:(42) a:b: { cpu_id = 0 }, { vtid = 7 }, { x = 0x%zX, s = \"a\" }\n", i);
		ck_assert_str_eq(o.buf, want);
		i++;
	}
	ck_assert_uint_eq(i, sizeof(ts) / sizeof(ts[0]));
	rd_out_release(&o);
	rd_reader_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Every digit count and its edges, then a sweep of xorshift values. */
static uint64_t next_value(size_t i, uint64_t *seed)
{
	static const uint64_t edges[] = {
		0, 1, 9, 10, 99, 100, 9999, 10000, 99999999, 100000000, 999999999,
		1000000000, 18446744073709551615ull, 9223372036854775808ull,
	};

	if (i < sizeof(edges) / sizeof(edges[0]))
		return edges[i];
	if (i < 64 + sizeof(edges) / sizeof(edges[0]))
		return 1ull << (i - sizeof(edges) / sizeof(edges[0]));
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	return *seed >> (*seed % 64);	/* all lengths */
}

/* ck_assert_str_eq() only on a difference: it is slow */
#define expect_str(got, want) do { \
		if (strcmp(got, want)) \
			ck_assert_str_eq(got, want); \
	} while (0)

START_TEST(test_number_format)
{
	struct rd_fmt_memo memo = RD_FMT_MEMO_INIT;
	char got[64], want[64], *end;
	uint64_t seed = 88172645463325252ull, v;
	size_t i;

	for (i = 0; i < 20000; i++) {
		v = next_value(i, &seed);
		snprintf(want, sizeof(want), "%" PRIu64, v);
		end = rd_fmt_u64(got, v);
		*end = '\0';
		expect_str(got, want);
		end = rd_fmt_u64_memo(got, v, &memo);	/* filled, then from the memo */
		end = rd_fmt_u64_memo(got, v, &memo);
		*end = '\0';
		expect_str(got, want);
		snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
		end = rd_fmt_i64(got, (int64_t)v);
		*end = '\0';
		expect_str(got, want);
		snprintf(want, sizeof(want), "%09" PRIu64, v % 1000000000);
		end = rd_fmt_nsec(got, (uint32_t)(v % 1000000000));
		*end = '\0';
		expect_str(got, want);
	}
}
END_TEST

/* A fresh memo, first use: any value prints whole (UINT64_MAX printed empty). */
START_TEST(test_number_memo_fresh)
{
	static const uint64_t vals[] = {
		0, 1, 99999999, 100000000, UINT64_MAX, UINT64_MAX - 1,
		(uint64_t)INT64_MAX,
	};
	char got[64], want[64], *end;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct rd_fmt_memo memo = RD_FMT_MEMO_INIT;

		snprintf(want, sizeof(want), "%" PRIu64, vals[i]);
		end = rd_fmt_u64_memo(got, vals[i], &memo);
		*end = '\0';
		ck_assert_str_eq(got, want);
	}
}
END_TEST

/* The cached time prefix, at and across second and 10 us boundaries. */
START_TEST(test_time_format)
{
	static const int64_t ns[] = {
		1700000000000000000, 1700000000000009999, 1700000000000010000,
		1700000000999999999, 1700000001000000000, 1700000000123456789,
		1700000000123450000, 1700000005000000001,
	};
	struct rd_out o;
	char want[64];
	size_t i;

	rd_out_init(&o, NULL);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		time_t t = (time_t)(ns[i] / 1000000000);
		struct tm tm;

		gmtime_r(&t, &tm);
		snprintf(want, sizeof(want), "%02d:%02d:%02d.%09" PRId64, tm.tm_hour,
			 tm.tm_min, tm.tm_sec, ns[i] % 1000000000);
		o.len = 0;
		rd_out_time(&o, ns[i], true);
		rd_out_char(&o, '\0');
		ck_assert_str_eq(o.buf, want);
	}
	rd_out_release(&o);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "tsdl", NULL, NULL, 0, {
			test_parse_consumer_metadata, test_parse_errors,
			NULL } },
		{ "time", NULL, NULL, 0, {
			test_clock_ns, test_timestamp_rebuild, NULL } },
		{ "format", NULL, NULL, 0, {
			test_number_format, test_number_memo_fresh,
			test_time_format, NULL } },
	};

	return CHECK_RUN_CASES("reader", cases);
}
