/*
 * funcfilter.c - uftrace's filters, in the hooks: --time-filter, --depth,
 * --filter-func and --exclude-func (UST_FUNC_*, doc/functions.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Each thread keeps a shadow stack of its open calls (up to
 * FF_FRAMES; mapped at its first filtered hook, unmapped at its exit).
 * At an entry the thread decides whether the call is traced:
 *
 *   - exclude: a function named by UST_FUNC_EXCLUDE, and every call made
 *     while one is open, is not;
 *   - filter: when UST_FUNC_FILTER is set, only a function it names and
 *     the calls made while one is open are;
 *   - depth: of the traced calls, only those nested at most
 *     UST_FUNC_DEPTH deep (counting traced calls only) are recorded;
 *   - time: a recorded call is held on the shadow stack, its entry not
 *     written, until its exit says how long it lasted: at least
 *     UST_FUNC_TIME_FILTER, and the held entries below it (its callers:
 *     they lasted longer) are written, each with the time it happened,
 *     then the entry and the exit; shorter, and neither is written.
 *
 * Held entries form the top of the stack: once an entry is written,
 * every entry below it was written before, so the trace stays nested and
 * in time order (a caller's entry is older than anything its callee
 * wrote).  Names are resolved once, when tracing starts, from the symbol
 * tables of the objects then loaded (elfsyms.c), into sets of function
 * addresses: the hooks compare addresses only.  What each filter keeps
 * out is counted in the thread's buffer (`filtered`, abi/shm.h), for the
 * summary.
 *
 * A signal handler's calls during a hook (nesting level 1, threadbuf.h)
 * are recorded unfiltered, into its thread's signal buffer: the shadow
 * stack is the interrupted hook's.  Calls nested deeper than FF_FRAMES
 * follow their deepest stored caller and are never held.  Other events
 * the thread records while entries are held come before those entries
 * in its stream (their time is raised to keep the stream in order).
 */
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/clock.h"
#include "common/pattern.h"
#include "functions.h"
#include "threadbuf.h"

#define FF_FRAMES	4096u

/* The kinds of filtered records, as indexes of ust_shm_tbuf.filtered. */
enum { FF_BY_TIME = 0, FF_BY_DEPTH = 1, FF_BY_FUNC = 2 };

/* A frame's flags. */
#define FF_HELD		(1u << 0)	/* recorded, entry not written yet */
#define FF_REC		(1u << 1)	/* recorded (entry written or held) */
#define FF_FILTER	(1u << 2)	/* counted in in_filter */
#define FF_EXCLUDE	(1u << 3)	/* counted in in_exclude */
#define FF_TRACED	(1u << 4)	/* counted in traced */
#define FF_DEPTH	(1u << 5)	/* traced, too deep */

struct ff_frame {
	uint64_t fn;
	uint64_t call_site;
	uint64_t ts;		/* of the entry, when held */
	uint64_t flags;
};

struct ff_thread {
	struct ff_frame *stack;	/* FF_FRAMES frames, or NULL */
	uint32_t depth;		/* calls open, stored or not */
	uint32_t held_from;	/* the lowest held frame; FF_NONE when none */
	uint32_t in_filter, in_exclude, traced;
	bool broken;		/* no stack: every call recorded */
};

#define FF_NONE		UINT32_MAX

static __thread struct ff_thread ff_tls __attribute__((tls_model("initial-exec")));

/* A set of function addresses: open addressing, 0 marks an empty slot. */
struct ff_set {
	uint64_t *slot;
	uint64_t mask;		/* slots - 1 */
	uint64_t nr;
};

/* What the filters are, read-only once ust__func_filters_start() returned. */
static struct {
	struct ff_set only, exclude;
	bool have_only;		/* UST_FUNC_FILTER given */
	uint32_t depth;		/* 0: no limit */
	uint64_t min_ticks;	/* 0: no time filter */
} ff;

static uint64_t ff_hash(uint64_t a)
{
	return (a >> 4) * 0x9e3779b97f4a7c15ull;
}

static bool ff_set_has(const struct ff_set *s, uint64_t a)
{
	uint64_t i;

	if (!s->nr)
		return false;
	for (i = ff_hash(a) & s->mask; s->slot[i]; i = (i + 1) & s->mask)
		if (s->slot[i] == a)
			return true;
	return false;
}

