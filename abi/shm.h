/*
 * abi/shm.h - the shared memory between libust and ust-consumerd, and the
 * rules both sides keep.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust creates one memfd per traced process and maps it MAP_SHARED; its
 * consumer gets the same fd and maps it too, and the `ust ctl`, `ust list`
 * and `ust snapshot` commands find it through /proc/PID/fd.  The packets
 * in it are CTF packets as they go to disk (ctf/format.h).
 *
 *   +---------------------------+ 0
 *   | struct ust_shm_header     |   one page
 *   +---------------------------+ header.channels_offset
 *   | struct ust_shm_channel[]  |   nr_channels entries
 *   +---------------------------+ channel.bufs_offset (per channel)
 *   | struct ust_shm_buf[]      |   nr_cpus control blocks, 64-byte aligned
 *   +---------------------------+ header.meta_offset
 *   | metadata log              |   struct ust_meta_event records
 *   +---------------------------+ header.ctl_offset (page aligned)
 *   | struct ust_ctl_area       |   runtime control (abi/control.h)
 *   +---------------------------+ channel.data_offset (page aligned)
 *   | cpu 0: subbuf_count * subbuf_size bytes
 *   | cpu 1: ...
 *   +---------------------------+ header.total_size
 *   | thread buffer 0           |   header.threads_offset (page aligned):
 *   | thread buffer 1 ...       |   per-thread channels only (I14-I17)
 *   +---------------------------+   the memfd grows as buffers are added
 *
 * Positions in a buffer are free-running 64-bit byte counts: position p
 * lives at data offset p % (subbuf_size * subbuf_count) and belongs to
 * sub-buffer (packet) number p / subbuf_size, its packet_seq_num.
 *
 * THE INVARIANTS.  Every atomic access in libust, the consumer and the
 * commands names the invariant it keeps and its partner, as "I3".
 *
 * I1  Untrusted bytes.  Everything is located by offsets from the start
 *     of the mapping, never by pointers.  A reader (consumer, commands)
 *     takes a validated private copy of the header and channel table once
 *     (shm/map.c) and checks every dynamic word (commit, consumed, lost
 *     counts, meta_used, control-area counts) where it uses it; a packet
 *     is checked before it is trusted (shm/packet.c).  Nothing in the
 *     mapping can make a reader crash, loop or read outside it.
 *
 * I2  Committed means complete.  Every byte below a buffer's
 *     `commit.offset` is part of a complete record or packet header.  A
 *     writer copies its whole record inside one restartable sequence
 *     whose last instruction is a single 16-byte store of the new
 *     {offset, last_ts} pair (libust/rseq-commit.h); nothing is ever
 *     reserved and left incomplete, whenever the writer is killed.
 *     Partner: the reader's acquire load of `commit.offset`, after which
 *     it may copy every byte below it.
 *
 * I3  One writer at a time per buffer.  Buffer c of a channel is written
 *     only by threads running on CPU c, inside restartable sequences that
 *     the kernel aborts on preemption, migration or signal: there is no
 *     lock and no atomic read-modify-write on the hot path.  Only the
 *     loss counters (I7) are shared between CPUs.
 *
 * I4  Time order.  Within a buffer, committed records have
 *     non-decreasing timestamps, and `commit.last_ts` is the timestamp of
 *     the last record (or of the packet start), committed in the same
 *     store as the offset; the writer encodes each event header against
 *     it as a CTF reader decodes it (ctf/format.h).
 *
 * I5  Closed packets.  The writer that moves `commit.offset` out of
 *     sub-buffer n fills packet n's closing fields (end time, content
 *     size, events_discarded) and writes packet n + 1's header, sequence
 *     number first, in the same restartable sequence.  So once
 *     `commit.offset` has left a sub-buffer (I2), that packet is complete.
 *
 * I6  Consumed slots.  Only the consumer writes `consumed`: the position
 *     of the next sub-buffer it will read, published with a store-release
 *     after its copy of the sub-buffers below it is complete.  Partner: a
 *     discard-mode (and blocking) writer's acquire load of `consumed`
 *     before it enters a sub-buffer; it never enters one not yet
 *     consumed.
 *
 * I7  Losses are counted.  A record a writer refuses (no free sub-buffer,
 *     too big, no rseq, frozen flight channel) is counted once, with an
 *     atomic increment, in `lost_full` or `lost_big` of the buffer it was
 *     meant for; every packet close (I5) stores their running sum in
 *     events_discarded, and the consumer's final flush does too.  Over a
 *     stream: records attempted = records committed + records counted.
 *
 * I8  Overwrite laps are detected.  In overwrite and flight modes a
 *     writer may re-enter a slot the consumer is copying.  The consumer
 *     re-reads `commit.offset` after its copy (acquire fence first) and
 *     drops a copy whose slot a writer entered; the switch's first store,
 *     the new packet_seq_num, makes a half-written header differ from the
 *     old one (I5).
 *
 * I9  The metadata log only grows.  libust appends ust_meta_event
 *     records under its registry lock and then publishes `meta_used`
 *     with a store-release.  Partner: the consumer's acquire load of
 *     `meta_used`; it reads only below it, and an event id appears in a
 *     record only after its class is in the log.
 *
 * I10 Snapshot requests (abi/flight.h): IDLE -> CLAIMED by an acquiring
 *     compare-and-exchange, request fields, `frozen`, then PENDING with a
 *     store-release; the consumer's acquiring compare-and-exchange
 *     PENDING -> SERVING, its copy, then releases of frozen = 0 (as soon
 *     as the copy is done: its kernel part and relay copy may take
 *     seconds), done + 1 and IDLE, in that order.  A requester may take
 *     back only a PENDING request (PENDING -> IDLE, compare-and-exchange);
 *     a SERVING one is the consumer's alone until it stores IDLE, and a
 *     consumer that resumes a dead one's trace serves it again.
 *
 * I11 Frozen flight channels.  While `flight.frozen` is set, writers of a
 *     flight channel refuse to switch sub-buffers (I7) instead of
 *     overwriting what the consumer copies; they load `frozen` with
 *     acquire on the switch path only.  Partner: the consumer's
 *     store-release of frozen = 0 after its copy.
 *
 * I12 The control area (abi/control.h) changes only under flock(LOCK_EX)
 *     on the memfd, held by libust (inside its registry mutex) or by
 *     `ust ctl`; flock orders those accesses on both sides.  The one
 *     lock-free reader is a fork child copying its parent's rules:
 *     `nr_rules` is published with a store-release after the rule's bytes
 *     and loaded with acquire.
 *
 * I13 Filters (abi/control.h) only grow.  A writer (`ust ctl`, or libust
 *     at session start) appends a filter rule and its programs under the
 *     I12 lock, then publishes `nr_filters` with a store-release; that
 *     count is also the filters' generation.  Partner: libust's event path
 *     (libust/gate.c), which loads it with acquire and no lock, copies the
 *     rules and programs it uses into private memory and validates the
 *     copies before running them; `ust ctl` then sets the events' gate
 *     words (process_vm_writev), so the next call takes the gated path.
 *
 * I14 Thread buffers are published by their count.  A channel with
 *     UST_CHAN_PER_THREAD has no per-CPU buffers: each thread that
 *     records gets a region of its own, struct ust_shm_tbuf then the
 *     ring, all of the same size (UST_TBUF_REGION_SIZE()), region i at
 *     threads_offset + i * size.  libust appends a region (growing the
 *     memfd first) under a process-local lock and then publishes
 *     `threads_published` with a store-release.  Partner: the reader's
 *     acquire load; it maps and reads only regions below it, and checks
 *     that each lies inside the file (I1).
 *
 * I15 A thread buffer has one owner at a time, named by `state`:
 *     FREE -> CLAIMED by libust's acquiring compare-and-exchange (partner:
 *     the consumer's release of FREE, so its reads of the old contents are
 *     done before they are overwritten); the claimer writes tid, instance,
 *     role, packet 0 and the commit pair, then stores OWNED with release;
 *     the owner thread alone writes records (I2, I4 by plain stores, I3
 *     by ownership: no rseq, no atomic read-modify-write); it stores
 *     EXITED with release after its last commit and the open packet's
 *     record count (I17).  Partner of both: the consumer's acquire load of
 *     `state`.  After EXITED the consumer drains everything, stores
 *     `consumed` = 0, then FREE with release.  A signal handler that
 *     records while its thread is in the middle of a record writes into
 *     a second buffer of that thread (role UST_TBUF_ROLE_SIGNAL); deeper
 *     nesting is counted lost (I7) in `lost_nested`.  The counters of a
 *     thread buffer are incremented by one instruction without LOCK,
 *     which no signal handler of the same thread can split.
 *
 * I16 A blocked writer sleeps, it does not spin.  A writer of a full
 *     discard-mode buffer in blocking mode adds itself to `waiters`
 *     (atomic, slow path only), rings the consumer's eventfd, then
 *     re-reads `consumed` and sleeps with FUTEX_WAIT on its low 32 bits
 *     while it is unchanged (naps of at most 1 ms, until the channel's
 *     CLOCK_MONOTONIC deadline: libust/wake.c).  Partner: the
 *     consumer's store-release of `consumed` (I6), a full fence, then its
 *     load of `waiters`: when non-zero it calls FUTEX_WAKE.  The fences
 *     on both sides make a missed wake-up impossible; a wake without a
 *     waiter costs one system call of the consumer.
 *
 * I17 Closed packets of a thread buffer carry their record count.  The
 *     writer that closes the packet of slot k (I5) stores its number of
 *     records in `records[k]` before the release store of the commit
 *     that leaves it; an exiting owner stores the open packet's count
 *     before EXITED.  Partner: the consumer's acquire loads (of the
 *     offset, of the state).  The consumer then writes the packet without
 *     walking its records; it walks them only when a check of the header
 *     or of the count fails (a damaged packet) and for buffers whose
 *     process died (crash recovery).
 *
 * Process-local rules of libust that complete these (libust/session.h):
 * the session pointer is published with a store-release after the whole
 * mapping is initialised, and writers load it with acquire; an event's
 * `enabled` word is read with a relaxed load (include/ust/tracepoint.h).
 */
