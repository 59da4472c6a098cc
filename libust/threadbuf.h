/*
 * threadbuf.h - the writer of per-thread buffers (UST_BUFFERS=per-thread),
 * for ringbuf.c and functions.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A thread owns its buffer (abi/shm.h, I15): it writes records with
 * plain stores and commits each with one 16-byte store of {offset,
 * last_ts}, its release (I2).  No rseq, no atomic read-modify-write, no
 * CPU number.  What the writer needs is a copy in its initial-exec TLS,
 * struct ust_tb_writer, so that the hot path touches the shared memory
 * only where the record goes and where it is committed.
 *
 * Signal handlers: `nest` counts the records this thread is writing.  A
 * handler that records while its thread is inside a record (nest 1)
 * writes into the thread's second buffer (role UST_TBUF_ROLE_SIGNAL), so
 * each buffer still has one writer at a time; a handler nested deeper is
 * counted lost (lost_nested).  Readers merge the two streams by time.
 */
#ifndef UST_LIBUST_THREADBUF_H
#define UST_LIBUST_THREADBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <emmintrin.h>

#include "session.h"

struct ust_tb_writer {
	uint8_t *ring;			/* NULL: no buffer claimed yet */
	struct ust_shm_tbuf *ctl;
	/* These two in this order: ust__tb_publish() stores them as a pair. */
	uint64_t pos;			/* committed position (commit.offset's value) */
	uint64_t last_ts;		/* of the last record or packet start (I4) */
	uint64_t room;			/* where the open packet's sub-buffer ends */
	uint64_t mask;			/* ring bytes - 1 */
	uint32_t subbuf_size;
	uint32_t records;		/* in the open packet (I17) */
	uint32_t clock_kind;		/* the session's */
	uint32_t bare;			/* records carry no context: functions.c's path */
};

/*
 * `quick` and `nest` share one word, so that the quick paths test both
 * with one compare against UST_TB_QUICK_IDLE (ust__tb_quick_enter()).
 */
struct ust_tb_thread {
	union {
		struct {
			/*
			 * 1 while w[0] is claimed for the session's default
			 * channel, its records carry no context and the
			 * clock is the TSC (ust__tb_claim()); 0 otherwise.
			 */
			uint32_t quick;
			uint32_t nest;	/* records this thread is writing now */
		};
		uint64_t quick_nest;
	};
	uint32_t armed;			/* its exit destructor is set */
	struct ust_tb_writer w[2];	/* by enum ust_tbuf_role */
};

/* quick_nest of a thread that may take the quick path: quick 1, nest 0. */
#define UST_TB_QUICK_IDLE	1ull

extern __thread struct ust_tb_thread ust__tls_tb
	__attribute__((tls_model("initial-exec"))) UST_HIDDEN;

/*
 * The slow paths: a thread without its buffer yet, nesting, a record that
 * does not fit in the open packet.  Called with `nest` already raised.
 */
UST_HIDDEN uint64_t ust__tb_write_slow(struct ust_session *s,
				      struct ust_channel *ch,
				      struct ust_tb_thread *t, uint32_t level,
				      uint32_t id, const struct ust_seg *segs,
				      unsigned int nr_segs, size_t payload_size,
				      uint64_t ip);
UST_HIDDEN uint64_t ust__tb_write_switch(struct ust_session *s,
					struct ust_channel *ch,
					struct ust_tb_writer *w, uint32_t id,
					uint64_t ts, const struct ust_seg *segs,
					unsigned int nr_segs,
					size_t payload_size, uint64_t ip);
/* Claim the calling thread's buffer of `level` now, if it has none: 0 or -1. */
UST_HIDDEN int ust__tb_claim(struct ust_session *s, struct ust_channel *ch,
			    struct ust_tb_thread *t, uint32_t level);
/* The calling thread's context image of channel `chan` (ringbuf.c). */
UST_HIDDEN const uint8_t *ust__thread_ctx_image(const struct ust_session *s,
					       uint32_t chan);

