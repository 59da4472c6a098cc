/*
 * test_ringbuf.c - unit tests of libust's per-CPU ring buffers.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Each test maps a session exactly as libust does at start-up (but starts
 * no consumer), writes records through the public ust_event_write(), and
 * reads the buffers back the way the consumer does: complete sub-buffers
 * as they are, the current one with its closing fields filled in, every
 * packet checked and walked by shm_packet_walk().
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <ust/tracepoint.h>
#include <ust/ust.h>

#include "../check_run.h"
#include "shm/packet.h"
#include "session.h"

#define NR_EVENTS 40	/* more than the 31 compact ids */

static struct ust_event_desc events[NR_EVENTS];
static struct ust_event_desc *event_ptrs[NR_EVENTS];
static struct ust_provider provider = {
	.struct_size = sizeof(struct ust_provider),
	.abi_version = UST_ABI_VERSION,
	.facility = "test",
	.events = event_ptrs,
	.nr_events = NR_EVENTS,
};
static char event_names[NR_EVENTS][16];
static struct ust_session *session;
static struct ust_config config;

/* Event 0: {uint32 v}; event 1: {uint32 v, string s}; others {uint32 v}. */
static void provider_setup(void)
{
	int i;

	if (provider.registered)
		return;
	for (i = 0; i < NR_EVENTS; i++) {
		snprintf(event_names[i], sizeof(event_names[i]), "ev%d", i);
		events[i].struct_size = sizeof(struct ust_event_desc);
		events[i].name = event_names[i];
		events[i].loglevel = -1;
		events[i].tsdl_fields = i == 1 ?
			"integer { size = 32; align = 8; signed = false; } _v; string _s;" :
			"integer { size = 32; align = 8; signed = false; } _v;";
		events[i].layout = i == 1 ? "F4 S" : "F4";
		event_ptrs[i] = &events[i];
	}
	ck_assert_int_eq(ust_provider_register(&provider), 0);
}

static void session_start_ctx(uint32_t mode, uint32_t subbuf_size,
			      uint32_t subbuf_count, uint32_t event_context)
{
	static char star[] = "*";
	int fd;

	memset(&config, 0, sizeof(config));
	config.patterns[0] = star;
	config.nr_patterns = 1;
	config.mode = mode;
	config.event_context = event_context;
	config.subbuf_size = subbuf_size;
	config.subbuf_count = subbuf_count;
	config.clock_kind = ust__clock_detect_kind();
	ust__config = config;
	session = ust__session_map(&config, &fd);
	ck_assert_ptr_nonnull(session);
	close(fd);
	ust__session_publish(session);
	provider_setup();
}

static void session_start(uint32_t mode, uint32_t subbuf_size,
			  uint32_t subbuf_count)
{
	session_start_ctx(mode, subbuf_size, subbuf_count, UST_CTX_VTID);
}

static void session_stop(void)
{
	ust__session_publish(NULL);
	ust__session_destroy(session);
	session = NULL;
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

static void write_u32(int ev, uint32_t v)
{
	struct ust_seg seg = { &v, sizeof(v) };

	ust_event_write(&events[ev], &seg, 1, sizeof(v));
}

static void write_str(uint32_t v, const char *s)
{
	struct ust_seg segs[3] = {
		{ &v, sizeof(v) }, { s, strlen(s) }, { "", 1 },
	};

	ust_event_write(&events[1], segs, 3, sizeof(v) + strlen(s) + 1);
}

/* What the reader collected. */
struct record {
	uint32_t id, v;
	int32_t vtid;
	uint8_t ctx[UST_EV_CONTEXT_MAX];	/* the record's whole context */
	uint64_t ts;
	uint32_t cpu;
	char s[64];
};

struct readback {
	struct record *recs;
	size_t nr, cap;
	uint64_t packets;
	uint64_t last_seq;
	uint64_t events_discarded;	/* of the last packet read */
	uint32_t cpu;
};

static int collect(const struct ust_record_view *rv, void *arg)
{
	struct readback *rb = arg;
	struct record *r;

	if (rb->nr == rb->cap) {
		rb->cap = rb->cap ? rb->cap * 2 : 1024;
		rb->recs = realloc(rb->recs, rb->cap * sizeof(*rb->recs));
		ck_assert_ptr_nonnull(rb->recs);
	}
	r = &rb->recs[rb->nr++];
	memset(r, 0, sizeof(*r));
	r->id = rv->id;
	r->ts = rv->timestamp;
	r->vtid = rv->vtid;
	memcpy(r->ctx, rv->payload - ctf_ev_context_size(config.event_context),
	       ctf_ev_context_size(config.event_context));
	r->cpu = rb->cpu;
	ck_assert_uint_ge(rv->payload_size, 4);
	memcpy(&r->v, rv->payload, 4);
	if (rv->id == 1)
		snprintf(r->s, sizeof(r->s), "%s", (const char *)rv->payload + 4);
	return 0;
}

static void layout_table(struct ust_layout_table *t, const char **layouts)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++)
		layouts[events[i].id] = events[i].layout;
	t->layouts = layouts;
	t->fixed = NULL;	/* every record's payload measured by its layout */
	t->nr = NR_EVENTS;
	t->event_context = config.event_context;
}

