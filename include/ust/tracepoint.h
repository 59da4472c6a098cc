/*
 * ust/tracepoint.h - what tpgen-generated providers build against.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A provider is one XML facility compiled by tpgen: a static array of
 * event descriptors plus a constructor that hands them to libust with
 * ust_provider_register().  Each call site tests the descriptor's
 * `enabled` word (one load and a predicted branch) and, only when it is
 * set, calls the out-of-line probe, which lays the payload out as a short
 * list of byte segments and passes it to ust_event_write().
 *
 * Structures carry their own size first so that later versions can append
 * fields without breaking providers compiled against this one.
 */
#ifndef UST_TRACEPOINT_H
#define UST_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UST_ABI_VERSION 1

/* One contiguous piece of an event payload, copied as is. */
struct ust_seg {
	const void *ptr;
	size_t len;
};

struct ust_event_desc {
	uint32_t struct_size;		/* sizeof(struct ust_event_desc) */
	/*
	 * Non-zero when the event is recorded.  Read without ordering by
	 * every call site; written by libust when patterns change, and by
	 * `ust ctl` from outside the process (process_vm_writev, only 0
	 * or 1).  A stale read only records or skips one more event.
	 */
	volatile int32_t enabled;
	const char *name;		/* event name, without the facility */
	int32_t loglevel;		/* CTF loglevel, or -1 when none */
	const char *tsdl_fields;	/* TSDL body of `fields := struct { ... }` */
	const char *layout;		/* payload layout for the consumer's walker */
	/* Owned by libust: zero in the initializer. */
	uint32_t id;
	/*
	 * The gate word: non-zero when the event has a filter or a rate
	 * limit, so that ust_event_write() takes its gated path.  Written by
	 * libust and by `ust ctl filter` (process_vm_writev, only 0 to 1);
	 * read with a relaxed load.  The name predates its use.
	 */
	uint32_t reserved;
	void *priv;
	/*
	 * Appended after the first version: libust reads it only when
	 * struct_size covers it.  One line of text, or NULL; it goes into
	 * the trace metadata as a comment of the event's block.
	 */
	const char *description;
};

struct ust_provider {
	uint32_t struct_size;		/* sizeof(struct ust_provider) */
	uint32_t abi_version;		/* UST_ABI_VERSION */
	const char *facility;
	const char *description;	/* may be NULL */
	struct ust_event_desc *const *events;
	uint32_t nr_events;
	/* Owned by libust: zero in the initializer. */
	uint32_t registered;
	void *priv[2];
};

/*
 * Register every event of a provider: assign ids, enable those that match
 * UST_TRACE, and describe them in the trace metadata.  Returns 0, or a
 * negative errno (-EINVAL on an ABI mismatch, -EEXIST when already
 * registered).  Never fails because tracing is off.
 */
int ust_provider_register(struct ust_provider *provider);
void ust_provider_unregister(struct ust_provider *provider);

/*
 * Record one event whose payload is the concatenation of `segs`
 * (`payload_size` bytes in all), with `ip` as its call site (the `_ip`
 * context, when the recording asks for it).  Lock-free, no system call,
 * no allocation; safe in signal handlers.  A record that finds no room
 * is counted as lost in its buffer.
 */
void ust_event_write_ip(struct ust_event_desc *event,
			const struct ust_seg *segs, unsigned int nr_segs,
			size_t payload_size, const void *ip);

/*
 * The same, for providers built against a <ust/tracepoint.h> without
 * ust_event_write_ip(): its ip is its own return address.
 */
void ust_event_write(struct ust_event_desc *event,
		     const struct ust_seg *segs, unsigned int nr_segs,
		     size_t payload_size);

/*
 * What probes call: ust_event_write_ip() with the return address of the
 * function that calls it.  A probe is an out-of-line function called
 * from the inline trace_<facility>_<event>(), so that address is the
 * instrumented call site, as LTTng-UST records it, at the cost of one
 * load from the probe's stack.
 */
#define ust_event_write(event, segs, nr_segs, payload_size)		\
	ust_event_write_ip(event, segs, nr_segs, payload_size,		\
			   __builtin_return_address(0))

/*
 * The same for an event whose whole payload is fixed-size fields of 8
 * bytes at most (what tpgen's probes call for those): the payload comes
 * by value, its `size` first bytes in memory order (the packed fields
 * copied into `payload`), so that the probe builds no segment.
 */
void ust_event_write_small_ip(struct ust_event_desc *event, uint64_t payload,
			      size_t size, const void *ip);

#define ust_event_write_small(event, payload, size)			\
	ust_event_write_small_ip(event, payload, size,			\
				 __builtin_return_address(0))

/*
 * The length of a segment that is a NUL-terminated string not measured
 * yet: only in the segments given to ust_event_write_gated_ip().
 */
#define UST_SEG_CSTR SIZE_MAX

/*
 * The path of an event whose gate word is set (it has a filter or a rate
 * limit), for probes whose strings are segments of their own: the
 * segments of length UST_SEG_CSTR are strings that libust measures only
 * when the record is to be written, writing their lengths into `segs`;
 * `known_size` is the sum of the other segments' lengths.  The filter
 * reads none of their bytes past their NUL.  Otherwise as
 * ust_event_write_ip().
 */
void ust_event_write_gated_ip(struct ust_event_desc *event,
			      struct ust_seg *segs, unsigned int nr_segs,
			      size_t known_size, const void *ip);

#define ust_event_write_gated(event, segs, nr_segs, known_size)		\
	ust_event_write_gated_ip(event, segs, nr_segs, known_size,	\
				 __builtin_return_address(0))

/*
 * Relaxed atomic load (a plain mov on x86-64): turning an event on or
 * off orders nothing else, a call that races with the change records or
 * not.  Partners: the relaxed stores of libust's registry (registry.c),
 * e.g. when a provider is unregistered at exit while threads trace, and
 * the writes of `ust ctl` (cli/ctl.c).
 */
#define UST_EVENT_ENABLED(ev) \
	__builtin_expect(__atomic_load_n(&(ev)->enabled, __ATOMIC_RELAXED) != 0, 0)

/*
 * The gate word (struct ust_event_desc's `reserved`), relaxed like the
 * enabled word: a probe with strings reads it to filter before it
 * measures them.  Partners: the relaxed stores of libust's gates
 * (gate.c) and `ust ctl filter`'s writes.
 */
#define UST_EVENT_GATED(ev) \
	__builtin_expect(__atomic_load_n(&(ev)->reserved, __ATOMIC_RELAXED) != 0, 0)

/*
 * A payload_size that no sub-buffer can hold (sub-buffers are at most
 * 1 GiB): ust_event_write() counts the record as lost, among those too
 * big for their buffer, without reading `segs`.  A probe passes it, with
 * no segments, for a record it cannot build (a variant tag that selects
 * no option, packed fields larger than the probe's stack buffer).
 */
#define UST_PAYLOAD_DROP (~0ul >> 2)

#ifdef __cplusplus
}
#endif

#endif /* UST_TRACEPOINT_H */