/* Open and close a record of this thread (signal nesting, above). */
static inline uint32_t ust__tb_enter(struct ust_tb_thread *t)
{
	uint32_t level = t->nest;

	t->nest = level + 1;
	/* A handler that interrupts us from here on sees the new level. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return level;
}

static inline void ust__tb_leave(struct ust_tb_thread *t, uint32_t level)
{
	/* Our stores to the buffer are done before a handler may use it. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->nest = level;
}

/*
 * Publish the record (or packet start) that ends at `pos`, of time `ts`:
 * I2's release.  One 16-byte store, so a reader never sees an offset
 * with another record's last_ts; x86-64 keeps the record's earlier
 * stores before it, and the "memory" clobber keeps the compiler from
 * moving them after.  Partner: the consumer's acquire load of
 * commit.offset (consumer/drain.c).
 */
static inline void ust__tb_publish(struct ust_tb_writer *w, uint64_t pos,
				   uint64_t ts)
{
	__m128i pair = _mm_set_epi64x((long long)ts, (long long)pos);

	/* Our copy (w->pos, w->last_ts) by the same pair: one store. */
	_mm_storeu_si128((__m128i_u *)&w->pos, pair);
	__asm__ __volatile__("movdqa %1, %0"
			     : "=m"(w->ctl->buf.commit) : "x"(pair) : "memory");
}

/* The event header at `dst` (ctf/format.h): compact or extended. */
static inline void ust__tb_put_header(uint8_t *dst, uint32_t id, uint64_t ts,
				      size_t hlen)
{
	if (__builtin_expect(hlen == UST_EV_COMPACT_SIZE, 1)) {
		uint32_t word = id | (uint32_t)(ts << 5);

		__builtin_memcpy(dst, &word, 4);
		return;
	}
	dst[0] = UST_EV_EXTENDED;
	__builtin_memcpy(dst + 1, &id, 4);
	__builtin_memcpy(dst + 5, &ts, 8);
}

/* Bytes of the event header of event `id` at `ts` after `last` (I4). */
static inline size_t ust__tb_header_size(uint32_t id, uint64_t ts,
					 uint64_t last)
{
	return id <= UST_EV_COMPACT_ID_MAX &&
	       ts - last < (1ull << UST_EV_TS_BITS) ?
	       UST_EV_COMPACT_SIZE : UST_EV_EXTENDED_SIZE;
}

/* The payload segments at `dst`: small fixed sizes without a call. */
static inline void ust__tb_put_segs(uint8_t *dst, const struct ust_seg *segs,
				    unsigned int nr_segs)
{
	unsigned int i;

	for (i = 0; i < nr_segs; i++) {
		size_t len = segs[i].len;

		if (len == 4)
			__builtin_memcpy(dst, segs[i].ptr, 4);
		else if (len == 8)
			__builtin_memcpy(dst, segs[i].ptr, 8);
		else
			__builtin_memcpy(dst, segs[i].ptr, len);
		dst += len;
	}
}

/*
 * Write one record of time `ts` with writer `w` of channel `ch`
 * (per-thread); returns its timestamp, or 0 when it was counted lost.  A
 * time before the buffer's last one is raised to it (I4): the function
 * filters write entries they held back with the time they happened,
 * which is never earlier than the records written since but for other
 * events of the thread (funcfilter.c).  The caller holds the thread's
 * nesting level (ust__tb_enter()).
 */
static inline __attribute__((always_inline))
uint64_t ust__tb_write_at(struct ust_session *s, struct ust_channel *ch,
			  struct ust_tb_writer *w, uint32_t id, uint64_t ts,
			  const struct ust_seg *segs, unsigned int nr_segs,
			  size_t payload_size, uint64_t ip)
{
	uint64_t pos = w->pos, last = w->last_ts;
	size_t hlen, rec;
	uint8_t *dst;

	if (__builtin_expect(ts < last, 0))
		ts = last;	/* never let a stream go backwards (I4) */
	hlen = ust__tb_header_size(id, ts, last);
	rec = hlen + ch->ctx_size + payload_size;
	/* Strictly inside the sub-buffer, as in ringbuf.c. */
	if (__builtin_expect(pos + rec >= w->room, 0))
		return ust__tb_write_switch(s, ch, w, id, ts, segs, nr_segs,
					    payload_size, ip);
	dst = w->ring + (pos & w->mask);
	ust__tb_put_header(dst, id, ts, hlen);
	dst += hlen;
	if (__builtin_expect(ch->ctx_size != 0, 0)) {
		__builtin_memcpy(dst, ust__thread_ctx_image(s, 0), ch->ctx_img_size);
		if (ch->ctx_size > ch->ctx_img_size)
			__builtin_memcpy(dst + ch->ctx_img_size, &ip, UST_CTX_IP_SIZE);
		dst += ch->ctx_size;
	}
	ust__tb_put_segs(dst, segs, nr_segs);
	w->records++;
	ust__tb_publish(w, pos + rec, ts);
	return ts;
}

/* The same at the time it is now. */
static inline __attribute__((always_inline))
uint64_t ust__tb_write(struct ust_session *s, struct ust_channel *ch,
		       struct ust_tb_writer *w, uint32_t id,
		       const struct ust_seg *segs, unsigned int nr_segs,
		       size_t payload_size, uint64_t ip)
{
	return ust__tb_write_at(s, ch, w, id, ust__clock_read(s->clock_kind),
				segs, nr_segs, payload_size, ip);
}

/*
 * The quick paths' way in: true when the calling thread may take one
 * (quick 1: its w[0] is a bare TSC buffer, and nest 0: it is not inside
 * a record), its nesting level then raised to 1.  One load and compare
 * of the shared word, one store.  A signal handler that interrupts us
 * after the test and records finishes its record and puts nest back
 * before we go on (the fence keeps our loads of the writer after the
 * store); one that comes after the store sees level 1 and writes into
 * the signal buffer.  False: nothing changed, take the general path.
 */
static inline __attribute__((always_inline))
bool ust__tb_quick_enter(struct ust_tb_thread *t)
{
	if (__builtin_expect(t->quick_nest != UST_TB_QUICK_IDLE, 0))
		return false;
	t->nest = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return true;
}

/*
 * Back to level 0.  The whole word, quick still 1 (only this thread's
 * exit or a fork child clears it, never a handler inside a record): a
 * store as wide as the next call's load, which the CPU then forwards.
 */
static inline __attribute__((always_inline))
void ust__tb_quick_leave(struct ust_tb_thread *t)
{
	/* Our stores to the buffer are done before a handler may use it. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->quick_nest = UST_TB_QUICK_IDLE;
}

/*
 * The quick path's ways out of line, each called last, with the thread
 * at nesting level 1 (ust__tb_quick_enter()) and the record known to
 * fit (ust__tb_quick_fits()); each writes and commits the record, then
 * leaves (ust__tb_quick_leave()).  Out of line so that their calls of
 * memcpy and memmove cost the quick path no saved registers and no stack
 * frame:
 *
 * - ust__tb_quick_segs(): the payload is not one segment of 4 or 8
 *   bytes, or none (several: a string and its NUL);
 * - ust__tb_quick_late(): the compact header cannot hold the time `ts`
 *   (too far after the last record, or before it: I4); the payload
 *   (`size` bytes) is already at `rec` + 4 and the record counted.
 */
UST_HIDDEN void ust__tb_quick_segs(uint32_t id, const struct ust_seg *segs,
				  unsigned int nr_segs, size_t size);
UST_HIDDEN void ust__tb_quick_late(uint8_t *rec, uint32_t id, uint64_t ts,
				  size_t size);

/*
 * Whether a record of `size` bytes of payload, without context, takes
 * the quick path in writer `w`: room in the open packet for it with the
 * larger, extended header (strictly inside the sub-buffer, as in
 * ust__tb_write_at()).  A record near the packet's end that would fit
 * with the compact header takes the general path, which knows.  A
 * payload no sub-buffer can hold (UST_PAYLOAD_DROP) does not fit.
 */
static inline __attribute__((always_inline))
bool ust__tb_quick_fits(const struct ust_tb_writer *w, size_t size)
{
	return w->pos + UST_EV_EXTENDED_SIZE + size < w->room;
}

/* Commit the quick record that ends at position `end` (I2) and leave. */
static inline __attribute__((always_inline))
void ust__tb_quick_commit(struct ust_tb_thread *t, uint64_t end, uint64_t ts)
{
	ust__tb_publish(&t->w[0], end, ts);
	ust__tb_quick_leave(t);
}

/*
 * Relaxed: the gate word (include/ust/tracepoint.h), 0 unless the event
 * has a filter or rate limit; partners: the relaxed stores of
 * ust__gate_attach() and ust ctl's writes.
 */
static inline __attribute__((always_inline))
bool ust__tb_gated(const struct ust_event_desc *ev)
{
	return __builtin_expect(__atomic_load_n(&ev->reserved,
						__ATOMIC_RELAXED) != 0, 0);
}

/*
 * The quick paths' start: true, with the place of a record of event `id`
 * with a `size`-byte payload in *rec (its position in *pos) and the
 * thread at nesting level 1, when the thread may (ust__tb_quick_enter()),
 * the record fits (ust__tb_quick_fits()) and the id fits in a compact
 * header; else false, nothing changed.  The caller then puts the payload at the record's
 * offset UST_EV_COMPACT_SIZE and ends with ust__tb_quick_close(), or
 * leaves by one of the ways out of line above.
 */
static inline __attribute__((always_inline))
bool ust__tb_quick_open(uint32_t id, size_t size, uint8_t **rec, uint64_t *pos)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	struct ust_tb_writer *w = &t->w[0];

	if (!ust__tb_quick_enter(t))
		return false;
	if (__builtin_expect(!ust__tb_quick_fits(w, size) ||
			     id > UST_EV_COMPACT_ID_MAX, 0)) {
		ust__tb_quick_leave(t);
		return false;
	}
	*pos = w->pos;
	*rec = w->ring + (*pos & w->mask);
	return true;
}

/*
 * The quick paths' end, the payload in place: count the record (I17),
 * read the clock, write the compact header and commit.  Everything that
 * does not need the time comes before the clock is read: a store that
 * follows `rdtsc` costs much more than one before it (doc/ring-buffer.md,
 * "The quick path").
 */
static inline __attribute__((always_inline))
void ust__tb_quick_close(uint8_t *rec, uint32_t id, uint64_t pos, size_t size)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	struct ust_tb_writer *w = &t->w[0];
	uint32_t word;
	uint64_t ts;

	w->records++;
	ts = ust__clock_read(UST_CLOCK_TSC);
	/* One test for both: a time before the last one makes it huge. */
	if (__builtin_expect(ts - w->last_ts >= (1ull << UST_EV_TS_BITS), 0)) {
		ust__tb_quick_late(rec, id, ts, size);
		return;
	}
	word = id | (uint32_t)(ts << 5);
	__builtin_memcpy(rec, &word, 4);
	ust__tb_quick_commit(t, pos + UST_EV_COMPACT_SIZE + size, ts);
}

