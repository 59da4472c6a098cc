/*
 * gate.c - filters and rate limits, decided in the program before a
 * record is written (gate.h, doc/filters.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Each event id has a private gate: the filter programs that apply to it
 * (a "set", ORed), and its rate limit.  A set is built from the filter
 * rules of the control area (abi/control.h, I13), which another process
 * may write at any time: every rule and program is copied into private
 * memory (an arena mapped at session start, never written again once a
 * set is published, never freed), and each program copy is validated
 * (filter/validate.c) before the set is published.  So the interpreter
 * only ever runs validated programs that nothing else can change.
 *
 * Sets are built at attach time (registration, session start: the
 * registry and control locks held), and again lazily on the gated path
 * when the rules' generation (their count, I13) moved: by one thread,
 * which claims the gate with a compare-and-exchange; the others keep the
 * published set meanwhile.  No allocation there (the arena is bump
 * allocated with an atomic add), no lock, no system call.
 *
 * Rate limits count records per event type and thread in fixed windows
 * of one second of CLOCK_MONOTONIC_COARSE (read through the vDSO): the
 * records past the limit in a window are not written and are counted in
 * the control area, for the consumer's summary.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "abi/env.h"
#include "common/pattern.h"
#include "filter/runtime.h"
#include "gate.h"

#define GATE_ARENA_SIZE		(16u << 20)
#define RATE_SLOTS		64u	/* rate-limited event types */

struct ust__gate ust__gates[UST_CTL_MAX_EVENTS];
/* Each gate's event, "facility:event", written at attach. */
static char gate_names[UST_CTL_MAX_EVENTS][UST_CTL_NAME_MAX];
static uint8_t *arena;
static uint64_t arena_used;
static uint32_t nr_rate_slots;	/* under the registry lock */
/* Bumped at each thread rename, so cached names are refreshed. */
static uint32_t rename_generation = 1;

struct rate_window {
	uint32_t second;
	uint32_t count;
};

static __thread struct rate_window ust_tls_rate[RATE_SLOTS]
	__attribute__((tls_model("initial-exec")));
static __thread char ust_tls_procname[16]
	__attribute__((tls_model("initial-exec")));
static __thread uint32_t ust_tls_procname_gen
	__attribute__((tls_model("initial-exec")));

/* ---- private memory ---- */

/* Map the arena once, in a normal context (session start). */
static void arena_map(void)
{
	void *m;

	if (arena)
		return;
	m = mmap(NULL, GATE_ARENA_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "ust: cannot map memory for filters: %m; "
			"filtered events will not be recorded\n");
		return;
	}
	arena = m;
}

/*
 * `n` bytes of the arena, or NULL when it is full; aligned on a cache
 * line, so a set's header and its first program's fast path share one.
 */
static void *arena_alloc(size_t n)
{
	uint64_t off;

	if (!arena)
		return NULL;
	n = (n + 63) & ~(size_t)63;
	/* Relaxed: each caller owns the range it got; nothing else is ordered. */
	off = __atomic_fetch_add(&arena_used, n, __ATOMIC_RELAXED);
	if (off > GATE_ARENA_SIZE || n > GATE_ARENA_SIZE - off)
		return NULL;
	return arena + off;
}

/* ---- rules and programs of the control area (untrusted, I1) ---- */


/* A private copy of rule `i`, its strings terminated. */
static void rule_copy(const struct ust_ctl_area *a, uint32_t i,
		      struct ust_ctl_filter *r)
{
	memcpy(r, &a->filters[i], sizeof(*r));
	r->pattern[sizeof(r->pattern) - 1] = '\0';
	r->expr[sizeof(r->expr) - 1] = '\0';
}

/* Copy a program into the arena and validate the copy: true when usable. */
static bool program_install(const uint8_t *src, size_t size, uint64_t sig,
			    struct ust_filter *out)
{
	uint8_t *copy = arena_alloc(size);
	struct ust_filter_error err;

	if (!copy)
		return false;
	memcpy(copy, src, size);
	return ust_filter_validate(out, copy, size, &err) == 0 &&
	       out->signature == sig;
}

/* The program of rule `r` for fields of signature `sig`, installed in `out`. */
static bool program_find(const struct ust_ctl_area *a,
			 const struct ust_ctl_filter *r, uint64_t sig,
			 struct ust_filter *out)
{
	uint64_t off = r->programs, end;
	uint32_t k;

