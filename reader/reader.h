/*
 * reader.h - reading ust traces: open trace or session directories,
 * then take their events and discarded-event/packet reports one at a
 * time, merged by time across every stream of every trace.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Stream files are mmap'd and decoded in place; nothing is allocated
 * per event.  Every size and offset read from a file is checked: bad
 * input gives an error message "PATH: offset N: what is wrong", never a
 * crash.  The order is babeltrace2's (doc/ust-view.md).
 */
#ifndef UST_READER_H
#define UST_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tsdl.h"

struct rd_reader;
struct rd_trace;
struct rd_stream;

enum rd_msg_kind {
	RD_MSG_EVENT,
	RD_MSG_DISCARDED_EVENTS,
	RD_MSG_DISCARDED_PACKETS,
};

struct rd_msg {
	enum rd_msg_kind kind;
	const struct rd_stream *stream;
	int64_t ns;			/* from origin; the merge key */
	/* RD_MSG_EVENT */
	const struct rd_event_class *ec;
	uint64_t cycles;
	int64_t vtid;			/* vtid or tid; -1 when none */
	int64_t cpu;			/* packet's cpu_id; -1 when none */
	/* RD_MSG_DISCARDED_*: count is UINT64_MAX when unknown */
	uint64_t count;
	int64_t begin_ns, end_ns;
};

struct rd_out;

/* The packet before the current one, for the discarded-events reports. */
struct rd_packet_prev {
	bool valid;
	uint64_t end, seq, discarded;	/* timestamp_end, packet_seq_num... */
};

/*
 * Following traces that are still being written (ust view --live):
 * where to go on in a stream file.  A pass can stop in the middle of a
 * packet (rd_reader_set_limit()): the next one reads that packet again
 * and skips the messages already delivered.
 */
struct rd_stream_pos {
	size_t offset;		/* bytes: the packet to go on at */
	uint64_t skip;		/* its messages already delivered */
	struct rd_packet_prev prev;	/* the packet before it */
	/* timestamp_end (cycles) of the file's last whole packet, if any */
	bool has_complete;
	uint64_t complete_end;
};

struct rd_live {
	/* Where to start stream `path`: NULL for its beginning. */
	const struct rd_stream_pos *(*find)(void *arg, const char *path);
	void *arg;
};

int rd_reader_open(struct rd_reader **r, const char *const *paths, size_t n,
		   char *err, size_t errlen);
/*
 * The same, for traces being written: each stream starts where `live`
 * says; a trace whose metadata does not parse yet, a directory without
 * traces yet and a stream's incomplete last packet are left for a later
 * call instead of being errors.
 */
int rd_reader_open_live(struct rd_reader **r, const char *const *paths, size_t n,
			const struct rd_live *live, char *err, size_t errlen);
/*
 * Where stream `i` goes on after the messages rd_reader_next() gave:
 * what the next rd_reader_open_live() continues.
 */
void rd_reader_stream_pos(const struct rd_reader *r, size_t i,
			  struct rd_stream_pos *pos);

/*
 * rd_reader_next() ends (returns 0) before the first message at or
 * after `ns`, and gives it to no one: a live pass prints only what no
 * stream can still precede.
 */
void rd_reader_set_limit(struct rd_reader *r, int64_t ns);

/* 1: *m filled; 0: the end; -1: error (rd_reader_error()). */
int rd_reader_next(struct rd_reader *r, struct rd_msg *m);
const char *rd_reader_error(const struct rd_reader *r);
void rd_reader_close(struct rd_reader *r);

/* Every stream and trace the reader opened, in its order. */
size_t rd_reader_nr_streams(const struct rd_reader *r);
const struct rd_stream *rd_reader_stream(const struct rd_reader *r, size_t i);
size_t rd_reader_nr_traces(const struct rd_reader *r);
const struct rd_trace *rd_reader_trace(const struct rd_reader *r, size_t i);

/* The trace and stream of a message. */
const struct rd_trace *rd_stream_trace(const struct rd_stream *s);
const char *rd_stream_path(const struct rd_stream *s);
uint64_t rd_stream_class_id(const struct rd_stream *s);
uint64_t rd_stream_id(const struct rd_stream *s);
const struct rd_metadata *rd_trace_metadata(const struct rd_trace *t);
const char *rd_trace_name(const struct rd_trace *t);

/*
 * Print the event `m` (the last one rd_reader_next() returned) in
 * babeltrace2's text form, after the timestamp part: the trace fields,
 * name, packet context, contexts and payload, then '\n'.  Returns 0, or
 * -1 with rd_reader_error() set when the payload is bad.
 */
int rd_reader_print_event(struct rd_reader *r, const struct rd_msg *m,
			  struct rd_out *o);

/* Only the payload of event `m`, as babeltrace2 prints it ("{ a = 1 }"). */
int rd_reader_print_payload(struct rd_reader *r, const struct rd_msg *m,
			    struct rd_out *o);

