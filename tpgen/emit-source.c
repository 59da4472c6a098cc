/*
 * emit-source.c - the generated <facility>_tp.c.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per event: its descriptor and its probe.  Then the provider, which lists
 * the descriptors, and the constructor and destructor that register and
 * unregister it with libust.
 *
 * Initializers are positional, in the member order of struct
 * ust_event_desc and struct ust_provider (include/ust/tracepoint.h),
 * every member given so that -Wextra has no missing initializer to report:
 * C++ before C++20 has no designated initializers.  A comment names each
 * member.
 *
 * A probe copies nothing itself.  It describes the payload to
 * ust_event_write() as segments, following the plan of payload.h:
 *
 *	struct __attribute__((packed)) { int32_t a; uint8_t b; } __ust_fixed0
 *		one segment for each run of fixed-size fields
 *	{ s, strlen(s) }, { "", 1 }
 *		two for a string: its bytes, then a NUL from our own constant,
 *		so a string changed under our feet cannot lose its terminator
 *
 * Locals are named __ust_*, which validate.c forbids as field names.
 */
#include <stdlib.h>

#include "emit.h"
#include "payload.h"

static int emit_banner(FILE *out, const struct tp_facility *fac,
		       const char *input_name)
{
	char *title;
	int ret;

	if (asprintf(&title, "%s_tp.c - event descriptors, probes and registration of the '%s' facility.",
		     fac->name, fac->name) < 0)
		return -1;
	ret = tp_emit_banner(out, title, NULL, input_name);
	free(title);
	if (ret)
		return ret;
	fprintf(out, "#include \"%s_tp.h\"\n", fac->name);
	return ret;
}

/* One string literal per field, so that the TSDL reads one per line. */
static int emit_tsdl_fields(FILE *out, const struct tp_event *event)
{
	char *decl = NULL;
	size_t len, i;
	FILE *mem;

	fputs("\t/* .tsdl_fields */\n", out);
	if (event->fields.nr == 0)
		fputs("\t\"\",\n", out);
	for (i = 0; i < event->fields.nr; i++) {
		mem = open_memstream(&decl, &len);
		if (!mem)
			return -1;
		tp_field_tsdl(mem, &event->fields.v[i]);
		if (i + 1 < event->fields.nr)
			fputc(' ', mem);
		if (fclose(mem)) {
			free(decl);
			return -1;
		}
		fputc('\t', out);
		tp_emit_c_string(out, decl);
		fputs(i + 1 < event->fields.nr ? "\n" : ",\n", out);
		free(decl);
		decl = NULL;
	}
	return 0;
}

static int emit_descriptor(FILE *out, const struct tp_facility *fac,
			   const struct tp_event *event)
{
	char *layout = tp_event_layout(event);

	if (!layout)
		return -1;
	fprintf(out, "\n/* %s:%s */\n", fac->name, event->name);
	fprintf(out, "struct ust_event_desc __ust_event_%s_%s = {\n",
		fac->name, event->name);
	fputs("\t/* .struct_size */ sizeof(struct ust_event_desc),\n"
	      "\t/* .enabled */ 0,\n", out);
	fprintf(out, "\t/* .name */ \"%s\",\n", event->name);
	fprintf(out, "\t/* .loglevel */ %d,\n", event->loglevel);
	if (emit_tsdl_fields(out, event)) {
		free(layout);
		return -1;
	}
	fputs("\t/* .layout */ ", out);
	tp_emit_c_string(out, layout);
	fputs(",\n"
	      "\t/* .id, .reserved, .priv: set by libust */ 0, 0, NULL,\n"
	      "};\n", out);
	free(layout);
	return 0;
}

/* The packed struct holding one run of fixed-size fields, initialized. */
static int emit_fixed_part(FILE *out, const struct tp_event *event,
			   const struct tp_part *part, unsigned int index)
{
	const struct tp_field *f = &event->fields.v[part->first];
	struct tp_strlist values = { 0 };
	int ret, column;
	size_t i;

	fputs("\tstruct __attribute__((packed)) {\n", out);
	for (i = 0; i < part->nr_fields; i++) {
		fprintf(out, "\t\t%s %s;\n", tp_type_c_name(f[i].type), f[i].name);
		tp_strlist_addf(&values, "%s", f[i].name);
	}
	/* The tab counts 8 columns, fprintf() 1. */
	column = fprintf(out, "\t} __ust_fixed%u = { ", index) + 7;
	ret = tp_emit_list(out, &values, ", ", (size_t)column, (size_t)column);
	fputs(" };\n", out);
	tp_strlist_clear(&values);
	return ret;
}

/* The string to record (NULL recorded as "(null)") and its length. */
static void emit_string_part(FILE *out, const struct tp_event *event,
			     const struct tp_part *part)
{
	const char *name = event->fields.v[part->first].name;

	fprintf(out, "\tconst char *__ust_str_%s = %s ? %s : \"(null)\";\n",
		name, name, name);
	fprintf(out, "\tsize_t __ust_len_%s = __builtin_strlen(__ust_str_%s);\n",
		name, name);
}

/* The locals each part needs, in payload order. */
static int emit_part_locals(FILE *out, const struct tp_event *event,
			    const struct tp_plan *plan)
{
	unsigned int fixed = 0;
	size_t i;

	for (i = 0; i < plan->nr_parts; i++) {
		if (plan->parts[i].kind == TP_PART_STRING)
			emit_string_part(out, event, &plan->parts[i]);
		else if (emit_fixed_part(out, event, &plan->parts[i], fixed++))
			return -1;
	}
	return 0;
}

