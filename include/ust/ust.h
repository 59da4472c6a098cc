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

#ifdef __cplusplus
}
#endif

#endif /* UST_UST_H */
