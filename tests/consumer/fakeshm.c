/*
 * fakeshm.c - libust's writer protocol, single-threaded, for tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows libust/ringbuf.c: a record goes in the current sub-buffer if it
 * fits; otherwise the packet is closed (closing fields) and the next one
 * opened (new header) before the commit offset moves into it.  The real
 * writer publishes {offset, last_ts} with one 16-byte store; here last_ts
 * is stored first and the offset with a store-release, which gives the
 * consumer the same guarantee for the bytes below the offset.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fakeshm.h"


static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint64_t buf_size(const struct fake_shm *f)
{
	return (uint64_t)f->subbuf_size * f->subbuf_count;
}

struct ust_packet_header *fake_shm_packet(struct fake_shm *f, uint32_t cpu,
					  uint64_t n)
{
	return (struct ust_packet_header *)(f->data + cpu * buf_size(f) +
		(n % f->subbuf_count) * f->subbuf_size);
}

uint64_t fake_shm_current(struct fake_shm *f, uint32_t cpu)
{
	return f->bufs[cpu].commit.offset / f->subbuf_size;
}

/*
 * Open packet `n`.  The new packet_seq_num is stored first, as
 * consumer/drain.c asks of writers: a consumer that sees any other byte
 * of the new packet in the slot then also sees the new sequence number.
 */
static void open_packet(struct fake_shm *f, uint32_t cpu, uint64_t n, uint64_t ts)
{
	uint8_t *slot = (uint8_t *)fake_shm_packet(f, cpu, n);
	struct ust_packet_header ph;

	__atomic_store_n((uint64_t *)(slot + offsetof(struct ust_packet_header,
						      packet_seq_num)),
			 n, __ATOMIC_RELAXED);
	/* Compiler barrier: x86 keeps the stores in this order. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	memset(&ph, 0, sizeof(ph));
	ph.magic = UST_CTF_MAGIC;
	memcpy(ph.uuid, f->hdr->trace_uuid, 16);
	ph.stream_id = f->chan->stream_id;
	ph.stream_instance_id = cpu;
	ph.timestamp_begin = ts;
	ph.packet_seq_num = n;
	ph.cpu_id = cpu;
	ph.packet_size = (uint64_t)f->subbuf_size * 8;
	memcpy(slot, &ph, sizeof(ph));
}

static void commit(struct ust_shm_buf *b, uint64_t off, uint64_t ts)
{
	__atomic_store_n(&b->commit.last_ts, ts, __ATOMIC_RELAXED);
	/* Release: record bytes before the offset; pairs with the consumer's acquire. */
	__atomic_store_n(&b->commit.offset, off, __ATOMIC_RELEASE);
}

