/*
 * test_trigger.c - `--trigger` specs (trigger/trigger.h): what parses,
 * the exact error of what does not, evaluation against field values,
 * and the ftrace filter a kernel trigger becomes.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "trigger/trigger.h"

/* Fields of a test event: ret (int), fd (int), name (string). */
struct event {
	int64_t ret, fd;
	const char *name;
};

static int get(void *arg, const char *field, struct trig_value *v)
{
	const struct event *e = arg;

	memset(v, 0, sizeof(*v));
	if (!strcmp(field, "ret"))
		v->i = e->ret;
	else if (!strcmp(field, "fd"))
		v->i = e->fd;
	else if (!strcmp(field, "name")) {
		v->is_str = true;
		v->s = e->name;
		v->len = strlen(e->name);
	} else
		return -1;
	return 0;
}

static int eval(const char *spec, struct event e)
{
	char err[TRIG_ERROR_MAX];
	struct trigger t;
	int r;

	ck_assert_msg(!trig_parse(spec, &t, err, sizeof(err)), "%s: %s", spec, err);
	r = trig_eval(&t, get, &e);
	trig_free(&t);
	return r;
}

START_TEST(evaluates)
{
	struct event e = { -2, 3, "a*b.txt" };

	ck_assert_int_eq(eval("syscall_exit_* if ret < 0", e), 1);
	ck_assert_int_eq(eval("syscall_exit_* if ret >= 0", e), 0);
	ck_assert_int_eq(eval("x if ret == -2 && fd == 0x3", e), 1);
	ck_assert_int_eq(eval("x if ret == -2 && fd != 03", e), 0);
	ck_assert_int_eq(eval("x if !(ret < 0) || fd > 2", e), 1);
	ck_assert_int_eq(eval("x if !(ret < 0 || fd > 2)", e), 0);
	ck_assert_int_eq(eval("x if name == \"a*\"", e), 1);
	ck_assert_int_eq(eval("x if name == \"a\\*b.*\"", e), 1);
	ck_assert_int_eq(eval("x if name == \"a\\*c*\"", e), 0);
	ck_assert_int_eq(eval("x if name != \"*.txt\"", e), 0);
	ck_assert_int_eq(eval("x if name == \"a?b.txt\"", e), 0);
	ck_assert_int_eq(eval("x", e), 1);
	ck_assert_int_eq(eval("x if nosuch == 1", e), -1);
	ck_assert_int_eq(eval("x if name == 1", e), -1);
}
END_TEST

static void bad(const char *spec, const char *want)
{
	char err[TRIG_ERROR_MAX];
	struct trigger t;

	ck_assert_msg(trig_parse(spec, &t, err, sizeof(err)) == -1, "%s parsed", spec);
	ck_assert_str_eq(err, want);
}

START_TEST(errors)
{
	bad("", "column 1: an event name was expected");
	bad("app:error when x == 1", "column 11: 'if FILTER' or the end was expected after the event name");
	bad("e if", "column 5: a field name was expected");
	bad("e if ret", "column 9: a comparison (== != < <= > >=) was expected after 'ret'");
	bad("e if ret < x", "column 12: an integer or a \"string\" was expected");
	bad("e if ret < \"a\"", "column 14: strings compare with == and != only");
	bad("e if (ret < 0", "column 14: ')' was expected");
	bad("e if ret < 0 ret", "column 14: unexpected 'ret'");
	bad("e if name == \"abc", "column 14: string not terminated");
	bad("e if $ctx.vtid == 1", "column 6: a field name was expected ($ctx and $app fields are not supported here)");
}
END_TEST

static int map(void *arg, const char *field, char *ftrace, size_t len, int64_t *bias,
	       bool *is_str)
{
	(void)arg;
	*is_str = !strcmp(field, "comm");
	if (!strcmp(field, "prio"))
		*bias = 100;
	if (!strcmp(field, "missing"))
		return -1;
	snprintf(ftrace, len, "%s", !strcmp(field, "tid") ? "pid" : field);
	return 0;
}

static void ftrace(const char *spec, const char *want)
{
	char err[TRIG_ERROR_MAX], out[512];
	struct trigger t;

	ck_assert(!trig_parse(spec, &t, err, sizeof(err)));
	ck_assert_msg(!trig_to_ftrace(&t, map, NULL, out, sizeof(out), err, sizeof(err)),
		      "%s: %s", spec, err);
	ck_assert_str_eq(out, want);
	trig_free(&t);
}

START_TEST(to_ftrace)
{
	char err[TRIG_ERROR_MAX], out[512];
	struct trigger t;

	ftrace("e", "");
	ftrace("e if ret < 0", "ret < 0");
	ftrace("e if tid == 5 && prio > 20", "(pid == 5 && prio > 120)");
	ftrace("e if !(comm == \"ab*\") || comm != \"x\"", "(!(comm ~ \"ab*\") || comm != \"x\")");
	ftrace("e if comm != \"a*\"", "!(comm ~ \"a*\")");
	ck_assert(!trig_parse("e if missing == 1", &t, err, sizeof(err)));
	ck_assert_int_eq(trig_to_ftrace(&t, map, NULL, out, sizeof(out), err, sizeof(err)), -1);
	ck_assert_str_eq(err, "column 6: no field 'missing' the kernel can filter on");
	trig_free(&t);
	ck_assert(!trig_parse("e if comm == 3", &t, err, sizeof(err)));
	ck_assert_int_eq(trig_to_ftrace(&t, map, NULL, out, sizeof(out), err, sizeof(err)), -1);
	ck_assert_str_eq(err, "column 6: 'comm' is a string");
	trig_free(&t);
}
END_TEST

START_TEST(kinds)
{
	char err[TRIG_ERROR_MAX];
	struct trigger t;

	ck_assert(!trig_parse("  app:err*  ", &t, err, sizeof(err)));
	ck_assert(trig_is_user(&t));
	ck_assert(trig_event_matches(&t, "app:error"));
	ck_assert(!trig_event_matches(&t, "app:warning"));
	trig_free(&t);
	ck_assert(!trig_parse("syscall_exit_open*", &t, err, sizeof(err)));
	ck_assert(!trig_is_user(&t));
	ck_assert(trig_event_matches(&t, "syscall_exit_openat"));
	trig_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trigger");
	TCase *tc = tcase_create("trigger");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, evaluates);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, to_ftrace);
	tcase_add_test(tc, kinds);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
