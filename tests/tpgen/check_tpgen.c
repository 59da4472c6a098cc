/*
 * check_tpgen.c - unit tests of tpgen's stages (tpgen/libtpgen.la).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One TCase per stage: names (validate.c), the walk (parse.c), the schema
 * (schema.c), layouts and TSDL (payload.c), the escaping and wrapping
 * helpers of the emitters (emit-util.c), and the output files
 * (output.c).  The whole tool is covered by the scripts next to this
 * file; these tests pin down the pieces.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ust/loglevel.h>

#include "../check_run.h"
#include "nameset.h"
#include "validate.h"
#include "emit.h"
#include "output.h"
#include "parse.h"
#include "payload.h"

/* The emitters' options of a plain `tpgen` run. */
static const struct tp_emit_options emit_sdt = { .sdt = true };

/* Messages of the stage under test, collected in memory. */
static char *diag_buf;
static size_t diag_len;
static FILE *diag_out;
static struct tp_diag diag;

static void diag_setup(void)
{
	diag_out = open_memstream(&diag_buf, &diag_len);
	ck_assert_ptr_nonnull(diag_out);
	tp_diag_init(&diag, "t.xml", diag_out);
}

static void diag_teardown(void)
{
	fclose(diag_out);
	free(diag_buf);
	diag_buf = NULL;
}

/* Everything reported so far. */
static const char *diag_text(void)
{
	fflush(diag_out);
	return diag_buf;
}

/* Read and walk a document; NULL when either step reported errors. */
static struct tp_facility *parse_string(const char *xml, xmlDocPtr *docp)
{
	xmlDocPtr doc = tp_xml_read_memory(xml, strlen(xml), &diag);
	struct tp_facility *fac = NULL;

	if (doc)
		fac = tp_parse_doc(doc, &diag);
	if (docp)
		*docp = doc;
	else
		xmlFreeDoc(doc);
	return fac;
}

/* What a FILE-writing helper writes, as a malloc'ed string. */
#define CAPTURE(call) ({					\
	char *cap_buf = NULL;					\
	size_t __len;						\
	FILE *out = open_memstream(&cap_buf, &__len);		\
	ck_assert_ptr_nonnull(out);				\
	call;							\
	fclose(out);						\
	cap_buf;							\
})

/* names (validate.c) */

START_TEST(test_c_identifiers)
{
	ck_assert(tp_is_c_identifier("a"));
	ck_assert(tp_is_c_identifier("_a1"));
	ck_assert(tp_is_c_identifier("Z_9"));
	ck_assert(!tp_is_c_identifier(""));
	ck_assert(!tp_is_c_identifier("1a"));
	ck_assert(!tp_is_c_identifier("a-b"));
	ck_assert(!tp_is_c_identifier("a b"));
	ck_assert(!tp_is_c_identifier("\303\251t\303\251"));
}
END_TEST

