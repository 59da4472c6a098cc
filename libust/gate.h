/*
 * gate.h - what may stop a record of an enabled event before it is
 * written: its filter and its rate limit (doc/filters.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * An event with neither pays nothing: its descriptor's gate word (the
 * `reserved` member of struct ust_event_desc) stays 0 and
 * ust_event_write() goes straight to the buffer.  Otherwise the word is
 * 1 and the record first goes through ust__gate_quick() and, when that
 * cannot decide, ust__gate_pass().
 */
#ifndef UST_GATE_H
#define UST_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include <ust/tracepoint.h>

#include "filter/fast.h"
#include "session.h"

#define GATE_MAX_OR		8u	/* programs ORed for one event */

/*
 * A session starts (registry lock held, before any event is attached):
 * write UST_TRACE's filters into the control area unless it holds some
 * already (a fork child inherits its parent's).
 */
UST_HIDDEN void ust__gate_session_started(struct ust_session *s);

/*
 * Set up the gate of event `ev` ("facility:event" `name`) in session `s`,
 * with the control lock held, before its enabled word is set.  False
 * when the event must stay off: it has a filter or rate limit but its id
 * is past what the gates can hold.
 */
UST_HIDDEN bool ust__gate_attach(struct ust_session *s,
				struct ust_event_desc *ev, const char *name);

/* In a fork child: copy the parent's filters (I13) into `s`. */
UST_HIDDEN void ust__gate_inherit(struct ust_session *s,
				 const struct ust_session *old);

enum ust__gate_verdict {
	UST_GATE_DROP,		/* the filter discards the record */
	UST_GATE_WRITE,		/* write it */
	UST_GATE_RUN,		/* write it if program *prog keeps it */
	UST_GATE_PREFIX,	/* the same, *prog being a string against a prefix */
	UST_GATE_INT_K,		/* the same, *prog being INT_K (ust__gate_quick() only) */
	UST_GATE_FULL,		/* not decided here: ust__gate_pass() */
};

/* The programs that may keep a record of one event; immutable once published. */
struct ust__filter_set {
	uint32_t nr;
	uint32_t ctx_needed;	/* $ctx fields the programs read */
	bool missing;		/* a rule had no valid program for the event */
	/*
	 * What ust__gate_quick() makes of the set: UST_GATE_INT_K, _PREFIX
	 * or _RUN for one program without $ctx field (progs[0]), else
	 * UST_GATE_FULL.
	 */
	uint8_t quick;
	struct ust_filter progs[GATE_MAX_OR];
};

/* ust__gate's `key` when the event is rate-limited (ust__gate_pass() then). */
#define GATE_KEY_RATE		(1ull << 32)

struct ust__gate {
	/*
	 * NULL: no filter.  Store-release by the builder after the set and
	 * its programs are complete; the gated path loads it with acquire.
	 */
	const struct ust__filter_set *set;
	/*
	 * The rules' count `set` was built from, GATE_KEY_RATE added when
	 * rate_max is not 0: the quick path compares it with the count as
	 * it is, in one compare.
	 */
	uint64_t key;
	uint32_t installing;	/* 1 while a thread builds a new set */
	/* Written at attach, before the event can take the gated path. */
	uint32_t window;	/* 1 + its index in ust_tls_rate; 0: none yet */
	uint32_t rate_max;	/* records a second; 0: no limit */
	int32_t loglevel;
	uint64_t signature;
	/* One cache line each (its name is elsewhere, gate.c), indexed by a shift. */
} __attribute__((aligned(64)));

UST_HIDDEN extern struct ust__gate ust__gates[UST_CTL_MAX_EVENTS];

/* The filter rules in use: their count, clamped (I13, acquire). */
static inline uint32_t ust__gate_rules(const struct ust_ctl_area *a)
{
	/*
	 * I13, acquire: pairs with the store-release of the writer that
	 * appended the last rule and its programs.
	 */
	uint32_t n = __atomic_load_n(&a->nr_filters, __ATOMIC_ACQUIRE);

	return n < UST_CTL_MAX_FILTERS ? n : UST_CTL_MAX_FILTERS;
}