static void ff_set_put(struct ff_set *s, uint64_t a);

static void ff_set_grow(struct ff_set *s)
{
	struct ff_set bigger = { NULL, s->mask ? 2 * s->mask + 1 : 63, 0 };
	uint64_t i;

	bigger.slot = calloc(bigger.mask + 1, sizeof(*bigger.slot));
	if (!bigger.slot)
		return;		/* the set stays as it is: fewer names match */
	for (i = 0; s->slot && i <= s->mask; i++)
		if (s->slot[i])
			ff_set_put(&bigger, s->slot[i]);
	free(s->slot);
	*s = bigger;
}

static void ff_set_put(struct ff_set *s, uint64_t a)
{
	uint64_t i;

	if (2 * (s->nr + 1) > s->mask + 1)
		ff_set_grow(s);
	if (2 * (s->nr + 1) > s->mask + 1)
		return;
	for (i = ff_hash(a) & s->mask; s->slot[i]; i = (i + 1) & s->mask)
		if (s->slot[i] == a)
			return;
	s->slot[i] = a;
	s->nr++;
}

/* The globs of one variable, and the set their functions go to. */
struct ff_names {
	char *globs[64];
	unsigned int nr;
	struct ff_set *set;
};

static bool ff_names_match(const char *name, void *arg)
{
	const struct ff_names *n = arg;
	unsigned int i;

	for (i = 0; i < n->nr; i++)
		if (ust__glob_match(n->globs[i], name))
			return true;
	return false;
}

static void ff_names_found(uint64_t addr, void *arg)
{
	ff_set_put(((struct ff_names *)arg)->set, addr);
}

/* Resolve the names of one loaded object into the set. */
static int ff_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct ust_elf_visit v = { ff_names_match, ff_names_found, arg };
	const char *path = info->dlpi_name;

	(void)size;
	if (!path || !*path)
		path = "/proc/self/exe";	/* the program itself */
	if (path[0] == '/')
		(void)ust__elf_functions(path, info->dlpi_addr, &v);
	return 0;
}

/* The functions named by the comma-separated globs of `list` into `set`. */
static void ff_resolve(const char *list, struct ff_set *set)
{
	struct ff_names n = { .set = set };
	char *copy = strdup(list), *save = NULL, *tok;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && n.nr < 64;
	     tok = strtok_r(NULL, ",", &save))
		if (*tok)
			n.globs[n.nr++] = tok;
	if (n.nr)
		dl_iterate_phdr(ff_object, &n);
	if (n.nr && !set->nr)
		fprintf(stderr, "ust: no function matches '%s' in the symbol tables "
			"of the loaded objects\n", list);
	free(copy);
}

/* The time filter's length in clock ticks (the session's counter). */
static uint64_t ff_ticks(uint64_t ns)
{
	struct ust_clock clk;

	if (ust__config.clock_kind != UST_CLOCK_TSC)
		return ns;
	if (!ust__config.session_clock ||
	    ust__clock_parse(ust__config.session_clock, &clk) ||
	    clk.kind != UST_CLOCK_TSC)
		if (ust__clock_measure(UST_CLOCK_TSC, &clk))
			return ns;	/* a wrong unit beats no filter */
	return (uint64_t)((unsigned __int128)ns * clk.freq / 1000000000u);
}

void ust__func_filters_start(void)
{
	const struct ust_config *cfg = &ust__config;

	if (cfg->func_filter) {
		ff.have_only = true;
		ff_resolve(cfg->func_filter, &ff.only);
	}
	if (cfg->func_exclude)
		ff_resolve(cfg->func_exclude, &ff.exclude);
	ff.depth = cfg->func_depth;
	if (cfg->func_time_ns)
		ff.min_ticks = ff_ticks(cfg->func_time_ns);
	ust__func.filters = ff.have_only || ff.exclude.nr || ff.depth || ff.min_ticks;
	if (ff.min_ticks)
		atexit(ust__func_thread_exit);	/* the main thread's open calls */
}

/* I15: one of the thread's counts of filtered records (one instruction). */
static inline void ff_count(struct ust_tb_writer *w, unsigned int kind, uint64_t n)
{
	__asm__ __volatile__("addq %1, %0" : "+m"(w->ctl->filtered[kind]) : "r"(n));
}

