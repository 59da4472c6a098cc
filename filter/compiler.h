/*
 * compiler.h - the `ust` command's side of filters: parse an expression
 * in LTTng's filter syntax once, then compile it for each event it
 * applies to, against that event's field descriptions.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	struct filter_error err;
 *	struct filter_expr *e = filter_parse("count > 10", &err);
 *	struct filter_event ev;
 *	struct filter_program prog;
 *
 *	filter_event_init(&ev, "hello:greeting", layout, tsdl, &err);
 *	filter_compile(e, &ev, &prog, &err);	// prog.bytes, prog.size
 *
 * Errors carry the column of the expression they are about (1 is its
 * first byte; 0 when they are about no place in it) and one line of text,
 * e.g. column 1: "unknown field 'cnt' in hello:greeting; fields are
 * count, text".  doc/filters.md has the grammar and the semantics.
 */
#ifndef UST_FILTER_COMPILER_H
#define UST_FILTER_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reader/tsdl.h"

#define FILTER_ERROR_MAX 512

struct filter_error {
	int column;
	char msg[FILTER_ERROR_MAX];
};

/* "column N: msg" (or just msg when the column is 0) into buf. */
void filter_error_format(const struct filter_error *err, char *buf,
			 size_t len);

/* Set `err` to column `col` and the formatted message.  Returns -1. */
int filter_fail(struct filter_error *err, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct filter_expr;

/* NULL with `err` on a syntax error; malloc failure aborts nothing: NULL. */
struct filter_expr *filter_parse(const char *text, struct filter_error *err);
void filter_expr_free(struct filter_expr *e);

/* The fields of one event, as the compiler sees them. */
struct filter_event {
	char *name;		/* "facility:event" */
	char *layout;		/* tpgen's layout string */
	char *tsdl;		/* TSDL of its fields */
	uint64_t signature;	/* ust_filter_signature(tsdl, layout) */
	struct rd_metadata md;	/* owns the type tree */
	const struct rd_type *fields;	/* RD_STRUCT */
};

/*
 * Parse the TSDL fields of event `name` (as tpgen writes them into the
 * descriptor, the metadata log and the ust_fields section) and check that
 * they give exactly `layout`.  0, or -1 with `err` (column 0).
 */
int filter_event_init(struct filter_event *ev, const char *name,
		      const char *layout, const char *tsdl,
		      struct filter_error *err);
void filter_event_release(struct filter_event *ev);

/* A compiled program (program.h), malloc'd. */
struct filter_program {
	uint8_t *bytes;
	size_t size;
};

/*
 * Type-check `e` against `ev` and emit its program: 0, or -1 with `err`.
 * The program passes ust_filter_validate() (checked before returning).
 */
int filter_compile(const struct filter_expr *e, const struct filter_event *ev,
		   struct filter_program *out, struct filter_error *err);
void filter_program_free(struct filter_program *p);

/* One line per instruction, then the pool's size, for tests and debugging. */
void filter_disasm(const void *bytes, size_t size, FILE *out);

#endif /* UST_FILTER_COMPILER_H */
