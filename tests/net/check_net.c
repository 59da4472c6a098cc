/*
 * check_net.c - the pieces under the relay client: big-endian message
 * building (net/wire.c), sockets with deadlines (net/sock.c) and the
 * bounded send queue (net/outq.c), on socketpairs.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../check_run.h"
#include "net/outq.h"
#include "net/sock.h"
#include "net/wire.h"

START_TEST(wire_big_endian)
{
	static const uint8_t want[] = {
		0x01, 0x02, 0x03, 0x04,				/* be32 */
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,	/* be64 */
		0xab,						/* u8 */
		'h', 'i', 0,					/* str0 */
		0, 0,						/* zeros */
	};
	struct ust_wire w;

	ust_wire_init(&w);
	ust_wire_be32(&w, 0x01020304);
	ust_wire_be64(&w, 0x1112131415161718ull);
	ust_wire_u8(&w, 0xab);
	ust_wire_str0(&w, "hi");
	ust_wire_zeros(&w, 2);
	ck_assert(!w.failed);
	ck_assert_uint_eq(w.len, sizeof(want));
	ck_assert(!memcmp(w.buf, want, sizeof(want)));
	ust_wire_patch_be32(&w, 0, 0xdeadbeef);
	ck_assert_uint_eq(ust_get_be32(w.buf), 0xdeadbeef);
	ck_assert_uint_eq(ust_get_be64(w.buf + 4), 0x1112131415161718ull);
	/* a patch past the end changes nothing */
	ust_wire_patch_be64(&w, w.len - 4, 1);
	ck_assert(!memcmp(w.buf + 4, want + 4, sizeof(want) - 4));
	ust_wire_release(&w);
}
END_TEST

static void pair(int sv[2])
{
	ck_assert(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv));
}

START_TEST(recv_deadline)
{
	int sv[2], err;
	int64_t start;
	char buf[4];

	pair(sv);
	start = ust_net_now_ms();
	err = ust_net_recv_all(sv[0], buf, sizeof(buf), ust_net_deadline(150));
	ck_assert_int_eq(err, -ETIMEDOUT);
	ck_assert_int_ge(ust_net_now_ms() - start, 140);
	ck_assert_int_lt(ust_net_now_ms() - start, 1000);
	/* half a message, then the peer goes away: "closed", at once */
	ck_assert_int_eq(write(sv[1], "ab", 2), 2);
	close(sv[1]);
	start = ust_net_now_ms();
	err = ust_net_recv_all(sv[0], buf, sizeof(buf), ust_net_deadline(5000));
	ck_assert_int_eq(err, -ESHUTDOWN);
	ck_assert_int_lt(ust_net_now_ms() - start, 1000);
	ck_assert_str_eq(ust_net_strerror(err), "connection closed by the peer");
	close(sv[0]);
}
END_TEST

START_TEST(send_to_closed_peer)
{
	struct iovec iov = { "x", 1 };
	int sv[2];

	pair(sv);
	close(sv[1]);
	ck_assert_int_eq(ust_net_send_all(sv[0], &iov, 1, ust_net_deadline(100)), -ESHUTDOWN);
	close(sv[0]);
}
END_TEST

/* Read everything available from fd into buf; bytes read. */
static size_t drain_fd(int fd, uint8_t *buf, size_t cap)
{
	size_t got = 0;
	ssize_t n;

	while (got < cap && (n = read(fd, buf + got, cap - got)) > 0)
		got += (size_t)n;
	return got;
}

