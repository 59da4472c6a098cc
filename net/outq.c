/*
 * outq.c - bounded message queue in front of a socket (net/outq.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/fifo.h"
#include "net/outq.h"
#include "net/sock.h"

void ust_outq_init(struct ust_outq *q, size_t bound)
{
	*q = (struct ust_outq){ .bound = bound };
}

void ust_outq_release(struct ust_outq *q)
{
	free(q->buf);
	free(q->msgs);
	ust_outq_init(q, q->bound);
}

bool ust_outq_fits(const struct ust_outq *q, size_t len)
{
	return ust_outq_empty(q) || ust_outq_bytes(q) + len <= q->bound;
}

static size_t iov_total(const struct iovec *iov, int iovcnt)
{
	size_t n = 0;
	int i;

	for (i = 0; i < iovcnt; i++)
		n += iov[i].iov_len;
	return n;
}

/* Room for `len` more bytes at the tail (moving the pending ones down). */
static int bytes_room(struct ust_outq *q, size_t len)
{
	size_t pending = ust_outq_bytes(q), cap;
	uint8_t *p;

	if (q->head && q->cap - q->tail < len) {
		memmove(q->buf, q->buf + q->head, pending);
		q->head = 0;
		q->tail = pending;
	}
	if (q->cap - q->tail >= len)
		return 0;
	cap = q->cap ? q->cap : 65536;
	while (cap - q->tail < len)
		cap *= 2;
	p = realloc(q->buf, cap);
	if (!p)
		return -ENOMEM;
	q->buf = p;
	q->cap = cap;
	return 0;
}

static int msgs_room(struct ust_outq *q)
{
	struct ust_outq_msg *m = ust__fifo_room(q->msgs, sizeof(*m), &q->first, q->nr,
						&q->msgs_cap, 64);

	if (!m)
		return -ENOMEM;
	q->msgs = m;
	return 0;
}

/* Append bytes [skip, total) of the iov as one message. */
static int queue_rest(struct ust_outq *q, uint64_t tag, uint64_t tag2,
		      const struct iovec *iov, int iovcnt, size_t skip)
{
	size_t keep = iov_total(iov, iovcnt) - skip, len, from = skip;
	int i;

	if (bytes_room(q, keep) || msgs_room(q))
		return -ENOMEM;
	for (i = 0; i < iovcnt; i++) {
		len = iov[i].iov_len;
		if (from >= len) {
			from -= len;
			continue;
		}
		memcpy(q->buf + q->tail, (const uint8_t *)iov[i].iov_base + from, len - from);
		q->tail += len - from;
		from = 0;
	}
	q->msgs[q->first + q->nr++] = (struct ust_outq_msg){
		.tag = tag, .tag2 = tag2, .len = keep, .partly_sent = skip > 0,
	};
	return 0;
}

int ust_outq_push(struct ust_outq *q, int fd, uint64_t tag, uint64_t tag2,
		  const struct iovec *iov, int iovcnt)
{
	size_t total = iov_total(iov, iovcnt);
	ssize_t sent = 0;

	if (!ust_outq_fits(q, total))
		return -ENOBUFS;
	if (ust_outq_empty(q) && fd >= 0) {
		sent = ust_net_send_some(fd, iov, iovcnt);
		if (sent < 0)
			return (int)sent;
		if ((size_t)sent == total)
			return 0;
	}
	return queue_rest(q, tag, tag2, iov, iovcnt, (size_t)sent);
}

int ust_outq_write(struct ust_outq *q, int fd,
		   void (*sent)(void *arg, const struct ust_outq_msg *m), void *arg)
{
	struct iovec iov;
	ssize_t n;
	size_t left;

	while (!ust_outq_empty(q)) {
		iov = (struct iovec){ q->buf + q->head, ust_outq_bytes(q) };
		n = ust_net_send_some(fd, &iov, 1);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0;
		q->head += (size_t)n;
		for (left = (size_t)n; left && q->nr; ) {
			struct ust_outq_msg *m = &q->msgs[q->first];

			if (left < m->len) {
				m->len -= left;
				m->partly_sent = true;
				break;
			}
			left -= m->len;
			if (sent)
				sent(arg, m);
			q->first++;
			q->nr--;
		}
	}
	q->head = q->tail = q->first = 0;
	return 0;
}

void ust_outq_each_unsent(struct ust_outq *q,
			  void (*fn)(void *arg, const struct ust_outq_msg *m, const uint8_t *bytes),
			  void *arg)
{
	size_t at = q->head;

	while (q->nr) {
		const struct ust_outq_msg *m = &q->msgs[q->first];

		fn(arg, m, q->buf + at);
		at += m->len;
		q->first++;
		q->nr--;
	}
	q->head = q->tail = q->first = 0;
}