/* Walk one packet (a private copy), checking it the consumer's way. */
static void read_packet(struct readback *rb, uint8_t *pkt, size_t len)
{
	const char *layouts[NR_EVENTS] = { 0 };
	struct ust_layout_table t;
	struct ust_walk_result res;
	struct ust_packet_header *ph = (struct ust_packet_header *)pkt;
	int ret;

	layout_table(&t, layouts);
	ret = shm_packet_walk(pkt, len, session->uuid, 0, &t, collect, rb,
			      &res);
	ck_assert_msg(ret == 0, "packet %llu: %s at %zu",
		      (unsigned long long)ph->packet_seq_num, res.error,
		      res.error_offset);
	if (rb->packets)
		ck_assert_uint_gt(ph->packet_seq_num, rb->last_seq);
	ck_assert_uint_eq(ph->cpu_id, rb->cpu);
	rb->last_seq = ph->packet_seq_num;
	rb->events_discarded = ph->events_discarded;
	rb->packets++;
}

/*
 * Read buffer `cpu` from position `from`: complete sub-buffers, then the
 * current one closed the way the consumer closes it at the end.
 */
static void read_buffer(struct readback *rb, uint32_t cpu, uint64_t from)
{
	struct ust_channel *ch = &session->chan[0];
	struct ust_shm_buf *buf = &ch->bufs[cpu];
	uint8_t *data = ch->data + cpu * ch->buf_size;
	uint64_t off = buf->commit.offset;
	uint64_t cur = off & ~(uint64_t)(ch->subbuf_size - 1);
	uint8_t *copy = malloc(ch->subbuf_size);
	uint64_t pos;

	ck_assert_ptr_nonnull(copy);
	rb->cpu = cpu;
	for (pos = from; pos <= cur; pos += ch->subbuf_size) {
		struct ust_packet_header *ph = (struct ust_packet_header *)copy;

		memcpy(copy, data + (pos & (ch->buf_size - 1)), ch->subbuf_size);
		if (pos == cur) {
			ph->timestamp_end = buf->commit.last_ts;
			ph->content_size = (off - cur) * 8;
			ph->events_discarded = buf->lost_full + buf->lost_big;
		}
		read_packet(rb, copy, ch->subbuf_size);
	}
	free(copy);
}

static int32_t my_tid(void)
{
	return (int32_t)syscall(SYS_gettid);
}

START_TEST(test_commit_single)
{
	struct readback rb = { 0 };
	struct ust_shm_buf *buf;
	uint64_t before, after;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 4);
	buf = &session->chan[0].bufs[0];
	before = ust__clock_read(session->clock_kind);
	write_u32(0, 42);
	after = ust__clock_read(session->clock_kind);
	/* packet header + compact header + vtid + payload */
	ck_assert_uint_eq(buf->commit.offset, 84 + 4 + 4 + 4);
	ck_assert_uint_ge(buf->commit.last_ts, before);
	ck_assert_uint_le(buf->commit.last_ts, after);

	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 1);
	ck_assert_uint_eq(rb.recs[0].id, events[0].id);
	ck_assert_uint_eq(rb.recs[0].v, 42);
	ck_assert_int_eq(rb.recs[0].vtid, my_tid());
	ck_assert_uint_eq(rb.recs[0].ts, buf->commit.last_ts);
	free(rb.recs);
	session_stop();
}
END_TEST

