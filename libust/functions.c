/*
 * functions.c - function entries and exits (-finstrument-functions), in
 * the layout the recording chose (UST_FUNCTIONS, doc/functions.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Layouts, each its own provider, registered alone so that its events
 * get the first, small ids (the 4-byte header holds ids up to 30):
 *
 *   compact     ust_func:entry {offset: u32}  offset of the function from
 *               the program's load address, given once by ust_func:base
 *               {baddr}; ust_func:entry_addr {addr} for a function
 *               farther than 4 GiB from it (a shared library);
 *               ust_func:exit {}.  8 and 4 bytes with per-thread
 *               buffers: 6 bytes per event on average.
 *   full        ust_cyg_profile:func_entry {addr, call_site}, func_exit {}
 *               (ust's layout before: 24 and 8 bytes with the vtid).
 *   lttng-fast  lttng_ust_cyg_profile_fast:func_entry {addr}, func_exit {}
 *   lttng       lttng_ust_cyg_profile:func_entry/func_exit {addr, call_site}
 *               (LTTng-UST's liblttng-ust-cyg-profile(-fast) events, log
 *               level TRACE_DEBUG_FUNCTION, doc/compatibility.md).
 *
 * Every layout's records carry the entered function as their ip (the
 * `ip` context, when the recording has it): what babeltrace2's
 * debug-info filter and Trace Compass resolve.
 *
 * The compact layout in a per-thread buffer takes the quick path of
 * threadbuf.h: the offset (or nothing), a 4-byte header, one commit (an
 * extended header after a long pause); anything else (a new packet, a
 * per-CPU buffer, a filter on the event, the function filters of
 * funcfilter.c) goes through the general path.
 */
#include <link.h>
#include <stdint.h>
#include <string.h>

#include <ust/functions.h>
#include <ust/loglevel.h>
#include <ust/ust.h>

#include "builtin.h"
#include "functions.h"
#include "threadbuf.h"

#define FUNC_LEVEL	UST_LOGLEVEL_DEBUG_FUNCTION	/* LTTng's, for all layouts */

/* compact */
UST_BUILTIN_EVENT_LEVEL(ev_c_base, "base", FUNC_LEVEL,
			UST_TSDL_U64_HEX " _baddr;", "F8",
			"the program's load address: offsets of entry are from it");
UST_BUILTIN_EVENT_LEVEL(ev_c_entry, "entry", FUNC_LEVEL,
			UST_TSDL_U32_HEX " _offset;", "F4",
			"a function entered, at base + offset");
UST_BUILTIN_EVENT_LEVEL(ev_c_entry_addr, "entry_addr", FUNC_LEVEL,
			UST_TSDL_U64_HEX " _addr;", "F8",
			"a function entered, farther than 4 GiB from base");
UST_BUILTIN_EVENT_LEVEL(ev_c_exit, "exit", FUNC_LEVEL, "", "",
			"the function its thread entered last returned");
static struct ust_event_desc *const compact_events[] = {
	&ev_c_entry, &ev_c_exit, &ev_c_entry_addr, &ev_c_base,
};
UST_BUILTIN_PROVIDER(compact_provider, "ust_func",
		     "function entries and exits, compact (-finstrument-functions)",
		     compact_events);

/* full: ust's layout before the compact one */
UST_BUILTIN_EVENT(ev_f_entry, "func_entry",
		  UST_TSDL_U64_HEX " _addr; " UST_TSDL_U64_HEX " _call_site;",
		  "F16", NULL);
UST_BUILTIN_EVENT(ev_f_exit, "func_exit", "", "", NULL);
static struct ust_event_desc *const full_events[] = { &ev_f_entry, &ev_f_exit };
UST_BUILTIN_PROVIDER(full_provider, "ust_cyg_profile",
		     "function entries and exits (-finstrument-functions)",
		     full_events);

/* lttng-fast and lttng: LTTng-UST's names and fields */
UST_BUILTIN_EVENT_LEVEL(ev_lf_entry, "func_entry", FUNC_LEVEL,
			UST_TSDL_U64_HEX " _addr;", "F8", NULL);
UST_BUILTIN_EVENT_LEVEL(ev_lf_exit, "func_exit", FUNC_LEVEL, "", "", NULL);
static struct ust_event_desc *const lttng_fast_events[] = { &ev_lf_entry, &ev_lf_exit };
UST_BUILTIN_PROVIDER(lttng_fast_provider, "lttng_ust_cyg_profile_fast",
		     "function entries and exits, LTTng-UST's fast layout",
		     lttng_fast_events);
UST_BUILTIN_EVENT_LEVEL(ev_l_entry, "func_entry", FUNC_LEVEL,
			UST_TSDL_U64_HEX " _addr; " UST_TSDL_U64_HEX " _call_site;",
			"F16", NULL);
