/*
 * resume.c - take over the trace of a consumer that died (`ust record`
 * starts us with --resume DIR on the memfd it kept).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The dead consumer left a trace directory of whole packets, maybe with
 * a torn packet or metadata block at the end (a SIGKILL in the middle of
 * a write), and in the shared memory, each buffer's `consumed`: the next
 * sub-buffer it would have read.  We go on from there, in the same
 * directory:
 *
 *   - metadata: its fixed part must be the one we would write (the same
 *     session clock, host and process), else we refuse (and `ust record`
 *     starts a new trace instead).  The file is cut back to that fixed
 *     part and every event class of the log is appended again, in the
 *     same order and words: what was there is a prefix of it.
 *   - each stream file: read packet by packet, each checked as the drain
 *     checks a packet (magic, stream, size, every record's layout); the
 *     first that fails and everything after it is cut off (a torn write).
 *     Its packets and records count in our summary as if we had written
 *     them, and the last one sets the stream's sequence state.
 *   - reading resumes at the later of `consumed` and the sub-buffer after
 *     the last packet on disk (the dead consumer may have written a packet
 *     without publishing `consumed` yet: it is not written twice).
 *   - a snapshot request it was serving (SERVING) is served again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "consumer.h"

#define META_FILE	"metadata"

/* The trace directory to resume: ours, opened by the safe walk. */
static int resume_dir(struct consumer *c, const char *dir)
{
	char err[2 * PATH_MAX];
	struct ust_safe_dir d;

	if (ust__safe_dir_open(dir, 0, 0, &d, err, sizeof(err))) {
		snprintf(c->error, sizeof(c->error), "cannot resume '%.*s': %.*s",
			 (int)sizeof(c->error) / 2, dir, (int)sizeof(c->error) / 3, err);
		return -EINVAL;
	}
	if (d.st.st_uid != geteuid()) {
		snprintf(c->error, sizeof(c->error), "cannot resume '%.*s': not ours",
			 (int)sizeof(c->error) / 2, dir);
		ust__safe_dir_close(&d);
		return -EPERM;
	}
	c->out_fd = d.fd;
	c->out_path = strdup(d.path);
	return c->out_path ? 0 : -ENOMEM;
}

/*
 * `metadata`: keep it only if it starts with the fixed part we would
 * write (or is a torn piece of it), cut it back to that part; the event
 * classes follow from the log (cd_metadata_update()).
 */
static int resume_metadata(struct consumer *c, int pid)
{
	size_t len, have;
	char *text, *old;
	struct stat st;
	int fd, ret;

	ret = cd_metadata_header_text(c, pid, &text, &len);
	if (ret)
		return ret;
	fd = openat(c->out_fd, META_FILE, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	have = (size_t)st.st_size < len ? (size_t)st.st_size : len;
	old = malloc(have + 1);
	if (!old || pread(fd, old, have, 0) != (ssize_t)have || memcmp(old, text, have)) {
		snprintf(c->error, sizeof(c->error), "cannot resume '%.*s': its metadata "
			 "is not this session's", (int)sizeof(c->error) / 2, c->out_path);
		ret = -EINVAL;
	}
	free(old);
	if (!ret && (pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len)))
		ret = -errno;
out:
	if (ret && fd >= 0)
		close(fd);
	if (!ret) {
		c->meta_fd = fd;
		c->meta_file_size = len;
		c->stats.bytes += len;
	}
	free(text);
	return ret;
}

/*
 * Packet `pkt` of `len` bytes read back from stream `s`'s file: whole and
 * valid?  Sets *records.
 */
static bool packet_ok(const struct consumer *c, const struct stream *s,
		      const uint8_t *pkt, size_t len, uint64_t *records)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	struct ust_walk_result res;

	if (ctf_get_le64(pkt + UST_PACKET_OFF(content_size)) != (uint64_t)len * 8)
		return false;
	if (shm_packet_walk(pkt, len, c->shm.uuid, ci->stream_id, &ci->table,
			    NULL, NULL, &res))
		return false;
	*records = res.nr_records;
	return true;
}

/* Take the stream's packet just read (at `pos`) as the stream's last. */
static void stream_take(struct consumer *c, struct stream *s, const uint8_t *pkt,
			uint64_t records)
{
	uint64_t seq = ctf_get_le64(pkt + UST_PACKET_OFF(packet_seq_num));

	if (!s->have_last) {
		s->first_ts = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_begin));
		s->first_seq = seq;
	}
	s->have_last = true;
	s->last_seq = seq;
	s->last_ts_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	s->last_discarded = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	c->stats.packets++;
	c->stats.events += records;
}

/*
 * The stream's file as the dead consumer left it: whole valid packets
 * kept and counted, the rest cut off.
 */
