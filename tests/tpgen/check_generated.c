/*
 * check_generated.c - run the code tpgen generates for tpt.xml and
 * other.xml, against the stand-in libust of mock-ust.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The golden files say what the code looks like; this says what it does:
 * the constructors register both providers with correct descriptors, a
 * disabled event writes nothing, an enabled one passes segments whose
 * bytes are the packed little-endian fields and whose total is the
 * payload size, strings end with a NUL that is not the caller's, and the
 * destructors unregister.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mock-ust.h"
#include "other_tp.h"
#include "tpt_tp.h"

/* Append `len` bytes of `v` (x86-64: little endian) to `buf`. */
static size_t put(unsigned char *buf, size_t off, const void *v, size_t len)
{
	memcpy(buf + off, v, len);
	return off + len;
}

/*
 * Walk a payload the way the consumer will, with the layout string:
 * "F<n>" skips n bytes, "S" skips past the first NUL.  Returns the size
 * found, or -1 when the payload is too short or the layout malformed.
 */
static long walk_layout(const char *layout, const unsigned char *p, size_t len)
{
	size_t off = 0;
	char *end;
	void *nul;

	while (*layout) {
		if (*layout == 'F') {
			off += strtoul(layout + 1, &end, 10);
			layout = end;
		} else if (*layout == 'S') {
			nul = memchr(p + off, 0, len > off ? len - off : 0);
			if (!nul)
				return -1;
			off = (size_t)((unsigned char *)nul - p) + 1;
			layout++;
		} else {
			return -1;
		}
		if (off > len)
			return -1;
		if (*layout == ' ')
			layout++;
	}
	return (long)off;
}

/* The last write's consistency: sizes agree and the layout walks it. */
static void check_last_write(struct ust_event_desc *event)
{
	ck_assert_ptr_eq(mock_last.event, event);
	ck_assert_uint_eq(mock_last.payload_size, mock_last.seg_total);
	ck_assert_int_eq(mock_last.truncated, 0);
	ck_assert_int_eq(walk_layout(event->layout, mock_last.payload,
				     mock_last.seg_total),
			 (long)mock_last.seg_total);
}

static void setup(void)
{
	mock_enable_all(1);
	mock_reset_writes();
}

START_TEST(test_providers_registered)
{
	struct ust_provider *tpt = mock_find_provider("tpt");
	struct ust_provider *other = mock_find_provider("other");

	ck_assert_uint_eq(mock_nr_providers, 2);
	ck_assert_ptr_nonnull(tpt);
	ck_assert_ptr_nonnull(other);
	ck_assert_uint_eq(tpt->struct_size, sizeof(struct ust_provider));
	ck_assert_uint_eq(tpt->abi_version, UST_ABI_VERSION);
	ck_assert_uint_eq(tpt->nr_events, 6);
	ck_assert_uint_eq(other->nr_events, 2);
	ck_assert_uint_eq(tpt->registered, 0);
	ck_assert_ptr_null(other->description);
	ck_assert_str_eq(tpt->description,
			 "Every type tpgen knows so far. Descriptions are free "
			 "text that must survive as C: \"quotes\", back\\slashes, "
			 "a comment end */ or start /*, trigraphs ?\?= ?\?/ and "
			 "UTF-8 (d\303\251j\303\240 vu) & entities.");
	ck_assert_ptr_eq(tpt->events[0], &__ust_event_tpt_signed_ints);
	ck_assert_ptr_eq(tpt->events[5], &__ust_event_tpt_one_string);
	ck_assert_ptr_eq(other->events[1], &__ust_event_other_empty);
}
END_TEST

