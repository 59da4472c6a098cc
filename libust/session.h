/*
 * session.h - libust's process-local view of a tracing session.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A session is the shared mapping (abi/shm.h) plus the process's
 * private, read-only-after-setup description of it.  `ust__session_current`
 * is NULL when the process does not trace; it is published with a
 * store-release once the mapping is fully initialised, and writers load
 * it with acquire (ringbuf.c), so a writer that sees the session sees its
 * buffers initialised.
 */
#ifndef UST_SESSION_H
#define UST_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ust/tracepoint.h>

#include "abi/control.h"
#include "abi/shm.h"
#include "ctf/format.h"
#include "common/clock.h"
#include "common/fs.h"

#define UST_DEFAULT_SUBBUF_SIZE		(1u << 20)
#define UST_DEFAULT_SUBBUF_COUNT	4u
#define UST_DEFAULT_READ_TIMER_US	1000u
#define UST_META_SIZE			(256u << 10)
/* Flight mode's state channel: small, discard mode, streamed. */
#define UST_STATE_SUBBUF_SIZE		(64u << 10)
#define UST_STATE_SUBBUF_COUNT		4u
#define UST_MAX_SESSION_CHANNELS	2u

#define UST_HIDDEN __attribute__((visibility("hidden")))
#define UST_EXPORT __attribute__((visibility("default")))

/* The options of one UST_TRACE entry (abi/env.h). */
struct ust_trace_entry {
	uint32_t loglevel_op;		/* enum ust_ctl_loglevel_op */
	int32_t loglevel;
	uint8_t *filter;		/* a decoded struct ust_filter_blob, or NULL */
	size_t filter_len;
	bool broken;			/* a bad option: it selects nothing */
};

#define UST_MAX_RATE_LIMITS	16u

/* One UST_RATE_LIMIT rule: at most `max` records a second. */
struct ust_rate_rule {
	char *pattern;
	uint32_t max;
};

/* Configuration read once from the environment (config.c). */
struct ust_config {
	char *patterns[UST_MAX_PATTERNS];	/* UST_TRACE, split on ',' */
	struct ust_trace_entry entries[UST_MAX_PATTERNS];	/* their options */
	unsigned int nr_patterns;
	bool have_filters;			/* an entry has filter= */
	struct ust_rate_rule rates[UST_MAX_RATE_LIMITS];	/* UST_RATE_LIMIT */
	unsigned int nr_rates;
	char *output;				/* UST_OUTPUT */
	uint32_t mode;				/* UST_MODE */
	uint32_t blocking;			/* UST_MODE=block */
	uint32_t event_context;			/* UST_CONTEXT: UST_CTX_* bits */
	bool per_thread;			/* UST_BUFFERS=per-thread */
	uint32_t func_layout;			/* UST_FUNCTIONS: enum ust_func_layout */
	uint64_t func_time_ns;			/* UST_FUNC_TIME_FILTER, 0: none */
	uint32_t func_depth;			/* UST_FUNC_DEPTH, 0: none */
	char *func_filter;			/* UST_FUNC_FILTER, or NULL */
	char *func_exclude;			/* UST_FUNC_EXCLUDE, or NULL */
	uint32_t subbuf_size;			/* UST_SUBBUF_SIZE */
	uint32_t subbuf_count;			/* UST_SUBBUF_COUNT */
	uint32_t read_timer_us;			/* UST_READ_TIMER_US */
	char *session_clock;			/* UST_SESSION_CLOCK, or NULL */
	uint32_t clock_kind;
	char *summary_dir;			/* UST_SUMMARY_DIR, or NULL */
	char *consumerd;			/* UST_CONSUMERD, or the installed one */
};

/* One channel as writers see it. */
struct ust_channel {
	struct ust_shm_buf *bufs;	/* [nr_cpus] */
	uint8_t *data;			/* cpu c at data + c * buf_size */
	uint64_t buf_size;		/* subbuf_size * subbuf_count */
	uint32_t subbuf_size;
	uint32_t mode;
	uint32_t stream_id;
	uint32_t ctx_set;	/* the UST_CTX_* bits its records carry */
	uint32_t ctx_size;	/* ctf_ev_context_size(ctx_set) */
	uint32_t ctx_img_size;	/* ctf_ev_context_image_size(ctx_set): the ip's offset */
	uint32_t blocking;	/* discard mode: wait for room first */
	/*
	 * Blocking mode, process-local (wake.c, ust__wait_for_consumer()):
	 * the CLOCK_MONOTONIC time at which the current wait for the
	 * consumer gives up (0: nobody waits), and the mark of a stall (0:
	 * none): the buffer the consumer left unmoved, and its position + 1.
	 */
	uint64_t wait_deadline;
	uint64_t stall_mark;
	struct ust_shm_buf *stall_buf;
	uint32_t per_thread;	/* UST_CHAN_PER_THREAD: threadbuf.c writes it */
};

/*
 * The thread buffers of a session (threadbuf.c, abi/shm.h I14-I17):
 * libust's private index of the regions it mapped.  `lock` guards the
 * appending of regions (taken with every signal blocked, so a signal
 * handler can claim a buffer too); `nr` only grows.
 */
struct ust_tbuf_map {
	struct ust_shm_tbuf *ctl;	/* the region, mapped */
	uint8_t *ring;
};

struct ust_threads {
	uint64_t offset;		/* header.threads_offset */
	uint64_t region_size;		/* UST_TBUF_REGION_SIZE() */
	uint64_t file_size;		/* of the memfd */
	struct ust_tbuf_map *maps;	/* [cap], an anonymous mapping */
	uint32_t nr, cap;
	uint32_t hint;			/* where to look for a free region */
	uint64_t instances;		/* stream_instance_ids given out */
	int lock;
};

