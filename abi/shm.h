/*
 * shm-abi.h - layout of the shared memory between libust and ust-consumerd.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust creates one memfd per traced process and maps it MAP_SHARED; the
 * consumer gets the same fd and maps it too.  Everything inside is located
 * by offsets from the start of the mapping, never by pointers.  The
 * consumer treats every byte of it as untrusted: it checks each offset and
 * size against the mapping before use (see common/shm-map.c).
 *
 *   +---------------------------+ 0
 *   | struct ust_shm_header     |   one page
 *   +---------------------------+ header.channels_offset
 *   | struct ust_shm_channel[]  |   nr_channels entries
 *   +---------------------------+ channel.bufs_offset (per channel)
 *   | struct ust_shm_buf[]      |   nr_cpus control blocks, 128-byte aligned
 *   +---------------------------+ header.meta_offset
 *   | metadata log              |   appended event classes (see below)
 *   +---------------------------+ header.ctl_offset (page aligned)
 *   | struct ust_ctl_area       |   runtime control (see below)
 *   +---------------------------+ channel.data_offset (page aligned)
 *   | cpu 0: subbuf_count * subbuf_size bytes
 *   | cpu 1: ...
 *   +---------------------------+ header.total_size
 *
 * Ring buffer protocol (libust/ringbuf.c has the full account):
 * - `commit.offset` is a free-running byte position in the buffer.  Every
 *   byte below it is a complete record or packet header: a writer copies
 *   its whole record inside an rseq critical section whose last
 *   instruction stores the new {offset, last_ts} pair, so nothing is ever
 *   reserved without being complete.
 * - Sub-buffer `n` (free-running) occupies positions
 *   [n * subbuf_size, (n + 1) * subbuf_size) and lives at data offset
 *   (n % subbuf_count) * subbuf_size.  It is one CTF packet, starting with
 *   struct ust_packet_header.  The writer that moves `commit.offset` into
 *   sub-buffer n + 1 fills the closing fields of packet n in the same
 *   critical section, so once `commit.offset` has left a sub-buffer that
 *   packet is complete.
 * - `consumed` is the position of the next sub-buffer the consumer will
 *   read; only the consumer writes it.  In discard mode a writer never
 *   enters a sub-buffer that is not consumed yet; in overwrite mode it does,
 *   and the consumer detects the lap by re-reading `commit.offset` after it
 *   copied a packet.
 */
#ifndef UST_SHM_ABI_H
#define UST_SHM_ABI_H

#include <stddef.h>
#include <stdint.h>

#define UST_SHM_MAGIC		0x31545355u	/* "UST1" little endian */
#define UST_SHM_VERSION		2u	/* 2: channel event_context */
#define UST_CTF_MAGIC		0xC1FC1FC1u

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

enum ust_mode {
	UST_MODE_DISCARD = 0,	/* full buffer: refuse and count the record */
	UST_MODE_OVERWRITE = 1,	/* full buffer: reuse the oldest sub-buffer */
	UST_MODE_FLIGHT = 2,	/* overwrite, not streamed: only snapshots */
};

/*
 * What a channel's records carry between the event header and the
 * payload (the CTF stream event context).  Zero is the default.
 */
enum ust_event_context {
	UST_CONTEXT_TID = 0,	/* int32 vtid (DESIGN.md's default) */
	UST_CONTEXT_NONE = 1,	/* nothing: header then payload */
};

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
	 * Written only by writers running on this CPU, with one 16-byte
	 * store that ends the rseq critical section (libust/rseq-commit.h).
	 * The consumer reads `offset` with acquire semantics; its partner is
	 * that store, which comes after the record bytes in program order.
	 */
	struct {
		uint64_t offset;	/* free-running committed position */
		uint64_t last_ts;	/* timestamp of the last record/packet start */
	} commit __attribute__((aligned(16)));
	uint8_t pad0[64 - 16];

	/* Records refused; any writer adds with an atomic increment. */
	uint64_t lost_full;	/* discard mode, no free sub-buffer */
	uint64_t lost_big;	/* record larger than a sub-buffer */
	uint8_t pad1[64 - 16];

	/*
	 * Written only by the consumer, store-release after it finished
	 * reading a sub-buffer; writers in discard mode load it before they
	 * enter the sub-buffer it frees.
	 */
	uint64_t consumed;
	uint8_t pad2[64 - 8];
} __attribute__((aligned(64)));

struct ust_shm_channel {
	char name[32];		/* NUL-terminated; stream files are <name>_<cpu> */
	uint32_t stream_id;	/* CTF stream class id */
	uint32_t mode;		/* enum ust_mode */
	uint32_t subbuf_size;	/* power of two, >= UST_SUBBUF_MIN */
	uint32_t subbuf_count;	/* power of two, >= 2 */
	uint64_t bufs_offset;	/* struct ust_shm_buf[nr_cpus] */
	uint64_t data_offset;	/* cpu i at data_offset + i * subbuf_size * subbuf_count */
	uint32_t event_context;	/* enum ust_event_context */
	uint32_t reserved;	/* zero */
};

