/*
 * emit-header.c - the generated <facility>_tp.h.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per event: the descriptor and the out-of-line probe, both defined in
 * <facility>_tp.c, and the static inline trace_<facility>_<event>() that
 * the application calls.  When the event is disabled a call costs one
 * load of the descriptor's `enabled` word and one predicted branch.
 *
 * Unless tpgen --no-sdt, each trace_*() also holds the USDT probe
 * <facility>:<event> of <sys/sdt.h>, where that header exists: one nop
 * whose operands are the call's arguments, described in an ELF note for
 * bpftrace, gdb and SystemTap.  It is not behind a semaphore test: that
 * would be a second load and branch on every disabled call.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/*
 * Host-size integers are recorded with the sizes of the machine tpgen ran
 * on: the header refuses to build on another ABI rather than record
 * sizes that the metadata does not declare.
 */
static void emit_abi_check(FILE *out, const struct tp_facility *fac)
{
	fprintf(out,
		"\n"
		"/* tpgen recorded host-size integers with this ABI's sizes. */\n"
		"#if __SIZEOF_INT__ != %u || __SIZEOF_LONG__ != %u || \\\n"
		"    __SIZEOF_SIZE_T__ != %u || __SIZEOF_POINTER__ != %u || \\\n"
		"    %sdefined(__CHAR_UNSIGNED__)\n"
		"#error \"%s_tp.h was generated for another ABI: run tpgen again\"\n"
		"#endif\n",
		tp_host_size(TP_CTYPE_INT), tp_host_size(TP_CTYPE_LONG),
		tp_host_size(TP_CTYPE_SIZE_T), tp_host_size(TP_CTYPE_POINTER),
		tp_host_char_is_signed() ? "" : "!", fac->name);
}

/*
 * <sys/sdt.h> where the compiler finds it (GCC 5 and Clang know
 * __has_include); UST_TP_<facility>_SDT then says that the probes are
 * there.  Outside extern "C": in C++ the header defines templates.
 */
static void emit_sdt_include(FILE *out, const struct tp_facility *fac)
{
	fprintf(out,
		"\n"
		"/* USDT probes (tpgen --no-sdt leaves them out). */\n"
		"#if defined(__has_include)\n"
		"#if __has_include(<sys/sdt.h>)\n"
		"#include <sys/sdt.h>\n"
		"#define UST_TP_%s_SDT 1\n"
		"#endif\n"
		"#endif\n",
		fac->name);
}

/*
 * The bits of a float and of a double, for the probes of facilities
 * with such fields; one definition for every tpgen header of a file.
 */
static void emit_sdt_float_bits(FILE *out, const struct tp_facility *fac)
{
	fprintf(out,
		"\n"
		"#if defined(UST_TP_%s_SDT) && !defined(UST_TP_SDT_FLOAT_BITS)\n"
		"#define UST_TP_SDT_FLOAT_BITS 1\n"
		"static inline uint32_t __ust_sdt_bits32(float value)\n"
		"{\n"
		"\tuint32_t bits;\n"
		"\n"
		"\t__builtin_memcpy(&bits, &value, sizeof(bits));\n"
		"\treturn bits;\n"
		"}\n"
		"\n"
		"static inline uint64_t __ust_sdt_bits64(double value)\n"
		"{\n"
		"\tuint64_t bits;\n"
		"\n"
		"\t__builtin_memcpy(&bits, &value, sizeof(bits));\n"
		"\treturn bits;\n"
		"}\n"
		"#endif\n",
		fac->name);
}

/* Whether some event of the facility has a float or double field. */
static bool has_float_field(const struct tp_facility *fac)
{
	size_t i, j;

	for (i = 0; i < fac->nr_events; i++)
		for (j = 0; j < fac->events[i].fields.nr; j++)
			if (tp_type_resolve(fac->events[i].fields.v[j].type)->kind ==
			    TP_TYPE_FLOAT)
				return true;
	return false;
}

/*
 * The probes' semaphores, defined in <facility>_tp.c.  A probe names its
 * semaphore only in a file that included <sys/sdt.h> with
 * _SDT_HAS_SEMAPHORES defined (as the headers of dtrace -h do), but
 * then it must exist.  Nothing reads them.
 */