/*
 * The quick path of an event: a record of `ev` (`segs`, `size` bytes:
 * with one segment, its length) at the TSC's time now, without context.
 * False, having written nothing, when the record needs the general path
 * (ust__tb_quick_open()).  The caller checked that the event has no gate
 * (ust__tb_gated()).
 */
static inline __attribute__((always_inline))
bool ust__tb_try_quick(const struct ust_event_desc *ev,
		       const struct ust_seg *segs, unsigned int nr_segs,
		       size_t size)
{
	uint32_t id = ev->id;
	uint64_t pos;
	uint8_t *rec;

	if (!ust__tb_quick_open(id, size, &rec, &pos))
		return false;
	if (__builtin_expect(nr_segs > 1, 0)) {
		ust__tb_quick_segs(id, segs, nr_segs, size);
		return true;
	}
	if (nr_segs == 1) {
		if (__builtin_expect(size == 4, 1)) {
			__builtin_memcpy(rec + UST_EV_COMPACT_SIZE, segs[0].ptr, 4);
		} else if (size == 8) {
			__builtin_memcpy(rec + UST_EV_COMPACT_SIZE, segs[0].ptr, 8);
		} else {
			ust__tb_quick_segs(id, segs, nr_segs, size);
			return true;
		}
	}
	ust__tb_quick_close(rec, id, pos, size);
	return true;
}

