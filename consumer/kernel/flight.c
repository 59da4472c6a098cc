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
 * followed by the ring's events up to C.  Reading the rings consumes
 * them: the sub-buffers holding events after C are kept in memory (the
 * carry) and converted at the next snapshot, which skips the events it
 * already wrote (up to the CPU's `written_upto`).  So successive
 * snapshots hold successive parts of the history, each as long as the
 * ring holds (--buffer-size per CPU).
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

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

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

static int carry_add(struct kstream *s, const void *page, size_t size)
{
	void **p;

	if (s->nr_carry == s->cap_carry) {
		p = realloc(s->carry, (s->cap_carry ? 2 * s->cap_carry : 16) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->carry = p;
		s->cap_carry = s->cap_carry ? 2 * s->cap_carry : 16;
	}
	s->carry[s->nr_carry] = malloc(size);
	if (!s->carry[s->nr_carry])
		return -ENOMEM;
	memcpy(s->carry[s->nr_carry++], page, size);
	return 0;
}

/*
 * Convert the sub-buffer in `page`: the events after written_upto and
 * up to `cut`.  Returns 1 when it holds an event after the cut (the
 * sub-buffer goes to the carry), else 0.
 */
static int snap_page(struct kerneld *kd, struct kstream *s, void *page, uint64_t cut,
		     bool first)
{
	unsigned long long ts;
	void *data;
	int missed, later = 0;

	if (kbuffer_load_subbuffer(kd->kbuf, page))
		return 0;
	missed = kbuffer_missed_events(kd->kbuf);
	/* Before the first sub-buffer, the ring overwrote: not a loss here. */
	if (missed && !first)
		s->discarded += missed > 0 ? (uint64_t)missed : 1;
	for (data = kbuffer_read_event(kd->kbuf, &ts); data;
	     data = kbuffer_next_event(kd->kbuf, &ts)) {
		if (ts <= s->written_upto)
			continue;
		if (ts > cut) {
			later = 1;
			continue;
		}
		kd_convert_record(kd, s, data, kbuffer_event_size(kd->kbuf), ts);
	}
	return later;
}

/* The carried sub-buffers, then the ring's, in order; the rest carried. */
static int snap_cpu_events(struct kerneld *kd, struct kstream *s, uint64_t cut)
{
	void **old = s->carry;
	size_t nr_old = s->nr_carry, i;
	long max = (long)(kd->opts.buffer_kb * 1024 / kd->page_size) + 1, pages = 0;
	bool first = true, carrying = false;
	int n, ret = 0;

	s->carry = NULL;
	s->nr_carry = s->cap_carry = 0;
	for (i = 0; i < nr_old; i++) {
		memcpy(kd->page, old[i], kd->page_size);
		free(old[i]);
		carrying |= snap_page(kd, s, kd->page, cut, first) > 0;
		first = false;
		if (carrying && !ret)
			ret = carry_add(s, kd->page, kd->page_size);
	}
	free(old);
	while (pages++ < max && (n = tracefs_cpu_read(s->tcpu, kd->page, true)) > 0) {
		if (n < kd->page_size)
			memset((uint8_t *)kd->page + n, 0, kd->page_size - n);
		carrying |= snap_page(kd, s, kd->page, cut, first) > 0;
		first = false;
		if (carrying && !ret)
			ret = carry_add(s, kd->page, kd->page_size);
	}
	if (s->written_upto < cut)
		s->written_upto = cut;
	return ret;
}

/*
 * CPU `s`'s stream of the snapshot in `dir_fd`: its statedump packets,
 * then its events, written through a copy of the stream state whose
 * counters start from those packets.
 */
static int snap_cpu(struct kerneld *kd, struct kstream *s, int dir_fd, const uint8_t uuid[16],
		    uint64_t cut, uint64_t *events)
{
	struct kstream snap = *s;
	char name[32];
	int64_t copied;
	int ret;

	snprintf(name, sizeof(name), "kernel_%u", s->cpu);
	snap.fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			 0644);
	if (snap.fd < 0)
		return -errno;
	copied = copy_statedump(kd, s->cpu, snap.fd, uuid);
	ret = copied < 0 ? (int)copied : 0;
	snap.seq = copied > 0 ? (uint64_t)copied : 0;
	snap.discarded = snap.discarded_written = 0;
	snap.nr_events = snap.total_events = 0;
	snap.write_failed = false;
	snap.seq_force = true;	/* an empty stream still gets its last packet */
	snap.uuid = uuid;
	if (!ret)
		ret = snap_cpu_events(kd, &snap, cut);
	if (snap.last_ts < cut && cut != UINT64_MAX)
		snap.last_ts = cut;
	if (!ret)
		ret = kd_packet_flush(kd, &snap);
	if (close(snap.fd) && !ret)
		ret = -errno;
	/* What goes on in the live stream: the carry and the cut. */
	s->carry = snap.carry;
	s->nr_carry = snap.nr_carry;
	s->cap_carry = snap.cap_carry;
	s->written_upto = snap.written_upto;
	*events += snap.total_events;
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

/* The metadata and every CPU's stream of a snapshot into `dir_fd`. */
static int snap_write(struct kerneld *kd, int dir_fd, uint64_t cut, uint64_t *events)
{
	uint8_t uuid[16];
	unsigned int i;
	int ret;

	ret = kd_random_uuid(uuid);
	if (!ret)
		ret = kd_metadata_write_to(kd, dir_fd, uuid);
	*events = 0;
	for (i = 0; !ret && i < kd->nr_cpus; i++)
		ret = snap_cpu(kd, &kd->streams[i], dir_fd, uuid, cut, events);
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
	unsigned int i;
	size_t j;

	for (i = 0; kd->streams && i < kd->nr_cpus; i++) {
		for (j = 0; j < kd->streams[i].nr_carry; j++)
			free(kd->streams[i].carry[j]);
		free(kd->streams[i].carry);
	}
	if (kd->listen_fd >= 0)
		close(kd->listen_fd);
}