UST_BUILTIN_EVENT_LEVEL(ev_l_exit, "func_exit", FUNC_LEVEL,
			UST_TSDL_U64_HEX " _addr; " UST_TSDL_U64_HEX " _call_site;",
			"F16", NULL);
static struct ust_event_desc *const lttng_events[] = { &ev_l_entry, &ev_l_exit };
UST_BUILTIN_PROVIDER(lttng_provider, "lttng_ust_cyg_profile",
		     "function entries and exits, LTTng-UST's layout",
		     lttng_events);

/* An event that is never enabled: the hooks' before ust_functions_start(). */
UST_BUILTIN_EVENT(ev_none, "none", "", "", NULL);

struct ust_func_state ust__func = {
	.entry = &ev_none,
	.exit = &ev_none,
};

/* The lowest PT_LOAD address of the program (the first object listed). */
static int program_baddr(struct dl_phdr_info *info, size_t size, void *arg)
{
	uint64_t lo = UINT64_MAX;
	ElfW(Half) i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_vaddr < lo)
			lo = info->dlpi_phdr[i].p_vaddr;
	if (lo != UINT64_MAX)
		*(uint64_t *)arg = info->dlpi_addr + lo;
	return 1;	/* the program only */
}

/*
 * Record ust_func:base, before any compact entry of the session: at
 * ust_functions_start(), and at every later session start (a fork child)
 * from the statedump.
 */
void ust__func_statedump(void)
{
	struct ust_seg seg = { &ust__func.base, sizeof(ust__func.base) };

	if (ust__func.layout == UST_FUNC_COMPACT && UST_EVENT_ENABLED(&ev_c_base))
		ust_event_write_ip(&ev_c_base, &seg, 1, seg.len, NULL);
}

UST_EXPORT void ust_functions_start(void)
{
	static struct ust_provider *const providers[] = {
		[UST_FUNC_COMPACT] = &compact_provider,
		[UST_FUNC_FULL] = &full_provider,
		[UST_FUNC_LTTNG_FAST] = &lttng_fast_provider,
		[UST_FUNC_LTTNG] = &lttng_provider,
	};
	static struct ust_event_desc *const entries[] = {
		&ev_c_entry, &ev_f_entry, &ev_lf_entry, &ev_l_entry,
	};
	static struct ust_event_desc *const exits[] = {
		&ev_c_exit, &ev_f_exit, &ev_lf_exit, &ev_l_exit,
	};
	uint32_t layout = ust__config.func_layout;

	if (__atomic_exchange_n(&ust__func.started, 1, __ATOMIC_RELAXED))
		return;
	ust__func.layout = layout;
	dl_iterate_phdr(program_baddr, &ust__func.base);
	/* Ids first: the program's own providers come after ours. */
	ust_provider_register(providers[layout]);
	/* Its first dump records ust_func:base (ust__func_statedump()). */
	ust_statedump_enable();
	ust__func_filters_start();
	/*
	 * Relaxed: the hooks may run on any thread from now on; a hook that
	 * still sees ev_none records nothing, as before a session.
	 */
	__atomic_store_n(&ust__func.exit, exits[layout], __ATOMIC_RELAXED);
	__atomic_store_n(&ust__func.entry, entries[layout], __ATOMIC_RELAXED);
}

/*
 * The general path: any layout, buffer kind or filter.  `ip` is the
 * function entered or left (the records' `_ip`).
 */
void ust__func_write(struct ust_event_desc *ev, const void *payload, size_t len,
		     void *fn)
{
	struct ust_seg seg = { payload, len };

	ust_event_write_ip(ev, &seg, len ? 1 : 0, len, fn);
}

/*
 * A compact record in the calling thread's buffer: the quick path of
 * threadbuf.h when that is possible, else the general one.
 */
static inline __attribute__((always_inline))
void compact_write(struct ust_event_desc *ev, const void *payload, size_t len,
		   void *fn)
{
	struct ust_seg seg = { payload, len };

	if (__builtin_expect(!ust__tb_gated(ev) &&
			     ust__tb_try_quick(ev, &seg, len ? 1 : 0, len), 1))
		return;
	ust__func_write(ev, payload, len, fn);
}

/* compact_entry()'s general path: the offset by value, so that the quick
 * path never takes its address. */
static __attribute__((noinline))
void compact_entry_general(uint32_t off, void *fn)
{
	ust__func_write(&ev_c_entry, &off, sizeof(off), fn);
}

/* ust_func:entry {offset}: compact_write() of a value. */
static inline __attribute__((always_inline))
void compact_entry(uint32_t off, void *fn)
{
	struct ust_seg seg = { &off, sizeof(off) };

	if (__builtin_expect(!ust__tb_gated(&ev_c_entry) &&
			     ust__tb_try_quick(&ev_c_entry, &seg, 1, sizeof(off)), 1))
		return;
	compact_entry_general(off, fn);
}

