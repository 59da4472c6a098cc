/*
 * ust/ust.h - the application-facing API of libust.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Most programs need nothing from here: tracing is configured from the
 * environment (UST_TRACE, UST_OUTPUT, ...) or by `ust record`.
 */
#ifndef UST_UST_H
#define UST_UST_H

#ifdef __cplusplus
extern "C" {
#endif

/* Non-zero when this process is tracing (UST_TRACE was set at start). */
int ust_tracing_active(void);

/*
 * Flight recorder (UST_MODE=flight, `ust record --flight-recorder`):
 * record a ust:trigger event with `reason` (NULL or "" for "trigger")
 * and ask the consumer to write a snapshot of every buffer, cut exactly
 * at that event, into a new trace directory named after the reason.
 * Does not wait for the snapshot, and is async-signal-safe (a program's
 * own crash handler may call it).  Returns 0 when requested, -EBUSY when
 * a snapshot is still being written (the event is recorded all the
 * same), -ENOTSUP when the process traces but not in flight mode (and
 * nothing is recorded), -ENODEV when it does not trace.
 */
int ust_trigger(const char *reason);

/*
 * Loaded-object statedump, for tools that record code addresses
 * (function tracing, sampling, JITs): describe every object loaded in the
 * process (lttng_ust_statedump:bin_info, build_id, debug_link, and the
 * threads' names) now, and again at every later session start (a fork
 * child's), so that addresses resolve to symbols offline.  Idempotent;
 * without tracing it only arms the later dumps.  libust-cyg-profile.so
 * calls it from its constructor (doc/functions.md).
 */
void ust_statedump_enable(void);

/*
 * After a dlopen() (pass its `flags`) or a dlclose() (pass 0) by a
 * program whose objects are described (ust_statedump_enable()): record
 * the objects that appeared (lttng_ust_dl:dlopen, build_id, debug_link)
 * and disappeared (lttng_ust_dl:dlclose) since the last look.  A no-op
 * when the statedump is not enabled.
 */
void ust_statedump_dl_sync(int flags);

#ifdef __cplusplus
}
#endif

#endif /* UST_UST_H */