/*
 * The same for a payload of at most 8 bytes passed by value
 * (ust_event_write_small_ip()): its `size` first bytes in memory order.
 * All 8 bytes are stored, whatever `size`: those past the record lie
 * above the committed position, below the packet's end (the record fits
 * with an extended header, ust__tb_quick_fits()), and the next record
 * overwrites them.
 */
static inline __attribute__((always_inline))
bool ust__tb_try_quick_small(const struct ust_event_desc *ev, uint64_t payload,
			     size_t size)
{
	uint32_t id = ev->id;	/* once: the stores below may alias *ev */
	uint64_t pos;
	uint8_t *rec;

	if (!ust__tb_quick_open(id, size, &rec, &pos))
		return false;
	__builtin_memcpy(rec + UST_EV_COMPACT_SIZE, &payload, 8);
	ust__tb_quick_close(rec, id, pos, size);
	return true;
}

/* A record of the calling thread into per-thread channel `ch`. */
static inline __attribute__((always_inline))
uint64_t ust__tb_event_write(struct ust_session *s, struct ust_channel *ch,
			     uint32_t id, const struct ust_seg *segs,
			     unsigned int nr_segs, size_t payload_size,
			     uint64_t ip)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	uint32_t level = ust__tb_enter(t);
	uint64_t ts;

	if (__builtin_expect(level == 0 && t->w[0].ring != NULL, 1))
		ts = ust__tb_write(s, ch, &t->w[0], id, segs, nr_segs,
				   payload_size, ip);
	else
		ts = ust__tb_write_slow(s, ch, t, level, id, segs, nr_segs,
					payload_size, ip);
	ust__tb_leave(t, level);
	return ts;
}

#endif /* UST_LIBUST_THREADBUF_H */
