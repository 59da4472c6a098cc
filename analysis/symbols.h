/*
 * symbols.h - resolve code addresses of a traced process to function
 * names, from the statedump events of its trace (libust/statedump.c),
 * with elfutils' libdwfl.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One table per traced process (one address space).  Feed it every event
 * of the trace in time order with sym_table_observe(): it keeps the
 * objects that lttng_ust_statedump:bin_info / lttng_ust_dl:dlopen
 * describe (and their build ids), and drops those lttng_ust_dl:dlclose
 * unloads.  Objects can also be added by hand (tests, other formats).
 * Symbols come from the object's file when it is still the same file
 * (same build id), else from the separate debug file named by the build
 * id (/usr/lib/debug/.build-id/xx/yyyy.debug); libdwfl also follows
 * .gnu_debuglink.
 */
#ifndef UST_ANALYSIS_SYMBOLS_H
#define UST_ANALYSIS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

#define SYM_BUILD_ID_MAX	64

struct sym_table;

/* What an address resolved to. */
struct sym_info {
	const char *func;	/* NULL when no symbol covers the address */
	uint64_t offset;	/* from the start of `func` */
	const char *object;	/* path of the object, NULL when none */
};

struct sym_table *sym_table_new(void);
void sym_table_free(struct sym_table *t);

/*
 * Describe one loaded object: `baddr` is the address of its lowest
 * PT_LOAD segment, `memsz` the span of its segments.  Returns 0, or -1
 * when out of memory.
 */
int sym_table_add(struct sym_table *t, uint64_t baddr, uint64_t memsz,
		  const char *path, bool is_pic);
/* Record the build id of the object at `baddr` (if any). */
void sym_table_set_build_id(struct sym_table *t, uint64_t baddr,
			    const uint8_t *id, size_t len);
void sym_table_remove(struct sym_table *t, uint64_t baddr);

/*
 * Update the table from event `m` (the last one rd_reader_next()
 * returned) when it is a statedump or dl event; other events are
 * ignored.  Returns 0, or -1 for a statedump event whose payload is bad.
 */
int sym_table_observe(struct sym_table *t, const struct rd_msg *m);

/* Resolve `addr`.  Returns 0 when an object covers it, else -1. */
int sym_resolve(struct sym_table *t, uint64_t addr, struct sym_info *out);

/*
 * "func+0xOFF" (just "func" at offset 0), "object+0xOFF" without a
 * symbol, "0xADDR" without an object; always NUL-terminated.
 */
void sym_format(struct sym_table *t, uint64_t addr, char *buf, size_t len);

#endif /* UST_ANALYSIS_SYMBOLS_H */
