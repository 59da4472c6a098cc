/*
 * ringbuf.c - the writer side of the per-CPU ring buffers.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The layout and the invariants I1-I12 this file keeps are in abi/shm.h;
 * the reader side is consumer/drain.c, the narrative doc/ring-buffer.md.
 *
 * Writing a record (ust_event_write): read the CPU from the rseq area,
 * the buffer's committed {offset, last_ts}, then the clock; build the
 * event header against last_ts (I4, ctf/format.h); if the record fits in
 * the current sub-buffer, copy it and commit in one restartable sequence
 * (rseq-commit.h: I2, I3).  Any preemption, migration or signal in
 * between aborts the sequence, and the writer starts again from the top
 * with a fresh offset and timestamp.
 *
 * Switching sub-buffers (buffer_switch): the record does not fit, so in
 * one restartable sequence the writer closes the current packet and
 * opens the next one (I5), committing an offset just past the new header
 * with last_ts = its timestamp_begin, exactly where a CTF reader restarts
 * its clock.  Discard mode first checks that the consumer released the
 * next sub-buffer (I6), else the record is refused and counted (I7);
 * blocking mode first waits for that (ust__wait_for_consumer(), wake.c);
 * overwrite mode never waits (the consumer detects laps, I8); flight mode
 * refuses the switch while a snapshot has the channel frozen (I11).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>

#include <ust/tracepoint.h>

#include "gate.h"
#include "rseq-commit.h"
#include "session.h"
#include "threadbuf.h"

/*
 * The per-thread part of every record's context: one image per channel
 * of the session (ctf_ev_context_image(): vtid, vpid, procname,
 * pthread_id as the channel's set chooses), copied whole by the writer.
 * Built at the thread's first record in a session, and again after a
 * thread was renamed; `gen` says for which session->ctx_gen.  Written
 * only by its thread (and by a signal handler of that thread, which
 * writes the same bytes).
 */
struct thread_ctx {
	uint64_t gen;
	uint8_t img[UST_MAX_SESSION_CHANNELS][UST_CTX_IMAGE_MAX];
};
static __thread struct thread_ctx ust_tls_ctx
	__attribute__((tls_model("initial-exec"), aligned(64)));

/*
 * Our own rseq area, used only when glibc did not register one (for
 * example with GLIBC_TUNABLES=glibc.pthread.rseq=0).
 */
static __thread struct rseq ust_tls_rseq
	__attribute__((tls_model("initial-exec"), aligned(32)));
static __thread int8_t ust_tls_rseq_state
	__attribute__((tls_model("initial-exec")));	/* 0 new, 1 ok, -1 failed */

_Static_assert(offsetof(struct ust_copy_plan, nr_segs) == 32, "plan layout");
_Static_assert(offsetof(struct ust_copy2_plan, seq) == 56, "plan layout");
_Static_assert(sizeof(struct ust_packet_header) == 84, "packet header");
_Static_assert(sizeof(struct ust_packet_close) == 32, "packet close");
_Static_assert(offsetof(struct ust_shm_buf, commit) == 0, "commit pair");

static __thread int32_t ust_tls_tid __attribute__((tls_model("initial-exec")));

/* A fork child: its thread is not its parent's; rebuild the images. */
void ust__thread_forget(void)
{
	ust_tls_ctx.gen = 0;
	ust_tls_tid = 0;
}

/* Some thread has a new name: every thread rebuilds its images. */
void ust__thread_renamed(void)
{
	/* Acquire: pairs with the store-release publishing the session. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);

	/* Relaxed: see session.h, ctx_gen. */
	if (s)
		__atomic_fetch_add(&s->ctx_gen, 1, __ATOMIC_RELAXED);
}

/*
 * Build the calling thread's context images for session `s`, current
 * as of `gen`.  Once per thread and session (and after renames): the
 * system calls here are off the hot path.  Async-signal-safe.
 */