static void emit_semaphores(FILE *out, const struct tp_facility *fac,
			    const char *storage)
{
	size_t i;

	if (fac->nr_events == 0)
		return;
	fprintf(out, "\n#ifdef UST_TP_%s_SDT\n", fac->name);
	for (i = 0; i < fac->nr_events; i++)
		fprintf(out, "%sunsigned short %s_%s_semaphore%s;\n", storage,
			fac->name, fac->events[i].name,
			*storage ? "" : " __attribute__((section(\".probes\"))) = 0");
	fputs("#endif\n", out);
}

void tp_emit_semaphore_definitions(FILE *out, const struct tp_facility *fac)
{
	emit_semaphores(out, fac, "");
}

/*
 * The guard keeps the facility name's case, so that facilities whose
 * names differ only in case cannot share it.
 */
static void emit_prologue(FILE *out, const struct tp_facility *fac,
			  const struct tp_features *feat,
			  const struct tp_emit_options *opts)
{
	fprintf(out,
		"#ifndef UST_TP_%s_H\n"
		"#define UST_TP_%s_H\n"
		"\n"
		"#include <stdint.h>\n"
		"#include <stddef.h>\n"
		"%s"
		"#include <ust/tracepoint.h>\n",
		fac->name, fac->name, feat->host ? "#include <sys/types.h>\n" : "");
	if (feat->host)
		emit_abi_check(out, fac);
	if (opts->sdt)
		emit_sdt_include(out, fac);
	fputs("\n"
	      "#ifdef __cplusplus\n"
	      "extern \"C\" {\n"
	      "#endif\n", out);
	if (opts->sdt)
		emit_semaphores(out, fac, "extern ");
	if (opts->sdt && has_float_field(fac))
		emit_sdt_float_bits(out, fac);
}

/* enum app_state { APP_STATE_IDLE = 0, ... }: no trailing comma (C++98). */
static void emit_enum(FILE *out, const struct tp_facility *fac,
		      const struct tp_enum *en)
{
	const char *c_name = en->c_type + strlen("enum ");
	size_t i, j;

	fprintf(out, "\n%s {\n", en->c_type);
	for (i = 0; i < en->nr_labels; i++) {
		fputc('\t', out);
		for (j = 0; c_name[j]; j++)
			fputc(toupper((unsigned char)c_name[j]), out);
		fputc('_', out);
		for (j = 0; en->labels[i].name[j]; j++)
			fputc(toupper((unsigned char)en->labels[i].name[j]), out);
		fprintf(out, " = %lld%s\n", en->labels[i].value,
			i + 1 < en->nr_labels ? "," : "");
	}
	fputs("};\n", out);
	(void)fac;
}

/* Which typedefs are declared already: they may refer to later ones. */
struct decl_state {
	const struct tp_facility *fac;
	bool *typedef_done;
	bool oom;
};

static void emit_typedef_structs(FILE *out, struct decl_state *st, size_t i);
static void emit_union(FILE *out, struct decl_state *st,
		       const struct tp_type *type);

/*
 * The struct and union declarations `type` needs, innermost first, then
 * its own.
 */
static void emit_structs(FILE *out, struct decl_state *st,
			 const struct tp_type *type)
{
	const struct tp_field_list *fields;
	char *member;
	size_t i;

	if (type->kind == TP_TYPE_TYPEREF) {
		emit_typedef_structs(out, st,
				     (size_t)(type->u.typeref.def - st->fac->typedefs));
	} else if (type->kind == TP_TYPE_ARRAY) {
		emit_structs(out, st, type->u.array.elem);
	} else if (type->kind == TP_TYPE_SEQUENCE) {
		emit_structs(out, st, type->u.sequence.elem);
	} else if (type->kind == TP_TYPE_STRUCT) {
		fields = &type->u.structure.fields;
		for (i = 0; i < fields->nr; i++)
			emit_structs(out, st, fields->v[i].type);
		fprintf(out, "\n%s {\n", type->u.structure.c_type);
		for (i = 0; i < fields->nr; i++) {
			member = tp_c_members(&fields->v[i]);
			st->oom = st->oom || !member;
			fprintf(out, "\t%s;\n", member ? member : "");
			free(member);
		}
		fputs("};\n", out);
	} else if (type->kind == TP_TYPE_VARIANT) {
		emit_union(out, st, type);
	}
}

