/*
 * filters.c - compile a filter expression for the events it applies to
 * (filters.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The expression is parsed once; then each distinct kind of event fields
 * (the signature of their TSDL and layout) among the matching events gets
 * its own program, so that two events of the same name with different
 * fields (two programs, two versions of a library) are each filtered on
 * what they hold.  An event whose fields lack what the expression names
 * gets no program: libust then keeps none of its records, as LTTng does
 * when a filter's field does not exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/env.h"
#include "cli.h"
#include "common/pattern.h"
#include "filter/compiler.h"
#include "filters.h"

/* ---- "ust_fields" sections ---- */

static bool known(const struct cli_fields *f, const char *name,
		  const char *layout, const char *tsdl)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name) && !strcmp(f->v[i].layout, layout) &&
		    !strcmp(f->v[i].tsdl, tsdl))
			return true;
	return false;
}

static void event_fields_free(struct cli_event_fields *e)
{
	free(e->name);
	free(e->layout);
	free(e->tsdl);
}

static int add_event(struct cli_fields *f, const char *name, const char *layout,
		     const char *tsdl)
{
	struct cli_event_fields *e;

	if (known(f, name, layout, tsdl))
		return 0;
	if (f->nr == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;
		void *grown = realloc(f->v, cap * sizeof(*f->v));

		if (!grown)
			return -1;
		f->v = grown;
		f->cap = cap;
	}
	e = &f->v[f->nr];
	e->name = strdup(name);
	e->layout = strdup(layout);
	e->tsdl = strdup(tsdl);
	if (!e->name || !e->layout || !e->tsdl) {
		event_fields_free(e);
		return -1;
	}
	f->nr++;
	return 0;
}

/*
 * The next NUL-terminated string at *s before `end`, or NULL (and *s at
 * `end`) when there is none.
 */
static const char *next_string(const char **s, const char *end)
{
	const char *str = *s;
	size_t len;

	if (*s >= end)
		return NULL;
	len = strnlen(str, (size_t)(end - str));
	if (len == (size_t)(end - str)) {
		*s = end;
		return NULL;
	}
	*s += len + 1;
	return str;
}

unsigned int cli_fields_section(const char *path, const char *data,
				size_t size, void *arg)
{
	struct cli_fields *f = arg;
	const char *s = data, *end = data + size, *tag;
	unsigned int n = 0;

	(void)path;
	/* "@1", name, layout, TSDL; anything else is skipped to the next "@1". */
	while ((tag = next_string(&s, end))) {
		const char *name, *layout, *tsdl;

		if (strcmp(tag, "@1"))
			continue;
		name = next_string(&s, end);
		layout = next_string(&s, end);
		tsdl = next_string(&s, end);
		if (!name || !layout || !tsdl)
			break;
		if (add_event(f, name, layout, tsdl) == 0)
			n++;
	}
	return n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cli_event_fields *)a)->name,
		      ((const struct cli_event_fields *)b)->name);
}

void cli_fields_sort(struct cli_fields *f)
{
	if (f->nr)
		qsort(f->v, f->nr, sizeof(*f->v), by_name);
}