static __attribute__((noinline, cold))
void thread_ctx_build(const struct ust_session *s, uint64_t gen)
{
	struct ctf_ctx_values v;
	uint32_t i;

	memset(&v, 0, sizeof(v));
	v.vtid = (int32_t)syscall(SYS_gettid);
	v.vpid = s->vpid;
	if (s->ctx_union & UST_CTX_PROCNAME)
		(void)prctl(PR_GET_NAME, v.procname);	/* 16 bytes, NUL included */
	v.pthread_id = (uint64_t)pthread_self();
	for (i = 0; i < s->nr_channels; i++)
		ctf_ev_context_image(ust_tls_ctx.img[i], s->chan[i].ctx_set, &v);
	/* A signal handler of this thread sees the images before the mark. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ust_tls_ctx.gen = gen;
}

/*
 * The calling thread's context image for channel `chan` of session `s`
 * (a constant for the default channel: the image's address is then one
 * %fs-relative offset).
 */
static inline const uint8_t *thread_ctx_image(const struct ust_session *s,
					      uint32_t chan)
{
	/* Relaxed: see session.h, ctx_gen. */
	uint64_t gen = __atomic_load_n(&s->ctx_gen, __ATOMIC_RELAXED);

	if (__builtin_expect(ust_tls_ctx.gen != gen, 0))
		thread_ctx_build(s, gen);
	return ust_tls_ctx.img[chan];
}

const uint8_t *ust__thread_ctx_image(const struct ust_session *s, uint32_t chan)
{
	return thread_ctx_image(s, chan);
}

/*
 * The calling thread's id for filters ($ctx.vtid), cached per thread; a
 * fork child forgets it (ust__thread_forget()).  Async-signal-safe.
 */
int32_t ust__thread_tid(void)
{
	if (__builtin_expect(ust_tls_tid == 0, 0))
		ust_tls_tid = (int32_t)syscall(SYS_gettid);
	return ust_tls_tid;
}

static struct rseq *own_rseq_register(void)
{
	if (ust_tls_rseq_state == 0) {
		ust_tls_rseq.cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
		ust_tls_rseq_state = syscall(SYS_rseq, &ust_tls_rseq,
					     sizeof(ust_tls_rseq), 0,
					     RSEQ_SIG) == 0 ? 1 : -1;
	}
	return ust_tls_rseq_state > 0 ? &ust_tls_rseq : NULL;
}

/* The calling thread's rseq area, or NULL when it has none. */
static inline struct rseq *thread_rseq(void)
{
	if (__builtin_expect(__rseq_size >= 20, 1))
		return (struct rseq *)((char *)__builtin_thread_pointer() +
				       __rseq_offset);
	return own_rseq_register();
}

/*
 * A word of this CPU's control block that only writers on this CPU store
 * (I3): a relaxed load, checked again inside the restartable sequence.
 */
uint32_t ust__thread_cpu(void)
{
	struct rseq *rs = thread_rseq();

	/* Relaxed: the kernel's, as in channel_write(). */
	return rs ? __atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED) : 0;
}