#ifndef UST_ABI_SHM_H
#define UST_ABI_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "abi/flight.h"

#define UST_SHM_MAGIC		0x31545355u	/* "UST1" little endian */
#define UST_SHM_VERSION		4u	/* 4: per-thread buffers, blocked writers' wake-ups */
#define UST_SHM_MEMFD_NAME	"ust-trace"	/* found in /proc/PID/fd */

#define UST_SHM_PAGE		4096u
#define UST_MAX_CHANNELS	8u
#define UST_MAX_CPUS		4096u
#define UST_SUBBUF_MIN		4096u
#define UST_SUBBUF_MAX		(1u << 30)
#define UST_SUBBUF_COUNT_MIN	2u
#define UST_SUBBUF_COUNT_MAX	(1u << 16)
#define UST_READ_TIMER_MIN_US	100u		/* consumer period bounds */
#define UST_READ_TIMER_MAX_US	10000000u
#define UST_MAX_PATTERNS	64u		/* UST_TRACE / -e patterns */
#define UST_TBUF_MAX_SLOTS	256u		/* sub-buffers of a per-thread buffer */
#define UST_TBUF_CTL_SIZE	UST_SHM_PAGE	/* struct ust_shm_tbuf, padded */

enum ust_mode {
	UST_MODE_DISCARD = 0,	/* full buffer: refuse and count the record */
	UST_MODE_OVERWRITE = 1,	/* full buffer: reuse the oldest sub-buffer */
	UST_MODE_FLIGHT = 2,	/* overwrite, not streamed: only snapshots */
};

