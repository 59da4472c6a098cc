/*
 * drain.c - move whole packets from the ring buffers to the stream files.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reader side of the protocol of abi/shm.h (invariants I1-I8), per buffer:
 *
 *   commit.offset (free-running)   cur = offset / subbuf_size
 *   consumed      (ours)           next sub-buffer to read
 *
 *   sub-buffers [consumed, cur) are closed packets (I5); cur is being
 *   filled.
 *
 * For each closed sub-buffer n: copy it into private memory (I2), check
 * that no writer started reusing its slot meanwhile (overwrite mode, I8),
 * check the copy (packet walk, sequence, cpu, time order: I1), write it
 * to disk with packet_size cut to its content, then publish consumed =
 * n + 1 so a discard-mode writer may reuse the slot (I6).
 *
 * Overwrite mode: if cur - consumed >= subbuf_count the writer lapped
 * us; the sub-buffers it overwrote are counted as dropped and we resume
 * at the oldest one that can still be intact, cur - subbuf_count + 1.
 * The packet_seq_num gap tells the reader how many packets are missing.
 *
 * At the end (the process died, or SIGTERM) the sub-buffer being filled
 * is flushed too: its committed part [start, commit.offset) becomes the
 * last packet, with the closing fields filled in the copy.
 *
 * Flight channels (UST_MODE_FLIGHT) are not drained at all: only
 * snapshots read them (snapshot.c, which shares the copy and checks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "consumer.h"

/*
 * Where the drain of stream `s` starts: the sub-buffer that the last
 * consumer of the buffer released (0 for a process that just started;
 * one started in place of a consumer that died goes on from there), and
 * not before `from` (resume.c: after the last packet on disk), but never
 * past the sub-buffer being filled (I1: the values are untrusted; the
 * drain handles laps).
 */
void cd_stream_start_at(struct consumer *c, struct stream *s, uint64_t from)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = s->buf;
	uint64_t cur, consumed;

	/* I6: the last consumer's store (it is gone, or it is us: relaxed). */
	consumed = __atomic_load_n(&buf->consumed, __ATOMIC_RELAXED) >> ci->subbuf_shift;
	/* I2, acquire, as in the drain. */
	cur = __atomic_load_n(&buf->commit.offset, __ATOMIC_ACQUIRE) >> ci->subbuf_shift;
	if (from > consumed)
		consumed = from;
	s->consumed = consumed <= cur ? consumed : cur;
}

int cd_streams_init(struct consumer *c)
{
	const struct shm_map *m = &c->shm;
	unsigned int ch, cpu, i = 0;
	size_t scratch = 0;

	c->nr_streams = (m->nr_channels - (m->thread_chan >= 0)) * m->nr_cpus;
	c->streams = calloc(c->nr_streams ? c->nr_streams : 1, sizeof(*c->streams));
	if (!c->streams)
		return -ENOMEM;
	for (ch = 0; ch < m->nr_channels; ch++) {
		if (m->chan[ch].subbuf_size > scratch)
			scratch = m->chan[ch].subbuf_size;
		if (m->chan[ch].flags & UST_CHAN_PER_THREAD)
			continue;	/* threads.c */
		for (cpu = 0; cpu < m->nr_cpus; cpu++, i++) {
			struct stream *s = &c->streams[i];

			s->chan = ch;
			s->cpu = cpu;
			s->fd = -1;
			s->buf = shm_buf(m, ch, cpu);
			s->data = shm_slot(m, ch, cpu, 0);
			s->instance = cpu;
			s->cpu_slot = cpu;
			snprintf(s->name, sizeof(s->name), "%s_%u", m->chan[ch].name, cpu);
			cd_stream_start_at(c, s, 0);
		}
	}
	c->scratch = malloc(scratch);
	c->scratch_size = scratch;
	return c->scratch ? 0 : -ENOMEM;
}

/* Sub-buffer `n` of stream `s`'s ring. */
const uint8_t *cd_stream_slot(const struct consumer *c, const struct stream *s,
			      uint64_t n)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];

	return s->data + ((n & (ci->subbuf_count - 1)) << ci->subbuf_shift);
}

/* Close the stream files and free what cd_streams_init() allocated. */
void cd_streams_release(struct consumer *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++) {
		if (c->streams[i].fd >= 0)
			close(c->streams[i].fd);
	}
	free(c->streams);
	c->streams = NULL;
	c->nr_streams = 0;
	free(c->scratch);
	c->scratch = NULL;
}