	if (off % 8 || off > UST_CTL_FILTER_POOL ||
	    r->programs_size > UST_CTL_FILTER_POOL - off)
		return false;
	end = off + r->programs_size;
	for (k = 0; k < r->nr_programs; k++) {
		struct ust_filter_header h;
		uint64_t size;

		if (end - off < sizeof(h))
			return false;
		memcpy(&h, a->filter_pool + off, sizeof(h));
		size = sizeof(h) + (uint64_t)h.nr_insns * 8 + h.pool_size;
		if (h.magic != UST_FILTER_MAGIC || size > UST_FILTER_MAX_SIZE ||
		    size > end - off)
			return false;
		if (h.signature == sig)
			return program_install(a->filter_pool + off, (size_t)size,
					       sig, out);
		off += (size + 7) & ~7ull;
	}
	return false;
}

/* Add rule `r`'s program for gate `g` to `set`, or note it is missing. */
static void set_add(struct ust__filter_set *set, const struct ust_ctl_area *a,
		    const struct ust_ctl_filter *r, const struct ust__gate *g)
{
	struct ust_filter *f = &set->progs[set->nr];

	if (set->nr == GATE_MAX_OR)
		return;		/* more ORed filters than kept: the first ones */
	if (!program_find(a, r, g->signature, f)) {
		set->missing = true;
		return;
	}
	set->ctx_needed |= f->ctx_needed;
	set->nr++;
}

enum set_state { SET_NONE, SET_ALL, SET_SOME };

/* What ust__gate_quick() makes of `set` (struct ust__filter_set). */
static uint8_t set_quick(const struct ust__filter_set *set)
{
	const struct ust_filter_fast *fast = &set->progs[0].fast;

	if (set->nr != 1 || set->ctx_needed)
		return UST_GATE_FULL;
	if (fast->shape == UST_FILTER_SHAPE_INT_K)
		return UST_GATE_INT_K;
	if (fast->shape == UST_FILTER_SHAPE_STR_MATCH && fast->prefix)
		return UST_GATE_PREFIX;
	return UST_GATE_RUN;
}

/*
 * The set the first `n` rules give gate `g` (abi/control.h has the
 * rules): NULL for no filter, else a set in the arena.  *failed when the
 * arena is full.
 */
static const struct ust__filter_set *set_build(const struct ust_ctl_area *a,
					  const struct ust__gate *g, uint32_t n,
					  bool *failed)
{
	enum set_state state = SET_NONE;
	struct ust__filter_set tmp, *set;
	uint32_t i;

	memset(&tmp, 0, sizeof(tmp));
	*failed = false;
	for (i = 0; i < n; i++) {
		struct ust_ctl_filter r;

		rule_copy(a, i, &r);
		if (!ust__glob_match(r.pattern, gate_names[g - ust__gates]))
			continue;
		if ((r.op == UST_CTL_FILTER_ANY || r.op == UST_CTL_FILTER_OR) &&
		    !ust__entry_loglevel_ok(r.loglevel_op, r.loglevel, g->loglevel))
			continue;
		switch (r.op) {
		case UST_CTL_FILTER_ANY:
		case UST_CTL_FILTER_CLEAR:
			state = SET_ALL;
			break;
		case UST_CTL_FILTER_SET:
			memset(&tmp, 0, sizeof(tmp));
			state = SET_SOME;
			set_add(&tmp, a, &r, g);
			break;
		case UST_CTL_FILTER_OR:
			if (state != SET_ALL) {
				state = SET_SOME;
				set_add(&tmp, a, &r, g);
			}
			break;
		default:	/* not a rule anyone wrote: ignored */
			break;
		}
	}
	if (state != SET_SOME)
		return NULL;
	tmp.quick = set_quick(&tmp);
	set = arena_alloc(sizeof(*set));
	if (!set) {
		*failed = true;
		return NULL;
	}
	memcpy(set, &tmp, sizeof(tmp));
	return set;
}

/*
 * Build and publish gate `g`'s set for the first `n` rules; false when
 * the arena is full (the old set stays).
 */
static bool gate_install(const struct ust_ctl_area *a, struct ust__gate *g,
			 uint32_t n)
{
	bool failed;
	const struct ust__filter_set *set = set_build(a, g, n, &failed);

	/*
	 * Release: the set and the program copies it points to before the
	 * pointer.  Partners: the acquire loads in ust__gate_quick() and
	 * ust__gate_pass().  A full arena keeps the old set (doc/filters.md,
	 * "Limits").
	 */
	if (!failed)
		__atomic_store_n(&g->set, set, __ATOMIC_RELEASE);
	/* Relaxed: a hint; a stale one only makes a thread try again. */
	__atomic_store_n(&g->key, n | (g->rate_max ? GATE_KEY_RATE : 0),
			 __ATOMIC_RELAXED);
	return !failed;
}

/* ---- session start, fork ---- */

