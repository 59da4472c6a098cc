/*
 * sock.c - TCP sockets with deadlines (net/sock.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "net/sock.h"

int64_t ust_net_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t ust_net_deadline(int timeout_ms)
{
	return ust_net_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
}

int ust_net_left_ms(int64_t deadline)
{
	int64_t left = deadline - ust_net_now_ms();

	return left <= 0 ? 0 : left > 1000000000 ? 1000000000 : (int)left;
}

int ust_net_wait(int fd, bool for_write, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = for_write ? POLLOUT : POLLIN };
	int n;

	do {
		n = poll(&p, 1, ust_net_left_ms(deadline));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n;
}

/* A peer that went away, whatever the call that noticed it. */
static int peer_error(int err)
{
	return err == EPIPE || err == ECONNRESET ? -ESHUTDOWN : -err;
}

const char *ust_net_strerror(int neg_err)
{
	switch (-neg_err) {
	case ETIMEDOUT:
		return "timed out";
	case ESHUTDOWN:
		return "connection closed by the peer";
	default:
		return strerror(-neg_err);
	}
}

/* Finish a non-blocking connect(): 0, or an errno value. */
static int connect_wait(int fd, int64_t deadline)
{
	socklen_t len = sizeof(int);
	int n, soerr = 0;

	n = ust_net_wait(fd, true, deadline);
	if (n < 0)
		return -n;
	if (n == 0)
		return ETIMEDOUT;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
		return errno;
	return soerr;
}

/* One address: a connected socket, or -1 with *why set to an errno value. */
static int connect_one(const struct addrinfo *ai, int64_t deadline, int *why)
{
	int fd, one = 1;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*why = errno;
		return -1;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		*why = 0;
	else
		*why = errno == EINPROGRESS ? connect_wait(fd, deadline) : errno;
	if (*why) {
		close(fd);
		return -1;
	}
	/* Commands are small and answered one by one: no Nagle delay. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int ust_net_connect(const char *host, int family, uint16_t port, int timeout_ms,
		    char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	int64_t deadline = ust_net_deadline(timeout_ms);
	struct addrinfo *list, *ai;
	char service[8];
	int rc, fd = -1, why = EADDRNOTAVAIL;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &list);
	if (rc) {
		snprintf(err, errlen, "cannot resolve '%s' (%s): %s", host,
			 family == AF_INET6 ? "IPv6" : "IPv4",
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	for (ai = list; ai && fd < 0; ai = ai->ai_next)
		fd = connect_one(ai, deadline, &why);
	freeaddrinfo(list);
	if (fd < 0) {
		if (why == ETIMEDOUT)
			snprintf(err, errlen, "no answer within %d ms", timeout_ms);
		else
			snprintf(err, errlen, "%s", strerror(why));
	}
	return fd;
}

ssize_t ust_net_send_some(int fd, const struct iovec *iov, int iovcnt)
{
	struct msghdr msg = { .msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)iovcnt };
	ssize_t n;

	do {
		n = sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n >= 0)
		return n;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return 0;
	return peer_error(errno);
}

/* Drop the first `n` bytes of an iovec array, in place. */
static void iov_advance(struct iovec **iov, int *iovcnt, size_t n)
{
	while (*iovcnt > 0 && n >= (*iov)->iov_len) {
		n -= (*iov)->iov_len;
		(*iov)++;
		(*iovcnt)--;
	}
	if (*iovcnt > 0) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + n;
		(*iov)->iov_len -= n;
	}
}

int ust_net_send_all(int fd, const struct iovec *iov, int iovcnt, int64_t deadline)
{
	struct iovec copy[8], *cur = copy;
	int left = iovcnt, w;
	ssize_t n;

	if (iovcnt > 8)
		return -EINVAL;
	memcpy(copy, iov, (size_t)iovcnt * sizeof(*iov));
	iov_advance(&cur, &left, 0);
	while (left > 0) {
		n = ust_net_send_some(fd, cur, left);
		if (n < 0)
			return (int)n;
		iov_advance(&cur, &left, (size_t)n);
		if (left == 0)
			break;
		if (n == 0) {
			w = ust_net_wait(fd, true, deadline);
			if (w <= 0)
				return w < 0 ? w : -ETIMEDOUT;
		}
	}
	return 0;
}

ssize_t ust_net_recv_some(int fd, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = recv(fd, buf, len, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n > 0)
		return n;
	if (n == 0)
		return len ? -ESHUTDOWN : 0;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return 0;
	return peer_error(errno);
}

int ust_net_recv_all(int fd, void *buf, size_t len, int64_t deadline)
{
	size_t got = 0;
	ssize_t n;
	int w;

	while (got < len) {
		n = ust_net_recv_some(fd, (char *)buf + got, len - got);
		if (n < 0)
			return (int)n;
		got += (size_t)n;
		if (got < len && n == 0) {
			w = ust_net_wait(fd, false, deadline);
			if (w <= 0)
				return w < 0 ? w : -ETIMEDOUT;
		}
	}
	return 0;
}
