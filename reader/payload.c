/*
 * payload.c - find the payload bytes of the current event.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The reader has just decoded the event (reader.c, event_read()): the
 * stream's position is the end of the record and ev_ctx_pos the start of
 * its stream event context.  Walking the two context scopes again, without
 * printing, gives the start of the payload.
 */
#include "decode.h"
#include "payload.h"

int rd_event_payload(const struct rd_msg *m, const uint8_t **p, size_t *len)
{
	struct rd_stream *st = (struct rd_stream *)m->stream;
	struct rd_walk w = {
		.base = st->map + st->pkt_off, .pos = st->ev_ctx_pos,
		.end = st->content_bits, .st = st, .scope = SCOPE_OTHER,
		.roles = false, .vtid = -1,
	};

	if (m->kind != RD_MSG_EVENT)
		return -1;
	if ((st->sc->event_context &&
	     rd_walk_struct(&w, st->sc->event_context, true)) ||
	    (m->ec->context && rd_walk_struct(&w, m->ec->context, true)))
		return -1;
	if ((w.pos | st->pos) & 7 || st->pos < w.pos)
		return -1;
	*p = w.base + w.pos / 8;
	*len = (size_t)((st->pos - w.pos) / 8);
	return 0;
}
