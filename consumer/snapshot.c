/*
 * snapshot.c - flight recorder: copy every buffer into a new trace
 * directory, on request or when the traced process dies by a signal.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Requests come through the header's struct ust_flight (abi/flight.h, which
 * has the protocol): ust_trigger() in the process, or `ust snapshot PID`.
 * The consumer sees a pending request at its next tick (cd_flight_poll),
 * and, when the process ends, a pending request and the cause of death
 * (cd_flight_final).
 *
 * A snapshot is a complete CTF trace that babeltrace2 opens alone:
 *   - metadata: the trace's, with a fresh trace UUID, so that readers
 *     given the whole output directory never merge a snapshot with its
 *     trace or with another snapshot (they would hold the same packets);
 *   - each flight channel buffer: its last subbuf_count sub-buffers,
 *     the one being filled included (copied up to its committed offset
 *     and closed in the copy), read from the shared memory without
 *     consuming anything; a copy that a writer may have overwritten
 *     meanwhile is dropped, as in drain.c;
 *   - each streamed channel (the state channel): its whole stream file,
 *     then what is still in the shared memory.
 * Every packet is cut at the request's timestamp: records after it are
 * left out, so a trigger's snapshot ends with the trigger event.  The
 * flight channels are also cut at the front, where the history of the
 * most recently overwritten buffer starts (flight_start), so that the
 * merged tail has no hole.  In a flight channel, events_discarded counts
 * from the first packet copied.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "consumer.h"
#include "ctf/tsdl.h"

/* PIDFD_GET_INFO (Linux 6.13; exit status since 6.15), if libc lacks it. */
#ifndef PIDFD_INFO_EXIT
#define PIDFD_INFO_EXIT		(1ull << 3)
struct pidfd_info {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	int32_t exit_code;
};
#define PIDFD_GET_INFO		_IOWR(0xFF, 11, struct pidfd_info)
#endif

#define EXIT_WAIT_STEPS		100	/* x 10 ms for the cause of death */

/* One snapshot being written. */
struct snapshot {
	struct consumer *c;
	struct ust_safe_dir parent;	/* where it goes */
	char tmp_name[288];	/* hidden name while it is written */
	int dir_fd;
	uint8_t uuid[16];
	uint64_t cut_ts;	/* records after it are left out */
	uint64_t start_ts;	/* flight records before it are left out */
	uint64_t packets;
	uint64_t events;
	uint64_t dropped;	/* copies overwritten meanwhile, or failing checks */
	int err;		/* first write error, -errno */
};

/* One stream of the snapshot. */
struct snap_stream {
	struct stream st;	/* sequence-check state (have_last, ...) */
	int fd;			/* -1 until its first packet */
	bool rebase;		/* flight channel: count losses from here */
	bool have_base;
	uint64_t base;
};

/* What the cuts keep of one packet: the records in [start_ts, cut_ts]. */
struct cut {
	const uint8_t *pkt;
	uint64_t start_ts;
	uint64_t cut_ts;
	size_t front;		/* first record kept, 0 for none yet */
	uint64_t front_clock;	/* the reader's clock just before it */
	size_t end;		/* bytes kept, from the packet's start */
	uint64_t records;
};

static int cut_record(const struct ust_record_view *rec, void *arg)
{
	struct cut *k = arg;

	if (rec->timestamp > k->cut_ts)
		return 1;	/* this one and the rest are after the cut */
	if (rec->timestamp < k->start_ts) {
		k->front_clock = rec->timestamp;
		return 0;
	}
	if (!k->front)
		k->front = rec->offset;
	k->end = (size_t)(rec->payload - k->pkt) + rec->payload_size;
	k->records++;
	return 0;
}

/*
 * Drop the records before k->front: move the rest up to the header, and
 * start the packet's clock where the reader's clock was before them, so
 * that every compact timestamp still decodes to the same value.
 */
static void cut_front(uint8_t *pkt, struct cut *k)
{
	size_t drop = k->front - UST_PACKET_HEADER_SIZE;

	if (!k->front || !drop)
		return;
	memmove(pkt + UST_PACKET_HEADER_SIZE, pkt + k->front, k->end - k->front);
	k->end -= drop;
	ctf_put_le64(pkt + UST_PACKET_OFF(timestamp_begin), k->front_clock);
}