/*
 * What a channel's records carry between the event header and the
 * payload (the CTF stream event context): a set of these bits, chosen per
 * recording (UST_CONTEXT, `ust record --context`).  The fields come in
 * this order, each one only when its bit is set; their sizes are in
 * ctf/format.h, their TSDL in consumer/metadata.c, and their names and
 * types are LTTng-UST's (doc/compatibility.md).  0 records nothing.
 */
enum ust_event_context {
	UST_CTX_VTID = 1u << 0,		/* int32 _vtid: the thread's id */
	UST_CTX_VPID = 1u << 1,		/* int32 _vpid: the process's id */
	UST_CTX_PROCNAME = 1u << 2,	/* char _procname[17]: the thread's name */
	UST_CTX_PTHREAD_ID = 1u << 3,	/* uint64 _pthread_id: pthread_self() */
	UST_CTX_IP = 1u << 4,		/* uint64 _ip: the instrumented call site */
};
#define UST_CTX_ALL		0x1fu
#define UST_CTX_DEFAULT		UST_CTX_VTID

/* Flags of a channel (struct ust_shm_channel.flags). */
enum ust_chan_flags {
	UST_CHAN_PER_THREAD = 1u << 0,	/* one buffer per thread (I14), none per CPU */
};
#define UST_CHAN_FLAGS_ALL	0x1u

