/*
 * compiler.c - the compiler's entry points: parse once, compile per event.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "typed.h"

struct filter_expr {
	struct node *root;
};

void filter_error_format(const struct filter_error *err, char *buf,
			 size_t len)
{
	if (err->column > 0)
		snprintf(buf, len, "column %d: %s", err->column, err->msg);
	else
		snprintf(buf, len, "%s", err->msg);
}

int filter_fail(struct filter_error *err, int col, const char *fmt, ...)
{
	va_list ap;

	err->column = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

struct filter_expr *filter_parse(const char *text, struct filter_error *err)
{
	struct filter_expr *e = calloc(1, sizeof(*e));

	if (!e) {
		filter_fail(err, 0, "out of memory");
		return NULL;
	}
	e->root = ast_parse(text, err);
	if (!e->root) {
		free(e);
		return NULL;
	}
	return e;
}

void filter_expr_free(struct filter_expr *e)
{
	if (!e)
		return;
	ast_free(e->root);
	free(e);
}

int filter_compile(const struct filter_expr *e, const struct filter_event *ev,
		   struct filter_program *out, struct filter_error *err)
{
	struct tnode *t = check_expr(e->root, ev, err);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!t)
		return -1;
	ret = emit_program(t, ev, out, err);
	tnode_free(t);
	return ret;
}