/*
 * A variant's C form: a union with one member per option, named after
 * its label; the tag beside it says which member is valid.
 */
static void emit_union(FILE *out, struct decl_state *st,
		       const struct tp_type *type)
{
	const struct tp_option *opt = type->u.variant.options;
	char *member;
	size_t i;

	for (i = 0; i < type->u.variant.nr_options; i++)
		emit_structs(out, st, opt[i].type);
	fprintf(out, "\n%s {\n", type->u.variant.c_type);
	for (i = 0; i < type->u.variant.nr_options; i++) {
		member = tp_c_member(opt[i].type, opt[i].label);
		st->oom = st->oom || !member;
		fprintf(out, "\t%s;\n", member ? member : "");
		free(member);
	}
	fputs("};\n", out);
}

static void emit_typedef_structs(FILE *out, struct decl_state *st, size_t i)
{
	if (st->typedef_done[i])
		return;
	st->typedef_done[i] = true;
	emit_structs(out, st, st->fac->typedefs[i].type);
}

/*
 * The enums, then the structs of the typedefs (each after those it
 * contains), then those of each event's fields, which are declared with
 * the event.
 */
static int emit_types(FILE *out, struct decl_state *st)
{
	const struct tp_facility *fac = st->fac;
	size_t i;

	for (i = 0; i < fac->nr_enums; i++)
		emit_enum(out, fac, &fac->enums[i]);
	for (i = 0; i < fac->nr_typedefs; i++)
		emit_typedef_structs(out, st, i);
	return st->oom ? -1 : 0;
}

static void emit_epilogue(FILE *out, const struct tp_facility *fac)
{
	fprintf(out,
		"\n"
		"#ifdef __cplusplus\n"
		"}\n"
		"#endif\n"
		"\n"
		"#endif /* UST_TP_%s_H */\n",
		fac->name);
}

/* "app:request - A request arrived.", or just "app:request". */
static int emit_event_comment(FILE *out, const struct tp_facility *fac,
			      const struct tp_event *event)
{
	const char *paragraphs[1];
	char *text;

	if (!event->description) {
		fprintf(out, "/* %s:%s */\n", fac->name, event->name);
		return 0;
	}
	if (asprintf(&text, "%s:%s - %s", fac->name, event->name,
		     event->description) < 0)
		return -1;
	paragraphs[0] = text;
	tp_emit_comment(out, paragraphs, 1);
	free(text);
	return 0;
}

/* The column after what fprintf() just wrote on a fresh line. */
static size_t printed(int n, size_t start)
{
	return n > 0 ? start + (size_t)n : start;
}

/*
 * The probe's arguments: the call's, in field order, at most
 * TP_SDT_MAX_ARGS.  An enum goes as `+e`, promoted to int (or unsigned
 * int where C makes it so, when no label is negative): sdt.h's C++ side
 * takes every enum type for unsigned.  A float or double goes as its
 * bits, an unsigned integer of its size: bcc's parser of sdt operands
 * (bpftrace's) refuses sdt.h's floating-point ones ("8f@%xmm0").  A
 * one-byte integer goes as `+x` too, an int of the same value: GCC may
 * give it a byte register r8b-r15b, a name gdb does not know ("Invalid
 * register name `r10b'", seen under ASan's register pressure).
 */
static bool sdt_promoted(const struct tp_type *type)
{
	return type->kind == TP_TYPE_ENUM ||
	       (type->kind == TP_TYPE_INT && type->u.integer.size == 1);
}

static void sdt_args(const struct tp_event *event, struct tp_strlist *list)
{
	const struct tp_field *f = event->fields.v;
	const struct tp_type *type;
	size_t i;

	for (i = 0; i < event->fields.nr; i++) {
		type = tp_type_resolve(f[i].type);
		if (type->kind == TP_TYPE_SEQUENCE)
			tp_strlist_addf(list, "%s_len", f[i].name);
		if (type->kind == TP_TYPE_FLOAT)
			tp_strlist_addf(list, "__ust_sdt_bits%u(%s)",
					type->u.floating.size * 8, f[i].name);
		else
			tp_strlist_addf(list, "%s%s",
					sdt_promoted(type) ? "+" : "",
					f[i].name);
	}
	while (list->nr > TP_SDT_MAX_ARGS)
		free(list->v[--list->nr]);
}

