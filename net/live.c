/*
 * live.c - lttng-relayd live viewer client (net/live.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Message layouts: net/relayd-abi.h, "Live port".  The protocol is one
 * request, one answer, on one connection; every answer is read before
 * the next request leaves, within the timeout.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/live.h"
#include "net/relayd-abi.h"
#include "net/sock.h"
#include "net/wire.h"

struct lstream {
	struct ust_live_stream_info info;
	uint64_t session;
	bool announced;			/* given to the sink */
	bool ended;			/* data: HUP seen; metadata: closed */
	bool has_index;			/* `index` read, its packet not yet */
	struct ust_live_index index;
};

struct lsession {
	uint64_t id;
	bool closed;			/* the relay said HUP: no more streams */
};

struct ust_live_viewer {
	struct ust_live_url url;
	int fd;
	int timeout_ms;
	struct ust_wire msg;
	struct lsession *sessions;
	size_t nr_sessions;
	struct lstream *streams;
	size_t nr_streams;
	uint8_t *buf;			/* packet and metadata answers */
	size_t buf_cap;
	/* the sessions asked for: relisted now and then, for late ones */
	char want_host[65];
	char want_name[256];
	bool from_start;
	int64_t next_list_ms;
	char error[1024];
};

/* How often the relay is asked again for the sessions of that name. */
#define RELIST_PERIOD_MS	250

