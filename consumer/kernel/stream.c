/*
 * stream.c - reading one CPU's ftrace ring and writing its CTF stream.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each pass (merge.c) reads every CPU's trace_pipe_raw (a sub-buffer,
 * full or not, per read) until it is empty, decodes the sub-buffers
 * with libtraceevent's kbuffer, converts each record into the open
 * packet of its CPU's stream, in time order across the CPUs, and writes
 * the packets whole at the end of the pass.  Sub-buffers lost to
 * overwriting are counted (kbuffer's missed events) into the stream's
 * cumulative events_discarded.
 *
 * Packet: struct ust_packet_header (ctf/format.h), then events:
 *	uint16 id, uint32 low timestamp bits		(compact)
 *	uint16 65535, uint32 id, uint64 timestamp	(extended)
 *	int32 _tid, int32 _pid, payload (metadata.c declares the fields)
 * all little endian and byte aligned.  packet_size is content_size
 * rounded up to a byte: no padding.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "kerneld.h"
#include "abi/shm.h"
#include "ctf/format.h"

#define PKT_HDR		sizeof(struct ust_packet_header)
#define PKT_CAP		(1u << 20)	/* flushed before it would overflow */
#define EV_ID_EXTENDED	65535u
#define EV_HDR_MAX	(2 + 4 + 8 + 8)	/* extended header + tid, pid */

int kd_streams_open(struct kerneld *kd)
{
	unsigned int i;

	kd->streams = calloc(kd->nr_cpus, sizeof(*kd->streams));
	if (!kd->streams)
		return -ENOMEM;
	for (i = 0; i < kd->nr_cpus; i++) {
		struct kstream *s = &kd->streams[i];
		char name[32];

		s->cpu = i;
		s->fd = -1;
		s->cap = PKT_CAP;
		s->pkt = malloc(s->cap);
		if (!s->pkt)
			return -ENOMEM;
		snprintf(name, sizeof(name), "kernel_%u", i);
		s->fd = openat(kd->dir_fd, name, O_WRONLY | O_CREAT | O_EXCL |
			       O_NOFOLLOW | O_CLOEXEC, 0600);
		if (s->fd < 0)
			return -errno;
		s->tcpu = tracefs_cpu_open(kd->inst, i, true);
		if (!s->tcpu)
			return -errno ? -errno : -EIO;
		if (kd_merge_open(kd, s))
			return -ENOMEM;
	}
	return 0;
}

void kd_streams_close(struct kerneld *kd)
{
	unsigned int i;

	for (i = 0; kd->streams && i < kd->nr_cpus; i++) {
		struct kstream *s = &kd->streams[i];

		if (s->tcpu)
			tracefs_cpu_close(s->tcpu);
		if (s->fd >= 0)
			close(s->fd);
		free(s->pkt);
		kd_merge_close(s);
	}
	free(kd->streams);
	kd->streams = NULL;
}

int kd_packet_write_local(struct kerneld *kd, struct kstream *s, const void *pkt, size_t len)
{
	const uint8_t *p = pkt;
	size_t done = 0;
	off_t size;

	if (s->write_failed)
		return -EIO;
	size = lseek(s->fd, 0, SEEK_END);
	while (done < len) {
		ssize_t n = write(s->fd, p + done, len - done);

		if (n <= 0) {
			/* Only whole packets: cut the partial one off again. */
			fprintf(stderr, "ust record: kernel events: %s/kernel_%u: %s; "
				"this CPU's stream stops here\n", kd->dir_path, s->cpu,
				n < 0 ? strerror(errno) : "short write");
			if (size >= 0 && ftruncate(s->fd, size))
				size = -1;
			s->write_failed = true;
			return -EIO;
		}
		done += n;
	}
	return 0;
}

/*
 * Write the open packet, or an empty one that carries new losses.  The
 * first packet of a stream is written even when empty, so that its
 * events_discarded (0) is the base babeltrace2 counts losses from.  It
 * goes to the relay when the session streams there (relay.c).
 */