static inline uint64_t load_relaxed(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * I7: a refused record, counted once.  Relaxed: writers of every CPU add
 * here; the count reaches the consumer through the next packet close
 * (I5) or its own relaxed load at the final flush, never as a signal.
 */
static void count_lost(uint64_t *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/*
 * A packet header of `ch`: stream instance `instance`, and `cpu_slot` in
 * cpu_id (the CPU; a per-thread buffer's thread id, threadbuf.c).
 */
void ust__packet_header_fill(struct ust_packet_header *ph,
			     const struct ust_session *s,
			     const struct ust_channel *ch, uint64_t instance,
			     uint32_t cpu_slot, uint64_t seq, uint64_t ts)
{
	memset(ph, 0, sizeof(*ph));
	ph->magic = UST_CTF_MAGIC;
	memcpy(ph->uuid, s->uuid, sizeof(ph->uuid));
	ph->stream_id = ch->stream_id;
	ph->stream_instance_id = instance;
	ph->timestamp_begin = ts;
	ph->packet_seq_num = seq;
	ph->cpu_id = cpu_slot;
	ph->packet_size = (uint64_t)ch->subbuf_size * 8;
}

/*
 * Called while the session is being set up, before it is published: open
 * packet 0 of the buffer.
 */
void ust__ringbuf_init_buffer(struct ust_session *s, struct ust_channel *ch,
			     uint32_t cpu, uint64_t now)
{
	struct ust_shm_buf *buf = &ch->bufs[cpu];

	ust__packet_header_fill((struct ust_packet_header *)(ch->data +
							    cpu * ch->buf_size),
				s, ch, cpu, cpu, 0, now);
	buf->commit.offset = sizeof(struct ust_packet_header);
	buf->commit.last_ts = now;
	buf->consumed = 0;
}

/*
 * Close the packet holding position `off` and open the next one.  Returns
 * 0 when the switch was committed (or another writer's switch made it
 * moot: the caller retries either way), -ENOBUFS when discard mode found
 * no free sub-buffer (the record was counted lost).
 */
static int buffer_switch(const struct ust_session *s,
			 struct ust_channel *ch, struct ust_shm_buf *buf,
			 uint8_t *data, struct rseq *rs, uint32_t cpu,
			 uint64_t off, uint64_t ts)
{
	uint64_t mask = ch->subbuf_size - 1;
	uint64_t old_start = off & ~mask;
	uint64_t new_start = old_start + ch->subbuf_size;
	struct ust_packet_header ph;
	struct ust_packet_close close;
	struct ust_copy2_plan plan;

	if (ch->mode == UST_MODE_DISCARD) {
		/*
		 * I6, acquire: pairs with the consumer's store-release of
		 * `consumed` after it copied the sub-buffer out
		 * (consumer/drain.c), so our writes into that sub-buffer come
		 * after its reads.
		 */
		uint64_t consumed = __atomic_load_n(&buf->consumed,
						    __ATOMIC_ACQUIRE);

		if (new_start + ch->subbuf_size - consumed > ch->buf_size) {
			if (ch->blocking && ust__wait_for_consumer(s, ch, buf, consumed) == 0)
				return 0;	/* room now: the caller retries */
			count_lost(&buf->lost_full);
			return -ENOBUFS;
		}
	} else if (ch->mode == UST_MODE_FLIGHT &&
		   /*
		    * I11, acquire: pairs with the consumer's store-release of
		    * frozen = 0 after it copied the buffers
		    * (consumer/snapshot.c), so our writes into the next slot
		    * come after its reads of it.
		    */
		   __atomic_load_n(&s->hdr->flight.frozen, __ATOMIC_ACQUIRE)) {
		count_lost(&buf->lost_full);
		return -ENOBUFS;
	}
	ust__packet_header_fill(&ph, s, ch, cpu, cpu, new_start / ch->subbuf_size,
				ts);
	close.timestamp_end = ts;
	close.content_size = (off - old_start) * 8;
	close.packet_size = (uint64_t)ch->subbuf_size * 8;
	/* I7: the running total, relaxed like the increments. */
	close.events_discarded = __atomic_load_n(&buf->lost_full, __ATOMIC_RELAXED) +
				 __atomic_load_n(&buf->lost_big, __ATOMIC_RELAXED);

	plan.dst1 = data + (new_start & (ch->buf_size - 1));
	plan.src1 = &ph;
	plan.len1 = sizeof(ph);
	plan.dst2 = data + (old_start & (ch->buf_size - 1)) +
		    UST_PACKET_CLOSE_OFFSET;
	plan.src2 = &close;
	plan.len2 = sizeof(close);
	plan.seq_dst = (uint64_t *)((uint8_t *)plan.dst1 +
				    offsetof(struct ust_packet_header,
					     packet_seq_num));
	plan.seq = ph.packet_seq_num;
	(void)ust_rseq_copy2_commit(rs, cpu, &buf->commit.offset, off,
				    _mm_set_epi64x((long long)ts,
						   (long long)(new_start +
							       sizeof(ph))),
				    &plan);
	return 0;
}

/*
 * Write one record into channel `chan` of session `s`; returns its
 * timestamp, or 0 when it was counted lost.  Inlined into each entry
 * point, so the default channel's path has no extra indirection.
 */
static inline __attribute__((always_inline))
uint64_t channel_write(struct ust_session *s, uint32_t chan,
		       struct ust_event_desc *event,
		       const struct ust_seg *segs, unsigned int nr_segs,
		       size_t payload_size, uint64_t ip)
{
	struct ust_channel *ch = &s->chan[chan];
	uint8_t hdr[UST_EV_HEADER_MAX];
	struct ust_copy_plan plan;
	const uint8_t *img;
	struct rseq *rs;

	img = thread_ctx_image(s, chan);
	rs = thread_rseq();
	if (__builtin_expect(!rs, 0)) {
		/* No usable rseq area: count the record, never crash. */
		count_lost(&ch->bufs[0].lost_full);
		return 0;
	}
	plan.hdr = hdr;
	plan.segs = segs;
	plan.nr_segs = nr_segs;

	for (;;) {
		/* Relaxed: the kernel's; the sequence checks it again (I3). */
		uint32_t cpu = __atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);
		struct ust_shm_buf *buf;
		uint8_t *data;
		uint64_t off, last, ts;
		size_t rec;

		if (__builtin_expect(cpu >= s->nr_cpus, 0)) {
			/* rseq not initialised on this thread (yet). */
			count_lost(&ch->bufs[0].lost_full);
			return 0;
		}
		buf = &ch->bufs[cpu];
		data = ch->data + cpu * ch->buf_size;
		off = load_relaxed(&buf->commit.offset);
		last = load_relaxed(&buf->commit.last_ts);
		ts = ust__clock_read(s->clock_kind);
		if (__builtin_expect(ts < last, 0))
			ts = last;	/* never let a stream go backwards */
		/*
		 * No branch per context: the thread's image and the ip are
		 * always stored, the channel's sizes say what counts.
		 */
		plan.hdr_len = ctf_ev_header_encode_ctx(hdr, event->id, ts, last,
							img, ip, ch->ctx_img_size,
							ch->ctx_size);
		rec = plan.hdr_len + payload_size;

		/*
		 * A record must end strictly inside the sub-buffer: an offset
		 * on a boundary would let the next record start a packet
		 * without its header, and leave this one unclosed.
		 */
		if (__builtin_expect((off & (ch->subbuf_size - 1)) + rec >=
				     ch->subbuf_size, 0)) {
			if (rec + sizeof(struct ust_packet_header) >=
			    ch->subbuf_size) {
				count_lost(&buf->lost_big);
				return 0;
			}
			if (buffer_switch(s, ch, buf, data, rs, cpu, off, ts))
				return 0;
			continue;
		}
		plan.dst = data + (off & (ch->buf_size - 1));
		if (ust_rseq_copy_commit(rs, cpu, &buf->commit.offset, off,
					 _mm_set_epi64x((long long)ts,
							(long long)(off + rec)),
					 &plan) == 0)
			return ts;
	}
}

/*
 * The default channel of the current session, if any: the plain path of
 * ust_event_write_ip(), inlined there, so that the channel is a constant.
 */
static inline __attribute__((always_inline))
void default_write(struct ust_event_desc *event,
		  const struct ust_seg *segs,
		  unsigned int nr_segs, size_t payload_size,
		  uint64_t ip)
{
	/*
	 * Acquire: pairs with the store-release publishing the session
	 * (ust__session_publish()), so its buffers are initialised.
	 */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);

	if (!s)
		return;
	if (s->chan[0].per_thread)
		(void)ust__tb_event_write(s, &s->chan[0], event->id, segs,
					  nr_segs, payload_size, ip);
	else
		(void)channel_write(s, 0, event, segs, nr_segs, payload_size,
				    ip);
}

