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
 *     session clock, host and process; the trace's name and creation
 *     time in its env are the dead consumer's, taken from it), else we
 *     refuse (and `ust record` starts a new trace instead).  The file is cut back to that fixed
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
 *   - a snapshot request it was serving (SERVING) is served again; a
 *     --trigger takes the last request's cut as the last time it fired.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "consumer.h"

#define RESUME_HEAD_MAX	(1u << 20)	/* metadata bytes read for its fixed part */

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
 * The value of `key = "VALUE";` in the env block of the metadata `text`
 * (`len` bytes, not terminated) into `out`; false when not there whole.
 */
static bool env_value(const char *text, size_t len, const char *key, char *out,
		      size_t outlen)
{
	char pat[64];
	const char *p, *end;
	size_t n;

	n = (size_t)snprintf(pat, sizeof(pat), "\t%s = \"", key);
	p = memmem(text, len, pat, n);
	if (!p)
		return false;
	p += n;
	end = memchr(p, '"', len - (size_t)(p - text));
	if (!end || (size_t)(end - p) >= outlen)
		return false;
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return true;
}

/*
 * What the env of the dead consumer's metadata says of its trace, not of
 * the session: its name (the relay session's, when it streamed before it
 * fell back here) and creation time (metadata.c's format, local time with
 * its offset).  We write the same, so that the fixed parts compare.
 */
static void resume_env(struct consumer *c, const char *old, size_t len)
{
	char when[64];
	struct tm tm;

	if (!env_value(old, len, "trace_name", c->resume_name, sizeof(c->resume_name)))
		c->resume_name[0] = '\0';
	memset(&tm, 0, sizeof(tm));
	if (env_value(old, len, "trace_creation_datetime", when, sizeof(when))) {
		const char *end = strptime(when, "%Y%m%dT%H%M%S%z", &tm);

		if (end && !*end)
			c->created = timegm(&tm) - tm.tm_gmtoff;
	}
}

/*
 * `metadata`: keep it only if it starts with the fixed part we would
 * write (or is a torn piece of it), cut it back to that part; the event
 * classes follow from the log (cd_metadata_update()).
 */
static int resume_metadata(struct consumer *c, int pid)
{
	size_t len, have, head;
	char *text = NULL, *old = NULL;
	struct stat st;
	int fd, ret = 0;

	fd = openat(c->out_fd, META_FILE, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	/* The fixed part is a few KiB: its env is in the first MiB, if anywhere. */
	head = (size_t)st.st_size < RESUME_HEAD_MAX ? (size_t)st.st_size : RESUME_HEAD_MAX;
	old = malloc(head + 1);
	if (!old || pread(fd, old, head, 0) != (ssize_t)head) {
		ret = old ? -EIO : -ENOMEM;
		goto out;
	}
	resume_env(c, old, head);
	ret = cd_metadata_header_text(c, pid, &text, &len);
	if (ret)
		goto out;
	have = head < len ? head : len;
	if (memcmp(old, text, have)) {
		snprintf(c->error, sizeof(c->error), "cannot resume '%.*s': its metadata "
			 "is not this session's", (int)sizeof(c->error) / 2, c->out_path);
		ret = -EINVAL;
	}
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
	free(old);
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
	s->last_instance = ctf_get_le64(pkt + UST_PACKET_OFF(stream_instance_id));
	s->last_ts_end = ctf_get_le64(pkt + UST_PACKET_OFF(timestamp_end));
	s->last_discarded = ctf_get_le64(pkt + UST_PACKET_OFF(events_discarded));
	c->stats.packets++;
	c->stats.events += records;
}

/*
 * The stream's file as the dead consumer left it: whole valid packets
 * kept and counted, the rest cut off.  No file: nothing to do.
 */
int cd_resume_stream(struct consumer *c, struct stream *s)
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

/*
 * A snapshot the dead consumer was serving: PENDING again, for us.  And
 * a --trigger (trigger.c) does not fire again on a match the last
 * request already covered: the dead consumer may have fired on it.
 */
static void resume_flight(struct consumer *c)
{
	struct ust_flight *f = &((struct ust_shm_header *)c->shm.base)->flight;
	uint32_t serving = UST_FLIGHT_SERVING, state;

	/* I10: the dead consumer's; nobody else may touch a SERVING request. */
	__atomic_compare_exchange_n(&f->state, &serving, UST_FLIGHT_PENDING, 0,
				    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
	/*
	 * I10, acquire: pairs with the store-release of PENDING (or of IDLE
	 * after one was served), so the last request's cut is visible; a
	 * CLAIMED one is being filled, and its cut is not read.
	 */
	state = __atomic_load_n(&f->state, __ATOMIC_ACQUIRE);
	if (state == UST_FLIGHT_PENDING ||
	    (state == UST_FLIGHT_IDLE && __atomic_load_n(&f->done, __ATOMIC_RELAXED)))
		cd_trigger_resume(c, __atomic_load_n(&f->cut_ts, __ATOMIC_RELAXED));
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
	c->resume_name[0] = '\0';	/* the new trace is ours: named and dated by us */
	c->created = 0;
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
	cd_metadata_update(c);	/* the event classes, for the packet checks */
	for (i = 0; i < c->nr_streams && !ret; i++) {
		struct stream *s = &c->streams[i];

		ret = cd_resume_stream(c, s);
		/* Not the packet after the last on disk twice: it may be unreleased. */
		cd_stream_start_at(c, s, s->have_last ? s->last_seq + 1 : 0);
	}
	if (!ret)
		ret = cd_threads_resume(c);
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
