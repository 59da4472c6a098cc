/*
 * sock.h - TCP sockets with deadlines: nothing here waits longer than
 * it is told.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every socket is non-blocking.  The "_all" calls poll until their
 * deadline (a CLOCK_MONOTONIC time in ms, from ust_net_deadline()); the
 * "_some" calls never wait.  Errors are negative errno values, with two
 * of our own meaning:
 *	-ETIMEDOUT	the deadline passed;
 *	-ESHUTDOWN	the peer closed the connection (EOF, EPIPE, ECONNRESET).
 */
#ifndef UST_NET_SOCK_H
#define UST_NET_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

int64_t ust_net_now_ms(void);

/* now + timeout_ms (a negative timeout counts as 0). */
int64_t ust_net_deadline(int timeout_ms);

/* Milliseconds left before `deadline`, at least 0. */
int ust_net_left_ms(int64_t deadline);

/*
 * Connect to HOST:PORT, HOST being a name or an address of `family`
 * (AF_INET or AF_INET6), within `timeout_ms`.  Returns a non-blocking,
 * close-on-exec socket, or -1 with the reason in err ("Connection
 * refused", "timed out after 2000 ms", "cannot resolve 'x': ...").
 */
int ust_net_connect(const char *host, int family, uint16_t port, int timeout_ms,
		    char *err, size_t errlen);

/* Send everything in `iov` before `deadline`: 0 or a negative error. */
int ust_net_send_all(int fd, const struct iovec *iov, int iovcnt, int64_t deadline);

/* Send what the socket takes now: bytes sent (maybe 0) or a negative error. */
ssize_t ust_net_send_some(int fd, const struct iovec *iov, int iovcnt);

/* Receive exactly `len` bytes before `deadline`: 0 or a negative error. */
int ust_net_recv_all(int fd, void *buf, size_t len, int64_t deadline);

/* Receive what is there now: bytes (maybe 0) or a negative error. */
ssize_t ust_net_recv_some(int fd, void *buf, size_t len);

/* Wait until `fd` is readable (or writable) or the deadline: 1, 0, <0. */
int ust_net_wait(int fd, bool for_write, int64_t deadline);

/* Words for a negative error of the calls above. */
const char *ust_net_strerror(int neg_err);

#endif /* UST_NET_SOCK_H */