/* Decide a call of `fn` at its entry: the frame's flags (not the time). */
static uint64_t ff_decide(struct ff_thread *th, uint64_t fn)
{
	uint64_t flags = 0;

	if (ff.exclude.nr && ff_set_has(&ff.exclude, fn)) {
		flags |= FF_EXCLUDE;
		th->in_exclude++;
	}
	if (ff.have_only && ff_set_has(&ff.only, fn)) {
		flags |= FF_FILTER;
		th->in_filter++;
	}
	if ((ff.have_only && !th->in_filter) || th->in_exclude)
		return flags;
	flags |= FF_TRACED;
	th->traced++;
	if (ff.depth && th->traced > ff.depth)
		return flags | FF_DEPTH;
	return flags | FF_REC;
}

/*
 * Write the held entries of the frames below `top`, oldest first: a
 * callee of theirs (or the frame top - 1 itself) lasted long enough.
 */
static void ff_flush(struct ust_session *s, struct ust_tb_writer *w,
		     struct ff_thread *th, uint32_t top)
{
	uint32_t i;

	if (th->held_from == FF_NONE)
		return;
	for (i = th->held_from; i < top; i++) {
		struct ff_frame *f = &th->stack[i];

		if (f->flags & FF_HELD) {
			ust__func_put_entry(s, w, f->fn, f->call_site, f->ts);
			f->flags &= ~FF_HELD;
		}
	}
	th->held_from = FF_NONE;
}

static void ff_count_out(struct ust_tb_writer *w, uint64_t flags)
{
	ff_count(w, flags & FF_DEPTH ? FF_BY_DEPTH : FF_BY_FUNC, 1);
}

/* The entry of `fn` by a thread with its buffer and stack. */
static void ff_entry(struct ust_session *s, struct ust_tb_writer *w,
		     struct ff_thread *th, uint64_t fn, uint64_t call_site)
{
	uint64_t now = ust__clock_read(s->clock_kind);
	uint32_t d = th->depth++;
	struct ff_frame *f;

	if (d >= FF_FRAMES) {
		/* Too deep to keep: follows its deepest stored caller. */
		if (th->stack[FF_FRAMES - 1].flags & FF_REC) {
			ff_flush(s, w, th, FF_FRAMES);
			ust__func_put_entry(s, w, fn, call_site, now);
		} else {
			ff_count(w, FF_BY_DEPTH, 1);
		}
		return;
	}
	f = &th->stack[d];
	*f = (struct ff_frame){ fn, call_site, now, ff_decide(th, fn) };
	if (!(f->flags & FF_REC)) {
		ff_count_out(w, f->flags);
	} else if (!ff.min_ticks) {
		ust__func_put_entry(s, w, fn, call_site, now);
	} else {
		f->flags |= FF_HELD;
		if (th->held_from == FF_NONE)
			th->held_from = d;
	}
}

/* Whether the exit of frame `f` is written (flushing what it needs). */
static bool ff_exit_kept(struct ust_session *s, struct ust_tb_writer *w,
			 struct ff_thread *th, uint32_t d, struct ff_frame *f)
{
	if (!(f->flags & FF_REC)) {
		ff_count_out(w, f->flags);
		return false;
	}
	if (!(f->flags & FF_HELD))
		return true;	/* a callee wrote its entry: it lasts longer */
	if (ust__clock_read(s->clock_kind) - f->ts < ff.min_ticks) {
		/* Too short: neither its entry nor its exit. */
		if (th->held_from == d)
			th->held_from = FF_NONE;
		ff_count(w, FF_BY_TIME, 2);
		return false;
	}
	ff_flush(s, w, th, d + 1);
	return true;
}

/* The exit of the call on top of a thread's stack. */
static void ff_exit(struct ust_session *s, struct ust_tb_writer *w,
		    struct ff_thread *th, uint64_t fn, uint64_t call_site)
{
	struct ff_frame *f;
	uint32_t d;
	bool kept;