__attribute__((format(printf, 2, 3)))
static int fail(struct ust_live_viewer *v, const char *fmt, ...)
{
	char where[UST_URL_MAX + 64];
	va_list ap;
	int n;

	if (v->error[0])
		return -1;
	ust_url_format_endpoint(&v->url.relay, v->url.port, where, sizeof(where));
	n = snprintf(v->error, sizeof(v->error), "lttng-relayd live port at %s: ", where);
	if (n > 0 && (size_t)n < sizeof(v->error)) {
		va_start(ap, fmt);
		vsnprintf(v->error + n, sizeof(v->error) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int fail_sock(struct ust_live_viewer *v, int err, const char *doing)
{
	if (err == -ETIMEDOUT)
		return fail(v, "no answer to %s within %d ms", doing, v->timeout_ms);
	if (err == -ESHUTDOWN)
		return fail(v, "connection closed by the relay (during %s)", doing);
	return fail(v, "%s (during %s)", ust_net_strerror(err), doing);
}

/* Start a request: the 16-byte header, data_size patched by send_request. */
static void req_begin(struct ust_live_viewer *v, uint32_t cmd)
{
	ust_wire_reset(&v->msg);
	ust_wire_be64(&v->msg, 0);
	ust_wire_be32(&v->msg, cmd);
	ust_wire_be32(&v->msg, 0);
}

static int send_request(struct ust_live_viewer *v, const char *doing)
{
	struct iovec iov;
	int err;

	if (v->msg.failed)
		return fail(v, "out of memory");
	ust_wire_patch_be64(&v->msg, 0, v->msg.len - VIEWER_CMD_HDR_SIZE);
	iov = (struct iovec){ v->msg.buf, v->msg.len };
	err = ust_net_send_all(v->fd, &iov, 1, ust_net_deadline(v->timeout_ms));
	return err ? fail_sock(v, err, doing) : 0;
}

static int recv_answer(struct ust_live_viewer *v, void *buf, size_t len, const char *doing)
{
	int err = ust_net_recv_all(v->fd, buf, len, ust_net_deadline(v->timeout_ms));

	return err ? fail_sock(v, err, doing) : 0;
}

/* Room for `len` bytes in v->buf. */
static int buf_room(struct ust_live_viewer *v, size_t len)
{
	uint8_t *p;

	if (len <= v->buf_cap)
		return 0;
	p = realloc(v->buf, len);
	if (!p)
		return fail(v, "out of memory for %zu bytes", len);
	v->buf = p;
	v->buf_cap = len;
	return 0;
}

/* CONNECT as a command client, then CREATE_SESSION (our viewer session). */
static int handshake(struct ust_live_viewer *v)
{
	uint8_t reply[VIEWER_CONNECT_SIZE];
	uint32_t major;

	req_begin(v, VIEWER_CMD_CONNECT);
	ust_wire_be64(&v->msg, 0);			/* viewer session: the relay's to give */
	ust_wire_be32(&v->msg, VIEWER_PROTO_MAJOR);
	ust_wire_be32(&v->msg, VIEWER_PROTO_MINOR);
	ust_wire_be32(&v->msg, VIEWER_CLIENT_COMMAND);
	if (send_request(v, "CONNECT") || recv_answer(v, reply, sizeof(reply), "CONNECT"))
		return -1;
	major = ust_get_be32(reply + 8);
	if (major != VIEWER_PROTO_MAJOR)
		return fail(v, "the relay speaks live protocol %u.%u; ust speaks %u.x", major,
			    ust_get_be32(reply + 12), VIEWER_PROTO_MAJOR);
	req_begin(v, VIEWER_CMD_CREATE_SESSION);
	if (send_request(v, "CREATE_SESSION") ||
	    recv_answer(v, reply, RELAYD_GENERIC_REPLY, "CREATE_SESSION"))
		return -1;
	if (ust_get_be32(reply) != VIEWER_CREATE_SESSION_OK)
		return fail(v, "the relay refused a viewer session (status %u)", ust_get_be32(reply));
	return 0;
}

struct ust_live_viewer *ust_live_connect(const struct ust_live_url *url, int timeout_ms,
					 char *err, size_t errlen)
{
	struct ust_live_viewer *v = calloc(1, sizeof(*v));
	char why[512];

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	v->url = *url;
	v->timeout_ms = timeout_ms > 0 ? timeout_ms : 5000;
	ust_wire_init(&v->msg);
	v->fd = ust_net_connect(url->relay.host, url->relay.family, url->port, v->timeout_ms,
				why, sizeof(why));
	if (v->fd < 0)
		fail(v, "%s", why);
	if (v->fd < 0 || handshake(v)) {
		snprintf(err, errlen, "%s", v->error);
		ust_live_close(v);
		return NULL;
	}
	return v;
}

/* A C string from a fixed-size, maybe unterminated, field. */
static void field_str(char *dst, size_t dstlen, const uint8_t *src, size_t srclen)
{
	size_t n = strnlen((const char *)src, srclen);

	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void parse_session(const uint8_t *p, struct ust_live_session_info *s)
{
	s->id = ust_get_be64(p);
	s->live_timer = ust_get_be32(p + 8);
	s->clients = ust_get_be32(p + 12);
	s->streams = ust_get_be32(p + 16);
	field_str(s->hostname, sizeof(s->hostname), p + 20, VIEWER_HOST_NAME_MAX);
	field_str(s->name, sizeof(s->name), p + 20 + VIEWER_HOST_NAME_MAX, VIEWER_NAME_MAX);
}

int ust_live_list(struct ust_live_viewer *v, struct ust_live_session_info **sessions,
		  size_t *n)
{
	uint8_t count[4], rec[VIEWER_SESSION_SIZE];
	struct ust_live_session_info *s;
	uint32_t i, nr;

	req_begin(v, VIEWER_CMD_LIST_SESSIONS);
	if (send_request(v, "LIST_SESSIONS") ||
	    recv_answer(v, count, sizeof(count), "LIST_SESSIONS"))
		return -1;
	nr = ust_get_be32(count);
	s = calloc(nr ? nr : 1, sizeof(*s));
	if (!s)
		return fail(v, "out of memory");
	for (i = 0; i < nr; i++) {
		if (recv_answer(v, rec, sizeof(rec), "LIST_SESSIONS")) {
			free(s);
			return -1;
		}
		parse_session(rec, &s[i]);
	}
	*sessions = s;
	*n = nr;
	return 0;
}

static struct lstream *find_stream(struct ust_live_viewer *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->nr_streams; i++) {
		if (v->streams[i].info.id == id)
			return &v->streams[i];
	}
	return NULL;
}

/* One stream record of ATTACH or GET_NEW_STREAMS. */
static int add_stream(struct ust_live_viewer *v, uint64_t session, const uint8_t *p)
{
	struct lstream *s, *grown;
	uint64_t id = ust_get_be64(p);

	if (find_stream(v, id))
		return 0;
	grown = realloc(v->streams, (v->nr_streams + 1) * sizeof(*grown));
	if (!grown)
		return fail(v, "out of memory");
	v->streams = grown;
	s = &v->streams[v->nr_streams++];
	*s = (struct lstream){ .session = session };
	s->info.id = id;
	s->info.trace_id = ust_get_be64(p + 8);
	s->info.metadata = ust_get_be32(p + 16) != 0;
	field_str(s->info.path, sizeof(s->info.path), p + 20, VIEWER_PATH_MAX);
	field_str(s->info.channel, sizeof(s->info.channel), p + 20 + VIEWER_PATH_MAX,
		  VIEWER_NAME_MAX);
	return 0;
}

static int recv_streams(struct ust_live_viewer *v, uint64_t session, uint32_t count,
			const char *doing)
{
	uint8_t rec[VIEWER_STREAM_SIZE];
	uint32_t i;

	for (i = 0; i < count; i++) {
		if (recv_answer(v, rec, sizeof(rec), doing) || add_stream(v, session, rec))
			return -1;
	}
	return 0;
}

static int add_session(struct ust_live_viewer *v, uint64_t id)
{
	struct lsession *grown = realloc(v->sessions, (v->nr_sessions + 1) * sizeof(*grown));

	if (!grown)
		return fail(v, "out of memory");
	v->sessions = grown;
	v->sessions[v->nr_sessions++] = (struct lsession){ .id = id };
	return 0;
}

static int attach_one(struct ust_live_viewer *v, const struct ust_live_session_info *s,
		      bool from_start)
{
	uint8_t reply[VIEWER_STREAMS_REPLY];
	uint32_t status;

	req_begin(v, VIEWER_CMD_ATTACH_SESSION);
	ust_wire_be64(&v->msg, s->id);
	ust_wire_be64(&v->msg, 0);				/* offset: unused */
	ust_wire_be32(&v->msg, from_start ? VIEWER_SEEK_BEGINNING : VIEWER_SEEK_BEGINNING + 1);
	if (send_request(v, "ATTACH_SESSION") ||
	    recv_answer(v, reply, sizeof(reply), "ATTACH_SESSION"))
		return -1;
	status = ust_get_be32(reply);
	switch (status) {
	case VIEWER_ATTACH_OK:
		break;
	case VIEWER_ATTACH_UNK:
		return 0;		/* it ended in the meantime */
	case VIEWER_ATTACH_ALREADY:
		return fail(v, "session '%s' of host '%s' is already followed by another viewer (the relay allows one)",
			    s->name, s->hostname);
	case VIEWER_ATTACH_NOT_LIVE:
		return fail(v, "session '%s' of host '%s' is not a live session", s->name,
			    s->hostname);
	default:
		return fail(v, "the relay refused to attach session '%s' (status %u)", s->name,
			    status);
	}
	if (add_session(v, s->id) ||
	    recv_streams(v, s->id, ust_get_be32(reply + 4), "ATTACH_SESSION"))
		return -1;
	return 1;
}

static bool attached_to(const struct ust_live_viewer *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->nr_sessions; i++) {
		if (v->sessions[i].id == id)
			return true;
	}
	return false;
}

/* Attach every listed session of the wanted host and name not attached yet. */
static int attach_wanted(struct ust_live_viewer *v)
{
	struct ust_live_session_info *list;
	size_t n, i;
	int attached = 0, one;

	v->next_list_ms = ust_net_now_ms() + RELIST_PERIOD_MS;
	if (ust_live_list(v, &list, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].hostname, v->want_host) || strcmp(list[i].name, v->want_name) ||
		    attached_to(v, list[i].id))
			continue;
		one = attach_one(v, &list[i], v->from_start);
		if (one < 0) {
			attached = -1;
			break;
		}
		attached += one;
	}
	free(list);
	return attached;
}

