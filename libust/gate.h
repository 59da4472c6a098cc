/*
 * gate.h - what may stop a record of an enabled event before it is
 * written: its filter and its rate limit (doc/filters.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * An event with neither pays nothing: its descriptor's gate word (the
 * `reserved` member of struct ust_event_desc) stays 0 and
 * ust_event_write() goes straight to the buffer.  Otherwise the word is
 * 1 and the record first goes through ust__gate_pass().
 */
#ifndef UST_GATE_H
#define UST_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include <ust/tracepoint.h>

#include "session.h"

/*
 * A session starts (registry lock held, before any event is attached):
 * write UST_TRACE's filters into the control area unless it holds some
 * already (a fork child inherits its parent's).
 */
UST_HIDDEN void ust__gate_session_started(struct ust_session *s);

/*
 * Set up the gate of event `ev` ("facility:event" `name`) in session `s`,
 * with the control lock held, before its enabled word is set.  False
 * when the event must stay off: it has a filter or rate limit but its id
 * is past what the gates can hold.
 */
UST_HIDDEN bool ust__gate_attach(struct ust_session *s,
				struct ust_event_desc *ev, const char *name);

/* In a fork child: copy the parent's filters (I13) into `s`. */
UST_HIDDEN void ust__gate_inherit(struct ust_session *s,
				 const struct ust_session *old);

/*
 * The gated path of ust_event_write(): 1 to write the record, 0 when its
 * filter or rate limit stops it.  No lock, no allocation, no system
 * call (but once per thread to learn its name, for $ctx.procname);
 * async-signal-safe.
 */
UST_HIDDEN int ust__gate_pass(struct ust_session *s, struct ust_event_desc *ev,
			     const struct ust_seg *segs, unsigned int nr_segs);

/* A thread was renamed: names cached for $ctx.procname are stale. */
UST_HIDDEN void ust__gate_thread_renamed(void);

#endif /* UST_GATE_H */