/*
 * Sum of the last events_discarded of every stream: the records the
 * writers counted lost (records of packets not written are counted
 * apart, in stats.events_unwritten).
 */
uint64_t cd_streams_lost(const struct consumer *c)
{
	uint64_t lost = 0;
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++)
		lost += c->streams[i].last_discarded;
	return lost + cd_threads_lost(c);
}

/* A packet that failed its checks: counted, and reported a few times. */
static void packet_corrupt(struct consumer *c, struct stream *s, uint64_t n,
			   const char *why)
{
	s->nr_corrupt++;
	c->stats.packets_dropped++;
	if (s->nr_corrupt <= CORRUPT_REPORT_MAX)
		fprintf(stderr, CONSUMER_NAME ": %s: corrupt packet %" PRIu64 " skipped: %s\n",
			s->name, n, why);
	if (s->nr_corrupt == CORRUPT_REPORT_MAX)
		fprintf(stderr, CONSUMER_NAME ": %s: further corrupt packets are counted, not reported\n",
			s->name);
}

/* The control block is unusable: stop reading this buffer for good. */
static void stream_break(struct stream *s, const char *why)
{
	s->broken = true;
	fprintf(stderr, CONSUMER_NAME ": %s: %s; buffer no longer read\n", s->name, why);
}

static uint64_t commit_offset_load(const struct ust_shm_buf *buf)
{
	/*
	 * I2, acquire: every byte below the offset we see (records, and the
	 * packet headers of closed sub-buffers) is visible to our later
	 * copy.  Pairs with the writer's 16-byte store that ends its rseq
	 * critical section after the record stores (libust/rseq-commit.h).
	 */
	return __atomic_load_n(&buf->commit.offset, __ATOMIC_ACQUIRE);
}

static void consumed_publish(const struct consumer *c, struct stream *s)
{
	struct ust_shm_buf *buf = s->buf;

	/*
	 * I6, release: our copy of the sub-buffers below `consumed` is complete
	 * before a writer may reuse their slots.  Pairs with the load of
	 * `consumed` by a discard-mode writer before it enters a sub-buffer.
	 */
	__atomic_store_n(&buf->consumed,
			 s->consumed << c->shm.chan[s->chan].subbuf_shift,
			 __ATOMIC_RELEASE);
	/*
	 * I16: the full fence orders the store above before the load of
	 * `waiters`; partner: a blocked writer's add to `waiters` before its
	 * own look at `consumed` (libust/wake.c).  I1: any value is harmless,
	 * a wake-up nobody waits for costs one system call.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&buf->waiters, __ATOMIC_RELAXED))
		(void)syscall(SYS_futex, (uint32_t *)&buf->consumed, FUTEX_WAKE,
			      INT32_MAX, NULL, NULL, 0);
}

/*
 * Copy sub-buffer `n` into the scratch buffer: the header, then as much
 * content as its (still untrusted) content_size claims, within the
 * sub-buffer.  Returns the bytes copied.
 */
size_t cd_packet_copy(struct consumer *c, const struct chan_info *ci,
			  const uint8_t *slot)
{
	uint64_t bits;
	size_t len = UST_PACKET_HEADER_SIZE;

	memcpy(c->scratch, slot, UST_PACKET_HEADER_SIZE);
	bits = ctf_get_le64(c->scratch + UST_PACKET_OFF(content_size));
	if (bits % 8 == 0 && bits / 8 >= UST_PACKET_HEADER_SIZE && bits / 8 <= ci->subbuf_size)
		len = (size_t)(bits / 8);
	memcpy(c->scratch + UST_PACKET_HEADER_SIZE, slot + UST_PACKET_HEADER_SIZE, len - UST_PACKET_HEADER_SIZE);
	return len;
}

/*
 * After copying sub-buffer `n` from `slot`: may a writer have written
 * the slot's next generation, n + subbuf_count, during the copy?
 *
 * A writer enters n + count only from n + count - 1, and in the same
 * restartable sequence writes the new packet header into the slot before
 * it publishes an offset inside n + count.  So, with the offset read
 * after the copy: below n + count - 1, the copy is clean; at n + count
 * or beyond, it is torn; in n + count - 1, a switch may be under way,
 * or may have been cut short (an rseq abort leaves its stores behind
 * until the writer retries), and the slot's header must still be the
 * one we copied.  That last check is exact when the writer stores the
 * new packet_seq_num before any other byte of the new generation (x86
 * stores are seen in order); otherwise the packet checks catch most of
 * what it misses, and a racy copy that fails them is counted as
 * overwritten, not corrupt.
 */
enum copy_state cd_packet_copy_state(const struct consumer *c,
				  const struct stream *s, uint64_t n,
				  const uint8_t *slot)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = s->buf;
	uint64_t cur;

	/*
	 * I8, acquire fence: the loads of the copy are done before the loads
	 * below (seqlock-style read).  Pairs with the writer's store of
	 * commit.offset, which follows its stores into the slot.
	 */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	cur = __atomic_load_n(&buf->commit.offset, __ATOMIC_RELAXED) >> ci->subbuf_shift;
	if (cur >= n + ci->subbuf_count)
		return COPY_TORN;
	/* In discard mode no writer enters a slot before it is consumed. */
	if (ci->mode == UST_MODE_DISCARD || cur + 1 < n + ci->subbuf_count)
		return COPY_CLEAN;
	if (memcmp(slot, c->scratch, UST_PACKET_HEADER_SIZE))
		return COPY_TORN;
	return COPY_RACY;
}