/* STAP_PROBEn(facility, event, args...) as the first statement. */
static int emit_sdt_probe(FILE *out, const struct tp_facility *fac,
			  const struct tp_event *event)
{
	struct tp_strlist args = { 0 };
	size_t column, nr_params = 0, i;
	int ret;

	for (i = 0; i < event->fields.nr; i++)
		nr_params += tp_type_resolve(event->fields.v[i].type)->kind ==
			     TP_TYPE_SEQUENCE ? 2 : 1;
	fprintf(out, "#ifdef UST_TP_%s_SDT\n", fac->name);
	if (nr_params > TP_SDT_MAX_ARGS)
		fprintf(out, "\t/* sdt.h: the first %u of the %zu arguments */\n",
			TP_SDT_MAX_ARGS, nr_params);
	sdt_args(event, &args);
	if (args.nr == 0) {
		fprintf(out, "\tSTAP_PROBE(%s, %s);\n", fac->name, event->name);
		ret = 0;
	} else {
		column = printed(fprintf(out, "\tSTAP_PROBE%zu(%s, %s, ", args.nr,
					 fac->name, event->name), 7);
		ret = tp_emit_list(out, &args, ", ", column, column);
		fputs(");\n", out);
	}
	fputs("#endif\n", out);
	tp_strlist_clear(&args);
	return ret;
}

static int emit_event(FILE *out, struct decl_state *st,
		      const struct tp_event *event,
		      const struct tp_emit_options *opts)
{
	struct tp_strlist params = { 0 }, args = { 0 };
	const struct tp_facility *fac = st->fac;
	const char *f = fac->name, *e = event->name;
	size_t i;
	int ret = -1;

	for (i = 0; i < event->fields.nr; i++)
		emit_structs(out, st, event->fields.v[i].type);
	if (st->oom)
		return -1;
	tp_event_params(event, &params);
	tp_event_args(event, &args);
	fputc('\n', out);
	if (emit_event_comment(out, fac, event))
		goto out;
	fprintf(out, "extern struct ust_event_desc __ust_event_%s_%s;\n", f, e);
	if (tp_emit_call(out, 0, "void __ust_probe_", f, e, &params, ");\n"))
		goto out;
	/*
	 * Always inlined, even where the compiler would rather not (-O0 is
	 * fine; a sanitizer's instrumentation made GCC keep one copy): each
	 * call is then its own site, for the ip context (the probe's return
	 * address) and for the USDT note.
	 */
	fputs("__attribute__((__always_inline__))\n", out);
	if (tp_emit_call(out, 0, "static inline void trace_", f, e, &params, ")\n{\n"))
		goto out;
	if (opts->sdt && emit_sdt_probe(out, fac, event))
		goto out;
	fprintf(out, "\tif (UST_EVENT_ENABLED(&__ust_event_%s_%s))\n\t\t", f, e);
	if (tp_emit_call(out, 16, "__ust_probe_", f, e, &args, ");\n}\n"))
		goto out;
	ret = 0;
out:
	tp_strlist_clear(&params);
	tp_strlist_clear(&args);
	return ret;
}

int tp_emit_header(FILE *out, const struct tp_facility *fac,
		   const char *input_name, const struct tp_emit_options *opts)
{
	struct decl_state st = { .fac = fac };
	struct tp_features feat;
	int ret = -1;
	size_t i;

	tp_facility_features(fac, &feat);
	st.typedef_done = calloc(fac->nr_typedefs + 1, sizeof(bool));
	if (!st.typedef_done ||
	    tp_emit_banner(out, fac, "h", "tracepoints", fac->description,
			   input_name))
		goto out;
	emit_prologue(out, fac, &feat, opts);
	if (emit_types(out, &st))
		goto out;
	for (i = 0; i < fac->nr_events; i++)
		if (emit_event(out, &st, &fac->events[i], opts))
			goto out;
	emit_epilogue(out, fac);
	ret = 0;
out:
	free(st.typedef_done);
	return ret;
}
