/*
 * emit-header.c - the generated <facility>_tp.h.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per event: the descriptor and the out-of-line probe, both defined in
 * <facility>_tp.c, and the static inline trace_<facility>_<event>() that
 * the application calls.  When the event is disabled a call costs one
 * load of the descriptor's `enabled` word and one predicted branch.
 */
#include <stdlib.h>

#include "emit.h"

static int emit_banner(FILE *out, const struct tp_facility *fac,
		       const char *input_name)
{
	char *title;
	int ret;

	if (asprintf(&title, "%s_tp.h - tracepoints of the '%s' facility.",
		     fac->name, fac->name) < 0)
		return -1;
	ret = tp_emit_banner(out, title, fac->description, input_name);
	free(title);
	return ret;
}

/*
 * The guard keeps the facility name's case, so that facilities whose
 * names differ only in case cannot share it.
 */
static void emit_prologue(FILE *out, const struct tp_facility *fac)
{
	fprintf(out,
		"#ifndef UST_TP_%s_H\n"
		"#define UST_TP_%s_H\n"
		"\n"
		"#include <stdint.h>\n"
		"#include <stddef.h>\n"
		"#include <ust/tracepoint.h>\n"
		"\n"
		"#ifdef __cplusplus\n"
		"extern \"C\" {\n"
		"#endif\n",
		fac->name, fac->name);
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

static int emit_event(FILE *out, const struct tp_facility *fac,
		      const struct tp_event *event)
{
	struct tp_strlist params = { 0 }, args = { 0 };
	const char *f = fac->name, *e = event->name;
	size_t column;
	int ret = -1;

	tp_event_params(event, &params);
	tp_event_args(event, &args);
	fputc('\n', out);
	if (emit_event_comment(out, fac, event))
		goto out;
	fprintf(out, "extern struct ust_event_desc __ust_event_%s_%s;\n", f, e);

	column = printed(fprintf(out, "void __ust_probe_%s_%s(", f, e), 0);
	if (tp_emit_list(out, &params, ", ", column, column))
		goto out;
	fputs(");\n", out);

	column = printed(fprintf(out, "static inline void trace_%s_%s(", f, e), 0);
	if (tp_emit_list(out, &params, ", ", column, column))
		goto out;
	fprintf(out, ")\n{\n\tif (UST_EVENT_ENABLED(&__ust_event_%s_%s))\n\t\t",
		f, e);
	column = printed(fprintf(out, "__ust_probe_%s_%s(", f, e), 16);
	if (tp_emit_list(out, &args, ", ", column, column))
		goto out;
	fputs(");\n}\n", out);
	ret = 0;
out:
	tp_strlist_clear(&params);
	tp_strlist_clear(&args);
	return ret;
}

int tp_emit_header(FILE *out, const struct tp_facility *fac,
		   const char *input_name)
{
	size_t i;

	if (emit_banner(out, fac, input_name))
		return -1;
	emit_prologue(out, fac);
	for (i = 0; i < fac->nr_events; i++)
		if (emit_event(out, fac, &fac->events[i]))
			return -1;
	emit_epilogue(out, fac);
	return 0;
}
