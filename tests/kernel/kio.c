/*
 * kio.c - the workload of the kernel analyses' tests: activity whose
 * figures are known, each phase between kio:phase_begin and
 * kio:phase_end events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   kio FILE N M K [trigger|segv]
 *	write: N bytes to FILE (created), in write()s of at most 4096
 *	       bytes, then close it;
 *	send:  M bytes over a TCP connection on 127.0.0.1, in send()s of
 *	       at most 8192 bytes, which a second thread recv()s until the
 *	       end;
 *	sleep: one nanosleep() of K ms;
 *	then, with "trigger", ust_trigger("kio-done") (a flight-recorder
 *	snapshot), or with "segv", death by SIGSEGV.
 *   It prints "tid=T", "receiver=R", "writes=W", "sends=S", "recvs=V".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ust/ust.h>

#include "kio_tp.h"

#define WRITE_CHUNK	4096
#define SEND_CHUNK	8192

static char buf[SEND_CHUNK];

struct receiver {
	int fd;
	long tid;
	unsigned long recvs, bytes;
};

static void die(const char *what)
{
	fprintf(stderr, "kio: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long write_file(const char *path, unsigned long n)
{
	unsigned long done = 0, writes = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	while (done < n) {
		size_t len = n - done < WRITE_CHUNK ? n - done : WRITE_CHUNK;
		ssize_t w = write(fd, buf, len);

		if (w <= 0)
			die("write");
		done += (unsigned long)w;
		writes++;
	}
	if (close(fd))
		die("close");
	return writes;
}

static void *receive(void *arg)
{
	struct receiver *r = arg;
	char in[SEND_CHUNK];
	ssize_t n;

	r->tid = syscall(SYS_gettid);
	while ((n = recv(r->fd, in, sizeof(in), 0)) > 0) {
		r->recvs++;
		r->bytes += (unsigned long)n;
	}
	if (n < 0)
		die("recv");
	r->recvs++;	/* the 0 at the end is a recv() too */
	return NULL;
}

/* A connected pair on 127.0.0.1, on a port the kernel picks. */
static void connect_pair(int *client, int *server)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("listen");
	*client = socket(AF_INET, SOCK_STREAM, 0);
	if (*client < 0 || connect(*client, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	*server = accept(l, NULL, NULL);
	if (*server < 0)
		die("accept");
	close(l);
}

static unsigned long send_all(unsigned long m, struct receiver *r)
{
	unsigned long done = 0, sends = 0;
	pthread_t th;
	int client;

	connect_pair(&client, &r->fd);
	if (pthread_create(&th, NULL, receive, r))
		die("pthread_create");
	while (done < m) {
		size_t len = m - done < SEND_CHUNK ? m - done : SEND_CHUNK;
		ssize_t s = send(client, buf, len, 0);

		if (s <= 0)
			die("send");
		done += (unsigned long)s;
		sends++;
	}
	shutdown(client, SHUT_WR);
	pthread_join(th, NULL);
	close(client);
	close(r->fd);
	return sends;
}

int main(int argc, char **argv)
{
	struct receiver r = { 0 };
	unsigned long writes, sends, k;
	struct timespec nap;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: kio FILE N M K [trigger|segv]\n");
		return 2;
	}
	memset(buf, 'k', sizeof(buf));
	k = strtoul(argv[4], NULL, 10);
	nap.tv_sec = (time_t)(k / 1000);
	nap.tv_nsec = (long)(k % 1000) * 1000000;
	trace_kio_phase_begin("write");
	writes = write_file(argv[1], strtoul(argv[2], NULL, 10));
	trace_kio_phase_end("write");
	trace_kio_phase_begin("send");
	sends = send_all(strtoul(argv[3], NULL, 10), &r);
	trace_kio_phase_end("send");
	trace_kio_phase_begin("sleep");
	nanosleep(&nap, NULL);
	trace_kio_phase_end("sleep");
	printf("tid=%ld\nreceiver=%ld\nwrites=%lu\nsends=%lu\nrecvs=%lu\nreceived=%lu\n",
	       (long)syscall(SYS_gettid), r.tid, writes, sends, r.recvs, r.bytes);
	fflush(stdout);
	if (argc == 6 && !strcmp(argv[5], "trigger"))
		printf("trigger=%d\n", ust_trigger("kio-done"));
	if (argc == 6 && !strcmp(argv[5], "segv"))
		raise(SIGSEGV);
	return 0;
}