static void stream_append(struct snapshot *snap, struct snap_stream *ss,
			  const uint8_t *pkt, size_t len)
{
	int ret;

	if (snap->err)
		return;
	if (ss->fd < 0) {
		ss->fd = openat(snap->dir_fd, ss->st.name,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (ss->fd < 0) {
			snap->err = -errno;
			return;
		}
	}
	ret = cd_output_write_all(ss->fd, pkt, len);
	if (ret)
		snap->err = ret;
}

/* Losses counted from the snapshot's first packet, in a flight channel. */
static void discarded_rebase(struct snap_stream *ss, uint8_t *pkt)
{
	uint64_t raw = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));

	if (!ss->rebase)
		return;
	if (!ss->have_base) {
		ss->base = raw;
		ss->have_base = true;
	}
	ctf_put_le64(pkt + UST_PACKET_OFF(events_discarded), raw - ss->base);
}

/*
 * The closed packet in the scratch buffer (`len` bytes, sub-buffer `n`):
 * check it, cut it at the snapshot's timestamp, give it the snapshot's
 * UUID and append it to the stream's file.
 */
static void snap_packet(struct snapshot *snap, struct snap_stream *ss,
			uint64_t n, size_t len)
{
	struct consumer *c = snap->c;
	const struct chan_info *ci = &c->shm.chan[ss->st.chan];
	uint8_t *pkt = c->scratch;
	struct cut k = { .pkt = pkt, .cut_ts = snap->cut_ts, .end = UST_PACKET_HEADER_SIZE };
	struct ust_walk_result res;
	uint64_t content, raw;
	char why[160];
	int ret;

	if (ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin)) > snap->cut_ts)
		return;
	if (ss->rebase)
		k.start_ts = snap->start_ts;
	content = ctf_get_le64(pkt + UST_PACKET_OFF(content_size));
	ctf_put_le64(pkt + UST_PACKET_OFF(packet_size), (content + 7) & ~7ull);
	ret = shm_packet_walk(pkt, len, c->shm.uuid, ci->stream_id, &ci->table,
			      cut_record, &k, &res);
	if (ret < 0 || cd_packet_sequence_check(&ss->st, n, pkt, why, sizeof(why))) {
		fprintf(stderr, CONSUMER_NAME ": snapshot: %s: packet %" PRIu64 " left out: %s\n",
			ss->st.name, n, ret < 0 ? res.error : why);
		snap->dropped++;
		return;
	}
	raw = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	if (ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end)) > snap->cut_ts)
		ctf_put_le64(pkt + UST_PACKET_OFF(timestamp_end), snap->cut_ts);
	ss->st.have_last = true;
	ss->st.last_ts_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	ss->st.last_discarded = raw;
	if (k.records == 0)
		return;
	cut_front(pkt, &k);
	ctf_put_le64(pkt + UST_PACKET_OFF(content_size), (uint64_t)k.end * 8);
	ctf_put_le64(pkt + UST_PACKET_OFF(packet_size), (uint64_t)k.end * 8);
	discarded_rebase(ss, pkt);
	memcpy(pkt + UST_PACKET_OFF(uuid), snap->uuid, sizeof(snap->uuid));
	stream_append(snap, ss, pkt, k.end);
	snap->packets++;
	snap->events += k.records;
}

/*
 * Copy sub-buffer `n` of the stream's buffer, whose committed offset was
 * `off`, into the scratch buffer, closing it in the copy when it is the
 * one being filled.  Returns its length, or 0 when there is nothing to
 * take (empty, or overwritten while we copied).
 */
static size_t slot_take(struct snapshot *snap, struct snap_stream *ss,
			uint64_t n, uint64_t off)
{
	struct consumer *c = snap->c;
	const struct chan_info *ci = &c->shm.chan[ss->st.chan];
	const struct ust_shm_buf *buf = shm_buf(&c->shm, ss->st.chan, ss->st.cpu);
	const uint8_t *slot = shm_slot(&c->shm, ss->st.chan, ss->st.cpu, n);
	uint64_t used = off & (ci->subbuf_size - 1), lost;
	bool partial = off >> ci->subbuf_shift == n;
	size_t len;

	if (partial) {
		if (used <= UST_PACKET_HEADER_SIZE)
			return 0;
		memcpy(c->scratch, slot, used);
		len = used;
	} else {
		len = cd_packet_copy(c, ci, slot);
	}
	if (cd_packet_copy_state(c, &ss->st, n, slot) == COPY_TORN) {
		snap->dropped++;
		return 0;
	}
	if (!partial)
		return len;
	/*
	 * I2: after the offset (acquire in the caller), so it covers every
	 * copied record; I7: the loss counters, relaxed like their increments.
	 */
	ctf_put_le64(c->scratch + UST_PACKET_OFF(timestamp_end),
		 __atomic_load_n(&buf->commit.last_ts, __ATOMIC_RELAXED));
	ctf_put_le64(c->scratch + UST_PACKET_OFF(content_size), used * 8);
	lost = __atomic_load_n(&buf->lost_full, __ATOMIC_RELAXED) +
	       __atomic_load_n(&buf->lost_big, __ATOMIC_RELAXED);
	/* In a frozen flight channel, the later losses are after the cut. */
	if (ss->rebase && ss->st.have_last)
		lost = ss->st.last_discarded;
	ctf_put_le64(c->scratch + UST_PACKET_OFF(events_discarded), lost);
	return len;
}