/* UST_CONTEXT=none: records are header + payload, 4 bytes less. */
START_TEST(test_commit_no_context)
{
	struct readback rb = { 0 };
	struct ust_shm_buf *buf;
	uint32_t i;

	pin_to_cpu(0);
	session_start_ctx(UST_MODE_DISCARD, 4096, 4, 0);
	buf = &session->chan[0].bufs[0];
	write_u32(0, 42);
	/* packet header + compact header + payload */
	ck_assert_uint_eq(buf->commit.offset, 84 + 4 + 4);
	/* 8-byte records: 501 fill the 4012 bytes after the header... */
	for (i = 1; i < 501; i++)
		write_u32(0, i);
	ck_assert_uint_eq(buf->commit.offset, 84 + 501 * 8);
	/* ...and the 502nd opens the next packet. */
	write_u32(0, 501);
	ck_assert_uint_eq(buf->commit.offset, 4096 + 84 + 8);

	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 502);
	ck_assert_uint_eq(rb.packets, 2);
	for (i = 0; i < 502; i++) {
		ck_assert_uint_eq(rb.recs[i].v, i ? i : 42);
		ck_assert_int_eq(rb.recs[i].vtid, -1);
	}
	free(rb.recs);
	session_stop();
}
END_TEST

/*
 * Write event 0 from a function of its own and return that function's
 * return address: what the ust_event_write() macro passes as the ip.
 */
static __attribute__((noinline)) void *write_u32_ip(uint32_t v)
{
	struct ust_seg seg = { &v, sizeof(v) };

	ust_event_write(&events[0], &seg, 1, sizeof(v));
	return __builtin_return_address(0);
}

/* The context of record `r` of a UST_CTX_ALL session, checked field by field. */
static void check_all_context(const struct record *r, const char *name,
			      const void *ip)
{
	struct ctf_ctx_values v;
	uint64_t rec_ip;

	memcpy(&v.vtid, r->ctx, 4);
	memcpy(&v.vpid, r->ctx + 4, 4);
	memcpy(v.procname, r->ctx + 8, 17);
	memcpy(&v.pthread_id, r->ctx + 25, 8);
	memcpy(&rec_ip, r->ctx + 33, 8);
	ck_assert_int_eq(v.vtid, my_tid());
	ck_assert_int_eq(r->vtid, my_tid());
	ck_assert_int_eq(v.vpid, getpid());
	ck_assert_mem_eq(v.procname, name, strlen(name) + 1);
	ck_assert_uint_eq(v.pthread_id, (uint64_t)pthread_self());
	ck_assert_uint_eq(rec_ip, (uint64_t)(uintptr_t)ip);
}

/*
 * Every context (UST_CONTEXT=vtid,vpid,procname,pthread_id,ip): 41 bytes
 * between header and payload, in that order, with this thread's values;
 * the procname follows a rename; ust_event_write_ip() records its ip.
 */
START_TEST(test_commit_all_contexts)
{
	struct readback rb = { 0 };
	struct ust_shm_buf *buf;
	char old_name[16];
	struct ust_seg seg;
	uint32_t v = 7;
	void *ip[2];
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	/*
	 * libasan and libtsan, loaded first, define pthread_setname_np()
	 * themselves and call libc's: libust's (threadname.c) never sees
	 * the rename, so the records keep the name the thread had when its
	 * images were built.  doc/compatibility.md says so under "procname".
	 */
	const char *renamed = "ctx-before";
#else
	const char *renamed = "abcdefghijklmno";
#endif

	pin_to_cpu(0);
	ck_assert_int_eq(pthread_getname_np(pthread_self(), old_name,
					    sizeof(old_name)), 0);
	ck_assert_int_eq(pthread_setname_np(pthread_self(), "ctx-before"), 0);
	session_start_ctx(UST_MODE_DISCARD, 4096, 4, UST_CTX_ALL);
	ck_assert_uint_eq(session->chan[0].ctx_size, 41);
	buf = &session->chan[0].bufs[0];
	ip[0] = write_u32_ip(1);
	ck_assert_uint_eq(buf->commit.offset, 84 + 4 + 41 + 4);
	/* A 15-character name: the longest a thread has. */
	ck_assert_int_eq(pthread_setname_np(pthread_self(), "abcdefghijklmno"), 0);
	ip[1] = write_u32_ip(2);
	seg = (struct ust_seg){ &v, sizeof(v) };
	ust_event_write_ip(&events[0], &seg, 1, sizeof(v), (void *)0x1234);

	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 3);
	check_all_context(&rb.recs[0], "ctx-before", ip[0]);
	check_all_context(&rb.recs[1], renamed, ip[1]);
	check_all_context(&rb.recs[2], renamed, (void *)0x1234);
	ck_assert_uint_eq(rb.recs[2].v, 7);
	free(rb.recs);
	session_stop();
	ck_assert_int_eq(pthread_setname_np(pthread_self(), old_name), 0);
}
END_TEST