int kd_packet_flush(struct kerneld *kd, struct kstream *s)
{
	struct ust_packet_header h;
	uint64_t events = s->nr_events;

	if (!s->nr_events && s->discarded == s->discarded_written && s->seq && !s->seq_force)
		return 0;
	s->seq_force = false;
	if (!s->nr_events) {
		s->begin_ts = s->last_ts;
		s->len = PKT_HDR;
	}
	memset(&h, 0, sizeof(h));
	h.magic = UST_CTF_MAGIC;
	memcpy(h.uuid, s->uuid ? s->uuid : kd->uuid, sizeof(h.uuid));
	h.stream_id = 0;
	h.stream_instance_id = s->cpu;
	h.timestamp_begin = s->begin_ts;
	h.packet_seq_num = s->seq++;
	h.cpu_id = s->cpu;
	h.timestamp_end = s->last_ts;
	h.content_size = (uint64_t)s->len * 8;
	h.packet_size = h.content_size;
	h.events_discarded = s->discarded;
	memcpy(s->pkt, &h, PKT_HDR);
	s->discarded_written = s->discarded;
	s->total_events += s->nr_events;
	s->nr_events = 0;
	/* A snapshot's stream (its own uuid, flight.c) stays local. */
	if (!s->uuid && kd_relay_packet(kd, s, events))
		return 0;
	return kd_packet_write_local(kd, s, s->pkt, s->len);
}

/*
 * Every stream ends at `ts` with a last packet (empty when the CPU had
 * nothing more), as LTTng's streams end when the session stops: tools
 * that analyse only the time every stream covers (the LTTng analyses'
 * default "intersection") then see the whole recording.
 */
void kd_streams_end(struct kerneld *kd, uint64_t ts)
{
	unsigned int i;

	for (i = 0; i < kd->nr_cpus; i++) {
		struct kstream *s = &kd->streams[i];
		uint64_t lost = kd->opts.flight ? 0 : kd_cpu_lost(kd, s->cpu);

		/* Losses no sub-buffer reported go in the last packet. */
		if (lost > s->discarded)
			s->discarded = lost;
		kd_packet_flush(kd, s);
		if (s->last_ts >= ts)
			continue;
		s->last_ts = ts;
		s->seq_force = true;
		kd_packet_flush(kd, s);
	}
}

/*
 * Room for one event of up to `payload_max` bytes, its header and
 * context written; returns where the payload goes, or NULL when the
 * stream cannot take it.  Timestamps never go backwards in a stream.
 */
uint8_t *kd_event_begin(struct kerneld *kd, struct kstream *s,
			const struct kclass *k, uint64_t ts, int32_t tid,
			int32_t pid, size_t payload_max)
{
	uint64_t prev;
	uint8_t *p;
	uint16_t id16;

	if (PKT_HDR + EV_HDR_MAX + payload_max > s->cap)
		return NULL;
	if (s->nr_events && s->len + EV_HDR_MAX + payload_max > s->cap)
		kd_packet_flush(kd, s);
	if (ts < s->last_ts)
		ts = s->last_ts;
	if (!s->nr_events) {
		s->len = PKT_HDR;
		s->begin_ts = ts;
	}
	prev = s->nr_events ? s->last_ts : s->begin_ts;
	p = s->pkt + s->len;
	if (k->ctf_id < EV_ID_EXTENDED && ts - prev <= UINT32_MAX) {
		uint32_t low = (uint32_t)ts;

		id16 = (uint16_t)k->ctf_id;
		memcpy(p, &id16, 2);
		memcpy(p + 2, &low, 4);
		p += 6;
	} else {
		id16 = EV_ID_EXTENDED;
		memcpy(p, &id16, 2);
		memcpy(p + 2, &k->ctf_id, 4);
		memcpy(p + 6, &ts, 8);
		p += 14;
	}
	memcpy(p, &tid, 4);
	memcpy(p + 4, &pid, 4);
	s->last_ts = ts;
	return p + 8;
}

void kd_event_end(struct kstream *s, uint8_t *end)
{
	s->len = end - s->pkt;
	s->nr_events++;
}

/* A __data_loc / __rel_loc string of the record, as a C string. */
static uint8_t *put_dyn_string(uint8_t *out, const struct kfield *k,
			       const uint8_t *data, unsigned int size)
{
	const struct tep_format_field *f = k->src;
	uint32_t loc, off, len;

	memcpy(&loc, data + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off > size || len > size - off)
		len = 0;
	len = strnlen((const char *)data + off, len);
	memcpy(out, data + off, len);
	out[len] = '\0';
	return out + len + 1;
}