/*
 * Flight recorder: one snapshot request at a time, in the header.
 *
 * A requester (ust_trigger() in the process, `ust snapshot PID` from
 * outside) claims `state` IDLE -> CLAIMED with a compare-and-exchange,
 * fills the request fields, sets `frozen` and publishes state = PENDING
 * with a store-release.  The consumer loads `state` with acquire (its
 * partner), writes the snapshot, stores `result` and `path`, then
 * store-releases `frozen` = 0, `done` + 1 and state = IDLE, in that
 * order; a waiter loads `done` with acquire and then reads the result.
 *
 * While `frozen`, writers of a flight channel refuse to switch
 * sub-buffers (the record is counted in lost_full) instead of overwriting
 * what the consumer is copying; they load `frozen` only on the
 * sub-buffer switch path, with acquire, pairing with the consumer's
 * store-release of 0 after its copy.
 */
enum ust_flight_state {
	UST_FLIGHT_IDLE = 0,
	UST_FLIGHT_CLAIMED = 1,	/* a requester is filling the request */
	UST_FLIGHT_PENDING = 2,	/* for the consumer */
};

#define UST_FLIGHT_REASON_MAX	32u
#define UST_FLIGHT_PATH_MAX	512u

struct ust_flight {
	uint32_t state;		/* enum ust_flight_state */
	uint32_t frozen;	/* flight channels: no sub-buffer switch */
	uint32_t done;		/* requests completed, free-running */
	int32_t result;		/* of the last request: 0 or -errno */
	uint64_t cut_ts;	/* records after this timestamp are left out */
	char reason[UST_FLIGHT_REASON_MAX];	/* NUL-terminated */
	char out_dir[UST_FLIGHT_PATH_MAX];	/* absolute, or "" for the default */
	char path[UST_FLIGHT_PATH_MAX];		/* result: the snapshot directory */
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

	/*
	 * Metadata log: a sequence of struct ust_meta_event records, each
	 * padded to 8 bytes.  libust appends under its registry lock, then
	 * publishes the new `meta_used` with a store-release; the consumer
	 * loads `meta_used` with acquire and reads only below it.
	 */
	uint64_t meta_offset;
	uint64_t meta_size;
	uint64_t meta_used;
	uint64_t meta_dropped;	/* event classes that did not fit */

	/* Flight recorder: snapshot requests (doc/flight-recorder.md). */
	struct ust_flight flight;

	/*
	 * Runtime control (`ust ctl`, `ust list PID`): where the struct
	 * ust_ctl_area lies, below.  0 from a libust without it.
	 */
	uint64_t ctl_offset;
	uint64_t ctl_size;
};

/*
 * Runtime control (doc/control.md).  libust lists its registered events
 * here, each with the address of its `enabled` word in the process;
 * `ust ctl` records the wanted state here and writes the `enabled` words
 * itself with process_vm_writev(), so the program runs no thread and
 * takes no signal or system call for it.
 *
 * Who writes what: both sides write only while they hold flock(LOCK_EX)
 * on the memfd (common/shm-ctl.h); libust takes it, inside its registry
 * mutex, to register or unregister providers, `ust ctl` to apply a
 * command.  The lock orders every access to this area and to the
 * `enabled` words between the two (flock is a full barrier on both
 * sides); `ust list` reads under LOCK_SH.  Entry i describes event id i.
 */
#define UST_CTL_MAX_EVENTS	1024u
#define UST_CTL_MAX_RULES	64u
#define UST_CTL_NAME_MAX	112u	/* "facility:event" and its NUL */
#define UST_CTL_PATTERN_MAX	124u	/* a pattern and its NUL */

enum ust_ctl_event_flag {
	UST_CTL_EV_LIVE = 1,		/* registered: its enabled word exists */
	UST_CTL_EV_WANTED = 2,		/* to record whenever not stopped */
	UST_CTL_EV_DESCRIBED = 4,	/* in the metadata log: may be enabled */
};

/* Written by libust only. */
struct ust_ctl_event {
	uint64_t enabled_addr;	/* &desc->enabled in the process; 0 once gone */
	uint32_t id;		/* the event id, also the entry's index */
	uint32_t flags;		/* enum ust_ctl_event_flag; WANTED also by ust ctl */
	char name[UST_CTL_NAME_MAX];	/* "facility:event", NUL-terminated */
};