/*
 * The plain path of ust_event_write_ip(), out of line: per-CPU buffers,
 * and what the per-thread quick path leaves (a thread's first record, a
 * new packet, a context, another clock); the gated paths below end here.
 * A record the probe could not build (UST_PAYLOAD_DROP) goes on to be
 * counted lost.
 */
static __attribute__((noinline))
void plain_event_write(struct ust_event_desc *event, const struct ust_seg *segs,
		       unsigned int nr_segs, size_t payload_size, uint64_t ip)
{
	default_write(event, segs, nr_segs, payload_size, ip);
}

/* The gated path when ust__gate_quick() cannot decide. */
static __attribute__((noinline))
void gated_event_write_full(struct ust_session *s, struct ust_event_desc *event,
			    const struct ust_seg *segs, unsigned int nr_segs,
			    size_t payload_size, uint64_t ip)
{
	if (ust__gate_pass(s, event, segs, nr_segs))
		plain_event_write(event, segs, nr_segs, payload_size, ip);
}

/* The gated path with one program to run (UST_GATE_RUN). */
static __attribute__((noinline))
void gated_event_write_run(const struct ust_filter *prog,
			   struct ust_event_desc *event, const struct ust_seg *segs,
			   unsigned int nr_segs, size_t payload_size, uint64_t ip)
{
	if (ust_filter_run(prog, segs, nr_segs, NULL))
		plain_event_write(event, segs, nr_segs, payload_size, ip);
}

