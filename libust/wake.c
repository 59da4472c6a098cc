/*
 * wake.c - a blocked writer and its consumer wake each other up
 * (abi/shm.h, I16).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Only the full-buffer path of blocking mode comes here; the hot path
 * never does.  A writer that finds no free sub-buffer rings the
 * consumer's eventfd (so the consumer drains now instead of at its next
 * timer tick), then sleeps on the buffer's `consumed` word with
 * FUTEX_WAIT until the consumer moves it (the consumer's FUTEX_WAKE, see
 * consumer/drain.c) or the timeout passes.  The futex is a shared one
 * (no FUTEX_PRIVATE_FLAG): the word is in the memfd both processes map.
 * Every call here is async-signal-safe.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "session.h"

void ust__consumer_ring(const struct ust_session *s)
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
void ust__consumed_wait(struct ust_shm_buf *buf, uint64_t consumed,
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
