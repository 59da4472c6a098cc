/*
 * threadbuf.c - per-thread buffers: claiming one, switching packets,
 * blocking, and handing the buffer back when the thread exits.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The hot path is in threadbuf.h.  Here are the slow paths, each taken
 * once per thread, per packet, or per full buffer:
 *
 * - A thread's first record claims a buffer (ust__tb_claim()): a FREE region
 *   of the thread area (I15), or a new one appended at its end, the
 *   memfd grown and the region published by count (I14).  Every signal
 *   is blocked meanwhile, and a process-local spin lock guards the
 *   append, so a signal handler may claim too.  The region gets the
 *   thread's id, a stream instance id unique in the process, packet 0,
 *   and then OWNED (release).  A pthread key's destructor hands it back
 *   when the thread exits.
 * - A record that does not fit closes the packet (I5), records its
 *   number of records (I17) and opens the next, sequence number first
 *   (I8); in discard mode only into a consumed sub-buffer (I6), waiting
 *   for one in blocking mode (I16).
 * - At thread exit: the open packet's count, then EXITED (release).  The
 *   consumer writes what is left and frees the region for another thread.
 *
 * Nothing here allocates with malloc: the index of the regions is an
 * anonymous mapping grown with mremap, so a signal handler can claim.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "functions.h"
#include "threadbuf.h"

__thread struct ust_tb_thread ust__tls_tb
	__attribute__((tls_model("initial-exec"), aligned(64)));

#define TB_MAPS_MIN		64u

static pthread_key_t tb_exit_key;
static pthread_once_t tb_key_once = PTHREAD_ONCE_INIT;
static int tb_key_ok;

/*
 * I15: one of the owner's counters.  A single `incq` without LOCK: no
 * signal handler of this thread can run between its load and store, and
 * no other thread writes the counter.
 */
static inline void tb_count(uint64_t *counter)
{
	__asm__ __volatile__("incq %0" : "+m"(*counter));
}

/* The slot of sub-buffer position `pos`. */
static inline uint32_t tb_slot(const struct ust_tb_writer *w, uint64_t pos)
{
	return (uint32_t)((pos & w->mask) / w->subbuf_size);
}