/* One `ust ctl enable|disable PATTERN`, appended by ust ctl only. */
struct ust_ctl_rule {
	uint32_t enable;	/* 1: enable, 0: disable */
	char pattern[UST_CTL_PATTERN_MAX];	/* NUL-terminated glob */
};

struct ust_ctl_area {
	uint32_t nr_events;	/* entries in use (libust) */
	uint32_t nr_rules;	/* rules in use (ust ctl) */
	uint32_t stopped;	/* `ust ctl stop` (ust ctl) */
	uint32_t reserved;
	struct ust_ctl_rule rules[UST_CTL_MAX_RULES];
	struct ust_ctl_event events[UST_CTL_MAX_EVENTS];
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

/*
 * Start of every packet (sub-buffer), packed, little endian.  The metadata
 * written by the consumer declares exactly these fields, in this order,
 * with 8-bit alignment (consumer/metadata.c).
 */
struct ust_packet_header {
	/* trace.packet.header */
	uint32_t magic;			/* UST_CTF_MAGIC */
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t stream_instance_id;	/* the CPU */
	/* stream.packet.context */
	uint64_t timestamp_begin;
	uint64_t packet_seq_num;	/* free-running sub-buffer number */
	uint32_t cpu_id;
	/* closing fields, filled when the packet is closed */
	uint64_t timestamp_end;
	uint64_t content_size;		/* bits, headers included */
	uint64_t packet_size;		/* bits; the consumer rounds content */
	uint64_t events_discarded;	/* cumulative lost records of the buffer */
} __attribute__((packed));

/* The closing fields, as one block (copied in by the closing writer). */
struct ust_packet_close {
	uint64_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t events_discarded;
} __attribute__((packed));

#define UST_PACKET_CLOSE_OFFSET	__builtin_offsetof(struct ust_packet_header, timestamp_end)

/*
 * Event record: header, stream event context, payload, all byte aligned.
 *
 * Compact header (4 bytes, little endian word):
 *	bits 0..4	event id (0..30)
 *	bits 5..31	low 27 bits of the timestamp
 * Extended header (13 bytes), used when id > 30 or when the timestamp is
 * not within 2^27 ticks after the previous record's (the reader assumes
 * at most one wrap of the 27 bits):
 *	byte 0		31 (3 high bits zero)
 *	bytes 1..4	uint32 id
 *	bytes 5..12	uint64 timestamp
 * Stream event context (the channel's event_context): int32 vtid with
 * UST_CONTEXT_TID, nothing with UST_CONTEXT_NONE.
 */
#define UST_EV_COMPACT_ID_MAX	30u
#define UST_EV_EXTENDED		31u
#define UST_EV_TS_BITS		27u
#define UST_EV_COMPACT_SIZE	4u
#define UST_EV_EXTENDED_SIZE	13u
#define UST_EV_CONTEXT_SIZE	4u
#define UST_EV_HEADER_MAX	(UST_EV_EXTENDED_SIZE + UST_EV_CONTEXT_SIZE)

/* Bytes of stream event context in each record of a channel. */
static inline size_t ust_ev_context_size(uint32_t event_context)
{
	return event_context == UST_CONTEXT_NONE ? 0 : UST_EV_CONTEXT_SIZE;
}

/*
 * Encode the event header and context of a record with event `id` and
 * timestamp `ts`, the previous record (or packet start) being at
 * `last_ts`, into `h` (UST_EV_HEADER_MAX bytes).  The vtid is always
 * stored after the header; `ctx_size` (ust_ev_context_size()) says
 * whether it counts, so the writer needs no branch.  Returns the size
 * used.
 */
static inline size_t ust_ev_header_encode_ctx(uint8_t *h, uint32_t id,
					      uint64_t ts, uint64_t last_ts,
					      int32_t vtid, size_t ctx_size)
{
	size_t n;

	if (id <= UST_EV_COMPACT_ID_MAX &&
	    ts - last_ts < (1ull << UST_EV_TS_BITS)) {
		uint32_t word = id | (uint32_t)(ts << 5);

		__builtin_memcpy(h, &word, 4);
		n = UST_EV_COMPACT_SIZE;
	} else {
		h[0] = UST_EV_EXTENDED;
		__builtin_memcpy(h + 1, &id, 4);
		__builtin_memcpy(h + 5, &ts, 8);
		n = UST_EV_EXTENDED_SIZE;
	}
	__builtin_memcpy(h + n, &vtid, 4);
	return n + ctx_size;
}

/* The same for a channel whose records carry the vtid. */
static inline size_t ust_ev_header_encode(uint8_t *h, uint32_t id, uint64_t ts,
					  uint64_t last_ts, int32_t vtid)
{
	return ust_ev_header_encode_ctx(h, id, ts, last_ts, vtid,
					UST_EV_CONTEXT_SIZE);
}

#endif /* UST_SHM_ABI_H */
