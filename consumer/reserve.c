/*
 * reserve.c - what a full disk must not cost: the room to say what was
 * lost.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * When the trace directory is made, the consumer takes some room on its
 * file system: an unnamed file (O_TMPFILE, so nothing is left behind,
 * whatever happens to us) with blocks allocated (fallocate).  When
 * writing stops on an error (output.c, cd_output_stop()), that room is
 * given back, and at the end each stream whose packets were not all
 * written gets one closing packet: no record, timestamps at the end of
 * its last packet, and events_discarded counting, besides the buffer's
 * own losses, every record of the packets that could not be written.  So
 * the trace itself says how many records it lacks (babeltrace2 and `ust
 * report` report them as discarded, and the gap in packet_seq_num as
 * discarded packets), as the summary does ("lost", "unwritten").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "consumer.h"

#define RESERVE_PER_STREAM	4096	/* a page: one small packet, maybe a new file */
#define RESERVE_MAX		(1u << 20)
#define RESERVE_THREADS		64	/* thread streams: as many as threads come and go */

void cd_reserve_take(struct consumer *c)
{
	uint64_t streams = (uint64_t)c->shm.nr_channels * c->shm.nr_cpus + 1;
	uint64_t len;

	if (c->shm.thread_chan >= 0)
		streams += RESERVE_THREADS;
	len = streams * RESERVE_PER_STREAM;

	c->reserve_fd = openat(c->out_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (c->reserve_fd < 0)
		return;		/* a file system without O_TMPFILE: no room kept */
	if (len > RESERVE_MAX)
		len = RESERVE_MAX;
	if (fallocate(c->reserve_fd, 0, 0, (off_t)len)) {
		close(c->reserve_fd);
		c->reserve_fd = -1;
	}
}

void cd_reserve_release(struct consumer *c)
{
	if (c->reserve_fd >= 0)
		close(c->reserve_fd);
	c->reserve_fd = -1;
}

/* Append `len` bytes at the end of the stream's file, or leave it as it was. */
static int stream_append_raw(struct consumer *c, struct stream *s,
			     const uint8_t *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (s->fd < 0) {
		s->fd = cd_output_open_file(c, s->name);
		if (s->fd < 0)
			return s->fd;
	}
	while (done < len) {
		n = pwrite(s->fd, buf + done, len - done, (off_t)(s->file_size + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (ftruncate(s->fd, (off_t)s->file_size))
				return -errno;
			return n < 0 ? -errno : -EIO;
		}
		done += (size_t)n;
	}
	s->file_size += len;
	c->stats.bytes += len;
	return 0;
}

/*
 * An empty packet of stream `s`: sequence number `seq`, at time `ts`,
 * `discarded` records lost so far.  Laid out in memory as on disk
 * (little endian), as libust writes it.
 */
static int stream_empty_packet(struct consumer *c, struct stream *s, uint64_t seq,
			       uint64_t ts, uint64_t discarded)
{
	struct ust_packet_header ph;

	memset(&ph, 0, sizeof(ph));
	ph.magic = UST_CTF_MAGIC;
	memcpy(ph.uuid, c->shm.uuid, sizeof(ph.uuid));
	ph.stream_id = c->shm.chan[s->chan].stream_id;
	ph.stream_instance_id = s->instance;
	ph.timestamp_begin = ts;
	ph.packet_seq_num = seq;
	ph.cpu_id = s->cpu_slot;
	ph.timestamp_end = ts;
	ph.content_size = sizeof(ph) * 8;
	ph.packet_size = sizeof(ph) * 8;
	ph.events_discarded = discarded;
	return stream_append_raw(c, s, (const uint8_t *)&ph, sizeof(ph));
}

/*
 * The closing packet of stream `s`, after its last one (sequence number
 * last + 1, so the gap counts exactly the packets not written): every
 * record lost, those of the unwritten packets included.  A stream that
 * wrote nothing first gets an empty packet counting 0 at its first
 * packet's time (and number, less one when it can): a reader counts the
 * losses of a stream from one packet to the next, and says only "may
 * have discarded" before the first.
 */
static int stream_close_unwritten(struct consumer *c, struct stream *s)
{
	int ret = 0;

	if (!s->file_size)
		ret = stream_empty_packet(c, s, s->first_seq - (s->first_seq > 0),
					  s->first_ts, 0);
	if (!ret)
		ret = stream_empty_packet(c, s, s->last_seq + 1, s->last_ts_end,
					  s->last_discarded + s->unwritten);
	return ret;
}

/*
 * A closed thread stream's closing packet: its file, when it has one, is
 * opened again (no O_CREAT: it is the one we wrote) and closed after.
 */
static int thread_stream_close_unwritten(struct consumer *c, struct stream *s)
{
	int ret;

	s->fd = openat(c->out_fd, s->name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0 && (errno != ENOENT || s->file_size))
		return -errno;
	ret = stream_close_unwritten(c, s);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return ret;
}

void cd_reserve_close_streams(struct consumer *c)
{
	unsigned int i, failed = 0;
	struct stream *ts;
	size_t nr, k;
	int ret = 0;

	if (!c->writing_stopped)
		return;
	cd_reserve_release(c);
	for (i = 0; i < c->nr_streams; i++) {
		struct stream *s = &c->streams[i];

		if (!s->unwritten)
			continue;
		ret = stream_close_unwritten(c, s);
		failed += ret != 0;
	}
	/* Per-thread buffers: their streams are closed by now (threads.c). */
	ts = cd_threads_unwritten(c, &nr);
	for (k = 0; k < nr; k++) {
		ret = thread_stream_close_unwritten(c, &ts[k]);
		failed += ret != 0;
	}
	if (failed)
		fprintf(stderr, CONSUMER_NAME ": %u streams do not say in the trace how many "
			"records they lack (%s); the summary does\n", failed, strerror(-ret));
}