int fake_shm_create(struct fake_shm *f, uint32_t nr_cpus, uint32_t subbuf_size,
		    uint32_t subbuf_count, uint32_t mode, int32_t pid,
		    const char *procname, uint64_t ts0, bool sealable)
{
	uint64_t off;
	uint32_t cpu;
	int i;

	memset(f, 0, sizeof(*f));
	f->nr_cpus = nr_cpus;
	f->subbuf_size = subbuf_size;
	f->subbuf_count = subbuf_count;
	f->mode = mode;
	f->wait_for_space = true;
	f->fd = memfd_create("fake-ust", sealable ? MFD_ALLOW_SEALING : 0);
	if (f->fd < 0)
		return -errno;
	/* Same plan as libust/session.c: header, channel, bufs, meta, data. */
	off = align_up(sizeof(struct ust_shm_header) + sizeof(struct ust_shm_channel), 64);
	off = align_up(off + nr_cpus * sizeof(struct ust_shm_buf), UST_SHM_PAGE);
	off = align_up(off + FAKE_META_SIZE, UST_SHM_PAGE);
	f->size = off + nr_cpus * buf_size(f);
	if (ftruncate(f->fd, (off_t)f->size))
		return -errno;
	f->base = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	if (f->base == MAP_FAILED)
		return -errno;
	f->hdr = (struct ust_shm_header *)f->base;
	f->hdr->channels_offset = sizeof(*f->hdr);
	f->chan = (struct ust_shm_channel *)(f->base + f->hdr->channels_offset);
	f->chan->bufs_offset = align_up(f->hdr->channels_offset + sizeof(*f->chan), 64);
	f->bufs = (struct ust_shm_buf *)(f->base + f->chan->bufs_offset);
	f->hdr->meta_offset = align_up(f->chan->bufs_offset +
				       nr_cpus * sizeof(struct ust_shm_buf), UST_SHM_PAGE);
	f->hdr->meta_size = FAKE_META_SIZE;
	f->chan->data_offset = off;
	f->data = f->base + off;

	f->hdr->total_size = f->size;
	f->hdr->nr_cpus = nr_cpus;
	f->hdr->nr_channels = 1;
	f->hdr->pid = pid;
	f->hdr->clock_kind = UST_CLOCK_MONOTONIC;
	snprintf(f->hdr->procname, sizeof(f->hdr->procname), "%s", procname);
	for (i = 0; i < 16; i++)
		f->hdr->trace_uuid[i] = (uint8_t)(0x10 + i * 7 + pid);
	snprintf(f->chan->name, sizeof(f->chan->name), "ust");
	f->chan->stream_id = 0;
	f->chan->mode = mode;
	f->chan->subbuf_size = subbuf_size;
	f->chan->subbuf_count = subbuf_count;
	f->chan->event_context = UST_CTX_VTID;	/* fake_shm_write()'s records */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		open_packet(f, cpu, 0, ts0);
		commit(&f->bufs[cpu], UST_PACKET_HEADER_SIZE, ts0);
	}
	/* The magic last, as libust does. */
	f->hdr->version = UST_SHM_VERSION;
	__atomic_store_n(&f->hdr->magic, UST_SHM_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

int fake_shm_add_raw(struct fake_shm *f, const struct ust_meta_event *ev,
		     const void *strings, size_t len)
{
	uint64_t used = f->hdr->meta_used;
	uint8_t *dst = f->base + f->hdr->meta_offset + used;

	if (used + ev->size > f->hdr->meta_size || sizeof(*ev) + len > ev->size)
		return -ENOSPC;
	memset(dst, 0, ev->size);
	memcpy(dst, ev, sizeof(*ev));
	memcpy(dst + sizeof(*ev), strings, len);
	/* Release: the entry before its length; pairs with the consumer's acquire. */
	__atomic_store_n(&f->hdr->meta_used, used + ev->size, __ATOMIC_RELEASE);
	return 0;
}

int fake_shm_add_event(struct fake_shm *f, uint32_t id, const char *name,
		       const char *layout, const char *tsdl, int32_t loglevel)
{
	struct ust_meta_event ev = { 0 };
	char strings[1024];
	size_t n = 0;

	ev.id = id;
	ev.loglevel = loglevel;
	ev.name_len = (uint32_t)strlen(name) + 1;
	ev.layout_len = (uint32_t)strlen(layout) + 1;
	ev.tsdl_len = (uint32_t)strlen(tsdl) + 1;
	if (ev.name_len + ev.layout_len + ev.tsdl_len > sizeof(strings))
		return -E2BIG;
	memcpy(strings + n, name, ev.name_len);
	n += ev.name_len;
	memcpy(strings + n, layout, ev.layout_len);
	n += ev.layout_len;
	memcpy(strings + n, tsdl, ev.tsdl_len);
	n += ev.tsdl_len;
	ev.size = (uint32_t)align_up(sizeof(ev) + n, 8);
	return fake_shm_add_raw(f, &ev, strings, n);
}

/* Discard mode: is sub-buffer `n` free?  (Same test as libust.) */
static bool subbuf_free(struct fake_shm *f, uint32_t cpu, uint64_t n)
{
	/* Acquire: pairs with the consumer's store-release of `consumed`. */
	uint64_t consumed = __atomic_load_n(&f->bufs[cpu].consumed, __ATOMIC_ACQUIRE);

	return (n + 1) * f->subbuf_size - consumed <= buf_size(f);
}

static int switch_packet(struct fake_shm *f, uint32_t cpu, uint64_t ts)
{
	struct ust_shm_buf *b = &f->bufs[cpu];
	uint64_t off = b->commit.offset, n = off / f->subbuf_size;
	struct ust_packet_header *old = fake_shm_packet(f, cpu, n);
	struct timespec nap = { 0, 200000 };

	if (f->mode == UST_MODE_DISCARD) {
		while (!subbuf_free(f, cpu, n + 1)) {
			if (!f->wait_for_space) {
				__atomic_fetch_add(&b->lost_full, 1, __ATOMIC_RELAXED);
				return -ENOBUFS;
			}
			nanosleep(&nap, NULL);
		}
	}
	/* Like libust: the new header first, then the old packet's closing. */
	open_packet(f, cpu, n + 1, ts);
	old->timestamp_end = ts;
	old->content_size = (off - n * f->subbuf_size) * 8;
	old->events_discarded = b->lost_full + b->lost_big;
	/* Before the commit: the consumer cannot have read either packet. */
	if (f->on_switch)
		f->on_switch(f, cpu, n + 1);
	commit(b, (n + 1) * f->subbuf_size + UST_PACKET_HEADER_SIZE, ts);
	return 0;
}

int fake_shm_write(struct fake_shm *f, uint32_t cpu, uint32_t id, uint64_t ts,
		   int32_t vtid, const void *payload, size_t len, int64_t value)
{
	struct ust_shm_buf *b = &f->bufs[cpu];
	uint8_t hdr[UST_EV_HEADER_MAX], *dst;
	uint64_t off;
	size_t hlen;
	int ret;

	for (;;) {
		off = b->commit.offset;
		hlen = ctf_ev_header_encode(hdr, id, ts, b->commit.last_ts, vtid);
		/* As libust: a record ends strictly inside its sub-buffer. */
		if ((off % f->subbuf_size) + hlen + len < f->subbuf_size)
			break;
		if (hlen + len + UST_PACKET_HEADER_SIZE >= f->subbuf_size) {
			__atomic_fetch_add(&b->lost_big, 1, __ATOMIC_RELAXED);
			return -E2BIG;
		}
		ret = switch_packet(f, cpu, ts);
		if (ret)
			return ret;
	}
	dst = f->data + cpu * buf_size(f) + off % buf_size(f);
	memcpy(dst, hdr, hlen);
	memcpy(dst + hlen, payload, len);
	commit(b, off + hlen + len, ts);
	if (f->expect)
		fprintf(f->expect, "%u %llu %llu %u %d %lld\n", cpu,
			(unsigned long long)(off / f->subbuf_size),
			(unsigned long long)ts, id, vtid, (long long)value);
	return 0;
}