/* The value of one top-level payload field (rd_reader_event_fields()). */
enum rd_value_kind {
	RD_VAL_INT,		/* u (i for signed: the same bits) */
	RD_VAL_STRING,		/* str, len bytes (a string or a text array) */
	RD_VAL_OTHER,		/* float, struct, array...: not given */
};

struct rd_value {
	enum rd_value_kind kind;
	union {
		uint64_t u;
		int64_t i;
	};
	const char *str;	/* inside the trace: not NUL-terminated */
	size_t len;
};

/*
 * The top-level payload fields of event `m` (the last one
 * rd_reader_next() returned), in declaration order: v[i] is member i
 * of m->ec->fields.  Fills at most `n`; returns how many the event has,
 * or -1 with rd_reader_error() set when the payload is bad.
 */
int rd_reader_event_fields(struct rd_reader *r, const struct rd_msg *m,
			   struct rd_value *v, size_t n);

/* Index of payload member `name` of `ec` (without its leading '_'), or -1. */
int rd_event_field_index(const struct rd_event_class *ec, const char *name);

/* A growable output buffer that flushes to a FILE. */
struct rd_out {
	char *buf;
	size_t len, cap;
	void *file;		/* FILE * */
};

void rd_out_init(struct rd_out *o, void *file);
int rd_out_flush(struct rd_out *o);
void rd_out_release(struct rd_out *o);
char *rd_out_grow(struct rd_out *o, size_t n);

/* Room for `n` more bytes at the end of the buffer. */
static inline char *rd_out_room(struct rd_out *o, size_t n)
{
	if (o->len + n > o->cap)
		return rd_out_grow(o, n);
	return o->buf + o->len;
}

static inline void rd_out_mem(struct rd_out *o, const char *s, size_t n)
{
	__builtin_memcpy(rd_out_room(o, n), s, n);
	o->len += n;
}

/*
 * `n` bytes of `s` when `s` can be read for RD_OUT_PAD bytes: one
 * fixed-size copy instead of a call to memcpy.
 */
#define RD_OUT_PAD	64
static inline void rd_out_padded(struct rd_out *o, const char *s, size_t n)
{
	if (n > RD_OUT_PAD) {
		rd_out_mem(o, s, n);
		return;
	}
	__builtin_memcpy(rd_out_room(o, RD_OUT_PAD), s, RD_OUT_PAD);
	o->len += n;
}

static inline void rd_out_str(struct rd_out *o, const char *s)
{
	rd_out_mem(o, s, __builtin_strlen(s));
}

static inline void rd_out_char(struct rd_out *o, char c)
{
	*rd_out_room(o, 1) = c;
	o->len++;
}

/*
 * Formatting at `q` (room checked by the caller), returning the end:
 * decimal (at most 20 or 21 bytes; 8 writable bytes needed even when
 * shorter), exactly 9 digits of x < 1e9.
 */
char *rd_fmt_u64(char *q, uint64_t v);
char *rd_fmt_i64(char *q, int64_t v);
char *rd_fmt_nsec(char *q, uint32_t x);
/*
 * rd_out_time()'s "HH:MM:SS.nnnnnnnnn" of `ns` when it falls in the
 * second it converted last (writes up to 18 bytes), else NULL.
 */
char *rd_fmt_time_cached(char *q, int64_t ns, bool gmt);

/*
 * The last value of a field printed by rd_fmt_u64_memo() and its
 * digits: a thread id, a CPU or an id repeats from event to event.
 */
struct rd_fmt_memo {
	uint64_t v;		/* always < 1e8, and `word` its digits */
	uint64_t word;		/* the digits, in memory order */
	unsigned int len;
};

/*
 * It starts out holding 0 ("0"), never an empty memo: a value that
 * matched an "empty" marker would print as nothing.
 */
#define RD_FMT_MEMO_INIT	{ 0, '0', 1 }

/* Fill `m` with `v`: false when it cannot hold it. */
bool rd_fmt_memo_fill(struct rd_fmt_memo *m, uint64_t v);

/* rd_fmt_u64(), from the memo when `v` is the value it holds. */
static inline char *rd_fmt_u64_memo(char *q, uint64_t v, struct rd_fmt_memo *m)
{
	if (v != m->v && !rd_fmt_memo_fill(m, v))
		return rd_fmt_u64(q, v);
	__builtin_memcpy(q, &m->word, 8);
	return q + m->len;
}

/* `v` as exactly 9 digits. */
void rd_out_nsec(struct rd_out *o, uint64_t v);
void rd_out_u64(struct rd_out *o, uint64_t v);
void rd_out_i64(struct rd_out *o, int64_t v);
void rd_out_escaped(struct rd_out *o, const char *s, size_t n);

/*
 * babeltrace2's "[HH:MM:SS.nnnnnnnnn]" part of `ns`, local time unless
 * `gmt` (falls back to seconds for negative times, like babeltrace2).
 */
void rd_out_time(struct rd_out *o, int64_t ns, bool gmt);

#endif /* UST_READER_H */