/* The same for a string against a prefix, without the interpreter's switch. */
static __attribute__((noinline))
void gated_event_write_prefix(const struct ust_filter *prog,
			      struct ust_event_desc *event,
			      const struct ust_seg *segs, unsigned int nr_segs,
			      size_t payload_size, uint64_t ip)
{
	if (ust_filter_str_prefix_keeps(&prog->fast, segs, nr_segs))
		plain_event_write(event, segs, nr_segs, payload_size, ip);
}

/*
 * The gated path (the event has a filter or a rate limit, gate.h) once
 * ust__gate_quick() gave its verdict `v`.  Only calls in tail position:
 * no stack frame on its own quick path.
 */
static inline __attribute__((always_inline))
void gated_dispatch(enum ust__gate_verdict v, const struct ust_filter *prog,
		    struct ust_session *s, struct ust_event_desc *event,
		    const struct ust_seg *segs, unsigned int nr_segs,
		    size_t payload_size, uint64_t ip)
{
	switch (v) {
	case UST_GATE_DROP:
		return;
	case UST_GATE_WRITE:
		plain_event_write(event, segs, nr_segs, payload_size, ip);
		return;
	case UST_GATE_RUN:
		gated_event_write_run(prog, event, segs, nr_segs, payload_size, ip);
		return;
	case UST_GATE_PREFIX:
		gated_event_write_prefix(prog, event, segs, nr_segs, payload_size,
					 ip);
		return;
	default:
		gated_event_write_full(s, event, segs, nr_segs, payload_size, ip);
		return;
	}
}