/* The payload of an entry record, whatever the layout. */
struct func_payload {
	uint64_t addr[2];	/* fn, call_site */
	uint32_t offset;	/* compact: fn - base */
};

/* The entry event of `fn` in the layout, and its payload in `p`. */
static struct ust_event_desc *entry_of(uint64_t fn, uint64_t call_site,
				       struct func_payload *p, struct ust_seg *seg)
{
	uint64_t off = fn - ust__func.base;

	p->addr[0] = fn;
	p->addr[1] = call_site;
	seg->ptr = p->addr;
	switch (ust__func.layout) {
	case UST_FUNC_COMPACT:
		seg->len = 8;
		if (off > UINT32_MAX)
			return &ev_c_entry_addr;
		p->offset = (uint32_t)off;
		seg->ptr = &p->offset;
		seg->len = 4;
		return &ev_c_entry;
	case UST_FUNC_LTTNG_FAST:
		seg->len = 8;
		return &ev_lf_entry;
	default:
		seg->len = 16;
		return ust__func.entry;
	}
}

void ust__func_put_entry(struct ust_session *s, struct ust_tb_writer *w,
			 uint64_t fn, uint64_t call_site, uint64_t ts)
{
	struct func_payload p;
	struct ust_seg seg;
	struct ust_event_desc *ev = entry_of(fn, call_site, &p, &seg);

	ust__tb_write_at(s, &s->chan[0], w, ev->id, ts, &seg, 1, seg.len, fn);
}

void ust__func_put_exit(struct ust_session *s, struct ust_tb_writer *w,
			uint64_t fn, uint64_t call_site)
{
	uint64_t p[2] = { fn, call_site };
	struct ust_seg seg = { p, sizeof(p) };
	bool fields = ust__func.layout == UST_FUNC_LTTNG;

	ust__tb_write(s, &s->chan[0], w, ust__func.exit->id, &seg, fields,
		      fields ? sizeof(p) : 0, fn);
}

/* Record the entry of `fn` in the layout of the session. */
void ust__func_record_entry(void *fn, void *call_site)
{
	struct func_payload p;
	struct ust_seg seg;
	struct ust_event_desc *ev = entry_of((uintptr_t)fn, (uintptr_t)call_site,
					     &p, &seg);

	if (ust__func.layout == UST_FUNC_COMPACT)
		compact_write(ev, seg.ptr, seg.len, fn);
	else
		ust__func_write(ev, seg.ptr, seg.len, fn);
}

/* Record the exit of `fn` in the layout of the session. */
void ust__func_record_exit(void *fn, void *call_site)
{
	uint64_t p[2] = { (uintptr_t)fn, (uintptr_t)call_site };

	if (ust__func.layout == UST_FUNC_COMPACT)
		compact_write(&ev_c_exit, NULL, 0, fn);
	else if (ust__func.layout == UST_FUNC_LTTNG)
		ust__func_write(&ev_l_exit, p, sizeof(p), fn);
	else
		ust__func_write(ust__func.exit, NULL, 0, fn);
}

UST_EXPORT void ust_func_enter(void *fn, void *call_site)
{
	/* Relaxed: the pointer, then the event's enabled word (UST_EVENT_ENABLED). */
	struct ust_event_desc *ev = __atomic_load_n(&ust__func.entry, __ATOMIC_RELAXED);
	uint64_t off = (uintptr_t)fn - ust__func.base;

	if (!UST_EVENT_ENABLED(ev))
		return;
	if (__builtin_expect(ust__func.filters, 0)) {
		ust__func_filtered_entry(fn, call_site);
		return;
	}
	if (__builtin_expect(ust__func.layout == UST_FUNC_COMPACT && off <= UINT32_MAX, 1)) {
		compact_entry((uint32_t)off, fn);
		return;
	}
	ust__func_record_entry(fn, call_site);
}

UST_EXPORT void ust_func_exit(void *fn, void *call_site)
{
	/* Relaxed: as in ust_func_enter(). */
	struct ust_event_desc *ev = __atomic_load_n(&ust__func.exit, __ATOMIC_RELAXED);

	if (!UST_EVENT_ENABLED(ev))
		return;
	if (__builtin_expect(ust__func.filters, 0)) {
		ust__func_filtered_exit(fn, call_site);
		return;
	}
	if (__builtin_expect(ust__func.layout == UST_FUNC_COMPACT, 1)) {
		compact_write(&ev_c_exit, NULL, 0, fn);
		return;
	}
	ust__func_record_exit(fn, call_site);
}
