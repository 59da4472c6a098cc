/*
 * fakeshm.h - a stand-in for libust's writer, for testing the consumer
 * without libust: the same shared-memory layout, packet headers, record
 * encoding, packet switches and metadata log, written by one thread.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_TESTS_FAKESHM_H
#define UST_TESTS_FAKESHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi/shm.h"
#include "ctf/format.h"

#define FAKE_META_SIZE	16384u

struct fake_shm {
	int fd;
	uint8_t *base;
	uint64_t size;
	struct ust_shm_header *hdr;
	struct ust_shm_channel *chan;
	struct ust_shm_buf *bufs;
	uint8_t *data;
	uint32_t nr_cpus;
	uint32_t subbuf_size;
	uint32_t subbuf_count;
	uint32_t mode;
	bool wait_for_space;	/* discard mode: wait for the consumer */
	FILE *expect;		/* where written records are listed, or NULL */
	/* Called at each switch, before the commit publishes it. */
	void (*on_switch)(struct fake_shm *f, uint32_t cpu, uint64_t new_seq);
};

/*
 * Lay out the memfd and open packet 0 of every buffer at `ts0`.  A
 * `sealable` memfd lets the consumer forbid shrinking it.
 */
int fake_shm_create(struct fake_shm *f, uint32_t nr_cpus, uint32_t subbuf_size,
		    uint32_t subbuf_count, uint32_t mode, int32_t pid,
		    const char *procname, uint64_t ts0, bool sealable);

/* Append an event class to the metadata log and publish it. */
int fake_shm_add_event(struct fake_shm *f, uint32_t id, const char *name,
		       const char *layout, const char *tsdl, int32_t loglevel);

/*
 * Append raw bytes to the metadata log as one entry of `size` bytes
 * (for malformed-entry tests).
 */
int fake_shm_add_raw(struct fake_shm *f, const struct ust_meta_event *ev,
		     const void *strings, size_t len);

/*
 * Write one record as libust does.  Returns 0, -ENOBUFS when discard
 * mode found no room (counted in lost_full) or -E2BIG (lost_big).
 * Written records are listed in `expect` as "cpu seq ts id vtid value".
 */
int fake_shm_write(struct fake_shm *f, uint32_t cpu, uint32_t id, uint64_t ts,
		   int32_t vtid, const void *payload, size_t len, int64_t value);

/* The packet header of free-running sub-buffer `n` of `cpu`. */
struct ust_packet_header *fake_shm_packet(struct fake_shm *f, uint32_t cpu,
					  uint64_t n);

/* The sub-buffer `cpu` is writing now. */
uint64_t fake_shm_current(struct fake_shm *f, uint32_t cpu);

#endif /* UST_TESTS_FAKESHM_H */