/* Each context alone: its size, and the vtid only where it is chosen. */
START_TEST(test_commit_each_context)
{
	static const uint32_t sizes[UST_CTX_NR] = { 4, 4, 17, 8, 8 };
	struct readback rb = { 0 };
	unsigned int i;

	pin_to_cpu(0);
	for (i = 0; i < UST_CTX_NR; i++) {
		session_start_ctx(UST_MODE_DISCARD, 4096, 4, 1u << i);
		write_u32(0, i);
		ck_assert_uint_eq(session->chan[0].bufs[0].commit.offset,
				  84 + 4 + sizes[i] + 4);
		read_buffer(&rb, 0, 0);
		ck_assert_uint_eq(rb.nr, 1);
		ck_assert_uint_eq(rb.recs[0].v, i);
		ck_assert_int_eq(rb.recs[0].vtid, i == 0 ? my_tid() : -1);
		rb.nr = 0;
		rb.packets = 0;
		session_stop();
	}
	free(rb.recs);
}
END_TEST

START_TEST(test_packet_header_fields)
{
	struct ust_channel *ch;
	struct ust_packet_header *p0, *p1;
	uint32_t i;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 4);
	ch = &session->chan[0];
	/* 12-byte records: 334 fill the 4012 bytes after the header. */
	for (i = 0; i < 335; i++)
		write_u32(0, i);
	p0 = (struct ust_packet_header *)ch->data;
	p1 = (struct ust_packet_header *)(ch->data + 4096);
	ck_assert_uint_eq(p0->magic, UST_CTF_MAGIC);
	ck_assert_mem_eq(p0->uuid, session->uuid, 16);
	ck_assert_uint_eq(p0->stream_id, 0);
	ck_assert_uint_eq(p0->stream_instance_id, 0);
	ck_assert_uint_eq(p0->cpu_id, 0);
	ck_assert_uint_eq(p0->packet_seq_num, 0);
	ck_assert_uint_eq(p0->content_size, (84 + 334 * 12) * 8);
	ck_assert_uint_eq(p0->packet_size, 4096 * 8);
	ck_assert_uint_eq(p0->events_discarded, 0);
	ck_assert_uint_le(p0->timestamp_begin, p0->timestamp_end);
	/* The next packet starts when the previous one ended. */
	ck_assert_uint_eq(p1->magic, UST_CTF_MAGIC);
	ck_assert_uint_eq(p1->packet_seq_num, 1);
	ck_assert_uint_eq(p1->timestamp_begin, p0->timestamp_end);
	ck_assert_uint_eq(ch->bufs[0].commit.offset, 4096 + 84 + 12);
	session_stop();
}
END_TEST

START_TEST(test_switch_and_readback)
{
	struct readback rb = { 0 };
	uint32_t i, n = 1000;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 4);
	for (i = 0; i < n; i++) {
		if (i % 3)
			write_u32(0, i);
		else
			write_str(i, "some text");
	}
	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, n);
	ck_assert_uint_ge(rb.packets, 3);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(rb.recs[i].v, i);
		if (i % 3 == 0)
			ck_assert_str_eq(rb.recs[i].s, "some text");
		if (i)
			ck_assert_uint_ge(rb.recs[i].ts, rb.recs[i - 1].ts);
	}
	free(rb.recs);
	session_stop();
}
END_TEST

/* No consumer: 2 sub-buffers fill, the rest is refused and counted. */
START_TEST(test_discard_accounting)
{
	struct readback rb = { 0 };
	struct ust_shm_buf *buf;
	uint32_t i, n = 2000;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 2);
	buf = &session->chan[0].bufs[0];
	for (i = 0; i < n; i++)
		write_u32(0, i);
	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.packets, 2);
	ck_assert_uint_eq(rb.nr, 2 * 334);
	ck_assert_uint_eq(buf->lost_full, n - 2 * 334);
	ck_assert_uint_eq(rb.nr + buf->lost_full, n);
	ck_assert_uint_eq(rb.events_discarded, n - 2 * 334);
	/* The records kept are the first ones, in order. */
	for (i = 0; i < rb.nr; i++)
		ck_assert_uint_eq(rb.recs[i].v, i);
	free(rb.recs);
	session_stop();
}
END_TEST