int ust_live_attach(struct ust_live_viewer *v, const char *hostname, const char *session,
		    bool from_start)
{
	snprintf(v->want_host, sizeof(v->want_host), "%s", hostname);
	snprintf(v->want_name, sizeof(v->want_name), "%s", session);
	v->from_start = from_start;
	return attach_wanted(v);
}

/* ---- one round ------------------------------------------------------------- */

static int new_streams(struct ust_live_viewer *v, struct lsession *s)
{
	uint8_t reply[VIEWER_STREAMS_REPLY];
	uint32_t status;

	req_begin(v, VIEWER_CMD_GET_NEW_STREAMS);
	ust_wire_be64(&v->msg, s->id);
	if (send_request(v, "GET_NEW_STREAMS") ||
	    recv_answer(v, reply, sizeof(reply), "GET_NEW_STREAMS"))
		return -1;
	status = ust_get_be32(reply);
	if (status == VIEWER_NEW_STREAMS_HUP) {
		s->closed = true;
		return 0;
	}
	if (status != VIEWER_NEW_STREAMS_OK && status != VIEWER_NEW_STREAMS_NO_NEW)
		return fail(v, "GET_NEW_STREAMS of session %llu: status %u",
			    (unsigned long long)s->id, status);
	return recv_streams(v, s->id, ust_get_be32(reply + 4), "GET_NEW_STREAMS");
}

