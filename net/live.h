/*
 * live.h - a client of lttng-relayd's live port: follow a session while
 * it is written (`ust view --live net://HOST/host/HOSTNAME/SESSION`).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	v = ust_live_connect(url, timeout, err)		handshake, viewer session
 *	ust_live_list(v, &sessions, &n)			what the relay has
 *	ust_live_attach(v, hostname, session, from_start)	every relay session
 *		of that host and name (one per consumer connection: they are
 *		one ust session)
 *	while (ust_live_poll(v, &sink, &progress) > 0)	one round over the
 *		streams; the sink gets metadata, packets, quiet and end
 *		notices; sleep a little when !progress
 *	ust_live_close(v)
 *
 * The sink decides where the trace goes: net/live-dir.c mirrors it into
 * a directory that any CTF reader (ours, babeltrace2) can read, and says
 * up to when each stream is known complete, which is what a live printer
 * needs to print in time order.
 *
 * Every call waits at most the timeout given to ust_live_connect() for
 * each answer; a relay that stops answering or goes away is an error
 * naming the URL, never a hang.
 */
#ifndef UST_NET_LIVE_H
#define UST_NET_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/url.h"

struct ust_live_session_info {
	uint64_t id;
	uint32_t live_timer;
	uint32_t clients;		/* viewers attached (0 or 1) */
	uint32_t streams;
	char hostname[65];
	char name[256];
};

struct ust_live_stream_info {
	uint64_t id;			/* the relay's stream handle */
	uint64_t trace_id;		/* streams of one CTF trace share it */
	bool metadata;
	char path[4097];		/* the trace's path in the session */
	char channel[256];		/* its file name */
};

/* What GET_NEXT_INDEX says of a packet (timestamps are clock values). */
struct ust_live_index {
	uint64_t offset;		/* bytes, in the relay's stream file */
	uint64_t packet_size;		/* bits */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_class;
};

/* Callbacks; a non-zero return stops ust_live_poll() with an error. */
struct ust_live_sink {
	void *arg;
	int (*stream)(void *arg, const struct ust_live_stream_info *st);
	int (*metadata)(void *arg, uint64_t trace_id, const void *bytes, size_t len);
	int (*packet)(void *arg, uint64_t stream_id, const struct ust_live_index *ix,
		      const void *bytes, size_t len);
	/* beacon: no event in the stream up to `until` */
	int (*quiet)(void *arg, uint64_t stream_id, uint64_t until);
	/* the stream has no more data */
	int (*ended)(void *arg, uint64_t stream_id);
};

struct ust_live_viewer;

struct ust_live_viewer *ust_live_connect(const struct ust_live_url *url, int timeout_ms,
					 char *err, size_t errlen);

/* The relay's sessions (malloc'ed array): 0, or -1 (ust_live_error()). */
int ust_live_list(struct ust_live_viewer *v, struct ust_live_session_info **sessions,
		  size_t *n);

/*
 * Attach to every session named `session` of host `hostname`.  From the
 * start of the trace, or (from_start false) from its next packets, as
 * babeltrace2 does.  Returns how many were attached (0: none listed
 * yet, the caller may try again), or -1.  The streams go to the sink at
 * the next ust_live_poll(), which also attaches, every 250 ms, sessions
 * of that name listed later (a process that started later).
 */
int ust_live_attach(struct ust_live_viewer *v, const char *hostname, const char *session,
		    bool from_start);

/*
 * One round: new streams, new metadata, then for each stream at most
 * one packet (or a quiet/end notice).  *progress: something arrived.
 * Returns 1 while some stream may still bring data, 0 once every
 * attached session ended and every stream was read to its end, -1 on
 * error (ust_live_error()).
 */
int ust_live_poll(struct ust_live_viewer *v, const struct ust_live_sink *sink,
		  bool *progress);

const char *ust_live_error(const struct ust_live_viewer *v);

void ust_live_close(struct ust_live_viewer *v);

#endif /* UST_NET_LIVE_H */
