/*
 * flight.c - the kernel flight recorder: with --flight, the ftrace rings
 * (overwrite mode, the instance's default) are not read on a timer; the
 * kernel events go to disk only in snapshots, asked for on the bridge's
 * socket (abi/kerneld.h) by the consumer that writes the user-space
 * snapshot, with the same cut, so that both end at the same instant.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A snapshot of cut C is a CTF trace of its own in the directory asked
 * for (the user snapshot's, with "-kernel" appended): the metadata with
 * a fresh trace UUID, and per CPU the statedump packets of DIR/kernel
 * followed by the ring's events up to C, converted in time order across
 * the CPUs as the live passes are (merge.c).  Reading the rings consumes
 * them: the sub-buffers holding events after C stay held in memory, and
 * the next snapshot goes on from the first record it did not convert.
 * So successive snapshots hold successive parts of the history, each as
 * long as the ring holds (--buffer-size per CPU).
 *
 * The socket is an abstract one, "ust-kerneld-<pid>", in `ust record`'s
 * network namespace; a peer must run as our user (SO_PEERCRED).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "kerneld.h"
#include "common/safepath.h"
#include "ctf/format.h"

#define COPY_CHUNK	(1u << 16)

int kd_flight_listen(struct kerneld *kd)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* Abstract: sun_path[0] is '\0', the name follows, not terminated. */
	len = (socklen_t)snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1,
				  UST_KERNELD_SOCKET_FMT, (int)getpid());
	len += (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1);
	if (bind(fd, (struct sockaddr *)&a, len) || listen(fd, 8)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	kd->listen_fd = fd;
	return 0;
}

/* ---- one CPU's part of a snapshot ---- */

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The packets of DIR/kernel/kernel_<cpu> (the statedump, then empty
 * packets) into `out`, each with the snapshot's UUID.  Returns how many.
 */
static int64_t copy_statedump(struct kerneld *kd, unsigned int cpu, int out,
			      const uint8_t uuid[16])
{
	uint8_t *buf = malloc(COPY_CHUNK);
	char name[32];
	int64_t n = 0;
	uint64_t size;
	off_t pos = 0;
	int in, ret = 0;

	snprintf(name, sizeof(name), "kernel_%u", cpu);
	in = openat(kd->dir_fd, name, O_RDONLY | O_CLOEXEC);
	if (in < 0 || !buf) {
		free(buf);
		if (in >= 0)
			close(in);
		return -ENOMEM;
	}
	while (!ret && pread(in, buf, UST_PACKET_HEADER_SIZE, pos) ==
	       (ssize_t)UST_PACKET_HEADER_SIZE) {
		size = ctf_get_le64(buf + UST_PACKET_OFF(packet_size)) / 8;
		if (size < UST_PACKET_HEADER_SIZE || size > COPY_CHUNK ||
		    pread(in, buf, size, pos) != (ssize_t)size)
			break;
		memcpy(buf + UST_PACKET_OFF(uuid), uuid, 16);
		ret = write_all(out, buf, size);
		pos += (off_t)size;
		n++;
	}
	close(in);
	free(buf);
	return ret ? ret : n;
}

/*
 * CPU `s`'s stream of the snapshot in `dir_fd`: a copy of the stream
 * state (with the records it holds) into `snap`, its statedump packets
 * written, its counters starting from them.
 */
static int snap_open(struct kerneld *kd, const struct kstream *s, struct kstream *snap,
		     int dir_fd, const uint8_t uuid[16])
{
	char name[32];
	int64_t copied;

	*snap = *s;
	snprintf(name, sizeof(name), "kernel_%u", s->cpu);
	snap->fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0644);
	if (snap->fd < 0)
		return -errno;
	copied = copy_statedump(kd, s->cpu, snap->fd, uuid);
	if (copied < 0)
		return (int)copied;
	snap->seq = (uint64_t)copied;
	snap->discarded = snap->discarded_written = 0;
	snap->nr_events = snap->total_events = 0;
	snap->write_failed = false;
	snap->seq_force = true;	/* an empty stream still gets its last packet */
	snap->uuid = uuid;
	/* Before the first sub-buffer, the ring overwrote: not a loss here. */
	snap->missed_ignored = !snap->held_loaded;
	return 0;
}

/*
 * The end of CPU `s`'s stream of the snapshot: its last packet, the
 * file closed; what it holds after the cut goes back to the live stream.
 */
static int snap_close(struct kerneld *kd, struct kstream *s, struct kstream *snap,
		      uint64_t cut, bool ok, uint64_t *events)
{
	int ret = 0;

	if (snap->last_ts < cut && cut != UINT64_MAX)
		snap->last_ts = cut;
	if (ok)
		ret = kd_packet_flush(kd, snap);
	if (snap->fd >= 0 && close(snap->fd) && !ret)
		ret = -errno;
	s->held = snap->held;
	s->held_head = snap->held_head;
	s->nr_held = snap->nr_held;
	s->cap_held = snap->cap_held;
	s->held_loaded = snap->held_loaded;
	s->rec = snap->rec;
	s->rec_ts = snap->rec_ts;
	*events += snap->total_events;
	return ret;
}

/* Remove what a failed snapshot wrote in `dir_fd`, then the directory. */
static void snap_remove(struct kerneld *kd, const struct ust_safe_dir *parent, int dir_fd,
			const char *name)
{
	char file[32];
	unsigned int i;

	unlinkat(dir_fd, "metadata", 0);
	unlinkat(dir_fd, ".metadata", 0);
	for (i = 0; i < kd->nr_cpus; i++) {
		snprintf(file, sizeof(file), "kernel_%u", i);
		unlinkat(dir_fd, file, 0);
	}
	if (unlinkat(parent->fd, name, AT_REMOVEDIR))
		fprintf(stderr, KERNELD_NAME ": snapshot: cannot remove '%s/%s': %s\n",
			parent->path, name, strerror(errno));
}