enum ust_clock_kind {
	UST_CLOCK_TSC = 1,	/* raw rdtsc; frequency in the session clock */
	UST_CLOCK_MONOTONIC = 2,/* CLOCK_MONOTONIC in ns */
};

/*
 * Per-CPU buffer control block.  Three cache lines, one per writer class,
 * so the consumer's stores never bounce the writers' line.
 */
struct ust_shm_buf {
	/*
	 * I2, I3, I4: written only by writers on this CPU, with the one
	 * 16-byte store that ends a restartable sequence; the consumer
	 * loads `offset` with acquire.
	 */
	struct {
		uint64_t offset;	/* free-running committed position */
		uint64_t last_ts;	/* timestamp of the last record/packet start */
	} commit __attribute__((aligned(16)));
	uint8_t pad0[64 - 16];

	/* I7: records refused; any writer adds with an atomic increment. */
	uint64_t lost_full;	/* no free sub-buffer, or frozen (flight) */
	uint64_t lost_big;	/* record larger than a sub-buffer */
	uint8_t pad1[64 - 16];

	/* I6: written only by the consumer, with a store-release. */
	uint64_t consumed;
	/* I16: blocked writers sleeping on `consumed`; atomic add/sub. */
	uint32_t waiters;
	uint8_t pad2[64 - 12];
} __attribute__((aligned(64)));

/* The owner of a thread buffer (I15). */
enum ust_tbuf_state {
	UST_TBUF_FREE = 0,	/* nobody's: libust may claim it */
	UST_TBUF_CLAIMED = 1,	/* libust is setting it up: not yet readable */
	UST_TBUF_OWNED = 2,	/* a live thread writes it */
	UST_TBUF_EXITED = 3,	/* its thread is done: the consumer finishes it */
};

/* Which records of a thread a buffer holds. */
enum ust_tbuf_role {
	UST_TBUF_ROLE_THREAD = 0,	/* the thread's own */
	UST_TBUF_ROLE_SIGNAL = 1,	/* its signal handlers' during a record */
};

/*
 * The control page of one thread buffer (I14-I17), then its ring of
 * subbuf_count * subbuf_size bytes at UST_TBUF_CTL_SIZE.  `buf` is used
 * exactly as a per-CPU buffer's control block (I2, I4-I7), with one
 * writer: the owner.  The thread id is also in every packet, in the slot
 * of a per-CPU packet's cpu_id (ctf/format.h), and stream_instance_id is
 * `instance`, unique per claim in the process.
 */