START_TEST(test_field_name_problems)
{
	static const char *const keywords[] = {
		"int", "char", "class", "and", "bool", "nullptr", "typeof",
	};
	static const char *const reserved[] = {
		"__x", "_X", "int32_t", "uint_fast8_t", "intptr_t",
		"INT8_MAX", "UINT64_C", "INT_LEAST16_MIN", "NULL", "size_t",
		"errno", "ust_event_write", "ust_id", "UST_ABI_VERSION",
	};
	static const char *const fine[] = {
		"_x", "x", "integer", "int_value", "INT", "null", "ust",
		"just_x", "error", "string", "event",
	};
	size_t i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		ck_assert_str_eq(tp_field_name_problem(keywords[i]),
				 "C or C++ keyword");
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		ck_assert_str_eq(tp_field_name_problem(reserved[i]),
				 "reserved identifier");
	for (i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		ck_assert_ptr_null(tp_field_name_problem(fine[i]));
}
END_TEST

/* Every problem is reported, each on its own line. */
START_TEST(test_check_reports_all)
{
	struct tp_facility *fac = parse_string(
		"<facility name='f'>\n"
		"<event name='a'/>\n"
		"<event name='a'>\n"
		"  <field name='x'><int size='1'/></field>\n"
		"  <field name='x'><string/></field>\n"
		"  <field name='void'><string/></field>\n"
		"</event>\n"
		"<event name='b.c'/>\n"
		"</facility>\n", NULL);

	ck_assert_ptr_nonnull(fac);
	ck_assert_int_eq(tp_validate(fac, &diag), -1);
	ck_assert_str_eq(diag_text(),
		"t.xml:3: duplicate event name 'a' (first defined on line 2)\n"
		"t.xml:8: invalid event name 'b.c': not a C identifier\n"
		"t.xml:5: duplicate field name 'x' in event 'a' (first defined on line 4)\n"
		"t.xml:6: invalid field name 'void': C or C++ keyword\n");
	tp_facility_free(fac);
}
END_TEST

/* the walk (parse.c) */

START_TEST(test_parse_tree)
{
	struct tp_facility *fac = parse_string(
		"<?xml version='1.0'?>\n"
		"<facility name='app'>\n"
		"  <description>\n   Two\n\tlines.  </description>\n"
		"  <event name='e' loglevel='14'>\n"
		"    <field name='a'><uint size='8' base='16'/></field>\n"
		"    <!-- a comment -->\n"
		"    <field name='s'><string/></field>\n"
		"    <field name='b'><int size='2'/></field>\n"
		"  </event>\n"
		"  <event name='none'><description> </description></event>\n"
		"</facility>\n", NULL);
	const struct tp_event *e;

	ck_assert_ptr_nonnull(fac);
	ck_assert_str_eq(diag_text(), "");
	ck_assert_str_eq(fac->name, "app");
	ck_assert_str_eq(fac->description, "Two lines.");
	ck_assert_uint_eq(fac->nr_events, 2);
	e = &fac->events[0];
	ck_assert_int_eq(e->line, 6);
	ck_assert_int_eq(e->loglevel, 14);
	ck_assert_ptr_null(e->description);
	ck_assert_uint_eq(e->fields.nr, 3);
	ck_assert_int_eq(e->fields.v[0].type->kind, TP_TYPE_INT);
	ck_assert_uint_eq(e->fields.v[0].type->u.integer.size, 8);
	ck_assert(!e->fields.v[0].type->u.integer.is_signed);
	ck_assert_uint_eq(e->fields.v[0].type->u.integer.base, 16);
	ck_assert_int_eq(e->fields.v[1].type->kind, TP_TYPE_STRING);
	ck_assert_int_eq(e->fields.v[1].line, 9);
	ck_assert(e->fields.v[2].type->u.integer.is_signed);
	ck_assert_uint_eq(e->fields.v[2].type->u.integer.base, 10);
	e = &fac->events[1];
	ck_assert_int_eq(e->loglevel, -1);
	ck_assert_ptr_null(e->description);
	ck_assert_uint_eq(e->fields.nr, 0);
	tp_facility_free(fac);
}
END_TEST

START_TEST(test_parse_reports_all)
{
	struct tp_facility *fac = parse_string(
		"<facility name='f'>\n"
		"<event loglevel='-1'>\n"
		"  <field name='x'><int size='16' base='hex'/></field>\n"
		"  <field><string/></field>\n"
		"  <field name='y'/>\n"
		"  <field name='z'><string/><uint size='1'/></field>\n"
		"  <struct/>\n"
		"  <field name='w'><uint size='08' base=' 16'/></field>\n"
		"</event>\n"
		"</facility>\n", NULL);

	ck_assert_ptr_null(fac);
	ck_assert_str_eq(diag_text(),
		"t.xml:2: event without a name\n"
		"t.xml:2: invalid loglevel '-1': expected an integer from 0 to 14 or one of "
		"TRACE_EMERG, TRACE_ALERT, TRACE_CRIT, TRACE_ERR, TRACE_WARNING, "
		"TRACE_NOTICE, TRACE_INFO, TRACE_DEBUG_SYSTEM, TRACE_DEBUG_PROGRAM, "
		"TRACE_DEBUG_PROCESS, TRACE_DEBUG_MODULE, TRACE_DEBUG_UNIT, "
		"TRACE_DEBUG_FUNCTION, TRACE_DEBUG_LINE, TRACE_DEBUG\n"
		"t.xml:3: invalid size '16' in <int>: expected 1, 2, 4 or 8\n"
		"t.xml:3: invalid base 'hex' in <int>: expected 2, 8, 10 or 16\n"
		"t.xml:4: field without a name\n"
		"t.xml:5: field 'y' has no type\n"
		"t.xml:6: field 'z' has more than one type\n"
		"t.xml:7: unknown element <struct> in <event>\n"
		"t.xml:8: invalid size '08' in <uint>: expected 1, 2, 4 or 8\n"
		"t.xml:8: invalid base ' 16' in <uint>: expected 2, 8, 10 or 16\n");
}
END_TEST

/* LTTng's names of the levels, and numbers, in the XML and the schema. */
START_TEST(test_parse_loglevel_names)
{
	xmlDocPtr doc;
	struct tp_facility *fac = parse_string(
		"<facility name='f'>\n"
		"<event name='a' loglevel='TRACE_EMERG'/>\n"
		"<event name='b' loglevel='TRACE_ERR'/>\n"
		"<event name='c' loglevel='TRACE_DEBUG_LINE'/>\n"
		"<event name='d' loglevel='TRACE_DEBUG'/>\n"
		"<event name='e' loglevel='9'/>\n"
		"</facility>\n", &doc);

	ck_assert_ptr_nonnull(fac);
	ck_assert_int_eq(tp_schema_validate(doc, &diag), 0);
	ck_assert_str_eq(diag_text(), "");
	ck_assert_uint_eq(fac->nr_events, 5);
	ck_assert_int_eq(fac->events[0].loglevel, 0);
	ck_assert_int_eq(fac->events[1].loglevel, 3);
	ck_assert_int_eq(fac->events[2].loglevel, 13);
	ck_assert_int_eq(fac->events[3].loglevel, 14);
	ck_assert_int_eq(fac->events[4].loglevel, 9);
	tp_facility_free(fac);
	xmlFreeDoc(doc);
}
END_TEST

START_TEST(test_parse_syntax_error_first_only)
{
	struct tp_facility *fac = parse_string(
		"<facility name='f'>\n"
		"<event name='e'>\n"
		"</facility>\n", NULL);

	ck_assert_ptr_null(fac);
	ck_assert_str_eq(diag_text(),
		"t.xml:3: Opening and ending tag mismatch: event line 2 and facility\n");
}
END_TEST

/* the log level names (include/ust/loglevel.h) */

START_TEST(test_loglevel_table)
{
	static const char *const names[] = {
		"TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR",
		"TRACE_WARNING", "TRACE_NOTICE", "TRACE_INFO",
		"TRACE_DEBUG_SYSTEM", "TRACE_DEBUG_PROGRAM",
		"TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
		"TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE", "TRACE_DEBUG",
	};
	static const char *const invalid[] = {
		"", "15", "00", "01", "-1", "+3", " 3", "3 ", "1a", "ERR",
		"trace_err", "TRACE_ERR ", "TRACE_", "TRACE_DEBUG_",
	};
	char digits[4];
	int level;
	size_t i;

	ck_assert_int_eq(UST_LOGLEVEL_MAX, 14);
	ck_assert_int_eq(UST_LOGLEVEL_ERR, 3);
	ck_assert_int_eq(UST_LOGLEVEL_DEBUG, 14);
	for (level = 0; level <= UST_LOGLEVEL_MAX; level++) {
		ck_assert_str_eq(ust_loglevel_name(level), names[level]);
		ck_assert_int_eq(ust_loglevel_parse(names[level]), level);
		snprintf(digits, sizeof(digits), "%d", level);
		ck_assert_int_eq(ust_loglevel_parse(digits), level);
	}
	ck_assert_ptr_null(ust_loglevel_name(-1));
	ck_assert_ptr_null(ust_loglevel_name(15));
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		ck_assert_msg(ust_loglevel_parse(invalid[i]) == -1,
			      "'%s' parsed", invalid[i]);
}
END_TEST

/* name sets (nameset.c) */

START_TEST(test_nameset)
{
	enum { NR = 20000 };
	static char names[NR][8];
	struct tp_nameset set;
	size_t i, first;

	tp_nameset_init(&set, false);
	ck_assert(!tp_nameset_find(&set, "a", &first));
	for (i = 0; i < NR; i++) {
		snprintf(names[i], sizeof(names[i]), "n%zu", i);
		ck_assert_int_eq(tp_nameset_add(&set, names[i], i, &first), 0);
	}
	ck_assert_uint_eq(set.nr, NR);
	for (i = 0; i < NR; i++) {
		ck_assert(tp_nameset_find(&set, names[i], &first));
		ck_assert_uint_eq(first, i);
		ck_assert_int_eq(tp_nameset_add(&set, names[i], NR + i, &first), 1);
		ck_assert_uint_eq(first, i);
	}
	ck_assert(!tp_nameset_find(&set, "N1", &first));
	ck_assert(!tp_nameset_find(&set, "n", &first));
	ck_assert_uint_eq(set.nr, NR);
	tp_nameset_clear(&set);
	ck_assert(!tp_nameset_find(&set, "n1", &first));

	tp_nameset_init(&set, true);
	ck_assert_int_eq(tp_nameset_add(&set, "Idle", 0, &first), 0);
	ck_assert_int_eq(tp_nameset_add(&set, "BUSY", 1, &first), 0);
	ck_assert_int_eq(tp_nameset_add(&set, "IDLE", 2, &first), 1);
	ck_assert_uint_eq(first, 0);
	ck_assert(tp_nameset_find(&set, "busy", &first));
	ck_assert_uint_eq(first, 1);
	tp_nameset_clear(&set);
}
END_TEST

/* the schema (schema.c) */

START_TEST(test_schema_accepts_valid)
{
	xmlDocPtr doc;
	struct tp_facility *fac = parse_string(
		"<facility name='f'><description>d</description>"
		"<event name='e' loglevel='0'><field name='a'><int size='4' base='2'/></field>"
		"<description>x</description></event></facility>", &doc);

	ck_assert_ptr_nonnull(fac);
	ck_assert_int_eq(tp_schema_validate(doc, &diag), 0);
	ck_assert_str_eq(diag_text(), "");
	tp_facility_free(fac);
	xmlFreeDoc(doc);
}
END_TEST

/* What the walk leaves alone, the schema refuses: first error only. */
START_TEST(test_schema_rejects_stray_attribute)
{
	xmlDocPtr doc;
	struct tp_facility *fac = parse_string(
		"<facility name='f'>\n"
		"<event name='e'>\n"
		"<field name='a'><string encoding='utf8'/></field>\n"
		"</event></facility>\n", &doc);

	ck_assert_ptr_nonnull(fac);
	ck_assert_int_eq(tp_schema_validate(doc, &diag), -1);
	ck_assert_str_eq(diag_text(),
		"t.xml:3: Invalid attribute encoding for element string\n");
	tp_facility_free(fac);
	xmlFreeDoc(doc);
}
END_TEST

/* layouts and TSDL (payload.c) */

/* An event of fields whose types are spelled i1..i8, u1..u8, s. */
static struct tp_event *make_event(const char *const *types, size_t nr)
{
	static struct tp_event event;
	struct tp_field *f;
	size_t i;

	tp_field_list_clear(&event.fields);
	for (i = 0; i < nr; i++) {
		f = tp_field_list_add(&event.fields);
		ck_assert_ptr_nonnull(f);
		ck_assert(asprintf(&f->name, "f%zu", i) > 0);
		if (types[i][0] == 's') {
			f->type = tp_type_new(TP_TYPE_STRING, 1);
		} else {
			f->type = tp_type_new(TP_TYPE_INT, 1);
			f->type->u.integer.is_signed = types[i][0] == 'i';
			f->type->u.integer.size = (unsigned int)atoi(types[i] + 1);
		}
	}
	return &event;
}

static void assert_layout(const char *const *types, size_t nr,
			  const char *layout, unsigned int nr_segs)
{
	struct tp_event *event = make_event(types, nr);
	char *got = tp_event_layout(event);
	struct tp_plan plan;

	ck_assert_str_eq(got, layout);
	free(got);
	ck_assert_int_eq(tp_plan_build(event, &plan), 0);
	ck_assert_uint_eq(plan.nr_segs, nr_segs);
	tp_plan_clear(&plan);
}

START_TEST(test_layouts)
{
	static const char *const t1[] = { "i4", "s", "u8" };
	static const char *const t2[] = { "i4", "u1" };
	static const char *const t3[] = { "s", "s" };
	static const char *const t4[] = { "u2", "s", "i1", "i8", "s", "u1" };

	assert_layout(t1, 0, "", 0);
	assert_layout(t1, 3, "F4 S F8", 4);
	assert_layout(t2, 2, "F5", 1);
	assert_layout(t3, 2, "S S", 4);
	assert_layout(t4, 6, "F2 S F9 S F1", 7);
}
END_TEST

START_TEST(test_tsdl)
{
	static const char *const types[] = { "i4", "s", "u1" };
	struct tp_event *event = make_event(types, 3);
	char *tsdl;

	event->fields.v[2].type->u.integer.base = 16;
	tsdl = tp_event_tsdl(event);
	ck_assert_str_eq(tsdl,
		"integer { size = 32; align = 8; signed = true; encoding = none; base = 10; } _f0; "
		"string _f1; "
		"integer { size = 8; align = 8; signed = false; encoding = none; base = 16; } _f2;");
	free(tsdl);
	tsdl = tp_event_tsdl(make_event(types, 0));
	ck_assert_str_eq(tsdl, "");
	free(tsdl);
}
END_TEST

/* the emitters' helpers (emit-util.c) */

START_TEST(test_c_string_escapes)
{
	char *got = CAPTURE(tp_emit_c_string(out, "a\"b\\c?\?=d\n\303\2511"));

	ck_assert_str_eq(got, "\"a\\\"b\\\\c\\?\\?=d\\012\\303\\2511\"");
	free(got);
}
END_TEST

START_TEST(test_comment_is_harmless)
{
	const char *text[] = { "end */ start /* trigraph ?\?/", NULL, "two" };
	char *got = CAPTURE(tp_emit_comment(out, text, 3));

	ck_assert_str_eq(got,
		"/*\n"
		" * end * / start / * trigraph ? ?/\n"
		" *\n"
		" * two\n"
		" */\n");
	free(got);
}
END_TEST

START_TEST(test_comment_wraps)
{
	const char *text[] = {
		"aaaaaaaaa bbbbbbbbb ccccccccc ddddddddd eeeeeeeee fffffffff "
		"ggggggggg hhhhhhhhh",
	};
	char *got = CAPTURE(tp_emit_comment(out, text, 1));

	ck_assert_str_eq(got,
		"/*\n"
		" * aaaaaaaaa bbbbbbbbb ccccccccc ddddddddd eeeeeeeee fffffffff ggggggggg\n"
		" * hhhhhhhhh\n"
		" */\n");
	free(got);
}
END_TEST

START_TEST(test_list_wraps)
{
	struct tp_strlist list = { 0 };
	char *got;
	int i;

	for (i = 0; i < 6; i++)
		tp_strlist_addf(&list, "const char *argument%d", i);
	got = CAPTURE(ck_assert_int_eq(tp_emit_list(out, &list, ", ", 20, 20), 0));
	ck_assert_str_eq(got,
		"const char *argument0, const char *argument1,\n"
		"\t\t    const char *argument2, const char *argument3,\n"
		"\t\t    const char *argument4, const char *argument5");
	free(got);
	tp_strlist_clear(&list);
}
END_TEST

/* the output files (output.c) */

static char outdir[32];

static void outdir_setup(void)
{
	diag_setup();
	/* A fresh template each time: CK_FORK=no runs every test here. */
	strcpy(outdir, "/tmp/check_tpgen.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(outdir));
}

static void outdir_teardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", outdir);
	ck_assert_int_eq(system(cmd), 0);
	diag_teardown();
}

/* Names in `dir`, hidden ones included, sorted and space-separated. */
static char *list_dir(const char *dir)
{
	struct dirent **names;
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
			fprintf(out, "%s ", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	fclose(out);
	return buf;
}

START_TEST(test_output_writes_both)
{
	struct tp_facility *fac = parse_string(
		"<facility name='f'><event name='e'/></facility>", NULL);
	char *names;

	ck_assert_int_eq(tp_output_write(fac, outdir, "f.xml", &emit_sdt, &diag), 0);
	names = list_dir(outdir);
	ck_assert_str_eq(names, "f_tp.c f_tp.h ");
	free(names);
	tp_facility_free(fac);
}
END_TEST

START_TEST(test_output_missing_dir)
{
	struct tp_facility *fac = parse_string(
		"<facility name='f'/>", NULL);
	char *missing, *expect;

	ck_assert(asprintf(&missing, "%s/nope", outdir) > 0);
	ck_assert_int_eq(tp_output_write(fac, missing, "f.xml", &emit_sdt, &diag), -1);
	ck_assert(asprintf(&expect,
		"tpgen: cannot create a temporary file in '%s': No such file or directory\n",
		missing) > 0);
	ck_assert_str_eq(diag_text(), expect);
	free(expect);
	free(missing);
	tp_facility_free(fac);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "names", diag_setup, diag_teardown, 0, {
			test_c_identifiers, test_field_name_problems,
			test_check_reports_all, NULL } },
		{ "walk", diag_setup, diag_teardown, 0, {
			test_parse_tree, test_parse_reports_all,
			test_parse_syntax_error_first_only,
			test_parse_loglevel_names, test_loglevel_table,
			test_nameset, NULL } },
		{ "schema", diag_setup, diag_teardown, 0, {
			test_schema_accepts_valid,
			test_schema_rejects_stray_attribute, NULL } },
		{ "payload", NULL, NULL, 0, {
			test_layouts, test_tsdl, NULL } },
		{ "emit", NULL, NULL, 0, {
			test_c_string_escapes, test_comment_is_harmless,
			test_comment_wraps, test_list_wraps, NULL } },
		{ "output", outdir_setup, outdir_teardown, 0, {
			test_output_writes_both, test_output_missing_dir,
			NULL } },
	};

	return CHECK_RUN_CASES("tpgen", cases);
}