/* A consumer keeps up: many wraps, nothing lost, packets in sequence. */
START_TEST(test_wrap_with_consumer)
{
	struct ust_channel *ch;
	struct ust_shm_buf *buf;
	struct readback rb = { 0 };
	uint32_t i, n = 20000;
	uint64_t pos = 0;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 2);
	ch = &session->chan[0];
	buf = &ch->bufs[0];
	rb.cpu = 0;
	for (i = 0; i < n; i++) {
		write_u32(0, i);
		/* Consume every complete sub-buffer, as the consumer does. */
		while (pos < (buf->commit.offset & ~(uint64_t)4095)) {
			uint8_t copy[4096];

			memcpy(copy, ch->data + (pos & (ch->buf_size - 1)), 4096);
			read_packet(&rb, copy, sizeof(copy));
			ck_assert_uint_eq(rb.last_seq, pos / 4096);
			pos += 4096;
			__atomic_store_n(&buf->consumed, pos, __ATOMIC_RELEASE);
		}
	}
	read_buffer(&rb, 0, pos);
	ck_assert_uint_gt(buf->commit.offset, 10 * ch->buf_size);
	ck_assert_uint_eq(buf->lost_full, 0);
	ck_assert_uint_eq(rb.nr, n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(rb.recs[i].v, i);
	free(rb.recs);
	session_stop();
}
END_TEST

/* Blocking mode: a consumer thread frees sub-buffers; no record is lost. */
struct blocking_consumer {
	struct readback rb;
	uint64_t pos;
	int done;
};

static void *consume_thread(void *arg)
{
	struct blocking_consumer *bc = arg;
	struct ust_channel *ch = &session->chan[0];
	struct ust_shm_buf *buf = &ch->bufs[0];
	uint8_t copy[4096];

	bc->rb.cpu = 0;
	/* Acquire on the offset: the records before it are complete. */
	while (!__atomic_load_n(&bc->done, __ATOMIC_ACQUIRE)) {
		while (bc->pos < (__atomic_load_n(&buf->commit.offset,
						  __ATOMIC_ACQUIRE) & ~(uint64_t)4095)) {
			memcpy(copy, ch->data + (bc->pos & (ch->buf_size - 1)), 4096);
			read_packet(&bc->rb, copy, sizeof(copy));
			bc->pos += 4096;
			__atomic_store_n(&buf->consumed, bc->pos, __ATOMIC_RELEASE);
		}
		usleep(200);
	}
	return NULL;
}

START_TEST(test_blocking_waits_for_consumer)
{
	struct blocking_consumer bc = { 0 };
	struct ust_shm_buf *buf;
	pthread_t tid;
	uint32_t i, n = 20000;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 2);
	session->chan[0].blocking = 1;
	buf = &session->chan[0].bufs[0];
	ck_assert_int_eq(pthread_create(&tid, NULL, consume_thread, &bc), 0);
	for (i = 0; i < n; i++)
		write_u32(0, i);
	__atomic_store_n(&bc.done, 1, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	read_buffer(&bc.rb, 0, bc.pos);
	ck_assert_uint_eq(buf->lost_full, 0);
	ck_assert_uint_eq(bc.rb.nr, n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(bc.rb.recs[i].v, i);
	free(bc.rb.recs);
	session_stop();
}
END_TEST

/*
 * Blocking mode with a consumer that never moves: the first record that
 * finds the buffer full waits for the timeout, then it and every later
 * one are counted lost at once (the channel is stalled).
 */
START_TEST(test_blocking_gives_up_on_stuck_consumer)
{
	struct readback rb = { 0 };
	struct ust_shm_buf *buf;
	uint32_t i, n = 2 * 334 + 5;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 2);
	session->chan[0].blocking = 1;
	buf = &session->chan[0].bufs[0];
	for (i = 0; i < n; i++)
		write_u32(0, i);
	ck_assert_uint_ne(session->chan[0].stall_mark, 0);
	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 2 * 334);
	ck_assert_uint_eq(buf->lost_full, 5);
	ck_assert_uint_eq(rb.nr + buf->lost_full, n);
	free(rb.recs);
	session_stop();
}
END_TEST

/* Overwrite: never refuses; the last sub-buffers hold the newest records. */
START_TEST(test_overwrite)
{
	struct ust_channel *ch;
	struct ust_shm_buf *buf;
	struct readback rb = { 0 };
	uint32_t i, n = 5000;
	uint64_t cur;

	pin_to_cpu(0);
	session_start(UST_MODE_OVERWRITE, 4096, 2);
	ch = &session->chan[0];
	buf = &ch->bufs[0];
	for (i = 0; i < n; i++)
		write_u32(0, i);
	ck_assert_uint_eq(buf->lost_full, 0);
	cur = buf->commit.offset & ~(uint64_t)4095;
	ck_assert_uint_ge(cur / 4096, 10);
	/* The previous sub-buffer and the current one are intact. */
	read_buffer(&rb, 0, cur - 4096);
	ck_assert_uint_eq(rb.packets, 2);
	ck_assert_uint_eq(rb.recs[rb.nr - 1].v, n - 1);
	for (i = 1; i < rb.nr; i++)
		ck_assert_uint_eq(rb.recs[i].v, rb.recs[i - 1].v + 1);
	ck_assert_uint_eq(rb.nr, 334 + (buf->commit.offset - cur - 84) / 12);
	free(rb.recs);
	session_stop();
}
END_TEST

