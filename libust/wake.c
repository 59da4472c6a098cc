/*
 * wake.c - blocking mode: a writer that finds its buffer full waits for
 * the consumer, and the two wake each other up (abi/shm.h, I16).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Only the full-buffer path of blocking mode comes here, for per-CPU
 * buffers (ringbuf.c) and per-thread buffers (threadbuf.c) alike; the
 * hot path never does, and never reads CLOCK_MONOTONIC.  A writer that
 * finds no free sub-buffer rings the consumer's eventfd (so the consumer
 * drains now instead of at its next timer tick), then sleeps on the
 * buffer's `consumed` word with FUTEX_WAIT until the consumer moves it
 * (the consumer's FUTEX_WAKE, consumer/drain.c) or a nap of at most
 * WAKE_NAP_NS passes.  The futex is a shared one (no FUTEX_PRIVATE_FLAG):
 * the word is in the memfd both processes map.
 *
 * A consumer that frees nothing for WAKE_TIMEOUT_NS of real time (dead,
 * or stopped) stalls the channel.  The deadline is the channel's: the
 * first writer that waits sets it, the others (other CPUs, other
 * threads) share it, so the program waits that long once, not once per
 * buffer.  The writer that reaches it marks the channel stalled with the
 * buffer and position it waited on; records are then refused at once and
 * counted (I7), as in discard mode, until that buffer's `consumed` moves:
 * the consumer is back.  A switch into free room elsewhere does not clear
 * the stall, since it says nothing about the consumer.
 *
 * Every call here is async-signal-safe: signal handlers may block too.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "session.h"

#define WAKE_TIMEOUT_NS		2000000000ull
#define WAKE_NAP_NS		1000000ull	/* one futex wait, at most */

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void consumer_ring(const struct ust_session *s)
{
	uint64_t one = 1;

	/*
	 * The eventfd is non-blocking: a counter already at its maximum
	 * (EAGAIN) means the consumer has plenty of reasons to wake.
	 */
	if (s->wake_fd >= 0 && write(s->wake_fd, &one, sizeof(one)) < 0)
		(void)errno;
}

/*
 * Sleep while the low 32 bits of `buf->consumed` are those of
 * `consumed`, at most `timeout_ns`.  The caller re-reads `consumed`
 * afterwards whatever happened (woken, timed out, interrupted, or the
 * word had already changed).
 */
static void consumed_wait(struct ust_shm_buf *buf, uint64_t consumed,
			  uint64_t timeout_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(timeout_ns / 1000000000ull),
		.tv_nsec = (long)(timeout_ns % 1000000000ull),
	};
	/* Little endian: the futex word is the low half of `consumed`. */
	uint32_t *word = (uint32_t *)&buf->consumed;

	/*
	 * I16: count ourselves in, then look again (seq_cst: the load below
	 * is not done before the add is visible; partner: the consumer's
	 * release of `consumed`, its full fence, then its load of
	 * `waiters`).  If the consumer moved `consumed` after our caller's
	 * load, either we see it here or FUTEX_WAIT returns EAGAIN: the
	 * kernel compares the word under its own lock.
	 */
	__atomic_fetch_add(&buf->waiters, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&buf->consumed, __ATOMIC_SEQ_CST) == consumed)
		(void)syscall(SYS_futex, word, FUTEX_WAIT, (uint32_t)consumed,
			      &ts, NULL, 0);
	/* Relaxed: only a count of sleepers; the next wait adds again. */
	__atomic_fetch_sub(&buf->waiters, 1, __ATOMIC_RELAXED);
}

/*
 * Whether the channel is stalled: marked, and the marked buffer's
 * `consumed` has not moved since.  Clears the mark when it has.  Relaxed
 * on the process-local words (hints shared by the writers): a writer
 * that reads the buffer of one stall with the position of another only
 * waits once more, or refuses one record more.
 */
static bool channel_stalled(struct ust_channel *ch)
{
	uint64_t mark = __atomic_load_n(&ch->stall_mark, __ATOMIC_RELAXED);
	struct ust_shm_buf *buf = __atomic_load_n(&ch->stall_buf, __ATOMIC_RELAXED);

	if (!mark || !buf)
		return false;
	/* I6, acquire: as in the switch; partner: the consumer's release. */
	if (__atomic_load_n(&buf->consumed, __ATOMIC_ACQUIRE) + 1 == mark)
		return true;
	__atomic_compare_exchange_n(&ch->stall_mark, &mark, 0, 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return false;
}

/* The channel's deadline: the current wait's, or a new one from `now`. */
static uint64_t channel_deadline(struct ust_channel *ch, uint64_t now)
{
	uint64_t d = __atomic_load_n(&ch->wait_deadline, __ATOMIC_RELAXED);
	uint64_t mine = now + WAKE_TIMEOUT_NS;

	/* None, or a past one nobody cleared (a waiter that was cancelled). */
	if (d && d > now)
		return d;
	/* On failure `d` gets the deadline another waiter just set. */
	if (__atomic_compare_exchange_n(&ch->wait_deadline, &d, mine, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return mine;
	return d;
}

int ust__wait_for_consumer(const struct ust_session *s, struct ust_channel *ch,
			   struct ust_shm_buf *buf, uint64_t consumed)
{
	uint64_t deadline, now;
	int ret = -1;

	if (channel_stalled(ch))
		return -1;
	consumer_ring(s);
	deadline = channel_deadline(ch, monotonic_ns());
	for (;;) {
		/* I6, acquire: as in the switch; partner: the consumer's release. */
		if (__atomic_load_n(&buf->consumed, __ATOMIC_ACQUIRE) != consumed) {
			ret = 0;
			break;
		}
		/* Another writer reached the shared deadline first. */
		if (__atomic_load_n(&ch->stall_mark, __ATOMIC_RELAXED))
			return -1;
		now = monotonic_ns();
		if (now >= deadline) {
			__atomic_store_n(&ch->stall_buf, buf, __ATOMIC_RELAXED);
			__atomic_store_n(&ch->stall_mark, consumed + 1, __ATOMIC_RELAXED);
			break;
		}
		consumed_wait(buf, consumed, deadline - now < WAKE_NAP_NS ?
			      deadline - now : WAKE_NAP_NS);
	}
	/* This wait is over: the next one starts a new deadline. */
	__atomic_compare_exchange_n(&ch->wait_deadline, &deadline, 0, 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return ret;
}