struct ust_session {
	void *base;			/* the shared mapping */
	size_t size;
	int shm_fd;			/* its memfd, kept for shm_map_attach(), or -1 */
	struct ust_shm_header *hdr;
	uint32_t nr_cpus;
	uint32_t clock_kind;
	uint8_t uuid[16];
	int32_t vpid;			/* getpid() when the session started */
	uint32_t ctx_union;		/* every channel's ctx_set, or-ed */
	/*
	 * Which per-thread context images are current (ringbuf.c): unique
	 * per session in its high 32 bits; the low bits count thread
	 * renames, which make every thread rebuild its images.  Relaxed
	 * loads and increments: a stale image only names a thread by its
	 * old name in a few more records.
	 */
	uint64_t ctx_gen;
	uint32_t nr_channels;
	/*
	 * Where the statedump events go: chan[1], the state channel, in
	 * flight mode (never overwritten), else chan[0].
	 */
	uint32_t state_chan;
	struct ust_channel chan[UST_MAX_SESSION_CHANNELS];
	/* Runtime control (registry.c): its area in the shared memory. */
	struct ust_ctl_area *ctl;
	int32_t pid;			/* getpid() when it was created */
	/* The consumer's eventfd, rung by blocked writers (I16), or -1. */
	int wake_fd;
	struct ust_threads threads;	/* when chan[0] is per-thread */
};

extern struct ust_session *ust__session_current UST_HIDDEN;
extern struct ust_config ust__config UST_HIDDEN;

/* config.c */
UST_HIDDEN int ust__config_load(struct ust_config *cfg);
/* Is event `name` of log level `loglevel` selected by UST_TRACE? */
UST_HIDDEN int ust__pattern_match(const struct ust_config *cfg,
				 const char *name, int32_t loglevel);
/* Does UST_TRACE entry `i`'s log-level option let `loglevel` through? */
UST_HIDDEN bool ust__entry_loglevel_ok(uint32_t op, int32_t level,
				      int32_t loglevel);
/* The rate limit of event `name` (UST_RATE_LIMIT, the last match), or 0. */
UST_HIDDEN uint32_t ust__rate_limit(const struct ust_config *cfg,
				   const char *name);

/* session.c */
UST_HIDDEN struct ust_session *ust__session_map(const struct ust_config *cfg,
					    int *fd);
/* `sibling`: at process start, the consumer may be our parent's child. */
UST_HIDDEN struct ust_session *ust__session_create(const struct ust_config *cfg,
						  bool sibling);
UST_HIDDEN void ust__session_destroy(struct ust_session *s);
UST_HIDDEN void ust__session_publish(struct ust_session *s);

/* ringbuf.c */
struct ust_packet_header;
UST_HIDDEN void ust__packet_header_fill(struct ust_packet_header *ph,
				       const struct ust_session *s,
				       const struct ust_channel *ch,
				       uint64_t instance, uint32_t cpu_slot,
				       uint64_t seq, uint64_t ts);
UST_HIDDEN void ust__ringbuf_init_buffer(struct ust_session *s,
					struct ust_channel *ch, uint32_t cpu,
					uint64_t now);
UST_HIDDEN void ust__thread_forget(void);
UST_HIDDEN void ust__thread_renamed(void);
/* The calling thread's id and CPU ($ctx.vtid, $ctx.cpu_id of filters). */
UST_HIDDEN int32_t ust__thread_tid(void);
UST_HIDDEN uint32_t ust__thread_cpu(void);
UST_HIDDEN uint64_t ust__channel_event_write(struct ust_session *s,
					    uint32_t chan,
					    struct ust_event_desc *event,
					    const struct ust_seg *segs,
					    unsigned int nr_segs,
					    size_t payload_size);
UST_HIDDEN void ust__state_event_write(struct ust_event_desc *event,
				      const struct ust_seg *segs,
				      unsigned int nr_segs,
				      size_t payload_size);

/* threadbuf.c */
UST_HIDDEN uint64_t ust__thread_event_write(struct ust_session *s,
					   struct ust_channel *ch,
					   struct ust_event_desc *event,
					   const struct ust_seg *segs,
					   unsigned int nr_segs,
					   size_t payload_size, uint64_t ip);
UST_HIDDEN int ust__threads_init(struct ust_session *s, uint64_t offset);
UST_HIDDEN void ust__threads_release(struct ust_session *s);
UST_HIDDEN void ust__threads_forget(void);

/*
 * wake.c: blocking mode's wait for the consumer (I16), for per-CPU
 * (ringbuf.c) and per-thread (threadbuf.c) buffers alike.  0 when the
 * consumer freed a sub-buffer of `buf`, -1 when the record must be
 * counted lost (the channel is stalled).
 */
UST_HIDDEN int ust__wait_for_consumer(const struct ust_session *s,
				     struct ust_channel *ch,
				     struct ust_shm_buf *buf, uint64_t consumed);

/* flight.c */
UST_HIDDEN uint32_t ust__event_channel(const struct ust_session *s,
				      const char *name);
UST_HIDDEN void ust__flight_session_started(struct ust_session *s);

/* registry.c */
UST_HIDDEN void ust__registry_session_started(struct ust_session *s);
UST_HIDDEN void ust__registry_inherit_control(struct ust_session *s,
					     const struct ust_session *old);
UST_HIDDEN void ust__registry_lock(void);
UST_HIDDEN void ust__registry_unlock(void);

#endif /* UST_SESSION_H */