/* Append one rule of UST_TRACE entry `e` (`pattern`) to the area. */
static void rule_append_entry(struct ust_ctl_area *a, const char *pattern,
			      const struct ust_trace_entry *e, uint32_t n)
{
	struct ust_ctl_filter *r = &a->filters[n];
	struct ust_filter_blob b;
	const uint8_t *progs;

	memset(r, 0, sizeof(*r));
	r->op = e->filter ? UST_CTL_FILTER_OR : UST_CTL_FILTER_ANY;
	r->loglevel_op = e->loglevel_op;
	r->loglevel = e->loglevel;
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	if (!e->filter)
		return;
	memcpy(&b, e->filter, sizeof(b));	/* checked by config.c */
	snprintf(r->expr, sizeof(r->expr), "%s", (const char *)e->filter + sizeof(b));
	if (b.programs_size > UST_CTL_FILTER_POOL - a->pool_used) {
		fprintf(stderr, "ust: no room for the filter of '%s': its events "
			"will not be recorded\n", pattern);
		return;		/* a rule without program: keeps nothing */
	}
	progs = e->filter + sizeof(b) + b.expr_size;
	memcpy(a->filter_pool + a->pool_used, progs, b.programs_size);
	r->programs = a->pool_used;
	r->programs_size = b.programs_size;
	r->nr_programs = b.nr_programs;
	a->pool_used += b.programs_size;
}

void ust__gate_session_started(struct ust_session *s)
{
	struct ust_ctl_area *a = s->ctl;
	uint32_t i, n = 0;

	arena_map();
	if (!ust__config.have_filters || a->nr_filters)
		return;		/* none, or inherited by a fork child */
	for (i = 0; i < ust__config.nr_patterns && n < UST_CTL_MAX_FILTERS; i++) {
		const char *p = ust__config.patterns[i];

		if (p && p[0] != '-' && !ust__config.entries[i].broken)
			rule_append_entry(a, p, &ust__config.entries[i], n++);
	}
	/* I13, release: the rules and programs before their count. */
	__atomic_store_n(&a->nr_filters, n, __ATOMIC_RELEASE);
}

void ust__gate_inherit(struct ust_session *s, const struct ust_session *old)
{
	/* I13, acquire: as the gated path; the parent's count, then its rules. */
	uint32_t n = ust__gate_rules(old->ctl);
	uint32_t used = old->ctl->pool_used;

	used = used < UST_CTL_FILTER_POOL ? used : UST_CTL_FILTER_POOL;
	memcpy(s->ctl->filters, old->ctl->filters, n * sizeof(s->ctl->filters[0]));
	memcpy(s->ctl->filter_pool, old->ctl->filter_pool, used);
	s->ctl->pool_used = used;
	/* I13, release: the copies before the count. */
	__atomic_store_n(&s->ctl->nr_filters, n, __ATOMIC_RELEASE);
}

/* ---- attach ---- */

/* Give a rate-limited event its per-thread window, once: its rate limit. */
static uint32_t rate_window(struct ust__gate *g, uint32_t max, const char *name)
{
	if (!max || g->window)
		return max;
	if (nr_rate_slots == RATE_SLOTS) {
		fprintf(stderr, "ust: more than %u rate-limited events: '%s' "
			"is not limited\n", RATE_SLOTS, name);
		return 0;
	}
	g->window = ++nr_rate_slots;
	return max;
}

bool ust__gate_attach(struct ust_session *s, struct ust_event_desc *ev,
		      const char *name)
{
	uint32_t max = ust__rate_limit(&ust__config, name);
	uint32_t n = ust__gate_rules(s->ctl);
	struct ust__gate *g;
	bool gated;

	if (ev->id >= UST_CTL_MAX_EVENTS) {
		if (!max && !n)
			return true;
		fprintf(stderr, "ust: event '%s' (id %u) is past the %u events "
			"that filters and rate limits can hold: not recorded\n",
			name, ev->id, UST_CTL_MAX_EVENTS);
		return false;
	}
	g = &ust__gates[ev->id];
	snprintf(gate_names[ev->id], sizeof(gate_names[ev->id]), "%s", name);
	g->loglevel = ev->loglevel;
	g->signature = ust_filter_signature(ev->tsdl_fields, ev->layout);
	g->rate_max = rate_window(g, max, name);
	if (!gate_install(s->ctl, g, n)) {
		fprintf(stderr, "ust: no memory left for the filter of '%s': "
			"not recorded\n", name);
		return false;
	}
	gated = g->set || g->rate_max;
	/*
	 * Relaxed: the gate word, read with a relaxed load by
	 * ust_event_write(); set before the enabled word (registry.c), both
	 * under the control lock as ust ctl's writes of them (I12).
	 */
	__atomic_store_n(&ev->reserved, gated ? 1 : 0, __ATOMIC_RELAXED);
	return true;
}