static void tb_spin_lock(int *lock)
{
	/* Acquire: the holder's index updates are seen by the next holder. */
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void tb_spin_unlock(int *lock)
{
	/* Release: partner of the exchange above. */
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Grow the index of mapped regions to hold `need` entries. */
static int tb_maps_reserve(struct ust_threads *th, uint32_t need)
{
	uint32_t cap = th->cap ? th->cap : TB_MAPS_MIN;
	void *p;

	if (need <= th->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (th->maps)
		p = mremap(th->maps, th->cap * sizeof(*th->maps),
			   cap * sizeof(*th->maps), MREMAP_MAYMOVE);
	else
		p = mmap(NULL, cap * sizeof(*th->maps), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	th->maps = p;
	th->cap = cap;
	return 0;
}

/*
 * Append region th->nr: grow the memfd to hold it, map it, mark it
 * CLAIMED (ours), publish the new count (I14).  Under the lock.
 */
static int tb_append(struct ust_session *s)
{
	struct ust_threads *th = &s->threads;
	uint64_t off = th->offset + (uint64_t)th->nr * th->region_size;
	uint64_t end = off + th->region_size;
	uint8_t *p;

	if (s->shm_fd < 0 || tb_maps_reserve(th, th->nr + 1))
		return -1;
	if (end > th->file_size) {
		if (ftruncate(s->shm_fd, (off_t)end))
			return -1;
		th->file_size = end;
	}
	p = mmap(NULL, th->region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 s->shm_fd, (off_t)off);
	if (p == MAP_FAILED)
		return -1;
	/* Fresh memory is FREE (0); nobody else can see it before I14. */
	((struct ust_shm_tbuf *)p)->state = UST_TBUF_CLAIMED;
	th->maps[th->nr].ctl = (struct ust_shm_tbuf *)p;
	th->maps[th->nr].ring = p + UST_TBUF_CTL_SIZE;
	th->nr++;
	/*
	 * I14, release: the region's file space and its CLAIMED state before
	 * the count.  Partner: the consumer's acquire load of the count.
	 */
	__atomic_store_n(&s->hdr->threads_published, (uint64_t)th->nr,
			 __ATOMIC_RELEASE);
	return (int)(th->nr - 1);
}

/* A FREE region, taken (CLAIMED); -1 when there is none.  Under the lock. */
static int tb_take_free(struct ust_threads *th)
{
	uint32_t i, k;

	for (k = 0; k < th->nr; k++) {
		struct ust_shm_tbuf *ctl;
		uint32_t expect = UST_TBUF_FREE;

		i = (th->hint + k) % th->nr;
		ctl = th->maps[i].ctl;
		/*
		 * I15, acquire: partner of the consumer's release of FREE,
		 * so its last reads of the region come before our writes.
		 * Relaxed on failure: the region is someone else's.
		 */
		if (__atomic_load_n(&ctl->state, __ATOMIC_RELAXED) == UST_TBUF_FREE &&
		    __atomic_compare_exchange_n(&ctl->state, &expect,
						UST_TBUF_CLAIMED, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			th->hint = i + 1;
			return (int)i;
		}
	}
	return -1;
}

/*
 * Set claimed region `m` (a copy of its index entry) up for the calling
 * thread and writer `w`, then hand it to the consumer as OWNED (I15).
 */
static void tb_setup(struct ust_session *s, struct ust_channel *ch,
		     struct ust_tb_writer *w, const struct ust_tbuf_map *m,
		     uint32_t role, uint64_t instance)
{
	struct ust_shm_tbuf *ctl = m->ctl;
	uint64_t now = ust__clock_read(s->clock_kind);
	int32_t tid = ust__thread_tid();

	ctl->tid = tid;
	ctl->instance = instance;
	ctl->role = role;
	ctl->buf.lost_full = 0;
	ctl->buf.lost_big = 0;
	ctl->lost_nested = 0;
	memset(ctl->filtered, 0, sizeof(ctl->filtered));
	ust__packet_header_fill((struct ust_packet_header *)m->ring, s, ch,
				instance, (uint32_t)tid, 0, now);
	w->ring = m->ring;
	w->ctl = ctl;
	w->mask = ch->buf_size - 1;
	w->subbuf_size = ch->subbuf_size;
	w->room = ch->subbuf_size;
	w->records = 0;
	w->clock_kind = s->clock_kind;
	w->bare = ch->ctx_size == 0;
	ust__tb_publish(w, sizeof(struct ust_packet_header), now);
	/*
	 * I15, release: the region set up before OWNED.  Partner: the
	 * consumer's acquire load of `state`.
	 */
	__atomic_store_n(&ctl->state, UST_TBUF_OWNED, __ATOMIC_RELEASE);
}

/* Hand writer `w`'s buffer back (I15, I17): at thread exit. */
static void tb_release(struct ust_tb_writer *w)
{
	if (!w->ring)
		return;
	w->ctl->records[tb_slot(w, w->room - w->subbuf_size)] = w->records;
	/*
	 * I15, release: our last commit and the count before EXITED.
	 * Partner: the consumer's acquire load of `state`.
	 */
	__atomic_store_n(&w->ctl->state, UST_TBUF_EXITED, __ATOMIC_RELEASE);
	w->ring = NULL;
}

/*
 * The thread-exit destructor (pthread key): hand back both buffers.  A
 * record written after this (another destructor) claims a new buffer and
 * arms the key again, which glibc honours for a few more rounds.
 */
static void tb_thread_exit(void *arg)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	sigset_t all, old;

	(void)arg;
	ust__func_thread_exit();	/* the function filters' open calls */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	t->quick = 0;
	tb_release(&t->w[UST_TBUF_ROLE_THREAD]);
	tb_release(&t->w[UST_TBUF_ROLE_SIGNAL]);
	t->armed = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void tb_key_create(void)
{
	tb_key_ok = pthread_key_create(&tb_exit_key, tb_thread_exit) == 0;
}

void ust__tb_quick_segs(uint32_t id, const struct ust_seg *segs,
			unsigned int nr_segs, size_t size)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	struct ust_tb_writer *w = &t->w[0];
	uint8_t *rec = w->ring + (w->pos & w->mask);
	uint64_t ts = ust__clock_read(UST_CLOCK_TSC);
	size_t hlen;

	if (ts < w->last_ts)
		ts = w->last_ts;	/* I4 */
	hlen = ust__tb_header_size(id, ts, w->last_ts);
	ust__tb_put_header(rec, id, ts, hlen);
	ust__tb_put_segs(rec + hlen, segs, nr_segs);
	w->records++;
	ust__tb_quick_commit(t, w->pos + hlen + size, ts);
}

void ust__tb_quick_late(uint8_t *rec, uint32_t id, uint64_t ts, size_t size)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	struct ust_tb_writer *w = &t->w[0];
	size_t hlen;

	if (ts < w->last_ts)
		ts = w->last_ts;	/* I4 */
	hlen = ust__tb_header_size(id, ts, w->last_ts);
	/* The payload went after a compact header; the quick path checked
	 * that the record fits with an extended one. */
	if (hlen != UST_EV_COMPACT_SIZE)
		memmove(rec + hlen, rec + UST_EV_COMPACT_SIZE, size);
	ust__tb_put_header(rec, id, ts, hlen);
	ust__tb_quick_commit(t, w->pos + hlen + size, ts);
}

/*
 * Whether the quick paths (threadbuf.h) may write the records of `ch`:
 * the session's default channel, records without context, the TSC.
 */
static uint32_t tb_quick_ok(const struct ust_session *s,
			    const struct ust_channel *ch)
{
	return ch == &s->chan[0] && ch->ctx_size == 0 &&
	       s->clock_kind == UST_CLOCK_TSC;
}

/* Claim a buffer of `role` for the calling thread.  0, or -1. */
int ust__tb_claim(struct ust_session *s, struct ust_channel *ch,
		  struct ust_tb_thread *t, uint32_t role)
{
	struct ust_threads *th = &s->threads;
	struct ust_tbuf_map m;
	uint64_t instance;
	sigset_t all, old;
	int idx;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	tb_spin_lock(&th->lock);
	idx = tb_take_free(th);
	if (idx < 0)
		idx = tb_append(s);
	/*
	 * The entry is copied under the lock: another thread's tb_append()
	 * may move the index (mremap) as soon as we unlock.
	 */
	if (idx >= 0)
		m = th->maps[idx];
	instance = ++th->instances;
	tb_spin_unlock(&th->lock);
	if (idx >= 0) {
		tb_setup(s, ch, &t->w[role], &m, role, instance);
		if (role == UST_TBUF_ROLE_THREAD)
			t->quick = tb_quick_ok(s, ch);
		if (!t->armed && tb_key_ok) {
			/* The destructor runs at exit if the value is not NULL. */
			pthread_setspecific(tb_exit_key, t);
			t->armed = 1;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return idx < 0 ? -1 : 0;
}

uint64_t ust__tb_write_slow(struct ust_session *s, struct ust_channel *ch,
			    struct ust_tb_thread *t, uint32_t level, uint32_t id,
			    const struct ust_seg *segs, unsigned int nr_segs,
			    size_t payload_size, uint64_t ip)
{
	if (level > UST_TBUF_ROLE_SIGNAL) {
		/* I7: a handler inside a handler inside a record. */
		if (t->w[0].ring)
			tb_count(&t->w[0].ctl->lost_nested);
		else
			__atomic_fetch_add(&s->hdr->lost_no_buffer, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (!t->w[level].ring && ust__tb_claim(s, ch, t, level)) {
		/* I7: no buffer (out of memory, or our memfd was closed). */
		__atomic_fetch_add(&s->hdr->lost_no_buffer, 1, __ATOMIC_RELAXED);
		return 0;
	}
	return ust__tb_write(s, ch, &t->w[level], id, segs, nr_segs,
			     payload_size, ip);
}

/*
 * Close the open packet and open the next one at time `ts` (the record's
 * that does not fit: packets end and begin where a reader's clock is).
 * 0: switched; 1: waited for the consumer, look again; -1: refused, the
 * record was counted lost.
 */
static int tb_switch(struct ust_session *s, struct ust_channel *ch,
		     struct ust_tb_writer *w, uint64_t ts)
{
	uint64_t old_start = w->room - w->subbuf_size, new_start = w->room;
	struct ust_shm_tbuf *ctl = w->ctl;
	struct ust_packet_header *ph;
	struct ust_packet_close close;

	if (ch->mode == UST_MODE_DISCARD) {
		/*
		 * I6, acquire: pairs with the consumer's store-release of
		 * `consumed`, so our writes into the next sub-buffer come
		 * after its reads of it.
		 */
		uint64_t consumed = __atomic_load_n(&ctl->buf.consumed,
						    __ATOMIC_ACQUIRE);

		if (new_start + w->subbuf_size - consumed > w->mask + 1) {
			if (ch->blocking &&
			    ust__wait_for_consumer(s, ch, &ctl->buf, consumed) == 0)
				return 1;
			tb_count(&ctl->buf.lost_full);
			return -1;
		}
	}
	if (ts < w->last_ts)
		ts = w->last_ts;	/* I4 */
	/* I5: the old packet's closing fields; I17: its count. */
	close.timestamp_end = ts;
	close.content_size = (w->pos - old_start) * 8;
	close.packet_size = (uint64_t)w->subbuf_size * 8;
	close.events_discarded = ctl->buf.lost_full + ctl->buf.lost_big +
				 ctl->lost_nested;
	memcpy(w->ring + (old_start & w->mask) + UST_PACKET_CLOSE_OFFSET, &close,
	       sizeof(close));
	ctl->records[tb_slot(w, old_start)] = w->records;
	/*
	 * I8: the new packet's sequence number is the first byte of the new
	 * generation to reach the slot (x86 keeps the order of stores; the
	 * volatile store and the barrier keep the compiler's).
	 */
	ph = (struct ust_packet_header *)(w->ring + (new_start & w->mask));
	*(volatile uint64_t *)&ph->packet_seq_num = new_start / w->subbuf_size;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ust__packet_header_fill(ph, s, ch, ctl->instance, (uint32_t)ctl->tid,
				new_start / w->subbuf_size, ts);
	w->room = new_start + w->subbuf_size;
	w->records = 0;
	ust__tb_publish(w, new_start + sizeof(*ph), ts);
	return 0;
}

uint64_t ust__tb_write_switch(struct ust_session *s, struct ust_channel *ch,
			      struct ust_tb_writer *w, uint32_t id, uint64_t ts,
			      const struct ust_seg *segs, unsigned int nr_segs,
			      size_t payload_size, uint64_t ip)
{
	int ret;

	if (payload_size + ch->ctx_size + UST_EV_EXTENDED_SIZE +
	    sizeof(struct ust_packet_header) >= w->subbuf_size) {
		tb_count(&w->ctl->buf.lost_big);	/* I7 */
		return 0;
	}
	while ((ret = tb_switch(s, ch, w, ts)) > 0)
		;
	if (ret < 0)
		return 0;
	/* It fits in the new packet now: the check above made sure. */
	return ust__tb_write_at(s, ch, w, id, ts, segs, nr_segs, payload_size, ip);
}

uint64_t ust__thread_event_write(struct ust_session *s, struct ust_channel *ch,
				 struct ust_event_desc *event,
				 const struct ust_seg *segs, unsigned int nr_segs,
				 size_t payload_size, uint64_t ip)
{
	return ust__tb_event_write(s, ch, event->id, segs, nr_segs,
				   payload_size, ip);
}

/*
 * A new session's thread area, at `offset` of its memfd: empty; its
 * regions come with the threads.
 */
int ust__threads_init(struct ust_session *s, uint64_t offset)
{
	struct ust_threads *th = &s->threads;

	pthread_once(&tb_key_once, tb_key_create);
	th->offset = offset;
	th->region_size = UST_TBUF_REGION_SIZE(s->chan[0].subbuf_size,
					       s->chan[0].buf_size /
					       s->chan[0].subbuf_size);
	th->file_size = s->size;
	return tb_maps_reserve(th, TB_MAPS_MIN);
}

/* Unmap the regions of a session (destroyed, or a fork child's old one). */
void ust__threads_release(struct ust_session *s)
{
	struct ust_threads *th = &s->threads;
	uint32_t i;

	for (i = 0; i < th->nr; i++)
		munmap(th->maps[i].ctl, th->region_size);
	if (th->maps)
		munmap(th->maps, th->cap * sizeof(*th->maps));
	memset(th, 0, sizeof(*th));
}

/* A fork child: this thread's buffers are its parent's; forget them. */
void ust__threads_forget(void)
{
	struct ust_tb_thread *t = &ust__tls_tb;

	t->quick = 0;
	t->w[0].ring = NULL;
	t->w[1].ring = NULL;
	t->nest = 0;
}