/* The whole gated path. */
static inline __attribute__((always_inline))
void gated_write(struct ust_event_desc *event, const struct ust_seg *segs,
		 unsigned int nr_segs, size_t payload_size, uint64_t ip)
{
	/* Acquire: as in default_write(), which loads it again. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	const struct ust_filter *prog = NULL;
	enum ust__gate_verdict v;

	if (!s)
		return;
	if (payload_size == UST_PAYLOAD_DROP) {
		plain_event_write(event, segs, nr_segs, payload_size, ip);
		return;
	}
	v = ust__gate_quick(s, event, segs, nr_segs, &prog, false);
	gated_dispatch(v, prog, s, event, segs, nr_segs, payload_size, ip);
}

/* The gated path of ust_event_write_ip(), out of line, so that the others
 * pay only the test of their gate word. */
static __attribute__((noinline))
void gated_event_write(struct ust_event_desc *event, const struct ust_seg *segs,
		       unsigned int nr_segs, size_t payload_size, uint64_t ip)
{
	gated_write(event, segs, nr_segs, payload_size, ip);
}

/*
 * The strings that probes left to measure (UST_SEG_CSTR), measured: their
 * lengths go into `segs`, the payload's size is returned.
 */
static size_t measure_strings(struct ust_seg *segs, unsigned int nr_segs,
			      size_t known_size)
{
	unsigned int i;

	for (i = 0; i < nr_segs; i++) {
		if (segs[i].len == UST_SEG_CSTR) {
			segs[i].len = strlen((const char *)segs[i].ptr);
			known_size += segs[i].len;
		}
	}
	return known_size;
}

/*
 * A record the gate keeps, its strings not measured yet: measure, write,
 * in one function (one frame for both).
 */
static __attribute__((noinline))
void cstr_event_write(struct ust_event_desc *event, struct ust_seg *segs,
		      unsigned int nr_segs, size_t known_size, uint64_t ip)
{
	default_write(event, segs, nr_segs,
		      measure_strings(segs, nr_segs, known_size), ip);
}

/* UST_GATE_FULL with strings not measured: ust__gate_pass() on the measured. */
static __attribute__((noinline))
void cstr_event_write_full(struct ust_session *s, struct ust_event_desc *event,
			   struct ust_seg *segs, unsigned int nr_segs,
			   size_t known_size, uint64_t ip)
{
	size_t size = measure_strings(segs, nr_segs, known_size);

	if (ust__gate_pass(s, event, segs, nr_segs))
		plain_event_write(event, segs, nr_segs, size, ip);
}

/*
 * One program with strings not measured: a string against a pattern is
 * decided on the string itself (filter/fast.h), the strings measured
 * only when the record is kept; any other program runs on the measured
 * segments.
 */
static __attribute__((noinline))
void cstr_event_write_run(const struct ust_filter *prog,
			  struct ust_event_desc *event, struct ust_seg *segs,
			  unsigned int nr_segs, size_t known_size, uint64_t ip)
{
	int keep = -1;
	size_t size;

	if (prog->fast.shape == UST_FILTER_SHAPE_STR_MATCH)
		keep = ust_filter_str_cstr_keeps(&prog->fast, segs, nr_segs);
	if (keep == 0)
		return;
	size = measure_strings(segs, nr_segs, known_size);
	if (keep > 0 || ust_filter_run(prog, segs, nr_segs, NULL))
		plain_event_write(event, segs, nr_segs, size, ip);
}

/*
 * A string against a prefix (UST_GATE_PREFIX), strings not measured,
 * that ust_filter_cstr_prefix_word() left: decided on the string itself
 * (filter/fast.h), with no call.  A discarded record returns from here,
 * a kept one goes on by a tail call.
 */
static __attribute__((noinline))
void cstr_prefix_write(const struct ust_filter *prog,
		       struct ust_event_desc *event, struct ust_seg *segs,
		       unsigned int nr_segs, size_t known_size, uint64_t ip)
{
	int keep = ust_filter_cstr_prefix_keeps(&prog->fast, segs, nr_segs);

	if (keep > 0)
		cstr_event_write(event, segs, nr_segs, known_size, ip);
	else if (keep < 0)	/* the field is not a string this can read */
		cstr_event_write_run(prog, event, segs, nr_segs, known_size, ip);
}

/*
 * What tpgen's probes with strings call when their event's gate word is
 * set (<ust/tracepoint.h>): the filter first, on strings not measured.
 * As gated_event_write(), only calls in tail position.
 */
UST_EXPORT
void ust_event_write_gated_ip(struct ust_event_desc *event,
			      struct ust_seg *segs, unsigned int nr_segs,
			      size_t known_size, const void *ip)
{
	/* Acquire: as in default_write(), which loads it again. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	const struct ust_filter *prog = NULL;
	int keep;

	if (!s)
		return;
	if (known_size == UST_PAYLOAD_DROP) {
		plain_event_write(event, segs, nr_segs, known_size, (uintptr_t)ip);
		return;
	}
	switch (ust__gate_quick(s, event, segs, nr_segs, &prog, true)) {
	case UST_GATE_DROP:
		return;
	case UST_GATE_WRITE:
		cstr_event_write(event, segs, nr_segs, known_size, (uintptr_t)ip);
		return;
	case UST_GATE_PREFIX:
		/* The commonest, decided here, with no call (filter/fast.h). */
		keep = ust_filter_cstr_prefix_word(&prog->fast, segs, nr_segs);
		if (keep > 0)
			cstr_event_write(event, segs, nr_segs, known_size,
					 (uintptr_t)ip);
		else if (keep < 0)
			cstr_prefix_write(prog, event, segs, nr_segs, known_size,
					  (uintptr_t)ip);
		return;
	case UST_GATE_RUN:
		cstr_event_write_run(prog, event, segs, nr_segs, known_size,
				     (uintptr_t)ip);
		return;
	default:
		cstr_event_write_full(s, event, segs, nr_segs, known_size,
				      (uintptr_t)ip);
		return;
	}
}

/*
 * Both entry points: the gated path for an event with a filter or a
 * rate limit, else a per-thread session's quick path (threadbuf.h), else
 * the plain path.  The other paths are out of line and reached by tail
 * calls, so that the quick path needs no stack frame.
 */
static inline __attribute__((always_inline))
void event_write(struct ust_event_desc *event, const struct ust_seg *segs,
		 unsigned int nr_segs, size_t payload_size, uint64_t ip)
{
	if (ust__tb_gated(event))
		gated_event_write(event, segs, nr_segs, payload_size, ip);
	else if (__builtin_expect(!ust__tb_try_quick(event, segs, nr_segs,
						     payload_size), 0))
		plain_event_write(event, segs, nr_segs, payload_size, ip);
}

/*
 * What <ust/tracepoint.h>'s ust_event_write() macro calls: `ip` is the
 * caller's return address, the instrumented call site.
 */
UST_EXPORT
void ust_event_write_ip(struct ust_event_desc *event,
			const struct ust_seg *segs, unsigned int nr_segs,
			size_t payload_size, const void *ip)
{
	event_write(event, segs, nr_segs, payload_size, (uintptr_t)ip);
}