/* Checks across packets of the stream that the walk cannot make. */
const char *cd_packet_sequence_check(const struct stream *s, uint64_t n,
				  const uint8_t *pkt, char *why, size_t len)
{
	uint64_t seq = ctf_get_le64(pkt + UST_PACKET_OFF(packet_seq_num));
	uint64_t inst = ctf_get_le64(pkt + UST_PACKET_OFF(stream_instance_id));
	uint32_t cpu = ctf_get_le32(pkt + UST_PACKET_OFF(cpu_id));
	uint64_t begin = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
	uint64_t lost = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));

	if (seq != n)
		snprintf(why, len, "packet_seq_num %" PRIu64 " in sub-buffer %" PRIu64, seq, n);
	else if (inst != s->instance || cpu != s->cpu_slot)
		snprintf(why, len, "packet of stream %" PRIu64 "/%u in the buffer of %" PRIu64 "/%u",
			 inst, cpu, s->instance, s->cpu_slot);
	else if (s->have_last && begin < s->last_ts_end)
		snprintf(why, len, "timestamp_begin %" PRIu64 " before the previous packet's end %" PRIu64,
			 begin, s->last_ts_end);
	else if (s->have_last && lost < s->last_discarded)
		snprintf(why, len, "events_discarded %" PRIu64 " below the previous %" PRIu64,
			 lost, s->last_discarded);
	else
		return NULL;
	return why;
}

/*
 * A packet failed its checks: corrupt, or, when a writer may have been
 * switching into its slot while we copied it, overwritten.
 */
static void packet_reject(struct consumer *c, struct stream *s, uint64_t n,
			  enum copy_state state, const char *why)
{
	if (state == COPY_RACY) {
		c->stats.packets_dropped++;
	} else {
		packet_corrupt(c, s, n, why);
		c->distrust = true;
	}
}

/*
 * The checks of the packet copied to the scratch buffer (`len` bytes, its
 * closing fields set); on disk a packet ends with its content, no
 * padding.  0, or -1 with the reason in `why` (res.error or the sequence).
 */
static int packet_check(struct consumer *c, struct stream *s, uint64_t n, size_t len,
			int64_t counted, struct ust_walk_result *res, char *why,
			size_t whylen)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	uint8_t *pkt = c->scratch;
	uint64_t content;

	content = ctf_get_le64(pkt + UST_PACKET_OFF(content_size));
	ctf_put_le64(pkt + UST_PACKET_OFF(packet_size), (content + 7) & ~7ull);
	/*
	 * I17: a count the writer published, plausible for the header's
	 * sizes, spares the walk; a damaged packet is walked.
	 */
	if (counted < 0 || shm_packet_counted(pkt, len, c->shm.uuid, ci->stream_id,
					      (uint64_t)counted, res)) {
		c->distrust |= counted >= 0;
		if (shm_packet_walk(pkt, len, c->shm.uuid, ci->stream_id, &ci->table,
				    NULL, NULL, res)) {
			snprintf(why, whylen, "%s", res->error);
			return -1;
		}
	}
	return cd_packet_sequence_check(s, n, pkt, why, whylen) ? -1 : 0;
}

/*
 * Check the packet copied to the scratch buffer (`len` bytes, its
 * closing fields set) and write it.  `final`: the stream's last packet,
 * dropped when it adds nothing (no record, no new loss).
 */