/* The initializer of the segment array, one line per segment. */
static void emit_seg_array(FILE *out, const struct tp_event *event,
			   const struct tp_plan *plan)
{
	unsigned int fixed = 0;
	const char *name;
	size_t i;

	fprintf(out, "\tstruct ust_seg __ust_segs[%u] = {\n", plan->nr_segs);
	for (i = 0; i < plan->nr_parts; i++) {
		if (plan->parts[i].kind == TP_PART_FIXED) {
			fprintf(out, "\t\t{ &__ust_fixed%u, sizeof(__ust_fixed%u) },\n",
				fixed, fixed);
			fixed++;
			continue;
		}
		name = event->fields.v[plan->parts[i].first].name;
		fprintf(out, "\t\t{ __ust_str_%s, __ust_len_%s },\n"
			"\t\t{ \"\", 1 },\n", name, name);
	}
	fputs("\t};\n", out);
}

/* The sum of the segment lengths, in the order of emit_seg_array(). */
static void payload_size_terms(const struct tp_event *event,
			       const struct tp_plan *plan,
			       struct tp_strlist *terms)
{
	unsigned int fixed = 0;
	size_t i;

	for (i = 0; i < plan->nr_parts; i++) {
		if (plan->parts[i].kind == TP_PART_FIXED)
			tp_strlist_addf(terms, "sizeof(__ust_fixed%u)", fixed++);
		else
			tp_strlist_addf(terms, "__ust_len_%s + 1",
					event->fields.v[plan->parts[i].first].name);
	}
}

static int emit_probe_body(FILE *out, const struct tp_facility *fac,
			   const struct tp_event *event,
			   const struct tp_plan *plan)
{
	struct tp_strlist terms = { 0 };
	int ret;

	if (plan->nr_parts == 0) {
		fprintf(out, "\tust_event_write(&__ust_event_%s_%s, NULL, 0, 0);\n",
			fac->name, event->name);
		return 0;
	}
	if (emit_part_locals(out, event, plan))
		return -1;
	emit_seg_array(out, event, plan);
	/* The size goes on a line of its own, under the first argument. */
	fprintf(out, "\n\tust_event_write(&__ust_event_%s_%s, __ust_segs, %u,\n\t\t\t",
		fac->name, event->name, plan->nr_segs);
	payload_size_terms(event, plan, &terms);
	ret = tp_emit_list(out, &terms, " + ", 24, 24);
	fputs(");\n", out);
	tp_strlist_clear(&terms);
	return ret;
}

static int emit_probe(FILE *out, const struct tp_facility *fac,
		      const struct tp_event *event)
{
	struct tp_strlist params = { 0 };
	struct tp_plan plan;
	int ret = -1, column;

	if (tp_plan_build(event, &plan))
		return -1;
	tp_event_params(event, &params);
	fputs("\n__attribute__((noinline))\n", out);
	column = fprintf(out, "void __ust_probe_%s_%s(", fac->name, event->name);
	if (column < 0 ||
	    tp_emit_list(out, &params, ", ", (size_t)column, (size_t)column))
		goto out;
	fputs(")\n{\n", out);
	if (emit_probe_body(out, fac, event, &plan))
		goto out;
	fputs("}\n", out);
	ret = 0;
out:
	tp_strlist_clear(&params);
	tp_plan_clear(&plan);
	return ret;
}

/* The descriptor table; none for a facility without events. */
static void emit_event_table(FILE *out, const struct tp_facility *fac)
{
	size_t i;

	if (fac->nr_events == 0)
		return;
	fprintf(out, "\nstatic struct ust_event_desc *const __ust_events_%s[] = {\n",
		fac->name);
	for (i = 0; i < fac->nr_events; i++)
		fprintf(out, "\t&__ust_event_%s_%s,\n", fac->name,
			fac->events[i].name);
	fputs("};\n", out);
}

static void emit_provider(FILE *out, const struct tp_facility *fac)
{
	const char *f = fac->name;

	emit_event_table(out, fac);
	fprintf(out, "\nstatic struct ust_provider __ust_provider_%s = {\n"
		"\t/* .struct_size */ sizeof(struct ust_provider),\n"
		"\t/* .abi_version */ UST_ABI_VERSION,\n"
		"\t/* .facility */ \"%s\",\n"
		"\t/* .description */ ", f, f);
	if (fac->description)
		tp_emit_c_string_wrapped(out, fac->description, "\t");
	else
		fputs("NULL", out);
	fputs(",\n\t/* .events */ ", out);
	if (fac->nr_events)
		fprintf(out, "__ust_events_%s,\n", f);
	else
		fputs("NULL,\n", out);
	fprintf(out, "\t/* .nr_events */ %zu,\n"
		"\t/* .registered, .priv: set by libust */ 0, { NULL, NULL },\n"
		"};\n", fac->nr_events);

	fprintf(out, "\nstatic void __ust_provider_%s_register(void) __attribute__((constructor));\n"
		"static void __ust_provider_%s_register(void)\n"
		"{\n"
		"\t(void)ust_provider_register(&__ust_provider_%s);\n"
		"}\n", f, f, f);
	fprintf(out, "\nstatic void __ust_provider_%s_unregister(void) __attribute__((destructor));\n"
		"static void __ust_provider_%s_unregister(void)\n"
		"{\n"
		"\tust_provider_unregister(&__ust_provider_%s);\n"
		"}\n", f, f, f);
}

int tp_emit_source(FILE *out, const struct tp_facility *fac,
		   const char *input_name)
{
	size_t i;

	if (emit_banner(out, fac, input_name))
		return -1;
	for (i = 0; i < fac->nr_events; i++) {
		if (emit_descriptor(out, fac, &fac->events[i]) ||
		    emit_probe(out, fac, &fac->events[i]))
			return -1;
	}
	emit_provider(out, fac);
	return 0;
}
