/*
 * relay.c - lttng-relayd control and data client (net/relay.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The message layouts are in net/relayd-abi.h.  Two kinds of control
 * commands:
 * - waited for (open's handshake, ADD_STREAM, STREAMS_SENT, DATA_PENDING,
 *   QUIESCENT_CONTROL, CLOSE_STREAM): the control queue is drained first,
 *   so that the next answer on the socket is theirs, then the command is
 *   sent and its answer read, all before a deadline;
 * - queued (SEND_INDEX and beacons, SEND_METADATA): they go through the
 *   control queue, and each answer the relay owes (4 bytes for an index,
 *   none for metadata) is remembered in `expect`, in order: the relay
 *   handles a connection's commands one after the other and answers in
 *   that order.  ust_relay_pump() reads and checks them as they come.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ctf/format.h"
#include "net/relay.h"
#include "net/relayd-abi.h"
#include "net/outq.h"
#include "net/sock.h"
#include "net/wire.h"

#define DEFAULT_TIMEOUT_MS	5000
#define DEFAULT_QUEUE_BYTES	(8u << 20)
#define CTF_SIGNATURE		"/* CTF 1.8"
#define CTF_SIGNATURE_LINE	"/* CTF 1.8 */\n"
#define PENDING_POLL_MS		10

struct ust_relay_stream {
	struct ust_relay *relay;
	uint64_t handle;		/* the relay's number for it */
	uint64_t next_seq;		/* net_seq_num of its next packet */
	bool is_metadata;
	uint64_t last_packet_seq;	/* CTF packet_seq_num of its last packet */
	uint64_t notes;			/* sum of the notes of its packets */
	uint64_t asked_seq;		/* last packet a confirmation was asked for, +1 */
	uint64_t confirmed_seq;		/* packets known stored */
	uint64_t confirmed_notes;	/* their notes */
	char name[UST_URL_MAX + RELAYD_STREAM_NAME_MAX];
};

/* An answer the relay owes for a queued command. */
struct expect {
	uint32_t cmd;
	struct ust_relay_stream *stream;
	uint64_t seq;			/* the packet an index describes; for
					   DATA_PENDING: packets asked about */
	uint64_t notes;			/* DATA_PENDING: their notes */
};

struct ust_relay {
	struct ust_relay_url url;
	struct ust_relay_config cfg;
	int ctrl_fd, data_fd;
	struct ust_outq ctrl_q, data_q;
	struct expect *exp;		/* exp[exp_first, exp_first + exp_nr) */
	size_t exp_first, exp_nr, exp_cap;
	uint8_t in[256];		/* answers read, not yet complete */
	size_t in_len;
	struct ust_wire msg;		/* the command being built */
	struct ust_relay_stream **streams;
	size_t nr_streams;
	uint64_t session_id;
	char output_path[UST_URL_MAX];
	char error[1024];
	bool broken;
	struct ust_relay_stats stats;
};

static const char *cmd_name(uint32_t cmd)
{
	switch (cmd) {
	case RELAYD_CMD_ADD_STREAM:		return "ADD_STREAM";
	case RELAYD_CMD_CREATE_SESSION:		return "CREATE_SESSION";
	case RELAYD_CMD_VERSION:		return "VERSION";
	case RELAYD_CMD_SEND_METADATA:		return "SEND_METADATA";
	case RELAYD_CMD_CLOSE_STREAM:		return "CLOSE_STREAM";
	case RELAYD_CMD_DATA_PENDING:		return "DATA_PENDING";
	case RELAYD_CMD_QUIESCENT_CONTROL:	return "QUIESCENT_CONTROL";
	case RELAYD_CMD_SEND_INDEX:		return "SEND_INDEX";
	case RELAYD_CMD_STREAMS_SENT:		return "STREAMS_SENT";
	case RELAYD_CMD_ROTATE_STREAMS:		return "ROTATE_STREAMS";
	case RELAYD_CMD_CREATE_TRACE_CHUNK:	return "CREATE_TRACE_CHUNK";
	default:				return "?";
	}
}