/*
 * The metadata and every CPU's stream of a snapshot into `dir_fd`: the
 * rings read, then their records up to `cut` converted in time order
 * across the CPUs (merge.c), those after it held for the next snapshot.
 */
static int snap_write(struct kerneld *kd, int dir_fd, uint64_t cut, uint64_t *events)
{
	struct kstream *snap = calloc(kd->nr_cpus, sizeof(*snap));
	unsigned int i, opened = 0;
	uint8_t uuid[16];
	bool full;
	int ret, closed;

	*events = 0;
	ret = snap ? kd_random_uuid(uuid) : -ENOMEM;
	if (!ret)
		ret = kd_metadata_write_to(kd, dir_fd, uuid);
	for (; !ret && opened < kd->nr_cpus; opened++)
		ret = snap_open(kd, &kd->streams[opened], &snap[opened], dir_fd, uuid);
	for (i = 0; !ret && i < kd->nr_cpus; i++)
		kd_merge_read(kd, &snap[i], &full);
	if (!ret)
		kd_merge_convert(kd, snap, kd->nr_cpus, cut);
	for (i = 0; i < opened; i++) {
		closed = snap_close(kd, &kd->streams[i], &snap[i], cut, !ret, events);
		ret = ret ? ret : closed;
	}
	free(snap);
	return ret;
}

/*
 * The snapshot goes to `dir`, as a user snapshot does (consumer/
 * snapshot.c): written in the hidden `.<name>.part` next to it, in a
 * parent opened by the walk of common/safepath.h (no link, no other
 * user's directory in a world-writable one), renamed to `dir` once
 * complete without replacing anything, removed on failure: a full disk
 * leaves no truncated packet, which would make readers refuse the whole
 * directory.
 */
int kd_flight_snapshot(struct kerneld *kd, uint64_t cut, const char *dir, uint64_t *events)
{
	char ppath[PATH_MAX], tmp[NAME_MAX + 1], err[2 * PATH_MAX];
	const char *name = strrchr(dir, '/');
	struct ust_safe_dir parent;
	int dir_fd, ret;

	*events = 0;
	if (!name || !name[1] || (size_t)snprintf(tmp, sizeof(tmp), ".%s.part", name + 1) >=
	    sizeof(tmp))
		return -EINVAL;
	snprintf(ppath, sizeof(ppath), "%.*s", name == dir ? 1 : (int)(name - dir), dir);
	if (cut == UINT64_MAX)
		cut = ust__clock_read(kd->clock.kind);	/* a crash: up to now */
	kd_paths_drain(kd);	/* the names of the opens to convert */
	ret = ust__safe_dir_open(ppath, 0, 0, &parent, err, sizeof(err));
	if (ret) {
		fprintf(stderr, KERNELD_NAME ": snapshot %s: %s\n", dir, err);
		return ret;
	}
	if (mkdirat(parent.fd, tmp, 0700)) {
		ret = -errno;
		goto out;
	}
	dir_fd = openat(parent.fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir_fd < 0) {
		ret = -errno;
		unlinkat(parent.fd, tmp, AT_REMOVEDIR);
		goto out;
	}
	ret = snap_write(kd, dir_fd, cut, events);
	if (!ret && renameat2(parent.fd, tmp, parent.fd, name + 1, RENAME_NOREPLACE))
		ret = -errno;
	if (ret)
		snap_remove(kd, &parent, dir_fd, tmp);
	close(dir_fd);
out:
	ust__safe_dir_close(&parent);
	return ret;
}

/* ---- the requests ---- */

/* "snapshot CUT DIR" on `fd`, answered "done EVENTS DIR" or "error TEXT". */
static void serve(struct kerneld *kd, int fd)
{
	char msg[UST_KERNELD_MSG_MAX + 1], reply[UST_KERNELD_MSG_MAX + 64];
	unsigned long long cut;
	uint64_t events = 0;
	ssize_t n = recv(fd, msg, UST_KERNELD_MSG_MAX, 0);
	int off = 0, ret;

	if (n <= 0)
		return;
	msg[n] = '\0';
	if (sscanf(msg, UST_KERNELD_MSG_SNAPSHOT " %llu %n", &cut, &off) != 1 || !off ||
	    msg[off] != '/') {
		snprintf(reply, sizeof(reply), UST_KERNELD_MSG_ERROR " bad request '%.64s'", msg);
	} else {
		ret = kd_flight_snapshot(kd, cut, msg + off, &events);
		if (ret)
			snprintf(reply, sizeof(reply), UST_KERNELD_MSG_ERROR " %s: %s", msg + off,
				 strerror(-ret));
		else
			snprintf(reply, sizeof(reply), UST_KERNELD_MSG_DONE " %" PRIu64 " %s",
				 events, msg + off);
		if (ret)
			fprintf(stderr, KERNELD_NAME ": %s\n", reply);
	}
	send(fd, reply, strlen(reply), MSG_NOSIGNAL);
}

void kd_flight_accept(struct kerneld *kd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = accept4(kd->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.uid != geteuid()) {
		close(fd);	/* only our own user asks for snapshots */
		return;
	}
	serve(kd, fd);
	close(fd);
}

void kd_flight_release(struct kerneld *kd)
{
	if (kd->listen_fd >= 0)
		close(kd->listen_fd);
}