void cli_fields_release(struct cli_fields *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		event_fields_free(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* ---- compiling ---- */

/* Programs compiled so far, and the events they do not apply to. */
struct build {
	struct filter_program *progs;
	uint64_t *sigs;
	size_t nr;
	char **notes;		/* "EVENT: column N: ..." */
	size_t nr_notes;
	struct filter_error first;
};

static bool compiled_for(const struct build *b, uint64_t sig)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (b->sigs[i] == sig)
			return true;
	return false;
}

static int keep_program(struct build *b, struct filter_program *p, uint64_t sig)
{
	void *progs = realloc(b->progs, (b->nr + 1) * sizeof(*b->progs));
	void *sigs;

	if (progs)
		b->progs = progs;
	sigs = progs ? realloc(b->sigs, (b->nr + 1) * sizeof(*b->sigs)) : NULL;
	if (!sigs)
		return -1;
	b->sigs = sigs;
	b->progs[b->nr] = *p;
	b->sigs[b->nr++] = sig;
	return 0;
}

/* Compile for event `e`: 1 done, 0 it does not apply (noted), -1 no memory. */
static int compile_event(struct build *b, const struct filter_expr *x,
			 const struct cli_event_fields *e)
{
	struct filter_event ev;
	struct filter_error err;
	struct filter_program p;
	int ret = 0;

	if (filter_event_init(&ev, e->name, e->layout, e->tsdl, &err) == 0) {
		if (compiled_for(b, ev.signature))
			ret = 1;
		else if (filter_compile(x, &ev, &p, &err) == 0)
			ret = keep_program(b, &p, ev.signature) ? -1 : 1;
		filter_event_release(&ev);
	}
	if (ret == 0) {
		char msg[FILTER_ERROR_MAX + 32], *note;
		void *grown = realloc(b->notes, (b->nr_notes + 1) * sizeof(*b->notes));

		if (!b->nr_notes)
			b->first = err;
		filter_error_format(&err, msg, sizeof(msg));
		if (!grown || asprintf(&note, "%s: %s", e->name, msg) < 0)
			return -1;
		b->notes = grown;
		b->notes[b->nr_notes++] = note;
	}
	return ret;
}

/* The blob of abi/env.h: header, text, programs. */
static int make_blob(const struct build *b, const char *expr, uint8_t **blob,
		     size_t *len)
{
	struct ust_filter_blob h = { UST_FILTER_BLOB_MAGIC, (uint32_t)b->nr, 0, 0 };
	size_t i, at;

	h.expr_size = (uint32_t)((strlen(expr) + 1 + 7) & ~(size_t)7);
	for (i = 0; i < b->nr; i++)
		h.programs_size += (uint32_t)((b->progs[i].size + 7) & ~(size_t)7);
	*len = sizeof(h) + h.expr_size + h.programs_size;
	*blob = calloc(1, *len);
	if (!*blob)
		return -1;
	memcpy(*blob, &h, sizeof(h));
	memcpy(*blob + sizeof(h), expr, strlen(expr));
	at = sizeof(h) + h.expr_size;
	for (i = 0; i < b->nr; i++) {
		memcpy(*blob + at, b->progs[i].bytes, b->progs[i].size);
		at += (b->progs[i].size + 7) & ~(size_t)7;
	}
	return 0;
}

static void build_release(struct build *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		filter_program_free(&b->progs[i]);
	for (i = 0; i < b->nr_notes; i++)
		free(b->notes[i]);
	free(b->notes);
	free(b->progs);
	free(b->sigs);
}

/* The events that will record nothing, when the filter applies to others. */
static void print_notes(const struct build *b, const char *what)
{
	size_t i;

	for (i = 0; i < b->nr_notes; i++)
		fprintf(stderr, "%s: note: %s does not apply to %s "
			"(its events will not be recorded)\n", cli_prog, what,
			b->notes[i]);
}

int cli_filter_compile(const struct cli_fields *f, const char *pattern,
		       const char *expr, cli_event_accept_fn accept, void *arg,
		       const char *what, const char *where, uint8_t **blob,
		       size_t *len)
{
	struct build b = { 0 };
	struct filter_error err;
	struct filter_expr *x = filter_parse(expr, &err);
	char msg[FILTER_ERROR_MAX + 32];
	size_t i, matched = 0;
	int ret = -1;

	if (!x) {
		filter_error_format(&err, msg, sizeof(msg));
		cli_error("%s: %s", what, msg);
		return -1;
	}
	for (i = 0; i < f->nr; i++) {
		const struct cli_event_fields *e = &f->v[i];

		if (!ust__glob_match(pattern, e->name) || (accept && !accept(e->name, arg)))
			continue;
		matched++;
		if (compile_event(&b, x, e) < 0) {
			cli_error("out of memory");
			goto out;
		}
	}
	if (!matched) {
		cli_error("%s: no event matching '%s' in %s (filters are "
			  "compiled for the events ust can see there)", what,
			  pattern, where);
	} else if (!b.nr) {
		filter_error_format(&b.first, msg, sizeof(msg));
		cli_error("%s: %s", what, msg);
	} else if (make_blob(&b, expr, blob, len)) {
		cli_error("out of memory");
	} else {
		print_notes(&b, what);
		ret = 0;
	}
out:
	build_release(&b);
	filter_expr_free(x);
	return ret;
}