/*
 * Flight mode: two channels, the statedump in the state channel; the
 * flight channel overwrites, and while frozen refuses to switch (and
 * counts the records), then overwrites again once unfrozen.
 */
START_TEST(test_flight_freeze)
{
	struct ust_shm_buf *buf, *state;
	uint64_t off, room;
	uint32_t i;

	pin_to_cpu(0);
	provider_setup();	/* first: the test's event ids are 0.. */
	session_start(UST_MODE_FLIGHT, 4096, 2);
	ck_assert_uint_eq(session->nr_channels, 2);
	ck_assert_uint_eq(session->state_chan, 1);
	buf = &session->chan[0].bufs[0];
	state = &session->chan[1].bufs[0];
	ck_assert_uint_eq(session->chan[1].mode, UST_MODE_DISCARD);
	ck_assert_uint_eq(buf->commit.offset, 84);	/* nothing routed here */
	ck_assert_uint_gt(state->commit.offset, 84);	/* the statedump */

	for (i = 0; i < 1000; i++)
		write_u32(0, i);
	ck_assert_uint_ge(buf->commit.offset, 2 * 4096);
	ck_assert_uint_eq(buf->lost_full, 0);

	session->hdr->flight.frozen = 1;
	off = buf->commit.offset;
	room = (off & 4095) < 4084 ? (4084 - (off & 4095) + 11) / 12 : 0;
	for (i = 0; i < 1000; i++)
		write_u32(0, 1000 + i);
	ck_assert_uint_eq(buf->commit.offset, off + room * 12);
	ck_assert_uint_eq(buf->lost_full, 1000 - room);

	session->hdr->flight.frozen = 0;
	write_u32(0, 2000);
	ck_assert_uint_eq(buf->commit.offset >> 12, (off >> 12) + 1);
	ck_assert_uint_eq(buf->lost_full, 1000 - room);
	session_stop();
}
END_TEST

/*
 * ust_trigger(): in flight mode, records ust:trigger and publishes one
 * request cut at that record's timestamp; a second one while it is
 * pending is refused.  Outside flight mode it does nothing.
 */
START_TEST(test_trigger_request)
{
	struct ust_flight *f;
	struct ust_shm_buf *buf;
	uint64_t before;

	pin_to_cpu(0);
	provider_setup();
	session_start(UST_MODE_DISCARD, 4096, 2);
	ck_assert_int_eq(ust_trigger("x"), -ENOTSUP);
	ck_assert_uint_eq(session->chan[0].bufs[0].commit.offset, 84);
	ck_assert_uint_eq(session->hdr->flight.state, UST_FLIGHT_IDLE);
	session_stop();

	session_start(UST_MODE_FLIGHT, 4096, 2);
	f = &session->hdr->flight;
	buf = &session->chan[0].bufs[0];
	before = buf->commit.offset;
	ck_assert_int_eq(ust_trigger("disk full"), 0);
	/*
	 * Header and context, "disk full" and its NUL.  ust:trigger is
	 * registered after the test's events: its id is NR_EVENTS.
	 */
	ck_assert_uint_eq(buf->commit.offset, before + UST_CTX_VTID_SIZE + 10 +
			  (NR_EVENTS > UST_EV_COMPACT_ID_MAX ? UST_EV_EXTENDED_SIZE :
			   UST_EV_COMPACT_SIZE));
	ck_assert_uint_eq(f->state, UST_FLIGHT_PENDING);
	ck_assert_uint_eq(f->frozen, 1);
	ck_assert_uint_eq(f->cut_ts, buf->commit.last_ts);
	ck_assert_str_eq(f->reason, "disk full");
	ck_assert_str_eq(f->out_dir, "");
	ck_assert_int_eq(ust_trigger("again"), -EBUSY);
	ck_assert_str_eq(f->reason, "disk full");
	session_stop();
	ck_assert_int_eq(ust_trigger("x"), -ENODEV);
}
END_TEST

START_TEST(test_too_big)
{
	struct ust_shm_buf *buf;
	char *big = malloc(5000);

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 2);
	buf = &session->chan[0].bufs[0];
	memset(big, 'x', 4999);
	big[4999] = '\0';
	write_str(7, big);
	ck_assert_uint_eq(buf->lost_big, 1);
	ck_assert_uint_eq(buf->commit.offset, 84);
	write_u32(0, 1);
	ck_assert_uint_eq(buf->commit.offset, 84 + 12);
	free(big);
	session_stop();
}
END_TEST