START_TEST(outq_direct_then_queued)
{
	static uint8_t msg[4096], out[1 << 21];
	struct iovec iov = { msg, sizeof(msg) };
	struct ust_outq q;
	int sv[2], i, queued = 0;
	size_t got;

	pair(sv);
	for (i = 0; i < (int)sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	ust_outq_init(&q, 3 * sizeof(msg));
	/* the socket takes the first ones whole: nothing is queued */
	ck_assert_int_eq(ust_outq_push(&q, sv[0], 1, 0, &iov, 1), 0);
	ck_assert(ust_outq_empty(&q));
	/* fill the socket; then the queue; then refusals, never a wait */
	for (i = 2; i < 10000; i++) {
		int ret = ust_outq_push(&q, sv[0], (uint64_t)i, 0, &iov, 1);

		if (ret == -ENOBUFS)
			break;
		ck_assert_int_eq(ret, 0);
		queued += !ust_outq_empty(&q);
	}
	ck_assert_int_lt(i, 10000);
	ck_assert_int_gt(queued, 0);
	ck_assert_uint_le(ust_outq_bytes(&q), 3 * sizeof(msg));
	/* the reader catches up: everything arrives, in order, whole */
	got = drain_fd(sv[1], out, sizeof(out));
	while (!ust_outq_empty(&q)) {
		ck_assert_int_eq(ust_outq_write(&q, sv[0], NULL, NULL), 0);
		got += drain_fd(sv[1], out + got, sizeof(out) - got);
	}
	got += drain_fd(sv[1], out + got, sizeof(out) - got);
	ck_assert_uint_eq(got, (size_t)(i - 1) * sizeof(msg));
	for (size_t k = 0; k < got; k++)
		ck_assert_uint_eq(out[k], (uint8_t)(k % sizeof(msg)));
	ust_outq_release(&q);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

struct seen {
	uint64_t tags[16];
	size_t lens[16];
	bool partly[16];
	int n;
};

static void note(void *arg, const struct ust_outq_msg *m, const uint8_t *bytes)
{
	struct seen *s = arg;

	ck_assert_int_lt(s->n, 16);
	if (!m->partly_sent)
		ck_assert_uint_eq(bytes[0], (uint8_t)m->tag);
	s->tags[s->n] = m->tag;
	s->partly[s->n] = m->partly_sent;
	s->lens[s->n++] = m->len;
}

START_TEST(outq_gives_back_unsent)
{
	static uint8_t a[100], b[200];
	struct iovec ia = { a, sizeof(a) }, ib = { b, sizeof(b) };
	struct seen seen = { .n = 0 };
	struct ust_outq q;

	memset(a, 7, sizeof(a));
	memset(b, 8, sizeof(b));
	ust_outq_init(&q, 1 << 20);
	/* fd < 0: queue only */
	ck_assert_int_eq(ust_outq_push(&q, -1, 7, 0, &ia, 1), 0);
	ck_assert_int_eq(ust_outq_push(&q, -1, 8, 0, &ib, 1), 0);
	ck_assert_uint_eq(ust_outq_bytes(&q), 300);
	ust_outq_each_unsent(&q, note, &seen);
	ck_assert_int_eq(seen.n, 2);
	ck_assert_uint_eq(seen.tags[0], 7);
	ck_assert_uint_eq(seen.lens[0], 100);
	ck_assert_uint_eq(seen.tags[1], 8);
	ck_assert_uint_eq(seen.lens[1], 200);
	ck_assert(ust_outq_empty(&q));
	ust_outq_release(&q);
}
END_TEST

/* A message the socket took part of: the rest is queued, and said so. */
START_TEST(outq_partly_sent)
{
	static uint8_t big[1 << 20];
	struct iovec iov = { big, sizeof(big) };
	struct seen seen = { .n = 0 };
	struct ust_outq q;
	int sv[2];
	size_t queued;

	pair(sv);
	memset(big, 5, sizeof(big));
	ust_outq_init(&q, 1 << 10);
	ck_assert_int_eq(ust_outq_push(&q, sv[0], 5, 42, &iov, 1), 0);
	queued = ust_outq_bytes(&q);
	ck_assert_uint_gt(queued, 0);
	ck_assert_uint_lt(queued, sizeof(big));
	ust_outq_each_unsent(&q, note, &seen);
	ck_assert_int_eq(seen.n, 1);
	ck_assert_uint_eq(seen.tags[0], 5);
	ck_assert_uint_eq(seen.lens[0], queued);
	ck_assert(seen.partly[0]);
	ust_outq_release(&q);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(outq_broken_socket)
{
	static uint8_t a[64];
	struct iovec ia = { a, sizeof(a) };
	struct ust_outq q;
	int sv[2];

	pair(sv);
	close(sv[1]);
	ust_outq_init(&q, 1024);
	ck_assert_int_eq(ust_outq_push(&q, sv[0], 1, 0, &ia, 1), -ESHUTDOWN);
	ck_assert(ust_outq_empty(&q));
	ck_assert_int_eq(ust_outq_push(&q, -1, 1, 0, &ia, 1), 0);
	ck_assert_int_eq(ust_outq_write(&q, sv[0], NULL, NULL), -ESHUTDOWN);
	ust_outq_release(&q);
	close(sv[0]);
}
END_TEST

static Suite *net_suite(void)
{
	Suite *s = suite_create("net");
	TCase *tc = tcase_create("net");

	tcase_add_test(tc, wire_big_endian);
	tcase_add_test(tc, recv_deadline);
	tcase_add_test(tc, send_to_closed_peer);
	tcase_add_test(tc, outq_direct_then_queued);
	tcase_add_test(tc, outq_gives_back_unsent);
	tcase_add_test(tc, outq_partly_sent);
	tcase_add_test(tc, outq_broken_socket);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(net_suite());
}