/* Sub-buffers [first, current] of the stream's buffer, in order. */
static void snap_ring(struct snapshot *snap, struct snap_stream *ss, bool window)
{
	const struct consumer *c = snap->c;
	const struct chan_info *ci = &c->shm.chan[ss->st.chan];
	const struct ust_shm_buf *buf = shm_buf(&c->shm, ss->st.chan, ss->st.cpu);
	uint64_t off, cur, n, first;
	size_t len;

	/*
	 * I2, acquire: the records below the offset are visible to our copy.
	 * Pairs with the writer's commit store (libust/rseq-commit.h).
	 */
	off = __atomic_load_n(&buf->commit.offset, __ATOMIC_ACQUIRE);
	cur = off >> ci->subbuf_shift;
	first = ss->st.consumed;
	if (window)
		first = cur + 1 >= ci->subbuf_count ? cur + 1 - ci->subbuf_count : 0;
	for (n = first; n <= cur && !snap->err; n++) {
		len = slot_take(snap, ss, n, off);
		if (len)
			snap_packet(snap, ss, n, len);
	}
}

/*
 * Where the flight channels' common history starts: each buffer that
 * was overwritten holds nothing before its oldest sub-buffer, so from
 * the latest of those starts on, the snapshot misses no record of any
 * buffer (a tail with no holes).  Read before any copy: the buffers are
 * frozen, so the oldest sub-buffers stay; one that a racing writer
 * overwrites anyway is dropped, with a message.
 */
static uint64_t flight_start(const struct consumer *c, uint64_t cut_ts)
{
	uint64_t start = 0, off, cur, ts;
	unsigned int i;

	for (i = 0; i < c->nr_streams; i++) {
		const struct stream *s = &c->streams[i];
		const struct chan_info *ci = &c->shm.chan[s->chan];

		if (s->broken || ci->mode != UST_MODE_FLIGHT)
			continue;
		off = __atomic_load_n(&shm_buf(&c->shm, s->chan, s->cpu)->commit.offset,
				      __ATOMIC_ACQUIRE);	/* I2, as in snap_ring() */
		cur = off >> ci->subbuf_shift;
		if (cur + 1 <= ci->subbuf_count)
			continue;	/* never overwritten: whole history */
		ts = ctf_get_le64(shm_slot(&c->shm, s->chan, s->cpu, cur + 1 - ci->subbuf_count) +
			      UST_PACKET_OFF(timestamp_begin));
		if (ts > start && ts <= cut_ts)
			start = ts;
	}
	return start;
}

/* The packets a streamed channel already wrote to its file. */
static void snap_file(struct snapshot *snap, struct snap_stream *ss,
		      const struct stream *s)
{
	struct consumer *c = snap->c;
	const struct chan_info *ci = &c->shm.chan[s->chan];
	uint64_t pos = 0, size;
	int fd;

	if (s->fd < 0 || !s->file_size)
		return;
	fd = openat(c->out_fd, s->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snap->err = -errno;
		return;
	}
	while (pos < s->file_size && !snap->err) {
		if (pread(fd, c->scratch, UST_PACKET_HEADER_SIZE, (off_t)pos) != (ssize_t)UST_PACKET_HEADER_SIZE)
			break;
		size = ctf_get_le64(c->scratch + UST_PACKET_OFF(packet_size)) / 8;
		if (size < UST_PACKET_HEADER_SIZE || size > ci->subbuf_size || pos + size > s->file_size ||
		    pread(fd, c->scratch, size, (off_t)pos) != (ssize_t)size)
			break;
		snap_packet(snap, ss, ctf_get_le64(c->scratch + UST_PACKET_OFF(packet_seq_num)), size);
		pos += size;
	}
	if (pos < s->file_size && !snap->err)
		snap->err = -EIO;
	close(fd);
}

