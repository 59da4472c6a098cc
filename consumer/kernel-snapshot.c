/*
 * kernel-snapshot.c - the kernel part of a flight-recorder snapshot:
 * when `ust record --flight-recorder --kernel` runs the kernel bridge
 * in flight mode, it gives us its socket in UST_KERNELD_SOCKET, and each
 * snapshot we write asks it for the kernel events up to the same cut,
 * into the snapshot's directory with "-kernel" appended (abi/kerneld.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The request goes out once our part is complete and has its name (it
 * is written under a hidden one, snapshot.c), so the kernel part's name
 * is final too: the bridge writes it under a hidden name as well and
 * renames it once complete, or removes it (consumer/kernel/flight.c).
 * The bridge reads its rings while we send our part to the relay, if the
 * trace streams; we wait for its answer (10 s at most) after that.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "abi/env.h"
#include "abi/kerneld.h"
#include "consumer.h"

#define KERNEL_SNAPSHOT_TIMEOUT_MS	10000

void cd_kernel_snapshot_send(struct cd_kernel_request *r, const char *snapshot,
			     uint64_t cut)
{
	const char *name = getenv(UST_ENV_KERNELD_SOCKET);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char msg[UST_KERNELD_MSG_MAX];
	socklen_t len;
	int n;

	r->fd = -1;
	if (!name || !*name || strlen(name) >= sizeof(a.sun_path) - 1)
		return;
	snprintf(r->dir, sizeof(r->dir), "%s" UST_KERNELD_SNAP_SUFFIX, snapshot);
	n = snprintf(msg, sizeof(msg), UST_KERNELD_MSG_SNAPSHOT " %" PRIu64 " %s", cut, r->dir);
	if (n < 0 || (size_t)n >= sizeof(msg))
		return;
	memcpy(a.sun_path + 1, name, strlen(name));	/* abstract: a leading NUL */
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
	r->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (r->fd >= 0 && !connect(r->fd, (struct sockaddr *)&a, len) &&
	    send(r->fd, msg, (size_t)n, MSG_NOSIGNAL) == n)
		return;
	fprintf(stderr, CONSUMER_NAME ": snapshot %s: no kernel part: %s: %s\n", snapshot,
		name, strerror(errno));
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int cd_kernel_snapshot_wait(struct cd_kernel_request *r)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	char reply[UST_KERNELD_MSG_MAX + 64];
	ssize_t n = -1;
	int ret = -ETIMEDOUT;

	if (r->fd < 0)
		return -ENOENT;
	if (poll(&p, 1, KERNEL_SNAPSHOT_TIMEOUT_MS) > 0)
		n = recv(r->fd, reply, sizeof(reply) - 1, 0);
	close(r->fd);
	r->fd = -1;
	if (n > 0) {
		reply[n] = '\0';
		ret = strncmp(reply, UST_KERNELD_MSG_DONE " ", strlen(UST_KERNELD_MSG_DONE) + 1) ?
		      -EIO : 0;
		if (ret)
			fprintf(stderr, CONSUMER_NAME ": kernel snapshot %s: %s\n", r->dir, reply);
		else
			fprintf(stderr, CONSUMER_NAME ": kernel snapshot %s: %llu events\n",
				r->dir, strtoull(reply + strlen(UST_KERNELD_MSG_DONE) + 1, NULL, 10));
	} else {
		fprintf(stderr, CONSUMER_NAME ": kernel snapshot %s: no answer from the kernel "
			"bridge in %d s\n", r->dir, KERNEL_SNAPSHOT_TIMEOUT_MS / 1000);
	}
	return ret;
}