/*
 * UST_PAYLOAD_DROP (include/ust/tracepoint.h): a probe that cannot build
 * its record passes it with no segment; the record is counted lost and
 * nothing is read or written.
 */
START_TEST(test_payload_drop)
{
	struct ust_shm_buf *buf;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 1u << 20, 2);
	buf = &session->chan[0].bufs[0];
	ust_event_write(&events[0], NULL, 0, UST_PAYLOAD_DROP);
	ck_assert_uint_eq(buf->lost_big, 1);
	ck_assert_uint_eq(buf->commit.offset, 84);
	write_u32(0, 1);
	ck_assert_uint_eq(buf->commit.offset, 84 + 12);
	session_stop();
}
END_TEST

/*
 * A record that would end exactly on the sub-buffer boundary goes to the
 * next packet: the offset never sits on a boundary, where the next record
 * would start a packet without its header.
 */
START_TEST(test_exact_fit)
{
	struct readback rb = { 0 };
	struct ust_packet_header *p0;
	struct ust_channel *ch;
	char *s = malloc(4096);

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 4);
	ch = &session->chan[0];
	memset(s, 'y', 4095);
	write_u32(0, 1);				/* offset 84 + 12 = 96 */
	/* 4 + 4 + 4 + 3987 + 1 = 4000 would end exactly at 4096. */
	s[3987] = '\0';
	write_str(2, s);
	p0 = (struct ust_packet_header *)ch->data;
	ck_assert_uint_eq(p0->content_size, 96 * 8);
	ck_assert_uint_eq(ch->bufs[0].commit.offset, 4096 + 84 + 4000);
	/* The largest record that fits a packet leaves one byte spare. */
	s[3987] = 'y';
	s[3998] = '\0';
	write_str(3, s);
	ck_assert_uint_eq(ch->bufs[0].commit.offset, 2 * 4096 + 4095);
	/* One byte more can never fit. */
	s[3998] = 'y';
	s[3999] = '\0';
	write_str(4, s);
	ck_assert_uint_eq(ch->bufs[0].lost_big, 1);
	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 3);
	ck_assert_uint_eq(rb.recs[0].v, 1);
	ck_assert_uint_eq(rb.recs[1].v, 2);
	ck_assert_uint_eq(rb.recs[2].v, 3);
	ck_assert_uint_eq(strlen(rb.recs[2].s), 63);
	free(rb.recs);
	free(s);
	session_stop();
}
END_TEST

/* Ids above 30, and gaps above 2^27 ticks, take the extended header. */
START_TEST(test_extended_header)
{
	struct ust_shm_buf *buf;
	struct readback rb = { 0 };
	struct timespec gap = { 0, 0 };
	uint64_t off;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 4096, 4);
	buf = &session->chan[0].bufs[0];
	ck_assert_uint_gt(events[NR_EVENTS - 1].id, 30);
	write_u32(NR_EVENTS - 1, 5);
	ck_assert_uint_eq(buf->commit.offset, 84 + 13 + 4 + 4);
	write_u32(0, 6);
	off = buf->commit.offset;
	ck_assert_uint_eq(off, 84 + 21 + 12);
	/* Sleep past 2^27 ticks: 134 ms in ns, less in TSC cycles. */
	gap.tv_nsec = 300000000;
	nanosleep(&gap, NULL);
	write_u32(0, 7);
	ck_assert_uint_eq(buf->commit.offset, off + 13 + 4 + 4);
	read_buffer(&rb, 0, 0);
	ck_assert_uint_eq(rb.nr, 3);
	ck_assert_uint_eq(rb.recs[0].id, events[NR_EVENTS - 1].id);
	ck_assert_uint_eq(rb.recs[2].v, 7);
	ck_assert_uint_eq(rb.recs[2].ts, buf->commit.last_ts);
	free(rb.recs);
	session_stop();
}
END_TEST

/* Several threads, both CPUs, migrations: every record, in thread order. */
#define NR_THREADS 4
#define PER_THREAD 100000

static void *thread_writer(void *arg)
{
	uint32_t base = (uint32_t)(uintptr_t)arg * PER_THREAD, i;

	for (i = 0; i < PER_THREAD; i++)
		write_u32(0, base + i);
	return NULL;
}