/* The trace's metadata, with the snapshot's UUID in place of the trace's. */
static int snap_metadata(struct snapshot *snap)
{
	struct consumer *c = snap->c;
	char old[37], new[37], *text, *p;
	size_t len = (size_t)c->meta_file_size;
	int fd, ret = 0;

	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	fd = openat(c->out_fd, "metadata", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || pread(fd, text, len, 0) != (ssize_t)len)
		ret = fd < 0 ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	text[len] = '\0';
	ctf_uuid_format(c->shm.uuid, old);
	ctf_uuid_format(snap->uuid, new);
	for (p = text; !ret && (p = strstr(p, old)); p += sizeof(old) - 1)
		memcpy(p, new, sizeof(old) - 1);
	if (!ret) {
		fd = openat(snap->dir_fd, "metadata",
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		ret = fd < 0 ? -errno : cd_output_write_all(fd, text, len);
		if (fd >= 0 && close(fd) && !ret)
			ret = -errno;
	}
	free(text);
	return ret;
}

/* A random (version 4) UUID for the snapshot. */
static void snap_uuid(uint8_t uuid[16], const uint8_t trace[16])
{
	uint64_t mix = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	unsigned int i;

	if (getrandom(uuid, 16, GRND_NONBLOCK) != 16) {
		for (i = 0; i < 16; i++)
			uuid[i] = trace[i] ^ (uint8_t)(mix >> (8 * (i % 8))) ^ (uint8_t)(i + 1);
	}
	uuid[6] = (uuid[6] & 0x0f) | 0x40;
	uuid[8] = (uuid[8] & 0x3f) | 0x80;
}

/*
 * Where a snapshot goes: `out_dir`, or next to the trace directory when
 * it is empty.  Opened by the walk of common/safepath.h.
 */
static int snap_parent(struct consumer *c, const char *out_dir, struct ust_safe_dir *d)
{
	const char *slash = strrchr(c->out_path, '/');
	char parent[UST_FLIGHT_PATH_MAX], why[2 * PATH_MAX];
	int ret;

	if (out_dir[0])
		snprintf(parent, sizeof(parent), "%s", out_dir);
	else
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - c->out_path),
			 c->out_path);
	ret = cd_output_open_parent(parent, d, why, sizeof(why));
	if (ret)
		fprintf(stderr, CONSUMER_NAME ": snapshot: %s\n", why);
	return ret;
}

/*
 * Create the hidden directory the snapshot is written in: `.<base>.part`
 * (then `.<base>.part-1`, ...).  Its name goes to snap->tmp_name.
 */
static int snap_dir_create(struct snapshot *snap, const char *base)
{
	char tmp[sizeof(snap->tmp_name) - 8];

	snprintf(tmp, sizeof(tmp), ".%s.part", base);
	return cd_output_make_dir(snap->parent.fd, tmp, snap->tmp_name,
				  sizeof(snap->tmp_name));
}

/*
 * The snapshot is complete: give it its name, `base` (then `base-1`,
 * ...), never replacing anything.  Returns 0 or a negative errno; its
 * path goes to `path`.
 */
static int snap_dir_publish(struct snapshot *snap, const char *base,
			    char *path, size_t len)
{
	char name[sizeof(snap->tmp_name)], *joined;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		if (i)
			snprintf(name, sizeof(name), "%s-%u", base, i);
		else
			snprintf(name, sizeof(name), "%s", base);
		if (!renameat2(snap->parent.fd, snap->tmp_name, snap->parent.fd, name,
			       RENAME_NOREPLACE))
			break;
		if (errno != EEXIST)
			return -errno;
	}
	if (i == 1000)
		return -EEXIST;
	joined = cd_output_join_path(&snap->parent, name);
	snprintf(path, len, "%s", joined ? joined : name);
	free(joined);
	return 0;
}