/* The connection is unusable from now on; say why, naming the URL. */
__attribute__((format(printf, 2, 3)))
static int fail(struct ust_relay *r, const char *fmt, ...)
{
	int n;
	va_list ap;

	if (r->broken)
		return UST_RELAY_BROKEN;
	r->broken = true;
	n = snprintf(r->error, sizeof(r->error), "lttng-relayd at %s: ", r->url.ctrl.text);
	if (n > 0 && (size_t)n < sizeof(r->error)) {
		va_start(ap, fmt);
		vsnprintf(r->error + n, sizeof(r->error) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return UST_RELAY_BROKEN;
}

static int fail_sock(struct ust_relay *r, const char *which, int err, const char *doing)
{
	if (err == -ETIMEDOUT)
		return fail(r, "%s connection: no answer to %s within %d ms", which, doing,
			    r->cfg.timeout_ms);
	if (err == -ESHUTDOWN)
		return fail(r, "%s connection closed by the relay (during %s)", which, doing);
	return fail(r, "%s connection: %s (during %s)", which, ust_net_strerror(err), doing);
}

/* Start a control command: its 24-byte header, data_size patched later. */
static void cmd_begin(struct ust_relay *r, uint32_t cmd)
{
	ust_wire_reset(&r->msg);
	ust_wire_be64(&r->msg, 0);		/* circuit_id: unused */
	ust_wire_be64(&r->msg, 0);		/* data_size */
	ust_wire_be32(&r->msg, cmd);
	ust_wire_be32(&r->msg, 0);		/* cmd_version */
}

/* Fill in data_size: everything after the header. */
static int cmd_end(struct ust_relay *r)
{
	if (r->msg.failed)
		return fail(r, "out of memory building a command");
	ust_wire_patch_be64(&r->msg, 8, r->msg.len - RELAYD_CTRL_HDR_SIZE);
	return UST_RELAY_OK;
}

/* ---- waited-for commands ------------------------------------------------ */

/* Send r->msg and read `reply_size` bytes of answer, before `deadline`. */
static int exchange(struct ust_relay *r, const char *doing, void *reply,
		    size_t reply_size, int64_t deadline)
{
	struct iovec iov = { r->msg.buf, r->msg.len };
	int err;

	err = ust_net_send_all(r->ctrl_fd, &iov, 1, deadline);
	if (!err && reply_size)
		err = ust_net_recv_all(r->ctrl_fd, reply, reply_size, deadline);
	return err ? fail_sock(r, "control", err, doing) : UST_RELAY_OK;
}

static int check_code(struct ust_relay *r, uint32_t code, const char *doing)
{
	if (code == RELAYD_OK)
		return UST_RELAY_OK;
	return fail(r, "the relay refused %s (error code %u; lttng-relayd's messages say why)",
		    doing, code);
}

static int ctrl_drain(struct ust_relay *r, int64_t deadline);

/* A command whose answer is one u32 code: send, wait, check. */
static int simple_command(struct ust_relay *r, const char *doing, int64_t deadline)
{
	uint8_t reply[RELAYD_GENERIC_REPLY];

	if (cmd_end(r) || ctrl_drain(r, deadline) ||
	    exchange(r, doing, reply, sizeof(reply), deadline))
		return UST_RELAY_BROKEN;
	return check_code(r, ust_get_be32(reply), doing);
}

/*
 * VERSION: we say 2.11; the relay says its own version and then speaks
 * the lower minor of the two.  Below 2.11 it lacks trace chunks and the
 * 2.11 commands we send.
 */
static int handshake(struct ust_relay *r, int64_t deadline)
{
	uint8_t reply[RELAYD_VERSION_SIZE];
	uint32_t major, minor;

	cmd_begin(r, RELAYD_CMD_VERSION);
	ust_wire_be32(&r->msg, RELAYD_PROTO_MAJOR);
	ust_wire_be32(&r->msg, RELAYD_PROTO_MINOR);
	if (cmd_end(r) || exchange(r, "the version handshake", reply, sizeof(reply), deadline))
		return UST_RELAY_BROKEN;
	major = ust_get_be32(reply);
	minor = ust_get_be32(reply + 4);
	if (major != RELAYD_PROTO_MAJOR || minor < RELAYD_PROTO_MINOR)
		return fail(r, "the relay speaks protocol %u.%u; ust needs %u.%u or a later 2.x (lttng-relayd 2.11+)",
			    major, minor, RELAYD_PROTO_MAJOR, RELAYD_PROTO_MINOR);
	return UST_RELAY_OK;
}

/* CREATE_SESSION, 2.11 form: see relayd-abi.h for the layout. */
static void build_create_session(struct ust_relay *r, const struct ust_relay_session *s)
{
	const char *base = r->url.ctrl.path;

	cmd_begin(r, RELAYD_CMD_CREATE_SESSION);
	ust_wire_be32(&r->msg, (uint32_t)strlen(s->name) + 1);
	ust_wire_be32(&r->msg, (uint32_t)strlen(s->hostname) + 1);
	ust_wire_be32(&r->msg, (uint32_t)strlen(base) + 1);
	ust_wire_be32(&r->msg, s->live_timer_us);
	ust_wire_u8(&r->msg, 0);			/* snapshot: no */
	ust_wire_u8(&r->msg, s->name_has_time);
	ust_wire_bytes(&r->msg, s->uuid, sizeof(s->uuid));
	ust_wire_be64(&r->msg, s->id);
	ust_wire_be64(&r->msg, s->creation_time);
	ust_wire_u8(&r->msg, 0);			/* no current chunk yet: */
	ust_wire_be64(&r->msg, 0);			/* CREATE_TRACE_CHUNK follows */
	ust_wire_str0(&r->msg, s->name);
	ust_wire_str0(&r->msg, s->hostname);
	ust_wire_str0(&r->msg, base);
}

/* The answer: session id, code, then the session directory's path. */
static int create_session(struct ust_relay *r, const struct ust_relay_session *s,
			  int64_t deadline)
{
	uint8_t reply[RELAYD_CREATE_SESSION_REPLY];
	uint32_t code, path_len;
	int err;

	build_create_session(r, s);
	if (cmd_end(r) || exchange(r, "CREATE_SESSION", reply, sizeof(reply), deadline))
		return UST_RELAY_BROKEN;
	r->session_id = ust_get_be64(reply);
	code = ust_get_be32(reply + 8);
	path_len = ust_get_be32(reply + 12);
	if (path_len >= sizeof(r->output_path))
		return fail(r, "CREATE_SESSION: the relay answered a path of %u bytes", path_len);
	err = ust_net_recv_all(r->ctrl_fd, r->output_path, path_len, deadline);
	if (err)
		return fail_sock(r, "control", err, "CREATE_SESSION");
	r->output_path[path_len] = '\0';
	if (code != RELAYD_OK)
		return fail(r, "the relay refused to create session '%s' of host '%s' (error code %u; lttng-relayd's messages say why)",
			    s->name, s->hostname, code);
	return UST_RELAY_OK;
}

/*
 * CREATE_TRACE_CHUNK 0: streams need a current chunk.  Every connection
 * of the session announces chunk 0 with the same creation time; the
 * relay keeps the first and gives it to the others (same directory).
 */
static int create_chunk(struct ust_relay *r, const struct ust_relay_session *s,
			int64_t deadline)
{
	cmd_begin(r, RELAYD_CMD_CREATE_TRACE_CHUNK);
	ust_wire_be64(&r->msg, 0);			/* chunk id */
	ust_wire_be64(&r->msg, s->creation_time);
	ust_wire_be32(&r->msg, 0);			/* no name of its own */
	return simple_command(r, "CREATE_TRACE_CHUNK", deadline);
}

static int connect_port(struct ust_relay *r, const char *which, uint16_t port,
			int timeout_ms)
{
	char why[512];
	int fd;

	fd = ust_net_connect(r->url.ctrl.host, r->url.ctrl.family, port, timeout_ms,
			     why, sizeof(why));
	if (fd < 0)
		fail(r, "%s port %u: %s", which, port, why);
	return fd;
}

static bool session_valid(const struct ust_relay_session *s, char *err, size_t errlen)
{
	static const uint8_t nil[16];

	if (!memcmp(s->uuid, nil, sizeof(nil)))
		snprintf(err, errlen, "relay session '%s': the session uuid is all zeros", s->name);
	else if (!s->name[0] || !s->hostname[0] || s->name[0] == '.' ||
		 strchr(s->name, '/') || strchr(s->hostname, '/'))
		snprintf(err, errlen, "relay session '%s' of host '%s': names must be non-empty, without '/', not starting with '.'",
			 s->name, s->hostname);
	else
		return true;
	return false;
}

static struct ust_relay *relay_alloc(const struct ust_relay_url *url,
				     const struct ust_relay_config *config)
{
	struct ust_relay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->url = *url;
	r->cfg.timeout_ms = config && config->timeout_ms > 0 ? config->timeout_ms : DEFAULT_TIMEOUT_MS;
	r->cfg.queue_bytes = config && config->queue_bytes ? config->queue_bytes : DEFAULT_QUEUE_BYTES;
	r->ctrl_fd = r->data_fd = -1;
	ust_outq_init(&r->ctrl_q, r->cfg.queue_bytes);
	ust_outq_init(&r->data_q, r->cfg.queue_bytes);
	ust_wire_init(&r->msg);
	return r;
}

struct ust_relay *ust_relay_open(const struct ust_relay_url *url,
				 const struct ust_relay_session *session,
				 const struct ust_relay_config *config,
				 char *err, size_t errlen)
{
	struct ust_relay *r;
	int64_t deadline;

	if (!session_valid(session, err, errlen))
		return NULL;
	r = relay_alloc(url, config);
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	deadline = ust_net_deadline(r->cfg.timeout_ms);
	r->ctrl_fd = connect_port(r, "control", url->ctrl_port, r->cfg.timeout_ms);
	if (r->ctrl_fd >= 0)
		r->data_fd = connect_port(r, "data", url->data_port, ust_net_left_ms(deadline));
	if (r->data_fd < 0 || handshake(r, deadline) || create_session(r, session, deadline) ||
	    create_chunk(r, session, deadline)) {
		snprintf(err, errlen, "%s", r->error);
		ust_relay_close(r);
		return NULL;
	}
	return r;
}

/* ---- queued commands and their answers --------------------------------- */

static int expect_push(struct ust_relay *r, uint32_t cmd, struct ust_relay_stream *s,
		       uint64_t seq, uint64_t notes)
{
	struct expect *e;
	size_t cap;

	if (r->exp_first && r->exp_first + r->exp_nr == r->exp_cap) {
		memmove(r->exp, r->exp + r->exp_first, r->exp_nr * sizeof(*r->exp));
		r->exp_first = 0;
	}
	if (r->exp_first + r->exp_nr == r->exp_cap) {
		cap = r->exp_cap ? r->exp_cap * 2 : 256;
		e = realloc(r->exp, cap * sizeof(*e));
		if (!e)
			return fail(r, "out of memory");
		r->exp = e;
		r->exp_cap = cap;
	}
	r->exp[r->exp_first + r->exp_nr++] = (struct expect){ cmd, s, seq, notes };
	return UST_RELAY_OK;
}

/* One 4-byte answer to the oldest queued command. */
static int expect_answer(struct ust_relay *r, uint32_t code)
{
	const struct expect *e = &r->exp[r->exp_first];

	r->exp_first++;
	if (--r->exp_nr == 0)
		r->exp_first = 0;
	if (e->cmd == RELAYD_CMD_DATA_PENDING) {
		/* 0: stored up to the packets asked about; 1: not yet */
		if (code == 0 && e->seq > e->stream->confirmed_seq) {
			e->stream->confirmed_seq = e->seq;
			e->stream->confirmed_notes = e->notes;
		}
		if (code <= 1)
			return UST_RELAY_OK;
	}
	if (code == RELAYD_OK)
		return UST_RELAY_OK;
	if (e->cmd == RELAYD_CMD_SEND_INDEX)
		return fail(r, "the relay refused the index of packet %llu of %s (error code %u)",
			    (unsigned long long)e->seq, e->stream->name, code);
	return fail(r, "the relay refused %s on %s (error code %u)", cmd_name(e->cmd),
		    e->stream->name, code);
}

/* Read what answers have arrived and check them. */
static int read_answers(struct ust_relay *r)
{
	ssize_t n;
	size_t at;

	while (r->exp_nr) {
		n = ust_net_recv_some(r->ctrl_fd, r->in + r->in_len, sizeof(r->in) - r->in_len);
		if (n < 0)
			return fail_sock(r, "control", (int)n, "reading answers");
		if (n == 0)
			return UST_RELAY_OK;
		r->in_len += (size_t)n;
		for (at = 0; r->exp_nr && r->in_len - at >= RELAYD_GENERIC_REPLY;
		     at += RELAYD_GENERIC_REPLY) {
			if (expect_answer(r, ust_get_be32(r->in + at)))
				return UST_RELAY_BROKEN;
		}
		if (!r->exp_nr && r->in_len > at)
			return fail(r, "the relay sent %zu bytes nobody asked for", r->in_len - at);
		memmove(r->in, r->in + at, r->in_len - at);
		r->in_len -= at;
	}
	return UST_RELAY_OK;
}

int ust_relay_pump(struct ust_relay *r)
{
	int err;

	if (r->broken)
		return UST_RELAY_BROKEN;
	err = ust_outq_write(&r->data_q, r->data_fd, NULL, NULL);
	if (err)
		return fail_sock(r, "data", err, "sending packets");
	err = ust_outq_write(&r->ctrl_q, r->ctrl_fd, NULL, NULL);
	if (err)
		return fail_sock(r, "control", err, "sending commands");
	return read_answers(r);
}

/* Wait (at most until deadline) for one of the sockets to be ready. */
static void wait_sockets(struct ust_relay *r, bool with_data, int64_t deadline)
{
	if (with_data && !ust_outq_empty(&r->data_q))
		ust_net_wait(r->data_fd, true, deadline);
	else if (!ust_outq_empty(&r->ctrl_q))
		ust_net_wait(r->ctrl_fd, true, deadline);
	else if (r->exp_nr)
		ust_net_wait(r->ctrl_fd, false, deadline);
}

static bool drained(const struct ust_relay *r, bool with_data)
{
	return ust_outq_empty(&r->ctrl_q) && !r->exp_nr &&
	       (!with_data || ust_outq_empty(&r->data_q));
}

/* Pump until the queues (the data queue too when asked) are empty. */
static int drain(struct ust_relay *r, bool with_data, int64_t deadline)
{
	for (;;) {
		if (ust_relay_pump(r))
			return UST_RELAY_BROKEN;
		if (drained(r, with_data))
			return UST_RELAY_OK;
		if (!ust_net_left_ms(deadline))
			return UST_RELAY_FULL;
		wait_sockets(r, with_data, deadline);
	}
}

static int ctrl_drain(struct ust_relay *r, int64_t deadline)
{
	int ret = drain(r, false, deadline);

	if (ret == UST_RELAY_FULL)
		return fail(r, "control connection: the relay took nothing for %d ms",
			    r->cfg.timeout_ms);
	return ret;
}

/* Bytes and answers still owed: what progress makes smaller. */
static size_t backlog(const struct ust_relay *r)
{
	return ust_outq_bytes(&r->data_q) + ust_outq_bytes(&r->ctrl_q) + r->exp_nr;
}

static bool packet_fits(const struct ust_relay *r, size_t len)
{
	return ust_outq_fits(&r->data_q, RELAYD_DATA_HDR_SIZE + len) &&
	       ust_outq_fits(&r->ctrl_q, RELAYD_CTRL_HDR_SIZE + RELAYD_INDEX_SIZE);
}

int ust_relay_wait_room(struct ust_relay *r, size_t len, int stall_ms)
{
	int64_t deadline = ust_net_deadline(stall_ms);
	size_t before = SIZE_MAX, now;

	for (;;) {
		if (ust_relay_pump(r))
			return UST_RELAY_BROKEN;
		if (packet_fits(r, len))
			return UST_RELAY_OK;
		now = backlog(r);
		if (now < before)
			deadline = ust_net_deadline(stall_ms);	/* it moves: wait on */
		before = now;
		if (!ust_net_left_ms(deadline))
			return UST_RELAY_FULL;
		wait_sockets(r, true, deadline);
	}
}

int ust_relay_flush(struct ust_relay *r, int timeout_ms)
{
	return drain(r, true, ust_net_deadline(timeout_ms));
}

int ust_relay_send_metadata_wait(struct ust_relay_stream *s, const void *text,
				 size_t len, int timeout_ms)
{
	int ret;

	while ((ret = ust_relay_send_metadata(s, text, len)) == UST_RELAY_FULL) {
		if (ust_relay_flush(s->relay, timeout_ms) == UST_RELAY_FULL)
			return UST_RELAY_FULL;
	}
	return ret;
}

int ust_relay_send_packet_wait(struct ust_relay_stream *s, const void *packet,
			       size_t len, const struct ust_relay_index *index,
			       uint64_t note, int stall_ms)
{
	int ret;

	while ((ret = ust_relay_send_packet(s, packet, len, index, note)) == UST_RELAY_FULL) {
		ret = ust_relay_wait_room(s->relay, len, stall_ms);
		if (ret)
			return ret;
	}
	return ret;
}

/*
 * Queue r->msg on the control socket; `answers` if the relay replies
 * (`seq` and `notes` are kept with the expected answer).
 */
static int queue_command(struct ust_relay *r, struct ust_relay_stream *s, uint64_t seq,
			 uint64_t notes, bool answers)
{
	uint32_t cmd = ust_get_be32(r->msg.buf + 16);
	struct iovec iov = { r->msg.buf, r->msg.len };
	int err;

	if (answers && expect_push(r, cmd, s, seq, notes))
		return UST_RELAY_BROKEN;
	err = ust_outq_push(&r->ctrl_q, r->ctrl_fd, cmd, seq, &iov, 1);
	if (err)
		return fail_sock(r, "control", err, cmd_name(cmd));
	return UST_RELAY_OK;
}

/* ---- streams -------------------------------------------------------------- */

static struct ust_relay_stream *stream_new(struct ust_relay *r, const char *path,
					   const char *channel)
{
	struct ust_relay_stream *s, **v;

	v = realloc(r->streams, (r->nr_streams + 1) * sizeof(*v));
	s = calloc(1, sizeof(*s));
	if (v)
		r->streams = v;
	if (!v || !s) {
		free(s);
		fail(r, "out of memory");
		return NULL;
	}
	s->relay = r;
	s->is_metadata = !strcmp(channel, RELAYD_METADATA_CHANNEL);
	snprintf(s->name, sizeof(s->name), "%s%s%s", path, *path ? "/" : "", channel);
	r->streams[r->nr_streams++] = s;
	return s;
}

/* ADD_STREAM, 2.11 form, in the session's chunk 0. */
static void build_add_stream(struct ust_relay *r, const char *path, const char *channel)
{
	cmd_begin(r, RELAYD_CMD_ADD_STREAM);
	ust_wire_be32(&r->msg, (uint32_t)strlen(channel) + 1);
	ust_wire_be32(&r->msg, (uint32_t)strlen(path) + 1);
	ust_wire_be64(&r->msg, 0);			/* tracefile_size: one file */
	ust_wire_be64(&r->msg, 0);			/* tracefile_count */
	ust_wire_be64(&r->msg, 0);			/* trace chunk id */
	ust_wire_str0(&r->msg, channel);
	ust_wire_str0(&r->msg, path);
}

struct ust_relay_stream *ust_relay_add_stream(struct ust_relay *r, const char *path,
					      const char *channel)
{
	int64_t deadline = ust_net_deadline(r->cfg.timeout_ms);
	uint8_t reply[RELAYD_ADD_STREAM_REPLY];
	struct ust_relay_stream *s;
	char doing[64 + sizeof(s->name)];

	if (r->broken)
		return NULL;
	if (!channel[0] || strlen(channel) >= RELAYD_STREAM_NAME_MAX || strchr(channel, '/')) {
		fail(r, "bad stream name '%s'", channel);
		return NULL;
	}
	s = stream_new(r, path, channel);
	if (!s)
		return NULL;
	snprintf(doing, sizeof(doing), "ADD_STREAM %s", s->name);
	build_add_stream(r, path, channel);
	if (cmd_end(r) || ctrl_drain(r, deadline) ||
	    exchange(r, doing, reply, sizeof(reply), deadline) ||
	    check_code(r, ust_get_be32(reply + 8), doing))
		return NULL;
	s->handle = ust_get_be64(reply);
	return s;
}

int ust_relay_streams_sent(struct ust_relay *r)
{
	if (r->broken)
		return UST_RELAY_BROKEN;
	cmd_begin(r, RELAYD_CMD_STREAMS_SENT);
	return simple_command(r, "STREAMS_SENT", ust_net_deadline(r->cfg.timeout_ms));
}

int ust_relay_send_metadata(struct ust_relay_stream *s, const void *text, size_t len)
{
	struct ust_relay *r = s->relay;
	bool sign = len < strlen(CTF_SIGNATURE) || memcmp(text, CTF_SIGNATURE, strlen(CTF_SIGNATURE));
	size_t total = RELAYD_CTRL_HDR_SIZE + RELAYD_METADATA_HDR_SIZE +
		       (sign ? strlen(CTF_SIGNATURE_LINE) : 0) + len;

	if (r->broken)
		return UST_RELAY_BROKEN;
	if (!s->is_metadata)
		return fail(r, "metadata sent on data stream %s", s->name);
	if (total - RELAYD_CTRL_HDR_SIZE > RELAYD_CTRL_MAX_PAYLOAD)
		return fail(r, "a metadata increment of %zu bytes is above the relay's limit", len);
	if (!ust_outq_fits(&r->ctrl_q, total))
		return UST_RELAY_FULL;
	cmd_begin(r, RELAYD_CMD_SEND_METADATA);
	ust_wire_be64(&r->msg, s->handle);
	ust_wire_be32(&r->msg, 0);			/* padding: none */
	if (sign)
		ust_wire_bytes(&r->msg, CTF_SIGNATURE_LINE, strlen(CTF_SIGNATURE_LINE));
	ust_wire_bytes(&r->msg, text, len);
	if (cmd_end(r) || queue_command(r, s, 0, 0, false))
		return UST_RELAY_BROKEN;
	r->stats.metadata_bytes += len;
	return UST_RELAY_OK;
}

void ust_relay_index_of(const uint8_t *pkt, struct ust_relay_index *ix)
{
	ix->packet_size = ctf_get_le64(pkt + UST_PACKET_OFF(packet_size));
	ix->content_size = ctf_get_le64(pkt + UST_PACKET_OFF(content_size));
	ix->timestamp_begin = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
	ix->timestamp_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	ix->events_discarded = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	ix->stream_id = ctf_get_le32(pkt + UST_PACKET_OFF(stream_id));
	ix->stream_instance_id = ctf_get_le64(pkt + UST_PACKET_OFF(stream_instance_id));
	ix->packet_seq_num = ctf_get_le64(pkt + UST_PACKET_OFF(packet_seq_num));
}

/* SEND_INDEX: describes packet `seq` of `s` (or a beacon, packet_size 0). */
static void build_index(struct ust_relay *r, const struct ust_relay_stream *s, uint64_t seq,
			const struct ust_relay_index *ix)
{
	cmd_begin(r, RELAYD_CMD_SEND_INDEX);
	ust_wire_be64(&r->msg, s->handle);
	ust_wire_be64(&r->msg, seq);
	ust_wire_be64(&r->msg, ix->packet_size);
	ust_wire_be64(&r->msg, ix->content_size);
	ust_wire_be64(&r->msg, ix->timestamp_begin);
	ust_wire_be64(&r->msg, ix->timestamp_end);
	ust_wire_be64(&r->msg, ix->events_discarded);
	ust_wire_be64(&r->msg, ix->stream_id);
	ust_wire_be64(&r->msg, ix->stream_instance_id);
	ust_wire_be64(&r->msg, ix->packet_seq_num);
}

/* The data header of packet `seq`: `len` bytes, then relay-side padding. */
static void data_header(uint8_t *h, const struct ust_relay_stream *s, uint64_t seq,
			size_t len, uint64_t packet_bits)
{
	uint64_t padding = packet_bits / 8 > len ? packet_bits / 8 - len : 0;

	ust_put_be64(h, 0);				/* circuit_id */
	ust_put_be64(h + 8, s->handle);
	ust_put_be64(h + 16, seq);
	ust_put_be32(h + 24, (uint32_t)len);
	ust_put_be32(h + 28, (uint32_t)padding);
}

int ust_relay_send_packet(struct ust_relay_stream *s, const void *packet, size_t len,
			  const struct ust_relay_index *index, uint64_t note)
{
	struct ust_relay *r = s->relay;
	uint8_t hdr[RELAYD_DATA_HDR_SIZE];
	struct iovec iov[2] = { { hdr, sizeof(hdr) }, { (void *)packet, len } };
	int err;

	if (r->broken)
		return UST_RELAY_BROKEN;
	if (s->is_metadata || len > UINT32_MAX || index->packet_size / 8 < len ||
	    index->packet_size / 8 - len > UINT32_MAX)
		return fail(r, "bad packet for %s (%zu bytes, packet_size %llu bits)", s->name,
			    len, (unsigned long long)index->packet_size);
	/* Both or neither: a packet without its index is invisible live. */
	if (!packet_fits(r, len)) {
		r->stats.packets_full++;
		return UST_RELAY_FULL;
	}
	data_header(hdr, s, s->next_seq, len, index->packet_size);
	err = ust_outq_push(&r->data_q, r->data_fd, (uint64_t)(uintptr_t)s, note, iov, 2);
	if (err)
		return fail_sock(r, "data", err, "sending a packet");
	build_index(r, s, s->next_seq, index);
	if (cmd_end(r) || queue_command(r, s, s->next_seq, 0, true))
		return UST_RELAY_BROKEN;
	s->next_seq++;
	s->notes += note;
	s->last_packet_seq = index->packet_seq_num;
	r->stats.packets_queued++;
	r->stats.bytes_queued += len;
	return UST_RELAY_OK;
}

int ust_relay_send_beacon(struct ust_relay_stream *s, uint64_t timestamp,
			  uint64_t ctf_stream_id)
{
	struct ust_relay_index beacon = { .timestamp_end = timestamp,
					  .stream_id = ctf_stream_id };
	struct ust_relay *r = s->relay;

	if (r->broken)
		return UST_RELAY_BROKEN;
	if (!ust_outq_fits(&r->ctrl_q, RELAYD_CTRL_HDR_SIZE + RELAYD_INDEX_SIZE))
		return UST_RELAY_FULL;
	/* The relay takes packet_size 0 as a beacon; the sequence is unused. */
	build_index(r, s, s->next_seq - 1, &beacon);
	if (cmd_end(r) || queue_command(r, s, s->next_seq - 1, 0, true))
		return UST_RELAY_BROKEN;
	r->stats.beacons++;
	return UST_RELAY_OK;
}

int ust_relay_confirm(struct ust_relay_stream *s)
{
	struct ust_relay *r = s->relay;

	if (r->broken)
		return UST_RELAY_BROKEN;
	if (s->is_metadata || s->next_seq == s->asked_seq)
		return UST_RELAY_OK;
	if (!ust_outq_fits(&r->ctrl_q, RELAYD_CTRL_HDR_SIZE + RELAYD_DATA_PENDING_SIZE))
		return UST_RELAY_FULL;
	cmd_begin(r, RELAYD_CMD_DATA_PENDING);
	ust_wire_be64(&r->msg, s->handle);
	ust_wire_be64(&r->msg, s->next_seq - 1);	/* the last packet sent */
	if (cmd_end(r) || queue_command(r, s, s->next_seq, s->notes, true))
		return UST_RELAY_BROKEN;
	s->asked_seq = s->next_seq;
	return UST_RELAY_OK;
}

void ust_relay_stream_unconfirmed(const struct ust_relay_stream *s, uint64_t *packets,
				  uint64_t *notes)
{
	*packets = s->next_seq - s->confirmed_seq;
	*notes = s->notes - s->confirmed_notes;
}

/* ---- the end --------------------------------------------------------------- */

/* A command on one stream whose answer is a u32: send, wait, return it. */
static int stream_query(struct ust_relay_stream *s, uint32_t cmd, bool with_seq,
			int64_t deadline, uint32_t *answer)
{
	struct ust_relay *r = s->relay;
	uint8_t reply[RELAYD_GENERIC_REPLY];
	char doing[64 + sizeof(s->name)];

	if (r->broken)
		return UST_RELAY_BROKEN;
	snprintf(doing, sizeof(doing), "%s %s", cmd_name(cmd), s->name);
	cmd_begin(r, cmd);
	ust_wire_be64(&r->msg, s->handle);
	if (with_seq)
		ust_wire_be64(&r->msg, s->next_seq - 1);	/* last sent; -1 if none */
	if (cmd_end(r) || ctrl_drain(r, deadline) ||
	    exchange(r, doing, reply, sizeof(reply), deadline))
		return UST_RELAY_BROKEN;
	*answer = ust_get_be32(reply);
	return UST_RELAY_OK;
}

int ust_relay_data_pending(struct ust_relay_stream *s, int timeout_ms)
{
	uint32_t pending;

	if (stream_query(s, RELAYD_CMD_DATA_PENDING, true, ust_net_deadline(timeout_ms),
			 &pending))
		return UST_RELAY_BROKEN;
	if (pending > 1)
		return fail(s->relay, "DATA_PENDING %s: the relay answered %u", s->name, pending);
	if (!pending) {
		s->confirmed_seq = s->next_seq;
		s->confirmed_notes = s->notes;
	}
	return (int)pending;
}

int ust_relay_quiescent(struct ust_relay_stream *s, int timeout_ms)
{
	uint32_t code;

	if (stream_query(s, RELAYD_CMD_QUIESCENT_CONTROL, false, ust_net_deadline(timeout_ms),
			 &code))
		return UST_RELAY_BROKEN;
	return check_code(s->relay, code, "QUIESCENT_CONTROL");
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Ask until the relay has written everything sent on `s`, or the deadline. */
static int wait_stored(struct ust_relay_stream *s, int64_t deadline)
{
	int pending;

	if (s->is_metadata || s->next_seq == 0)
		return UST_RELAY_OK;
	for (;;) {
		pending = ust_relay_data_pending(s, ust_net_left_ms(deadline));
		if (pending <= 0)
			return pending;
		if (!ust_net_left_ms(deadline))
			return UST_RELAY_FULL;
		sleep_ms(PENDING_POLL_MS);
	}
}

static int close_stream(struct ust_relay_stream *s, int64_t deadline)
{
	uint32_t code;

	/*
	 * last_net_seq_num = next_seq - 1: the relay closes the stream once
	 * it has that packet; -1 (no packet, or metadata, which has no
	 * sequence) closes it at once.
	 */
	if (stream_query(s, RELAYD_CMD_CLOSE_STREAM, true, deadline, &code))
		return UST_RELAY_BROKEN;
	return check_code(s->relay, code, "CLOSE_STREAM");
}

/* Streams that hold something a viewer could still be reading. */
static bool rotates(const struct ust_relay_stream *s)
{
	return s->is_metadata || s->next_seq > 0;
}

/*
 * ROTATE_STREAMS to no chunk, every stream at the packet after its last
 * (all stored already, so the relay completes it at once): viewers then
 * read each stream to its end even after it is closed.
 */
static int rotate_to_no_chunk(struct ust_relay *r, int64_t deadline)
{
	uint32_t n = 0;
	size_t i;

	cmd_begin(r, RELAYD_CMD_ROTATE_STREAMS);
	ust_wire_be32(&r->msg, 0);			/* stream_count, patched below */
	ust_wire_u8(&r->msg, 0);			/* new_chunk_id: none */
	ust_wire_be64(&r->msg, 0);
	for (i = 0; i < r->nr_streams; i++) {
		const struct ust_relay_stream *s = r->streams[i];

		if (!rotates(s))
			continue;
		ust_wire_be64(&r->msg, s->handle);
		ust_wire_be64(&r->msg, s->is_metadata ? 0 : s->last_packet_seq + 1);
		n++;
	}
	if (n == 0)
		return UST_RELAY_OK;
	ust_wire_patch_be32(&r->msg, RELAYD_CTRL_HDR_SIZE, n);
	return simple_command(r, "ROTATE_STREAMS", deadline);
}

int ust_relay_finish(struct ust_relay *r, int timeout_ms)
{
	int64_t deadline = ust_net_deadline(timeout_ms);
	int ret = UST_RELAY_OK, one;
	size_t i;

	if (r->broken)
		return UST_RELAY_BROKEN;
	if (drain(r, true, deadline))
		return r->broken ? UST_RELAY_BROKEN : UST_RELAY_FULL;
	for (i = 0; i < r->nr_streams && ret == UST_RELAY_OK; i++)
		ret = wait_stored(r->streams[i], deadline);
	if (ret || (ret = rotate_to_no_chunk(r, deadline)))
		return ret;
	for (i = 0; i < r->nr_streams; i++) {
		one = close_stream(r->streams[i], deadline);
		if (one)
			return one;
	}
	return UST_RELAY_OK;
}

/* ---- after a failure ------------------------------------------------------- */

struct unsent_walk {
	struct ust_relay *r;
	void (*fn)(void *arg, struct ust_relay_stream *s, const void *packet, size_t len,
		   uint64_t note);
	void *arg;
};

static void give_back(void *arg, const struct ust_outq_msg *m, const uint8_t *bytes)
{
	struct unsent_walk *w = arg;
	struct ust_relay_stream *s = (struct ust_relay_stream *)(uintptr_t)m->tag;

	if (m->partly_sent) {
		w->r->stats.packets_cut++;
		w->fn(w->arg, s, NULL, 0, m->tag2);
		return;
	}
	w->r->stats.packets_unsent++;
	w->fn(w->arg, s, bytes + RELAYD_DATA_HDR_SIZE, m->len - RELAYD_DATA_HDR_SIZE, m->tag2);
}

void ust_relay_take_unsent(struct ust_relay *r,
			   void (*fn)(void *arg, struct ust_relay_stream *s,
				      const void *packet, size_t len, uint64_t note),
			   void *arg)
{
	struct unsent_walk w = { r, fn, arg };

	ust_outq_each_unsent(&r->data_q, give_back, &w);
}

/* ---- accessors ------------------------------------------------------------- */

const char *ust_relay_output_path(const struct ust_relay *r)
{
	return r->output_path;
}

uint64_t ust_relay_session_id(const struct ust_relay *r)
{
	return r->session_id;
}

const char *ust_relay_error(const struct ust_relay *r)
{
	return r->error;
}

bool ust_relay_broken(const struct ust_relay *r)
{
	return r->broken;
}

void ust_relay_get_stats(const struct ust_relay *r, struct ust_relay_stats *st)
{
	*st = r->stats;
}

const char *ust_relay_stream_name(const struct ust_relay_stream *s)
{
	return s->name;
}

uint64_t ust_relay_stream_packets(const struct ust_relay_stream *s)
{
	return s->next_seq;
}

void ust_relay_close(struct ust_relay *r)
{
	if (!r)
		return;
	if (r->data_fd >= 0)
		close(r->data_fd);
	if (r->ctrl_fd >= 0)
		close(r->ctrl_fd);
	while (r->nr_streams)
		free(r->streams[--r->nr_streams]);
	free(r->streams);
	free(r->exp);
	ust_outq_release(&r->ctrl_q);
	ust_outq_release(&r->data_q);
	ust_wire_release(&r->msg);
	free(r);
}