static void packet_process(struct consumer *c, struct stream *s, uint64_t n,
			   size_t len, int64_t counted, enum copy_state state,
			   bool final)
{
	struct ust_walk_result res;
	uint8_t *pkt = c->scratch;
	uint64_t content, lost;
	char why[160];

	if (packet_check(c, s, n, len, counted, &res, why, sizeof(why))) {
		packet_reject(c, s, n, state, why);
		return;
	}
	content = ctf_get_le64(pkt + UST_PACKET_OFF(content_size));
	lost = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	if (final && res.nr_records == 0 && lost == s->last_discarded)
		return;
	cd_output_packet(c, s, n, pkt, (size_t)(content / 8), res.nr_records, false);
	if (!s->have_last) {
		s->first_ts = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
		s->first_seq = n;
	}
	s->have_last = true;
	s->last_ts_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	s->last_discarded = lost;
	s->last_seq = n;
}

/*
 * The record count the writer published for the packet of sub-buffer `n`
 * of a thread buffer (I17), read before the copy is judged; -1 for a
 * per-CPU buffer (its packets are walked).  I1: checked by packet_check().
 */
static int64_t packet_count(const struct consumer *c, const struct stream *s,
			    uint64_t n)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];

	if (!s->tbuf || c->distrust)
		return -1;
	/* I17: after the acquire load of the offset (or state) that showed it. */
	return __atomic_load_n(&s->tbuf->records[n & (ci->subbuf_count - 1)],
			       __ATOMIC_RELAXED);
}

/* Read closed sub-buffer `s->consumed`, then release it. */
static void subbuf_consume(struct consumer *c, struct stream *s)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const uint8_t *slot = cd_stream_slot(c, s, s->consumed);
	int64_t counted = packet_count(c, s, s->consumed);
	enum copy_state state;
	size_t len;

	len = cd_packet_copy(c, ci, slot);
	state = cd_packet_copy_state(c, s, s->consumed, slot);
	if (state == COPY_TORN)
		c->stats.packets_dropped++;
	else
		packet_process(c, s, s->consumed, len, counted, state, false);
	s->consumed++;
	consumed_publish(c, s);
}

/* The writer lapped us: resume at `oldest`, the others are lost. */
static void stream_skip_lapped(struct consumer *c, struct stream *s, uint64_t oldest)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];

	if (ci->mode == UST_MODE_DISCARD && !s->overrun_reported) {
		fprintf(stderr, CONSUMER_NAME ": %s: writer overran unread packets in discard mode\n",
			s->name);
		s->overrun_reported = true;
	}
	c->stats.packets_dropped += oldest - s->consumed;
	s->consumed = oldest;
	consumed_publish(c, s);
}

/* The records a buffer refused (I7), as its packets count them. */
static uint64_t stream_lost(const struct stream *s)
{
	/* I7: relaxed, like the increments. */
	uint64_t lost = __atomic_load_n(&s->buf->lost_full, __ATOMIC_RELAXED) +
			__atomic_load_n(&s->buf->lost_big, __ATOMIC_RELAXED);

	if (s->tbuf)
		lost += __atomic_load_n(&s->tbuf->lost_nested, __ATOMIC_RELAXED);
	return lost;
}

/*
 * Flush the sub-buffer being filled as the stream's last packet:
 * [start, commit.offset), closed in the copy with the writer's last
 * timestamp and the buffer's lost counts.  `counted`: its thread handed
 * it back with the packet's record count (I17); else its records are
 * walked (its process is gone: crash recovery).
 */
static void stream_flush_partial(struct consumer *c, struct stream *s, bool counted)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = s->buf;
	uint64_t off, n, used, last_ts, lost;
	enum copy_state state;
	const uint8_t *slot;

	off = commit_offset_load(buf);
	n = off >> ci->subbuf_shift;
	used = off & (ci->subbuf_size - 1);
	if (used == 0 || n < s->consumed)
		return;
	if (used < UST_PACKET_HEADER_SIZE) {
		packet_corrupt(c, s, n, "last packet shorter than its header");
		return;
	}
	/*
	 * I2: ordered after the offset by its acquire load, like the
	 * records; I7: the loss counters, relaxed like their increments.
	 */
	last_ts = __atomic_load_n(&buf->commit.last_ts, __ATOMIC_RELAXED);
	lost = stream_lost(s);
	slot = cd_stream_slot(c, s, n);
	memcpy(c->scratch, slot, used);
	state = cd_packet_copy_state(c, s, n, slot);
	if (state == COPY_TORN) {
		c->stats.packets_dropped++;
		return;
	}
	ctf_put_le64(c->scratch + UST_PACKET_OFF(timestamp_end), last_ts);
	ctf_put_le64(c->scratch + UST_PACKET_OFF(content_size), used * 8);
	ctf_put_le64(c->scratch + UST_PACKET_OFF(events_discarded), lost);
	packet_process(c, s, n, used, counted ? packet_count(c, s, n) : -1,
		       state, true);
	s->consumed = n + 1;
}

