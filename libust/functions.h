/*
 * functions.h - function tracing inside libust: the layouts (functions.c)
 * and the filters of the hooks (funcfilter.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_LIBUST_FUNCTIONS_H
#define UST_LIBUST_FUNCTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <ust/tracepoint.h>

#include "abi/env.h"
#include "session.h"

/*
 * What the hooks read on every call, set once by ust_functions_start()
 * (entry and exit last, with relaxed stores: until then the hooks see an
 * event that is never enabled).
 */
struct ust_func_state {
	struct ust_event_desc *entry;	/* the layout's entry event */
	struct ust_event_desc *exit;
	uint64_t base;			/* the program's load address (compact) */
	uint32_t layout;		/* enum ust_func_layout */
	uint32_t filters;		/* a filter of funcfilter.c is on */
	int started;
};

extern struct ust_func_state ust__func UST_HIDDEN;

/* functions.c */
UST_HIDDEN void ust__func_statedump(void);
UST_HIDDEN void ust__func_write(struct ust_event_desc *ev, const void *payload,
			       size_t len, void *fn);
/* An entry or exit of `fn` in the session's layout, written now. */
UST_HIDDEN void ust__func_record_entry(void *fn, void *call_site);
UST_HIDDEN void ust__func_record_exit(void *fn, void *call_site);

/*
 * Inside the calling thread's nesting level 0 (threadbuf.h), with its
 * buffer `w`: the layout's entry record of `fn` at time `ts`, and its
 * exit record now (funcfilter.c, which holds entries back).
 */
struct ust_tb_writer;
UST_HIDDEN void ust__func_put_entry(struct ust_session *s, struct ust_tb_writer *w,
				   uint64_t fn, uint64_t call_site, uint64_t ts);
UST_HIDDEN void ust__func_put_exit(struct ust_session *s, struct ust_tb_writer *w,
				  uint64_t fn, uint64_t call_site);

/* funcfilter.c */
UST_HIDDEN void ust__func_filters_start(void);
UST_HIDDEN void ust__func_filtered_entry(void *fn, void *call_site);
UST_HIDDEN void ust__func_filtered_exit(void *fn, void *call_site);
/* The calling thread exits (threadbuf.c's destructor). */
UST_HIDDEN void ust__func_thread_exit(void);

/* elfsyms.c: each defined function of the file at `path` loaded at `bias`. */
struct ust_elf_visit {
	bool (*match)(const char *name, void *arg);
	void (*found)(uint64_t addr, void *arg);
	void *arg;
};
UST_HIDDEN int ust__elf_functions(const char *path, uint64_t bias,
				 const struct ust_elf_visit *v);

#endif /* UST_LIBUST_FUNCTIONS_H */
