/*
 * outq.h - a bounded queue of messages waiting for a socket.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The consumer must never wait for the network: what a socket does not
 * take at once waits here, and a message that does not fit is refused
 * (the caller keeps it or counts it).  The queue keeps message
 * boundaries, so that when the connection breaks, the messages no byte
 * of which left can be handed back (ust_outq_each_unsent()).
 */
#ifndef UST_NET_OUTQ_H
#define UST_NET_OUTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* One queued message. */
struct ust_outq_msg {
	uint64_t tag;		/* the caller's: e.g. a stream and a sequence number */
	uint64_t tag2;
	size_t len;		/* bytes still to send */
	bool partly_sent;	/* some of its bytes left already */
};

struct ust_outq {
	uint8_t *buf;		/* pending bytes are buf[head, tail) */
	size_t head, tail, cap;
	size_t bound;		/* refuse beyond this many pending bytes... */
	struct ust_outq_msg *msgs;	/* ...unless the queue is empty */
	size_t first, nr, msgs_cap;	/* msgs[first, first + nr) */
};

void ust_outq_init(struct ust_outq *q, size_t bound);
void ust_outq_release(struct ust_outq *q);

static inline bool ust_outq_empty(const struct ust_outq *q)
{
	return q->nr == 0;
}

static inline size_t ust_outq_bytes(const struct ust_outq *q)
{
	return q->tail - q->head;
}

/* Would a message of `len` bytes be taken now? */
bool ust_outq_fits(const struct ust_outq *q, size_t len);

/*
 * Queue a message (the concatenation of iov): 0, or -ENOBUFS when it
 * does not fit (nothing queued), -ENOMEM.  When the queue is empty the
 * socket `fd` is tried first, so that the usual case copies nothing;
 * fd < 0 only queues.  Returns the socket's error (negative, see
 * net/sock.h) if the attempt found the connection broken.
 */
int ust_outq_push(struct ust_outq *q, int fd, uint64_t tag, uint64_t tag2,
		  const struct iovec *iov, int iovcnt);

/*
 * Send what the socket takes now.  `sent` (may be NULL) is called for
 * each message whose last byte left.  0, or a negative socket error.
 */
int ust_outq_write(struct ust_outq *q, int fd,
		   void (*sent)(void *arg, const struct ust_outq_msg *m), void *arg);

/*
 * After a failure: call `fn` for each message, oldest first, with its
 * unsent bytes (all of them unless m->partly_sent).  Then empties q.
 */
void ust_outq_each_unsent(struct ust_outq *q,
			  void (*fn)(void *arg, const struct ust_outq_msg *m, const uint8_t *bytes),
			  void *arg);

#endif /* UST_NET_OUTQ_H */