/* Tell the sink about new streams: metadata ones first. */
static int announce(struct ust_live_viewer *v, const struct ust_live_sink *sink)
{
	int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < v->nr_streams; i++) {
			struct lstream *s = &v->streams[i];

			if (s->announced || s->info.metadata != (pass == 0))
				continue;
			s->announced = true;
			if (sink->stream && sink->stream(sink->arg, &s->info))
				return fail(v, "cannot keep stream %s/%s", s->info.path,
					    s->info.channel);
		}
	}
	return 0;
}

/* GET_METADATA once: 1 got some, 0 nothing new (or closed), -1. */
static int metadata_once(struct ust_live_viewer *v, struct lstream *m,
			 const struct ust_live_sink *sink)
{
	uint8_t reply[VIEWER_METADATA_REPLY];
	uint64_t len;
	uint32_t status;

	req_begin(v, VIEWER_CMD_GET_METADATA);
	ust_wire_be64(&v->msg, m->info.id);
	if (send_request(v, "GET_METADATA") ||
	    recv_answer(v, reply, sizeof(reply), "GET_METADATA"))
		return -1;
	len = ust_get_be64(reply);
	status = ust_get_be32(reply + 8);
	if (status == VIEWER_METADATA_ERR) {
		/* the relay forgot it: closed, and everything was sent */
		m->ended = true;
		return 0;
	}
	if (status == VIEWER_METADATA_NO_NEW || len == 0)
		return 0;
	if (status != VIEWER_METADATA_OK || len > RELAYD_CTRL_MAX_PAYLOAD)
		return fail(v, "GET_METADATA: status %u, %llu bytes", status,
			    (unsigned long long)len);
	if (buf_room(v, (size_t)len) || recv_answer(v, v->buf, (size_t)len, "GET_METADATA"))
		return -1;
	if (sink->metadata && sink->metadata(sink->arg, m->info.trace_id, v->buf, (size_t)len))
		return fail(v, "cannot keep the metadata of %s", m->info.path);
	return 1;
}

/* All the metadata the relay has now for the metadata stream `m`. */
static int metadata_drain(struct ust_live_viewer *v, struct lstream *m,
			  const struct ust_live_sink *sink, bool *progress)
{
	int got;

	if (m->ended)
		return 0;
	while ((got = metadata_once(v, m, sink)) > 0)
		*progress = true;
	return got;
}

/* The same for the trace `trace_id`. */
static int metadata_of(struct ust_live_viewer *v, uint64_t trace_id,
		       const struct ust_live_sink *sink, bool *progress)
{
	size_t i;

	for (i = 0; i < v->nr_streams; i++) {
		struct lstream *m = &v->streams[i];

		if (m->info.metadata && m->info.trace_id == trace_id &&
		    metadata_drain(v, m, sink, progress))
			return -1;
	}
	return 0;
}

static void parse_index(const uint8_t *p, struct ust_live_index *ix)
{
	ix->offset = ust_get_be64(p);
	ix->packet_size = ust_get_be64(p + 8);
	ix->content_size = ust_get_be64(p + 16);
	ix->timestamp_begin = ust_get_be64(p + 24);
	ix->timestamp_end = ust_get_be64(p + 32);
	ix->events_discarded = ust_get_be64(p + 40);
	ix->stream_class = ust_get_be64(p + 48);
}

/* GET_PACKET for the index in hand: 1 delivered, 0 retry later, -1. */
static int fetch_packet(struct ust_live_viewer *v, struct lstream *s,
			const struct ust_live_sink *sink)
{
	uint8_t reply[VIEWER_PACKET_REPLY];
	uint64_t bytes = s->index.packet_size / 8;
	uint32_t status, len;

	if (bytes > UINT32_MAX || s->index.packet_size % 8)
		return fail(v, "%s/%s: packet of %llu bits", s->info.path, s->info.channel,
			    (unsigned long long)s->index.packet_size);
	req_begin(v, VIEWER_CMD_GET_PACKET);
	ust_wire_be64(&v->msg, s->info.id);
	ust_wire_be64(&v->msg, s->index.offset);
	ust_wire_be32(&v->msg, (uint32_t)bytes);
	if (send_request(v, "GET_PACKET") || recv_answer(v, reply, sizeof(reply), "GET_PACKET"))
		return -1;
	status = ust_get_be32(reply);
	len = ust_get_be32(reply + 4);
	if (status == VIEWER_PACKET_RETRY)
		return 0;
	if (status != VIEWER_PACKET_OK || len != bytes)
		return fail(v, "%s/%s: GET_PACKET at offset %llu: status %u", s->info.path,
			    s->info.channel, (unsigned long long)s->index.offset, status);
	if (buf_room(v, len) || recv_answer(v, v->buf, len, "GET_PACKET"))
		return -1;
	s->has_index = false;
	if (sink->packet && sink->packet(sink->arg, s->info.id, &s->index, v->buf, len))
		return fail(v, "cannot keep a packet of %s/%s", s->info.path, s->info.channel);
	return 1;
}

