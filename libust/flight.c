/*
 * flight.c - flight-recorder mode on the library side: the state
 * channel's events, the trigger event, and ust_trigger().
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * In flight mode (UST_MODE=flight) the session has two channels: chan[0]
 * runs in overwrite mode and is never streamed, and chan[1], the state
 * channel, is small, in discard mode and streamed, so that a snapshot
 * still has the statedump events of the program's start (which objects
 * are loaded).  The statedump is on in flight mode for that reason.
 *
 * ust_trigger() records ust:trigger {reason} in chan[0] (the provider is
 * registered in flight mode only, so other sessions' event ids do not
 * change) and then asks the
 * consumer for a snapshot through the request block of the shared
 * memory header (abi/flight.h, struct ust_flight), with the trigger's own
 * timestamp as the cut: the snapshot ends exactly with that event, on
 * its stream.  Nothing here is on the event path.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ust/tracepoint.h>
#include <ust/ust.h>

#include "abi/flight.h"
#include "builtin.h"
#include "session.h"
#include "statedump.h"

UST_BUILTIN_EVENT(ev_trigger, "trigger", "string reason;", "S",
		  "ust_trigger() was called: a flight-recorder snapshot "
		  "ends here");

static struct ust_event_desc *const trigger_events[] = { &ev_trigger };

UST_BUILTIN_PROVIDER(trigger_provider, "ust", "libust's own events",
		     trigger_events);

/* The facilities that go to the state channel, never overwritten. */
static const char *const state_facilities[] = {
	"lttng_ust_statedump:", "lttng_ust_dl:",
};

uint32_t ust__event_channel(const struct ust_session *s, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(state_facilities) / sizeof(state_facilities[0]); i++) {
		if (!strncmp(name, state_facilities[i], strlen(state_facilities[i])))
			return s->state_chan;
	}
	return 0;
}

/* A new session in flight mode: the trigger event and the statedump. */
void ust__flight_session_started(struct ust_session *s)
{
	if (s->chan[0].mode != UST_MODE_FLIGHT)
		return;
	(void)ust_provider_register(&trigger_provider);	/* -EEXIST after a fork */
	ust_statedump_enable();
}

UST_EXPORT int ust_trigger(const char *reason)
{
	/* Acquire: pairs with the store-release in ust__session_publish(). */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	struct ust_seg seg;
	uint64_t ts = 0;

	if (!s)
		return -ENODEV;
	if (s->chan[0].mode != UST_MODE_FLIGHT)
		return -ENOTSUP;
	if (!reason || !*reason)
		reason = "trigger";
	if (UST_EVENT_ENABLED(&ev_trigger)) {
		seg.ptr = reason;
		seg.len = strlen(reason) + 1;
		ts = ust__channel_event_write(s, 0, &ev_trigger, &seg, 1, seg.len);
	}
	if (!ts)	/* event not recorded: cut at the call */
		ts = ust__clock_read(s->clock_kind);
	if (!ust__flight_claim(&s->hdr->flight))
		return -EBUSY;	/* the pending snapshot ends just before */
	(void)ust__flight_publish(&s->hdr->flight, ts, reason, "");
	return 0;
}
