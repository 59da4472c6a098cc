/*
 * filters.h - filter expressions compiled by the `ust` command for the
 * events they apply to (doc/filters.md): `ust record --filter` for the
 * events of CMD and its libraries, `ust ctl PID filter` for those of a
 * running process.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_FILTERS_H
#define UST_CLI_FILTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Events and their fields, as tpgen's "ust_fields" sections give them. */
struct cli_event_fields {
	char *name;		/* "facility:event" */
	char *layout;
	char *tsdl;
};

struct cli_fields {
	struct cli_event_fields *v;
	size_t nr, cap;
};

#define CLI_FIELDS_SECTION "ust_fields"

/* A cli_elf_section_fn: add the events of one "ust_fields" section. */
unsigned int cli_fields_section(const char *path, const char *data,
				size_t size, void *arg);
/* In name order, so that notes and errors come in a stable order. */
void cli_fields_sort(struct cli_fields *f);
void cli_fields_release(struct cli_fields *f);

/* Which events a filter is compiled for, besides its pattern. */
typedef bool (*cli_event_accept_fn)(const char *name, void *arg);

/*
 * Compile expression `expr` for every event of `f` that matches
 * `pattern` (and that `accept` accepts, when given): one program per kind
 * of fields.  On success *blob (malloc'ed, *len bytes) is a struct
 * ust_filter_blob (abi/env.h) with the text and the programs, and a note
 * names each matching event the expression does not apply to (a field
 * it lacks): those events will record nothing.  Returns 0, or -1 after
 * printing "WHAT: column N: ..." (`what` names the expression: "--filter"
 * for ust record; the first event's error when it applies to none, or
 * that no event matches; `where` says where events were looked for).
 */
int cli_filter_compile(const struct cli_fields *f, const char *pattern,
		       const char *expr, cli_event_accept_fn accept, void *arg,
		       const char *what, const char *where, uint8_t **blob,
		       size_t *len);

#endif /* UST_CLI_FILTERS_H */