/* A snapshot that failed: remove what it wrote, so no half trace is left. */
static void snap_dir_remove(struct snapshot *snap)
{
	unsigned int i;
	char name[48];

	unlinkat(snap->dir_fd, "metadata", 0);
	for (i = 0; i < snap->c->nr_streams; i++) {
		snprintf(name, sizeof(name), "%s", snap->c->streams[i].name);
		unlinkat(snap->dir_fd, name, 0);
	}
	if (unlinkat(snap->parent.fd, snap->tmp_name, AT_REMOVEDIR))
		fprintf(stderr, CONSUMER_NAME ": snapshot: cannot remove '%s/%s': %s\n",
			snap->parent.path, snap->tmp_name, strerror(errno));
}

/* Note snapshot `path` for the summary (`ust record` lists it). */
static void summary_note_snapshot(struct consumer *c, const char *path)
{
	char *lines;

	if (asprintf(&lines, "%s" UST_SUMMARY_KEY_SNAPSHOT "=%s\n",
		     c->snapshot_lines ? c->snapshot_lines : "", path) < 0)
		return;		/* the summary only misses the line */
	free(c->snapshot_lines);
	c->snapshot_lines = lines;
}

/* Every stream of the snapshot, then its metadata (so a trace without it is partial). */
static void snap_streams(struct snapshot *snap)
{
	struct consumer *c = snap->c;
	struct snap_stream ss;
	unsigned int i;

	for (i = 0; i < c->nr_streams && !snap->err; i++) {
		const struct stream *s = &c->streams[i];
		bool flight = c->shm.chan[s->chan].mode == UST_MODE_FLIGHT;

		if (s->broken)
			continue;
		memset(&ss, 0, sizeof(ss));
		ss.st = *s;
		ss.st.have_last = false;
		ss.st.last_discarded = 0;
		ss.fd = -1;
		ss.rebase = flight;
		if (!flight)
			snap_file(snap, &ss, s);
		snap_ring(snap, &ss, flight);
		if (ss.fd >= 0 && close(ss.fd) && !snap->err)
			snap->err = -errno;
	}
	if (!snap->err)
		snap->err = snap_metadata(snap);
}

/*
 * The snapshot `path` is complete: ask the kernel bridge, if there is
 * one, for its kernel part up to the same cut, `<path>-kernel`
 * (kernel-snapshot.c: the bridge writes it under a hidden name and
 * renames it, as we do), send it to the relay while the bridge works,
 * if the trace streams, then wait for the kernel part.
 */
static void snap_kernel_and_relay(struct consumer *c, const char *path, uint64_t cut_ts)
{
	struct cd_kernel_request kernel;

	cd_kernel_snapshot_send(&kernel, path, cut_ts);
	cd_relay_snapshot(c, path);
	if (!cd_kernel_snapshot_wait(&kernel))
		summary_note_snapshot(c, kernel.dir);
}

/*
 * Write one snapshot: in a hidden directory, renamed to
 * `<trace dir name>-snapshot-<n>-<reason>` once complete, removed on
 * failure (a full disk must not leave a truncated packet that would make
 * readers refuse the whole output directory).  Returns 0 or a negative
 * errno; the directory's path goes to `path`.
 */
static int snapshot_write(struct consumer *c, const char *out_dir,
			  const char *reason, uint64_t cut_ts, char *path, size_t len)
{
	struct snapshot snap = { .c = c, .cut_ts = cut_ts };
	char base[256];
	int ret;

	cd_metadata_update(c);	/* every event class the copies may use */
	ret = snap_parent(c, out_dir, &snap.parent);
	if (ret)
		return ret;
	snprintf(base, sizeof(base), "%s-snapshot-%u-%s", strrchr(c->out_path, '/') + 1,
		 c->nr_snapshots + 1, reason);
	snap.dir_fd = snap_dir_create(&snap, base);
	if (snap.dir_fd < 0) {
		ust__safe_dir_close(&snap.parent);
		return snap.dir_fd;
	}
	c->nr_snapshots++;
	snap_uuid(snap.uuid, c->shm.uuid);
	snap.start_ts = flight_start(c, cut_ts);
	snap_streams(&snap);
	/*
	 * I11: the copies are done; the writers may switch sub-buffers again
	 * while the snapshot gets its name, its kernel part and its copy on
	 * the relay, which may take seconds (abi/flight.h).
	 */
	ust__flight_unfreeze(&((struct ust_shm_header *)c->shm.base)->flight);
	if (!snap.err)
		snap.err = snap_dir_publish(&snap, base, path, len);
	if (snap.err) {
		fprintf(stderr, CONSUMER_NAME ": snapshot %s/%s: %s; nothing written\n",
			snap.parent.path, base, strerror(-snap.err));
		snap_dir_remove(&snap);
	} else {
		fprintf(stderr, CONSUMER_NAME ": snapshot %s: %" PRIu64 " events in %" PRIu64
			" packets%s\n", path, snap.events, snap.packets,
			snap.dropped ? " (some packets overwritten while copied)" : "");
		summary_note_snapshot(c, path);
		snap_kernel_and_relay(c, path, cut_ts);
	}
	close(snap.dir_fd);
	ust__safe_dir_close(&snap.parent);
	return snap.err;
}