/* The string a path argument points to (paths.c), at most KD_PATH_MAX. */
static uint8_t *put_user_path(struct kerneld *kd, uint8_t *out, const struct kfield *k,
			      const uint8_t *data, int32_t tid)
{
	uint64_t ptr;
	char *name;
	size_t n;

	memcpy(&ptr, data + k->src->offset, 8);
	name = kd_paths_take(kd, tid, ptr);
	n = name ? strnlen(name, KD_PATH_MAX - 1) : 0;
	memcpy(out, name ? name : "", n);
	out[n] = '\0';
	free(name);
	return out + n + 1;
}

static uint8_t *put_field(struct kerneld *kd, uint8_t *out, const struct kfield *k,
			  const uint8_t *data, unsigned int size, int32_t cur)
{
	const struct tep_format_field *f = k->src;
	uint32_t rwbs;
	size_t n;
	int32_t tid;

	switch (k->kind) {
	case KF_PRIO:
		memcpy(&tid, data + f->offset, 4);
		tid -= KD_MAX_RT_PRIO;
		memcpy(out, &tid, 4);
		return out + 4;
	case KF_RWBS:
		rwbs = kd_lttng_rwbs((const char *)data + f->offset, k->count);
		memcpy(out, &rwbs, 4);
		return out + 4;
	case KF_CUR_TID:
		memcpy(out, &cur, 4);
		return out + 4;
	case KF_IN_INTERRUPT:
		/* TRACE_FLAG_NMI 0x40, _HARDIRQ 0x08, _SOFTIRQ 0x10 */
		n = data[f->offset];
		*out = n & 0x40 ? 3 : n & 0x08 ? 2 : n & 0x10 ? 1 : 0;
		return out + 1;
	case KF_USER_PATH:
		return put_user_path(kd, out, k, data, cur);
	case KF_CHARS:
		n = strnlen((const char *)data + f->offset, k->size);
		memcpy(out, data + f->offset, n);
		out[n] = '\0';
		return out + n + 1;
	case KF_DYN_CHARS:
		return put_dyn_string(out, k, data, size);
	case KF_TGID:
		memcpy(&tid, data + f->offset, 4);
		tid = kd_tgid_of(kd, tid);
		memcpy(out, &tid, 4);
		return out + 4;
	case KF_INT_ARRAY:
		memcpy(out, data + f->offset, (size_t)k->size * k->count);
		return out + (size_t)k->size * k->count;
	default:
		memcpy(out, data + f->offset, k->size);
		return out + k->size;
	}
}

/* Whether every field class `k` reads lies inside a record of `size` bytes. */
static bool record_fits(const struct kclass *k, unsigned int size)
{
	const struct tep_format_field *f;
	unsigned int i;

	for (i = 0; i < k->nr_fields + 2; i++) {
		f = i < k->nr_fields ? k->fields[i].src : k->role_field[i - k->nr_fields];
		if (f && (unsigned int)(f->offset + f->size) > size)
			return false;
	}
	return true;
}

/* One ring record into the stream; records of unknown types are skipped. */
void kd_convert_record(struct kerneld *kd, struct kstream *s, const uint8_t *data,
		       unsigned int size, uint64_t ts)
{
	struct tep_record rec = { .data = (void *)data, .size = (int)size };
	const struct kclass *k;
	int type, tid, pid;
	uint8_t *p;
	unsigned int i;

	/* common_type and common_pid, where the formats put them. */
	type = tep_data_type(kd->tep, &rec);
	tid = tep_data_pid(kd->tep, &rec);
	if (type < 0 || type > kd->classes.max_id || !(k = kd->classes.by_id[type]) ||
	    !record_fits(k, size))
		return;
	pid = kd_tgid_of(kd, tid);
	if (!k->hidden && (k->sched_context || !kd_muted(kd, pid))) {
		/* Strings gain a NUL each; added fields are 4 bytes. */
		p = kd_event_begin(kd, s, k, ts, tid, pid, size + 5 * k->nr_fields +
				   (k->user_path ? KD_PATH_MAX : 0));
		if (p) {
			for (i = 0; i < k->nr_fields; i++)
				p = put_field(kd, p, &k->fields[i], data, size, tid);
			kd_event_end(s, p);
		}
	}
	kd_tasks_follow(kd, k, data, size, tid);
	/* A process of the traced tree: its memory map after its exec. */
	if (k->role == KR_EXEC && kd->opts.root && !kd_muted(kd, tid))
		kd_statedump_vm_maps(kd, s, ts, tid, tid);
}