/*
 * The entry point of providers built before ust_event_write_ip(): the
 * best ip it knows is its own return address, inside their probe.
 */
UST_EXPORT
void (ust_event_write)(struct ust_event_desc *event,
		       const struct ust_seg *segs, unsigned int nr_segs,
		       size_t payload_size)
{
	event_write(event, segs, nr_segs, payload_size,
		    (uintptr_t)__builtin_return_address(0));
}

/*
 * ust_event_write_small_ip()'s other paths, the payload made a segment of
 * its own: the gated path, and the plain one (per-CPU buffers, and what
 * the per-thread quick path leaves), each inline in its own function, so
 * that neither costs a call more than through ust_event_write_ip().
 */
static __attribute__((noinline))
void small_plain_write(struct ust_event_desc *event, uint64_t payload,
		       size_t size, uint64_t ip)
{
	struct ust_seg seg = { &payload, size };

	default_write(event, &seg, 1, size, ip);
}

/*
 * The gated path's verdicts other than drop and write, for a small
 * payload.  Six arguments, so that the call to here is a tail call.
 */
static __attribute__((noinline))
void small_gated_dispatch(enum ust__gate_verdict v, const struct ust_filter *prog,
			  struct ust_event_desc *event, uint64_t payload,
			  size_t size, uint64_t ip)
{
	/* Acquire: as in small_gated_write(); not NULL, it was not then. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	struct ust_seg seg = { &payload, size };

	if (!s)
		return;
	gated_dispatch(v, prog, s, event, &seg, 1, size, ip);
}

/*
 * The gated path of a small payload: with no stack frame, so that a
 * filtered-out record returns from here and a kept one goes on by a
 * tail call.
 */
static __attribute__((noinline))
void small_gated_write(struct ust_event_desc *event, uint64_t payload,
		       size_t size, uint64_t ip)
{
	/* Acquire: as in default_write(), which loads it again. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	const struct ust_filter *prog = NULL;
	enum ust__gate_verdict v;

	if (!s)
		return;
	v = ust__gate_quick_small(s, event, payload, size, &prog);
	if (v == UST_GATE_DROP)
		return;
	if (v == UST_GATE_WRITE)
		small_plain_write(event, payload, size, ip);
	else
		small_gated_dispatch(v, prog, event, payload, size, ip);
}

/*
 * What tpgen's probes call for an event whose payload is fixed-size
 * fields of 8 bytes at most, by value: no segment to build, and the
 * per-thread quick path stores it whole (ust__tb_try_quick_small()).
 */
UST_EXPORT
void ust_event_write_small_ip(struct ust_event_desc *event, uint64_t payload,
			      size_t size, const void *ip)
{
	if (ust__tb_gated(event))
		small_gated_write(event, payload, size, (uintptr_t)ip);
	else if (__builtin_expect(!ust__tb_try_quick_small(event, payload,
							   size), 0))
		small_plain_write(event, payload, size, (uintptr_t)ip);
}

/* Any channel of `s` (the caller loaded it with acquire); off the hot path. */
uint64_t ust__channel_event_write(struct ust_session *s, uint32_t chan,
				 struct ust_event_desc *event,
				 const struct ust_seg *segs,
				 unsigned int nr_segs, size_t payload_size)
{
	if (s->chan[chan].per_thread)
		return ust__thread_event_write(s, &s->chan[chan], event, segs,
					       nr_segs, payload_size,
					       (uintptr_t)__builtin_return_address(0));
	return channel_write(s, chan, event, segs, nr_segs,
			     payload_size,
			     (uintptr_t)__builtin_return_address(0));
}

/* The statedump's events: to the state channel, never overwritten. */
void ust__state_event_write(struct ust_event_desc *event,
			   const struct ust_seg *segs, unsigned int nr_segs,
			   size_t payload_size)
{
	/*
	 * Acquire: pairs with the store-release publishing the session
	 * (ust__session_publish()), so its buffers are initialised.
	 */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	uint64_t ip = (uintptr_t)__builtin_return_address(0);

	if (s && s->chan[s->state_chan].per_thread)
		(void)ust__thread_event_write(s, &s->chan[s->state_chan], event,
					      segs, nr_segs, payload_size, ip);
	else if (s)
		(void)channel_write(s, s->state_chan, event, segs, nr_segs,
				    payload_size, ip);
}