START_TEST(test_descriptors)
{
	static const struct {
		struct ust_event_desc *desc;
		const char *name;
		int32_t loglevel;
		const char *layout;
	} expect[] = {
		{ &__ust_event_tpt_signed_ints, "signed_ints", 0, "F15" },
		{ &__ust_event_tpt_unsigned_ints, "unsigned_ints", 14, "F15" },
		{ &__ust_event_tpt_bases, "bases", 7, "F15" },
		{ &__ust_event_tpt_strings, "strings", -1, "S F3 S S F8" },
		{ &__ust_event_tpt_empty, "empty", -1, "" },
		{ &__ust_event_tpt_one_string, "one_string", 3, "S" },
		{ &__ust_event_other_strings, "strings", -1, "F4" },
		{ &__ust_event_other_empty, "empty", 2, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		const struct ust_event_desc *d = expect[i].desc;

		ck_assert_uint_eq(d->struct_size, sizeof(struct ust_event_desc));
		ck_assert_str_eq(d->name, expect[i].name);
		ck_assert_int_eq(d->loglevel, expect[i].loglevel);
		ck_assert_str_eq(d->layout, expect[i].layout);
		ck_assert_uint_eq(d->id, 0);
		ck_assert_ptr_null(d->priv);
	}
	ck_assert_str_eq(__ust_event_tpt_bases.tsdl_fields,
			 "integer { size = 32; align = 8; signed = false; encoding = none; base = 16; } _hex; "
			 "integer { size = 8; align = 8; signed = false; encoding = none; base = 2; } _bin; "
			 "integer { size = 16; align = 8; signed = true; encoding = none; base = 8; } _oct; "
			 "integer { size = 64; align = 8; signed = true; encoding = none; base = 10; } _dec;");
	ck_assert_str_eq(__ust_event_tpt_one_string.tsdl_fields, "string _msg;");
	ck_assert_str_eq(__ust_event_tpt_empty.tsdl_fields, "");
}
END_TEST

START_TEST(test_disabled_writes_nothing)
{
	mock_enable_all(0);
	trace_tpt_signed_ints(1, 2, 3, 4);
	trace_tpt_strings("a", 1, 2, "b", "c", 3);
	trace_tpt_empty();
	trace_other_strings(5);
	ck_assert_uint_eq(mock_nr_writes, 0);
}
END_TEST

START_TEST(test_signed_ints)
{
	int8_t s8 = -1;
	int16_t s16 = -2;
	int32_t s32 = INT32_MIN;
	int64_t s64 = INT64_MIN + 1;
	unsigned char expect[15];
	size_t off = 0;

	trace_tpt_signed_ints(s8, s16, s32, s64);
	ck_assert_uint_eq(mock_nr_writes, 1);
	check_last_write(&__ust_event_tpt_signed_ints);
	ck_assert_uint_eq(mock_last.nr_segs, 1);
	off = put(expect, off, &s8, 1);
	off = put(expect, off, &s16, 2);
	off = put(expect, off, &s32, 4);
	off = put(expect, off, &s64, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

START_TEST(test_unsigned_ints)
{
	uint8_t u8 = 0xfe;
	uint16_t u16 = 0xbeef;
	uint32_t u32 = 0xdeadbeef;
	uint64_t u64 = UINT64_MAX;
	unsigned char expect[15];
	size_t off = 0;

	trace_tpt_unsigned_ints(u8, u16, u32, u64);
	check_last_write(&__ust_event_tpt_unsigned_ints);
	off = put(expect, off, &u8, 1);
	off = put(expect, off, &u16, 2);
	off = put(expect, off, &u32, 4);
	off = put(expect, off, &u64, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

START_TEST(test_strings)
{
	uint16_t count = 0x1234;
	int8_t flag = -5;
	uint64_t last = 0x1122334455667788u;
	unsigned char expect[64];
	size_t off = 0;

	/* A NULL string is recorded as "(null)"; "" as one NUL. */
	trace_tpt_strings("ab", count, flag, "", NULL, last);
	check_last_write(&__ust_event_tpt_strings);
	ck_assert_uint_eq(mock_last.nr_segs, 8);
	off = put(expect, off, "ab", 3);
	off = put(expect, off, &count, 2);
	off = put(expect, off, &flag, 1);
	off = put(expect, off, "", 1);
	off = put(expect, off, "(null)", 7);
	off = put(expect, off, &last, 8);
	ck_assert_uint_eq(mock_last.payload_size, off);
	ck_assert_mem_eq(mock_last.payload, expect, off);
}
END_TEST

/* The string's bytes come from the caller, its NUL from a constant. */
START_TEST(test_string_terminator_is_ours)
{
	static const char msg[] = "hello";

	trace_tpt_one_string(msg);
	check_last_write(&__ust_event_tpt_one_string);
	ck_assert_uint_eq(mock_last.nr_segs, 2);
	ck_assert_ptr_eq(mock_last.segs[0].ptr, msg);
	ck_assert_uint_eq(mock_last.segs[0].len, 5);
	ck_assert_ptr_ne(mock_last.segs[1].ptr, msg + 5);
	ck_assert_uint_eq(mock_last.segs[1].len, 1);
	ck_assert_int_eq(*(const char *)mock_last.segs[1].ptr, '\0');
}
END_TEST

START_TEST(test_empty_event)
{
	trace_tpt_empty();
	ck_assert_uint_eq(mock_nr_writes, 1);
	check_last_write(&__ust_event_tpt_empty);
	ck_assert_uint_eq(mock_last.nr_segs, 0);
	ck_assert_uint_eq(mock_last.payload_size, 0);
}
END_TEST

/* Same event names in two facilities: distinct descriptors and probes. */
START_TEST(test_two_facilities)
{
	int32_t value = 42;

	trace_other_strings(value);
	check_last_write(&__ust_event_other_strings);
	ck_assert_uint_eq(mock_last.payload_size, 4);
	ck_assert_mem_eq(mock_last.payload, &value, 4);

	trace_tpt_strings("x", 0, 0, "y", "z", 0);
	check_last_write(&__ust_event_tpt_strings);

	/* Enabling one event leaves its namesake in the other facility off. */
	mock_enable_all(0);
	mock_reset_writes();
	__ust_event_other_empty.enabled = 1;
	trace_tpt_empty();
	ck_assert_uint_eq(mock_nr_writes, 0);
	trace_other_empty();
	ck_assert_uint_eq(mock_nr_writes, 1);
	ck_assert_ptr_eq(mock_last.event, &__ust_event_other_empty);
}
END_TEST

/* Destructors run at exit: watch them from a child process. */
START_TEST(test_destructors_unregister)
{
	char buf[64] = "";
	ssize_t n, len = 0;
	int fds[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL);	/* the child's exit() must not repeat our output */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		mock_unregister_fd = fds[1];
		exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	buf[len] = '\0';
	/* Reverse order of construction, which follows the link order. */
	ck_assert(strcmp(buf, "tpt\nother\n") == 0 ||
		  strcmp(buf, "other\ntpt\n") == 0);
}
END_TEST

static Suite *generated_suite(void)
{
	Suite *s = suite_create("generated");
	TCase *reg = tcase_create("registration");
	TCase *probes = tcase_create("probes");

	tcase_add_test(reg, test_providers_registered);
	tcase_add_test(reg, test_descriptors);
	tcase_add_test(reg, test_destructors_unregister);
	suite_add_tcase(s, reg);

	tcase_add_checked_fixture(probes, setup, NULL);
	tcase_add_test(probes, test_disabled_writes_nothing);
	tcase_add_test(probes, test_signed_ints);
	tcase_add_test(probes, test_unsigned_ints);
	tcase_add_test(probes, test_strings);
	tcase_add_test(probes, test_string_terminator_is_ours);
	tcase_add_test(probes, test_empty_event);
	tcase_add_test(probes, test_two_facilities);
	suite_add_tcase(s, probes);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(generated_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