/* A string field of the shared request, as a terminated private copy. */
static void request_string(char *dst, const char *src, size_t size)
{
	memcpy(dst, src, size);
	dst[size - 1] = '\0';
}

/* Serve the request in `f` (SERVING: ours), then release the flight channels. */
static void request_serve(struct consumer *c, struct ust_flight *f)
{
	char reason[UST_FLIGHT_REASON_MAX], out_dir[UST_FLIGHT_PATH_MAX];
	char path[UST_FLIGHT_PATH_MAX] = "";
	uint64_t cut_ts = f->cut_ts;
	int ret = -ENOTSUP;

	request_string(reason, f->reason, sizeof(reason));
	request_string(out_dir, f->out_dir, sizeof(out_dir));
	cd_sanitize_name(reason);
	if (!reason[0])
		snprintf(reason, sizeof(reason), "trigger");
	if (out_dir[0] && out_dir[0] != '/')
		ret = -EINVAL;		/* `ust snapshot` sends absolute paths */
	else if (c->shm.chan[0].mode == UST_MODE_FLIGHT)
		ret = snapshot_write(c, out_dir, reason, cut_ts, path, sizeof(path));
	memcpy(f->path, path, sizeof(f->path));
	f->result = ret;
	/* I10, I11: unfreeze, done + 1, IDLE (abi/flight.h). */
	ust__flight_serve_end(f);
}

void cd_flight_poll(struct consumer *c)
{
	struct ust_flight *f = &((struct ust_shm_header *)c->shm.base)->flight;

	/* I10: PENDING -> SERVING, acquire (abi/flight.h). */
	if (ust__flight_serve_begin(f))
		request_serve(c, f);
}

/* The exit_code of zombie `pid` from /proc/PID/stat, or -1. */
static int zombie_exit_code(int pid)
{
	char path[64], buf[1024], *p;
	int field, code = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ' &&
	    p[2] == 'Z') {
		/* Fields 3 (the state) to 52 (exit_code, the last) follow. */
		for (field = 2; p && field < 52; field++)
			p = strchr(p + 1, ' ');
		if (p)
			code = atoi(p + 1);
	}
	fclose(f);
	return code;
}

/*
 * How the process ended: its wait status, from the pidfd once it is
 * reaped, or from /proc while it is a zombie; -1 when unknown.
 */
static int exit_status(const struct consumer *c)
{
	struct pidfd_info info;
	int i, code;

	for (i = 0; i < EXIT_WAIT_STEPS; i++) {
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_EXIT;
		if (ioctl(c->pidfd, PIDFD_GET_INFO, &info) == 0 &&
		    (info.mask & PIDFD_INFO_EXIT))
			return info.exit_code;	/* reaped already */
		code = zombie_exit_code(c->shm.pid);
		if (code >= 0)
			return code;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return -1;
}

void cd_flight_final(struct consumer *c)
{
	char reason[UST_FLIGHT_REASON_MAX], path[UST_FLIGHT_PATH_MAX];
	const char *name;
	int status;

	if (c->shm.chan[0].mode != UST_MODE_FLIGHT || c->pidfd < 0)
		return;
	cd_flight_poll(c);		/* a trigger just before the end */
	if (poll(&(struct pollfd){ .fd = c->pidfd, .events = POLLIN }, 1, 0) <= 0)
		return;		/* still running: we were told to stop */
	status = exit_status(c);
	if (status >= 0 && !WIFSIGNALED(status))
		return;		/* a normal exit: no snapshot */
	name = status >= 0 ? sigabbrev_np(WTERMSIG(status)) : NULL;
	if (name)
		snprintf(reason, sizeof(reason), "SIG%s", name);
	else
		snprintf(reason, sizeof(reason), "%s", status >= 0 ? "signal" : "died");
	snapshot_write(c, "", reason, UINT64_MAX, path, sizeof(path));
}