/* What GET_NEXT_INDEX says of one data stream. */
static int index_once(struct ust_live_viewer *v, struct lstream *s,
		      const struct ust_live_sink *sink, bool *progress)
{
	uint8_t reply[VIEWER_INDEX_REPLY];
	uint32_t status, flags;

	req_begin(v, VIEWER_CMD_GET_NEXT_INDEX);
	ust_wire_be64(&v->msg, s->info.id);
	if (send_request(v, "GET_NEXT_INDEX") ||
	    recv_answer(v, reply, sizeof(reply), "GET_NEXT_INDEX"))
		return -1;
	parse_index(reply, &s->index);
	status = ust_get_be32(reply + 56);
	flags = ust_get_be32(reply + 60);
	/* VIEWER_FLAG_NEW_STREAM: every round asks for new streams anyway. */
	/* A packet may need event classes the relay has just received. */
	if ((flags & VIEWER_FLAG_NEW_METADATA) && metadata_of(v, s->info.trace_id, sink, progress))
		return -1;
	switch (status) {
	case VIEWER_INDEX_OK:
		s->has_index = true;
		return 0;
	case VIEWER_INDEX_RETRY:
		return 0;
	case VIEWER_INDEX_INACTIVE:
		*progress = true;
		if (sink->quiet && sink->quiet(sink->arg, s->info.id, s->index.timestamp_end))
			return fail(v, "cannot keep the quiet time of %s/%s", s->info.path,
				    s->info.channel);
		return 0;
	case VIEWER_INDEX_HUP:
	case VIEWER_INDEX_EOF:
		*progress = true;
		s->ended = true;
		if (sink->ended && sink->ended(sink->arg, s->info.id))
			return fail(v, "cannot end %s/%s", s->info.path, s->info.channel);
		return 0;
	default:
		return fail(v, "%s/%s: GET_NEXT_INDEX: status %u", s->info.path,
			    s->info.channel, status);
	}
}

static int data_round(struct ust_live_viewer *v, const struct ust_live_sink *sink,
		      bool *progress)
{
	size_t i;
	int got;

	for (i = 0; i < v->nr_streams; i++) {
		struct lstream *s = &v->streams[i];

		if (s->info.metadata || s->ended)
			continue;
		if (!s->has_index && index_once(v, s, sink, progress))
			return -1;
		if (s->has_index) {
			got = fetch_packet(v, s, sink);
			if (got < 0)
				return -1;
			*progress |= got > 0;
		}
	}
	return 0;
}

static bool all_done(const struct ust_live_viewer *v)
{
	size_t i;

	for (i = 0; i < v->nr_sessions; i++) {
		if (!v->sessions[i].closed)
			return false;
	}
	for (i = 0; i < v->nr_streams; i++) {
		if (!v->streams[i].info.metadata && !v->streams[i].ended)
			return false;
	}
	return true;
}

int ust_live_poll(struct ust_live_viewer *v, const struct ust_live_sink *sink,
		  bool *progress)
{
	size_t i;

	*progress = false;
	/* a process that started late has a relay session of its own */
	if (v->want_name[0] && ust_net_now_ms() >= v->next_list_ms && attach_wanted(v) < 0)
		return -1;
	for (i = 0; i < v->nr_sessions; i++) {
		if (!v->sessions[i].closed && new_streams(v, &v->sessions[i]))
			return -1;
	}
	if (announce(v, sink))
		return -1;
	for (i = 0; i < v->nr_streams; i++) {
		if (v->streams[i].info.metadata &&
		    metadata_drain(v, &v->streams[i], sink, progress))
			return -1;
	}
	if (data_round(v, sink, progress))
		return -1;
	return all_done(v) ? 0 : 1;
}

const char *ust_live_error(const struct ust_live_viewer *v)
{
	return v->error;
}

void ust_live_close(struct ust_live_viewer *v)
{
	if (!v)
		return;
	if (v->fd >= 0)
		close(v->fd);
	free(v->sessions);
	free(v->streams);
	free(v->buf);
	ust_wire_release(&v->msg);
	free(v);
}