static int cmp_ts(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static void read_all(struct readback *rb)
{
	uint32_t cpu;

	for (cpu = 0; cpu < session->nr_cpus; cpu++) {
		rb->packets = 0;
		read_buffer(rb, cpu, 0);
	}
	qsort(rb->recs, rb->nr, sizeof(*rb->recs), cmp_ts);
}

/* Each thread's values appear exactly once and in increasing order. */
static void check_per_thread_order(const struct readback *rb, uint32_t threads,
				   uint32_t per_thread)
{
	uint32_t *next = calloc(threads, sizeof(*next));
	size_t i;

	for (i = 0; i < rb->nr; i++) {
		uint32_t t = rb->recs[i].v / per_thread;

		ck_assert_uint_lt(t, threads);
		ck_assert_uint_eq(rb->recs[i].v % per_thread, next[t]);
		next[t]++;
	}
	for (i = 0; i < threads; i++)
		ck_assert_uint_eq(next[i], per_thread);
	free(next);
}

START_TEST(test_threads)
{
	pthread_t th[NR_THREADS];
	struct readback rb = { 0 };
	cpu_set_t all;
	uintptr_t i;

	CPU_ZERO(&all);
	for (i = 0; i < (uintptr_t)CPU_SETSIZE && i < 64; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	session_start(UST_MODE_DISCARD, 1 << 20, 8);
	for (i = 0; i < NR_THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, thread_writer,
						(void *)i), 0);
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(th[i], NULL);
	read_all(&rb);
	ck_assert_uint_eq(rb.nr, NR_THREADS * PER_THREAD);
	check_per_thread_order(&rb, NR_THREADS, PER_THREAD);
	free(rb.recs);
	session_stop();
}
END_TEST

/* A signal handler traces while the thread it interrupts is tracing. */
static volatile uint32_t handler_count;
/*
 * Set by the thread before it stops the timer: a signal already queued
 * then (or, under TSan, delivered late at its next intercepted call) must
 * neither write nor count, or it could land between the read-back and
 * the check.  The handler runs on the thread that sets it, so no
 * ordering beyond the compiler's is needed.
 */
static volatile sig_atomic_t handler_stopped;

static void on_timer(int sig)
{
	if (handler_stopped)
		return;
	write_str(1000000 + handler_count, "from the handler");
	handler_count++;
}

START_TEST(test_signal_handler)
{
	struct sigevent sev = { 0 };
	struct itimerspec its = { { 0, 50000 }, { 0, 50000 } };
	struct readback rb = { 0 };
	struct sigaction sa = { 0 };
	timer_t timer;
	uint32_t i, n = 300000, main_seen = 0, handler_seen = 0;
	size_t k;

	pin_to_cpu(0);
	session_start(UST_MODE_DISCARD, 1 << 20, 16);
	sa.sa_handler = on_timer;
	sigaction(SIGRTMIN, &sa, NULL);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN;
	sev._sigev_un._tid = my_tid();
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
	timer_settime(timer, 0, &its, NULL);
	for (i = 0; i < n; i++)
		write_u32(0, i);
	handler_stopped = 1;
	timer_delete(timer);
	read_buffer(&rb, 0, 0);
	ck_assert_uint_gt(handler_count, 10);
	ck_assert_uint_eq(rb.nr, n + handler_count);
	for (k = 0; k < rb.nr; k++) {
		if (rb.recs[k].id == events[1].id) {
			ck_assert_str_eq(rb.recs[k].s, "from the handler");
			ck_assert_uint_eq(rb.recs[k].v, 1000000 + handler_seen);
			handler_seen++;
		} else {
			ck_assert_uint_eq(rb.recs[k].v, main_seen);
			main_seen++;
		}
	}
	ck_assert_uint_eq(main_seen, n);
	ck_assert_uint_eq(handler_seen, handler_count);
	free(rb.recs);
	session_stop();
}
END_TEST

START_TEST(test_disabled_session)
{
	/* No session: writing is a no-op that touches nothing. */
	ust__session_publish(NULL);
	provider_setup();
	write_u32(0, 1);
}
END_TEST

int main(void)
{
	const struct check_case cases[] = {
		{ "core", NULL, NULL, 30, {
			test_disabled_session, test_commit_single,
			test_commit_no_context, test_commit_all_contexts,
			test_commit_each_context, test_packet_header_fields,
			test_switch_and_readback, test_discard_accounting,
			test_wrap_with_consumer,
			test_blocking_waits_for_consumer,
			test_blocking_gives_up_on_stuck_consumer,
			test_overwrite, test_too_big, test_payload_drop,
			test_exact_fit, test_extended_header,
			test_flight_freeze, test_trigger_request, NULL } },
		{ "stress", NULL, NULL, 120, {
			test_threads, test_signal_handler, NULL } },
	};

	return CHECK_RUN_CASES("ringbuf", cases);
}