/* The last packet of a thread buffer its thread handed back (I15, I17). */
void cd_stream_flush_counted(struct consumer *c, struct stream *s)
{
	stream_flush_partial(c, s, true);
}

/*
 * Live (a relay sink with a live timer): hand the committed part of the
 * sub-buffer being filled to the output as it is now, closed in the copy
 * (timestamp_end = the writer's last_ts), without consuming anything: the
 * writer keeps filling it, and relay.c sends only what is new.  Nothing
 * is counted here: a copy that fails its checks is read again, and judged,
 * once its sub-buffer is closed.  Only when every closed sub-buffer was
 * drained (n == consumed), so that pieces go in order.
 */
static void stream_flush_live(struct consumer *c, struct stream *s)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = s->buf;
	struct ust_walk_result res;
	uint64_t off, n, used;
	const uint8_t *slot;
	char why[160];

	off = commit_offset_load(buf);
	n = off >> ci->subbuf_shift;
	used = off & (ci->subbuf_size - 1);
	if (n != s->consumed || used < UST_PACKET_HEADER_SIZE)
		return;
	slot = cd_stream_slot(c, s, n);
	memcpy(c->scratch, slot, used);
	if (cd_packet_copy_state(c, s, n, slot) == COPY_TORN)
		return;
	/* I2: after the offset's acquire load, like the records. */
	ctf_put_le64(c->scratch + UST_PACKET_OFF(timestamp_end),
		     __atomic_load_n(&buf->commit.last_ts, __ATOMIC_RELAXED));
	ctf_put_le64(c->scratch + UST_PACKET_OFF(content_size), used * 8);
	ctf_put_le64(c->scratch + UST_PACKET_OFF(events_discarded), s->last_discarded);
	if (packet_check(c, s, n, used, -1, &res, why, sizeof(why)))
		return;
	cd_output_packet(c, s, n, c->scratch, used, res.nr_records, true);
}

void cd_drain_live(struct consumer *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++) {
		struct stream *s = &c->streams[i];

		if (!s->broken && c->shm.chan[s->chan].mode != UST_MODE_FLIGHT)
			stream_flush_live(c, s);
	}
}

/*
 * Drain the closed sub-buffers of one buffer; at most one buffer's
 * worth per call, so that a busy buffer cannot starve the others.
 */
void cd_stream_drain(struct consumer *c, struct stream *s, bool final)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = s->buf;
	uint64_t cur, budget = ci->subbuf_count;

	for (;;) {
		cur = commit_offset_load(buf) >> ci->subbuf_shift;
		/*
		 * After the offset load: libust logs an event class (store-
		 * release of meta_used) before it enables the event, so this
		 * sees every class the records below the offset use.
		 */
		cd_metadata_update(c);
		if (cur < s->consumed) {
			stream_break(s, "commit offset went backwards");
			return;
		}
		if (cur - s->consumed >= ci->subbuf_count)
			stream_skip_lapped(c, s, cur - ci->subbuf_count + 1);
		if (s->consumed == cur || budget-- == 0)
			break;
		subbuf_consume(c, s);
	}
	if (final)
		stream_flush_partial(c, s, false);
}

void cd_drain_all(struct consumer *c, bool final)
{
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++) {
		struct stream *s = &c->streams[i];

		/* A flight channel is not streamed: only snapshots read it. */
		if (!s->broken && c->shm.chan[s->chan].mode != UST_MODE_FLIGHT)
			cd_stream_drain(c, s, final);
	}
	cd_threads_drain(c, final);

	if (!final)
		return;
	cd_reserve_close_streams(c);
	for (i = 0; i < c->nr_streams; i++) {
		struct stream *s = &c->streams[i];

		if (s->nr_corrupt > CORRUPT_REPORT_MAX)
			fprintf(stderr, CONSUMER_NAME ": %s: %" PRIu64 " corrupt packets skipped in all\n",
				s->name, s->nr_corrupt);
	}
}