static int resume_stream(struct consumer *c, struct stream *s)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	uint64_t pos = 0, size, records;
	struct stat st;
	int fd;

	fd = openat(c->out_fd, s->name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	while (pos + UST_PACKET_HEADER_SIZE <= (uint64_t)st.st_size) {
		if (pread(fd, c->scratch, UST_PACKET_HEADER_SIZE, (off_t)pos) !=
		    (ssize_t)UST_PACKET_HEADER_SIZE)
			break;
		size = ctf_get_le64(c->scratch + UST_PACKET_OFF(packet_size)) / 8;
		if (size < UST_PACKET_HEADER_SIZE || size > ci->subbuf_size ||
		    pos + size > (uint64_t)st.st_size ||
		    pread(fd, c->scratch, size, (off_t)pos) != (ssize_t)size ||
		    !packet_ok(c, s, c->scratch, (size_t)size, &records))
			break;
		stream_take(c, s, c->scratch, records);
		pos += size;
	}
	if (pos < (uint64_t)st.st_size) {
		fprintf(stderr, CONSUMER_NAME ": %s/%s: %" PRIu64 " bytes of a torn packet cut off\n",
			c->out_path, s->name, (uint64_t)st.st_size - pos);
		if (ftruncate(fd, (off_t)pos)) {
			close(fd);
			return -errno;
		}
	}
	s->fd = fd;
	s->file_size = pos;
	c->stats.bytes += pos;
	return 0;
}

/* Where to read next: after the dead consumer's `consumed` and our last packet. */
static void stream_resume_position(struct consumer *c, struct stream *s)
{
	const struct chan_info *ci = &c->shm.chan[s->chan];
	const struct ust_shm_buf *buf = shm_buf(&c->shm, s->chan, s->cpu);
	uint64_t cur, consumed;

	/* I6: the dead consumer's last store; I2: acquire, as in drain.c. */
	consumed = __atomic_load_n(&buf->consumed, __ATOMIC_RELAXED) >> ci->subbuf_shift;
	cur = __atomic_load_n(&buf->commit.offset, __ATOMIC_ACQUIRE) >> ci->subbuf_shift;
	if (s->have_last && s->last_seq + 1 > consumed)
		consumed = s->last_seq + 1;
	/* I1: an impossible position is not trusted; the drain handles laps. */
	s->consumed = consumed <= cur ? consumed : cur;
}

/* A snapshot the dead consumer was serving: PENDING again, for us. */
static void resume_flight(struct consumer *c)
{
	struct ust_flight *f = &((struct ust_shm_header *)c->shm.base)->flight;
	uint32_t serving = UST_FLIGHT_SERVING;

	/* I10: the dead consumer's; nobody else may touch a SERVING request. */
	__atomic_compare_exchange_n(&f->state, &serving, UST_FLIGHT_PENDING, 0,
				    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/*
 * The dead consumer's trace cannot be continued (no metadata of ours:
 * it died before writing it, or on another clock): a new trace next to
 * it takes what follows.  Returns -EAGAIN for consumer_start().
 */
static int resume_elsewhere(struct consumer *c)
{
	const char *slash = strrchr(c->out_path, '/');

	fprintf(stderr, CONSUMER_NAME ": %s; a new trace takes what follows\n",
		c->error[0] ? c->error : "cannot resume");
	snprintf(c->resume_parent, sizeof(c->resume_parent), "%.*s",
		 slash && slash != c->out_path ? (int)(slash - c->out_path) : 1, c->out_path);
	close(c->out_fd);
	c->out_fd = -1;
	free(c->out_path);
	c->out_path = NULL;
	c->error[0] = '\0';
	return -EAGAIN;
}

int cd_resume(struct consumer *c, const char *dir, int pid)
{
	unsigned int i;
	int ret;

	ret = resume_dir(c, dir);
	if (ret) {
		fprintf(stderr, CONSUMER_NAME ": %s\n", c->error[0] ? c->error : strerror(-ret));
		return ret;
	}
	ret = resume_metadata(c, pid);
	if (ret)
		return resume_elsewhere(c);
	ret = cd_streams_init(c);
	if (ret)
		return ret;
	cd_metadata_update(c);	/* the event classes, for the packet checks */
	for (i = 0; i < c->nr_streams && !ret; i++) {
		ret = resume_stream(c, &c->streams[i]);
		stream_resume_position(c, &c->streams[i]);
	}
	if (ret) {
		snprintf(c->error, sizeof(c->error), "cannot resume '%.*s': %s",
			 (int)sizeof(c->error) / 2, c->out_path, strerror(-ret));
		return ret;
	}
	resume_flight(c);
	cd_reserve_take(c);
	fprintf(stderr, CONSUMER_NAME ": resumed %s: %" PRIu64 " events in %" PRIu64
		" packets already written\n", c->out_path, c->stats.events, c->stats.packets);
	return 0;
}