/* ---- the gated path ---- */

static const char *thread_name(void)
{
	/* Relaxed: a rename seen late only shows the old name a while. */
	uint32_t gen = __atomic_load_n(&rename_generation, __ATOMIC_RELAXED);

	if (ust_tls_procname_gen != gen) {
		/* Once per thread and rename: the only system call here. */
		prctl(PR_GET_NAME, ust_tls_procname);
		ust_tls_procname[sizeof(ust_tls_procname) - 1] = '\0';
		ust_tls_procname_gen = gen;
	}
	return ust_tls_procname;
}

void ust__gate_thread_renamed(void)
{
	__atomic_fetch_add(&rename_generation, 1, __ATOMIC_RELAXED);
}

/* The $ctx values the set's programs read, and only those. */
static void fill_context(const struct ust_session *s, uint32_t needed,
			 struct ust_filter_ctx *ctx)
{
	if (needed & (1u << UST_FILTER_CTX_VTID))
		ctx->vtid = ust__thread_tid();
	if (needed & (1u << UST_FILTER_CTX_VPID))
		ctx->vpid = s->pid;
	if (needed & (1u << UST_FILTER_CTX_CPU_ID))
		ctx->cpu_id = ust__thread_cpu();
	if (needed & (1u << UST_FILTER_CTX_PROCNAME))
		ctx->procname = thread_name();
}

/* Does one of the set's programs keep the record? */
static bool set_keeps(const struct ust_session *s,
		      const struct ust__filter_set *set,
		      const struct ust_seg *segs, unsigned int nr_segs)
{
	struct ust_filter_ctx ctx = { 0, 0, 0, "" };
	uint32_t i;

	if (set->ctx_needed)
		fill_context(s, set->ctx_needed, &ctx);
	for (i = 0; i < set->nr; i++)
		if (ust_filter_run(&set->progs[i], segs, nr_segs, &ctx))
			return true;
	return false;
}

/* Is the record within its event's rate limit, in this thread? */
static bool rate_ok(struct ust_session *s, const struct ust__gate *g,
		    uint32_t id)
{
	struct rate_window *w = &ust_tls_rate[g->window - 1];
	struct timespec now;
	uint32_t count;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);	/* vDSO */
	if (w->second != (uint32_t)now.tv_sec) {
		w->second = (uint32_t)now.tv_sec;
		w->count = 0;
	}
	/*
	 * A signal handler tracing the same event between these two lines
	 * may let one record more through; nothing is lost uncounted.
	 */
	count = w->count + 1;
	w->count = count;
	if (count <= g->rate_max)
		return true;
	/* I7's spirit: counted once, relaxed; the consumer reads it at the end. */
	__atomic_fetch_add(&s->ctl->rate_limited[id], 1, __ATOMIC_RELAXED);
	return false;
}

/* The rules moved: rebuild the gate's set, unless another thread does. */
static void refresh(const struct ust_session *s, struct ust__gate *g,
		    uint32_t n)
{
	uint32_t idle = 0;

	/* Acquire: the previous builder's release of `installing` (its set). */
	if (!__atomic_compare_exchange_n(&g->installing, &idle, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	gate_install(s->ctl, g, n);
	__atomic_store_n(&g->installing, 0, __ATOMIC_RELEASE);
}

int ust__gate_pass(struct ust_session *s, struct ust_event_desc *ev,
		   const struct ust_seg *segs, unsigned int nr_segs)
{
	uint32_t id = ev->id, n;
	const struct ust__filter_set *set;
	struct ust__gate *g;

	if (id >= UST_CTL_MAX_EVENTS)
		return 1;	/* never gated: ust__gate_attach() kept it off */
	g = &ust__gates[id];
	n = ust__gate_rules(s->ctl);
	/* Relaxed: a hint; a stale one only makes a thread try again. */
	if (n != (uint32_t)__atomic_load_n(&g->key, __ATOMIC_RELAXED))
		refresh(s, g, n);
	/* Acquire: pairs with the release publishing the set (gate_install()). */
	set = __atomic_load_n(&g->set, __ATOMIC_ACQUIRE);
	if (set && !set_keeps(s, set, segs, nr_segs)) {
		if (set->nr == 0 && set->missing)
			__atomic_fetch_add(&s->ctl->no_program[id], 1,
					   __ATOMIC_RELAXED);
		return 0;
	}
	if (g->rate_max != 0)
		return rate_ok(s, g, id);
	return 1;
}