struct ust_shm_tbuf {
	struct ust_shm_buf buf;
	/* I15: libust's until OWNED is released, then the consumer's to read. */
	uint32_t state;		/* enum ust_tbuf_state */
	int32_t tid;		/* the owner thread */
	uint64_t instance;	/* stream_instance_id of its packets */
	uint32_t role;		/* enum ust_tbuf_role */
	uint32_t reserved;
	/* I7, I15: the owner's (one instruction each); read at the end. */
	uint64_t lost_nested;	/* records of signal handlers nested deeper */
	uint64_t filtered[3];	/* function events kept out: time, depth, function */
	uint8_t pad[256 - 192 - 56];
	/* I17: records in the closed packet of slot k; the owner's. */
	uint32_t records[UST_TBUF_MAX_SLOTS];
};

_Static_assert(sizeof(struct ust_shm_tbuf) <= UST_TBUF_CTL_SIZE, "tbuf control page");

/* Bytes of one thread buffer's region. */
#define UST_TBUF_REGION_SIZE(subbuf_size, subbuf_count)			\
	((uint64_t)UST_TBUF_CTL_SIZE + (uint64_t)(subbuf_size) * (subbuf_count))

struct ust_shm_channel {
	char name[32];		/* NUL-terminated; stream files are <name>_<cpu> */
	uint32_t stream_id;	/* CTF stream class id */
	uint32_t mode;		/* enum ust_mode */
	uint32_t subbuf_size;	/* power of two, >= UST_SUBBUF_MIN */
	uint32_t subbuf_count;	/* power of two, >= 2 */
	uint64_t bufs_offset;	/* struct ust_shm_buf[nr_cpus] */
	uint64_t data_offset;	/* cpu i at data_offset + i * subbuf_size * subbuf_count */
	uint32_t event_context;	/* set of enum ust_event_context bits */
	uint32_t flags;		/* enum ust_chan_flags */
};

struct ust_shm_header {
	uint32_t magic;		/* UST_SHM_MAGIC */
	uint32_t version;	/* UST_SHM_VERSION */
	uint64_t total_size;	/* bytes in the mapping */
	uint32_t nr_cpus;	/* possible CPUs: buffers per channel */
	uint32_t nr_channels;
	uint64_t channels_offset;

	int32_t pid;
	uint32_t clock_kind;	/* enum ust_clock_kind */
	char procname[16];	/* NUL-terminated */
	uint8_t trace_uuid[16];	/* also in every packet header */

	/* I9: the metadata log, struct ust_meta_event records, 8-aligned. */
	uint64_t meta_offset;
	uint64_t meta_size;
	uint64_t meta_used;	/* store-release by libust, acquire by readers */
	uint64_t meta_dropped;	/* event classes that did not fit */

	/* I10, I11: flight-recorder snapshot requests (abi/flight.h). */
	struct ust_flight flight;

	/*
	 * I12: where the struct ust_ctl_area lies (abi/control.h); 0 from a
	 * libust without runtime control.
	 */
	uint64_t ctl_offset;
	uint64_t ctl_size;

	/*
	 * I14: the thread buffers of the per-thread channel (at most one),
	 * 0 when there is none; regions below `threads_published` are ready.
	 */
	uint64_t threads_offset;
	uint64_t threads_published;
	/* I7: records of threads that could not get a buffer; atomic add. */
	uint64_t lost_no_buffer;
};

/*
 * One event class in the metadata log.  The three strings follow the
 * fixed part, each NUL-terminated, in this order: "facility:event",
 * layout, TSDL fields; then `desc_len` bytes of descriptions.  `size`
 * covers the strings and the padding.
 */
struct ust_meta_event {
	uint32_t size;
	uint32_t id;		/* event id in its channel's stream class */
	uint32_t channel;	/* index in the channel table */
	int32_t loglevel;	/* -1 when none */
	uint32_t name_len;	/* bytes, including the NUL */
	uint32_t layout_len;
	uint32_t tsdl_len;
	/*
	 * Bytes after the TSDL: the event's description, then its
	 * facility's, each NUL-terminated (empty when none); 0 for none.
	 */
	uint32_t desc_len;
};

#endif /* UST_ABI_SHM_H */