	if (!th->depth) {
		/* An exit without its entry (it came before the filters). */
		ust__func_put_exit(s, w, fn, call_site);
		return;
	}
	d = --th->depth;
	if (d >= FF_FRAMES) {
		kept = th->stack[FF_FRAMES - 1].flags & FF_REC;
		if (!kept)
			ff_count(w, FF_BY_DEPTH, 1);
	} else {
		f = &th->stack[d];
		th->in_exclude -= !!(f->flags & FF_EXCLUDE);
		th->in_filter -= !!(f->flags & FF_FILTER);
		th->traced -= !!(f->flags & FF_TRACED);
		kept = ff_exit_kept(s, w, th, d, f);
	}
	if (kept)
		ust__func_put_exit(s, w, fn, call_site);
}

/*
 * The shadow stack of the calling thread, mapped at its first hook; a
 * thread that cannot have one records every call (entries and exits stay
 * paired).
 */
static bool ff_ready(struct ff_thread *th)
{
	void *p;

	if (th->stack || th->broken)
		return th->stack != NULL;
	p = mmap(NULL, FF_FRAMES * sizeof(struct ff_frame), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		th->broken = true;
		return false;
	}
	th->stack = p;
	th->held_from = FF_NONE;
	return true;
}

/*
 * The common part of both hooks: at nesting level 0, with a session of
 * per-thread buffers and the thread's buffer and stack, run `step`;
 * else record the call as it is (a signal handler during a hook, a
 * thread without a stack).
 */
static void ff_hook(void *fn, void *call_site, bool entry)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	uint32_t level = ust__tb_enter(t);
	struct ff_thread *th = &ff_tls;
	/* Acquire: pairs with the store-release publishing the session. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);
	bool filtered = level == 0 && s && s->chan[0].per_thread &&
			(t->w[0].ring || !ust__tb_claim(s, &s->chan[0], t, 0)) &&
			ff_ready(th);

	if (filtered && entry)
		ff_entry(s, &t->w[0], th, (uintptr_t)fn, (uintptr_t)call_site);
	else if (filtered)
		ff_exit(s, &t->w[0], th, (uintptr_t)fn, (uintptr_t)call_site);
	ust__tb_leave(t, level);
	if (filtered || !s)
		return;
	if (entry)
		ust__func_record_entry(fn, call_site);
	else
		ust__func_record_exit(fn, call_site);
}

void ust__func_filtered_entry(void *fn, void *call_site)
{
	ff_hook(fn, call_site, true);
}

void ust__func_filtered_exit(void *fn, void *call_site)
{
	ff_hook(fn, call_site, false);
}

/*
 * Calls still open when their thread ends: the entries held of those
 * that already lasted long enough are written (their exits never come;
 * readers close such calls at the thread's last event).  Held entries
 * are oldest first, so those are a prefix of them.
 */
static void ff_flush_open(struct ust_session *s, struct ust_tb_writer *w,
			  struct ff_thread *th)
{
	uint64_t now = ust__clock_read(s->clock_kind);
	uint32_t top = th->depth < FF_FRAMES ? th->depth : FF_FRAMES, d;

	if (th->held_from == FF_NONE || !th->stack)
		return;
	for (d = th->held_from; d < top; d++) {
		struct ff_frame *f = &th->stack[d];

		if (!(f->flags & FF_HELD))
			continue;
		if (now - f->ts < ff.min_ticks)
			break;
		ust__func_put_entry(s, w, f->fn, f->call_site, f->ts);
		f->flags &= ~FF_HELD;
	}
	th->held_from = FF_NONE;
}

/*
 * The calling thread ends (threadbuf.c's exit destructor, before its
 * buffers are handed back; the program's exit, for its main thread).
 */
void ust__func_thread_exit(void)
{
	struct ust_tb_thread *t = &ust__tls_tb;
	struct ff_thread *th = &ff_tls;
	uint32_t level = ust__tb_enter(t);
	/* Acquire: pairs with the store-release publishing the session. */
	struct ust_session *s = __atomic_load_n(&ust__session_current,
						__ATOMIC_ACQUIRE);

	if (level == 0 && s && s->chan[0].per_thread && t->w[0].ring)
		ff_flush_open(s, &t->w[0], th);
	ust__tb_leave(t, level);
	if (th->stack)
		munmap(th->stack, FF_FRAMES * sizeof(struct ff_frame));
	memset(th, 0, sizeof(*th));
}