/*
 * The gated path of ust_event_write(), whole (gate.c): 1 to write the
 * record, 0 when its filter or rate limit stops it.  No lock, no
 * allocation, no system call (but once per thread to learn its name, for
 * $ctx.procname); async-signal-safe.
 */
UST_HIDDEN int ust__gate_pass(struct ust_session *s, struct ust_event_desc *ev,
			     const struct ust_seg *segs, unsigned int nr_segs);

/*
 * The common cases of ust__gate_pass(), inline and without any call: the
 * rules unchanged, no rate limit, one filter without $ctx field.  The
 * event's set as ust__gate_quick() and ust__gate_quick_small() start:
 * UST_GATE_WRITE (no filter), UST_GATE_FULL, or the set's verdict
 * (struct ust__filter_set's `quick`), its program in *prog.
 */
static inline enum ust__gate_verdict
ust__gate_lookup(const struct ust_session *s, const struct ust_event_desc *ev,
		 const struct ust_filter **prog)
{
	uint32_t id = ev->id;
	const struct ust__filter_set *set;
	const struct ust__gate *g;
	uint64_t rules;

	if (id >= UST_CTL_MAX_EVENTS)
		return UST_GATE_WRITE;	/* never gated: ust__gate_attach() kept it off */
	g = &ust__gates[id];
	/*
	 * I13, acquire: pairs with the store-release of the writer that
	 * appended the last rule.  Unclamped: a count past the rules there
	 * can be (a hostile area) matches no key, and takes the full path.
	 */
	rules = __atomic_load_n(&s->ctl->nr_filters, __ATOMIC_ACQUIRE);
	/* Relaxed: a hint; ust__gate_pass() rebuilds the set when it moved. */
	if (__builtin_expect(rules != __atomic_load_n(&g->key, __ATOMIC_RELAXED), 0))
		return UST_GATE_FULL;	/* the rules moved, or a rate limit */
	/* Acquire: pairs with the release publishing the set (gate.c). */
	set = __atomic_load_n(&g->set, __ATOMIC_ACQUIRE);
	if (!set)
		return UST_GATE_WRITE;
	*prog = &set->progs[0];
	return (enum ust__gate_verdict)set->quick;
}

/*
 * The common cases for a payload in segments: an INT_K shape on a field
 * of the first segment is decided here; another program is left to the
 * caller (UST_GATE_PREFIX, UST_GATE_RUN), out of line, so that this path
 * needs no stack frame; anything else is UST_GATE_FULL.  `cstr_segs`:
 * some segments may be strings not measured yet
 * (ust_event_write_gated_ip()).
 */
static inline enum ust__gate_verdict
ust__gate_quick(const struct ust_session *s, const struct ust_event_desc *ev,
		const struct ust_seg *segs, unsigned int nr_segs,
		const struct ust_filter **prog, bool cstr_segs)
{
	enum ust__gate_verdict v = ust__gate_lookup(s, ev, prog);
	const struct ust_filter_fast *fast;

	if (v != UST_GATE_INT_K)
		return v;
	fast = &(*prog)->fast;
	/* A first segment not measured yet (UST_SEG_CSTR) is no field of it. */
	if (nr_segs && fast->end <= segs[0].len &&
	    !(cstr_segs && segs[0].len == UST_SEG_CSTR))
		return ust_filter_int_k_keeps(fast, segs[0].ptr) ? UST_GATE_WRITE :
								   UST_GATE_DROP;
	return UST_GATE_RUN;
}

/* The same for a payload of `size` bytes passed by value (ust_event_write_small_ip()). */
static inline enum ust__gate_verdict
ust__gate_quick_small(const struct ust_session *s, const struct ust_event_desc *ev,
		      uint64_t payload, size_t size, const struct ust_filter **prog)
{
	enum ust__gate_verdict v = ust__gate_lookup(s, ev, prog);
	const struct ust_filter_fast *fast;

	if (v != UST_GATE_INT_K)
		return v;
	fast = &(*prog)->fast;
	if (fast->end <= size)
		return ust_filter_int_k_keeps_word(fast, payload) ? UST_GATE_WRITE :
								    UST_GATE_DROP;
	return UST_GATE_RUN;
}

/* A thread was renamed: names cached for $ctx.procname are stale. */
UST_HIDDEN void ust__gate_thread_renamed(void);

#endif /* UST_GATE_H */
