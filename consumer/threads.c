/*
 * threads.c - the buffers of a per-thread channel: found as libust
 * publishes them, drained like per-CPU buffers, handed back when their
 * thread is done (abi/shm.h, I14-I17).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every tick: load the published count of regions (I14, acquire) and map
 * the new ones, then for each region load its state (I15, acquire):
 *
 *   state     our stream   what we do
 *   OWNED     closed       open a stream: its thread id and instance id
 *   OWNED     open         drain its closed packets
 *   EXITED    any          drain everything, its last packet with the
 *                          count its thread left (I17), close the stream,
 *                          `consumed` = 0, FREE (release): reusable
 *   FREE, CLAIMED          nothing (a thread is setting it up)
 *
 * At the end (the process is gone) every region that is OWNED or EXITED
 * is drained and its open packet flushed; an OWNED one's records are
 * walked (crash recovery), the writer could not count them.
 *
 * A stream file is named `<channel>_tid<TID>` (`..._sig` for the buffer
 * of the thread's signal handlers); a thread id the kernel gives again
 * later gets `-1`, `-2` ... after its name.  I1: a region whose fields
 * make no sense is reported once and no longer read; the count of
 * regions may only grow, and never past the file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "consumer.h"

struct cd_tregion {
	struct ust_shm_tbuf *ctl;	/* the mapped region; NULL: not read */
	struct stream st;
	bool open;
};

/* How many streams of a thread id were named so far. */
struct cd_tid_names {
	int32_t tid;
	uint32_t used;
};

struct cd_threads {
	struct cd_tregion *r;
	uint64_t nr, cap;
	bool count_broken;		/* the count went wrong: no new regions */
	uint64_t lost_closed;		/* lost records of the streams closed */
	uint64_t filtered_closed[3];	/* function events kept out, by filter */
	struct cd_tid_names *names;
	size_t nr_names, cap_names;
	/* Streams closed lacking records (writing stopped): reserve.c closes them. */
	struct stream *unwritten;
	size_t nr_unwritten;
};

int cd_threads_init(struct consumer *c)
{
	if (c->shm.thread_chan < 0)
		return 0;
	c->threads = calloc(1, sizeof(*c->threads));
	return c->threads ? 0 : -ENOMEM;
}

/* The n-th use of `tid` in stream names (0 for its first stream). */
/*
 * The number of streams named after `tid` (a thread id and role) so
 * far, counted up; at least `seen` + 1 once seen (resume: the names of
 * the files already there are taken).
 */
static uint32_t tid_name_count(struct cd_threads *th, int32_t tid, uint32_t seen)
{
	size_t i;

	for (i = 0; i < th->nr_names; i++) {
		if (th->names[i].tid != tid)
			continue;
		if (th->names[i].used <= seen)
			th->names[i].used = seen + 1;
		return th->names[i].used++;
	}
	if (th->nr_names == th->cap_names) {
		size_t cap = th->cap_names ? 2 * th->cap_names : 64;
		struct cd_tid_names *p = realloc(th->names, cap * sizeof(*p));

		if (!p)
			return 0;	/* O_EXCL refuses a name in use */
		th->names = p;
		th->cap_names = cap;
	}
	th->names[th->nr_names++] = (struct cd_tid_names){ tid, seen + 1 };
	return seen;
}

static uint32_t tid_name_use(struct cd_threads *th, int32_t tid)
{
	return tid_name_count(th, tid, 0);
}

static void region_break(struct consumer *c, struct cd_tregion *r,
			 uint64_t i, const char *why)
{
	c->distrust = true;
	fprintf(stderr, CONSUMER_NAME ": thread buffer %" PRIu64 ": %s; no longer read\n",
		i, why);
	if (r->ctl)
		munmap(r->ctl, c->shm.region_size);
	r->ctl = NULL;
}

/* Map the regions published since the last tick (I14). */
static void regions_discover(struct consumer *c, struct cd_threads *th)
{
	uint64_t nr, i;
	char err[160];

	if (th->count_broken)
		return;
	if (shm_threads_published(&c->shm, th->nr, &nr, err, sizeof(err))) {
		fprintf(stderr, CONSUMER_NAME ": %s; no new thread buffer is read\n", err);
		th->count_broken = true;
		c->distrust = true;
		return;
	}
	if (nr > th->cap) {
		uint64_t cap = th->cap ? th->cap : 16;
		struct cd_tregion *p;

		while (cap < nr)
			cap *= 2;
		p = realloc(th->r, cap * sizeof(*p));
		if (!p)
			return;		/* tried again next tick */
		memset(p + th->cap, 0, (cap - th->cap) * sizeof(*p));
		th->r = p;
		th->cap = cap;
	}
	for (i = th->nr; i < nr; i++) {
		th->r[i].ctl = shm_thread_map(&c->shm, i);
		if (!th->r[i].ctl)
			fprintf(stderr, CONSUMER_NAME ": thread buffer %" PRIu64
				": cannot map it; not read\n", i);
	}
	th->nr = nr;
}

/*
 * Start the stream of region `i`, which its thread owns or owned
 * (state loaded with acquire: I15).  0, or -1 when its fields are bad.
 */
static int region_open(struct consumer *c, struct cd_threads *th, uint64_t i)
{
	struct cd_tregion *r = &th->r[i];
	const struct chan_info *ci = &c->shm.chan[c->shm.thread_chan];
	struct stream *s = &r->st;
	/* I15: written before the OWNED we saw; I1: checked here. */
	int32_t tid = __atomic_load_n(&r->ctl->tid, __ATOMIC_RELAXED);
	uint32_t role = __atomic_load_n(&r->ctl->role, __ATOMIC_RELAXED);
	uint32_t use;

	if (tid <= 0 || role > UST_TBUF_ROLE_SIGNAL)
		return -1;
	memset(s, 0, sizeof(*s));
	s->chan = (unsigned int)c->shm.thread_chan;
	s->cpu = (unsigned int)i;
	s->fd = -1;
	s->buf = &r->ctl->buf;
	s->data = (const uint8_t *)r->ctl + UST_TBUF_CTL_SIZE;
	s->instance = __atomic_load_n(&r->ctl->instance, __ATOMIC_RELAXED);
	s->cpu_slot = (uint32_t)tid;
	s->tbuf = r->ctl;
	/* A consumer that resumes goes on where the dead one stopped. */
	cd_stream_start_at(c, s, 0);
	use = tid_name_use(th, (int32_t)(tid * 2 + (int32_t)role));
	snprintf(s->name, sizeof(s->name), "%s_tid%d%s", ci->name, tid,
		 role == UST_TBUF_ROLE_SIGNAL ? "_sig" : "");
	if (use)
		snprintf(s->name + strlen(s->name), sizeof(s->name) - strlen(s->name),
			 "-%u", use);
	r->open = true;
	return 0;
}

/* Add the counts of the function filters of region `ctl` to `sum`. */
static void filtered_add(uint64_t sum[3], const struct ust_shm_tbuf *ctl)
{
	unsigned int k;

	/* I15: the owner's counters; read when it is done or at the end. */
	for (k = 0; k < 3; k++)
		sum[k] += __atomic_load_n(&ctl->filtered[k], __ATOMIC_RELAXED);
}

/*
 * A closed stream whose unwritten records its file does not say yet
 * (writing stopped on a full disk): kept for its closing packet,
 * cd_threads_unwritten().  Without memory only the summary counts them.
 */
static void unwritten_keep(struct cd_threads *th, const struct stream *s)
{
	struct stream *p;

	if (!s->unwritten)
		return;
	p = realloc(th->unwritten, (th->nr_unwritten + 1) * sizeof(*p));
	if (!p)
		return;
	th->unwritten = p;
	p[th->nr_unwritten] = *s;
	p[th->nr_unwritten++].fd = -1;
}

/* The stream of region `r` is done: close it, keep its counts. */
static void region_close(struct consumer *c, struct cd_threads *th,
			 struct cd_tregion *r)
{
	struct stream *s = &r->st;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	unwritten_keep(th, s);
	th->lost_closed += s->last_discarded;
	filtered_add(th->filtered_closed, r->ctl);
	if (s->nr_corrupt > CORRUPT_REPORT_MAX)
		fprintf(stderr, CONSUMER_NAME ": %s: %" PRIu64 " corrupt packets skipped in all\n",
			s->name, s->nr_corrupt);
	(void)c;
	r->open = false;
}

/*
 * Its thread handed region `r` back (EXITED): everything it wrote is
 * final.  Write it out, then make the region free for another thread.
 */
static void region_finish(struct consumer *c, struct cd_threads *th,
			  struct cd_tregion *r)
{
	cd_stream_drain(c, &r->st, false);
	cd_stream_flush_counted(c, &r->st);
	region_close(c, th, r);
	/* The next owner starts its stream at position 0 (I6: ours to write). */
	__atomic_store_n(&r->ctl->buf.consumed, 0, __ATOMIC_RELAXED);
	/*
	 * I15, release: our reads of the region and `consumed` = 0 before
	 * FREE.  Partner: libust's acquiring compare-and-exchange of FREE.
	 */
	__atomic_store_n(&r->ctl->state, UST_TBUF_FREE, __ATOMIC_RELEASE);
}

/* One region, one tick (or the end: `final`). */
static void region_tick(struct consumer *c, struct cd_threads *th, uint64_t i,
			bool final)
{
	struct cd_tregion *r = &th->r[i];
	uint32_t state;

	if (!r->ctl || r->st.broken)
		return;
	/* I15, acquire: partner of libust's releases of OWNED and EXITED. */
	state = __atomic_load_n(&r->ctl->state, __ATOMIC_ACQUIRE);
	if (state != UST_TBUF_OWNED && state != UST_TBUF_EXITED) {
		if (r->open) {
			region_close(c, th, r);
			region_break(c, r, i, "taken away from its stream");
		}
		return;
	}
	if (!r->open && region_open(c, th, i)) {
		region_break(c, r, i, "bad thread id or role");
		return;
	}
	if (state == UST_TBUF_EXITED && !final) {
		region_finish(c, th, r);
		return;
	}
	if (state == UST_TBUF_EXITED) {
		cd_stream_drain(c, &r->st, false);
		cd_stream_flush_counted(c, &r->st);
	} else {
		cd_stream_drain(c, &r->st, final);
	}
	if (final)
		region_close(c, th, r);
}

void cd_threads_drain(struct consumer *c, bool final)
{
	struct cd_threads *th = c->threads;
	uint64_t i;

	if (!th)
		return;
	regions_discover(c, th);
	for (i = 0; i < th->nr; i++)
		region_tick(c, th, i, final);
}

/* Records lost in thread buffers (I7), and by threads that had none. */
uint64_t cd_threads_lost(const struct consumer *c)
{
	const struct cd_threads *th = c->threads;
	uint64_t lost, i;

	if (!th)
		return 0;
	/* I7: relaxed, like libust's increments. */
	lost = __atomic_load_n(&shm_header(&c->shm)->lost_no_buffer, __ATOMIC_RELAXED);
	lost += th->lost_closed;
	for (i = 0; i < th->nr; i++)
		if (th->r[i].open)
			lost += th->r[i].st.last_discarded;
	return lost;
}

char *cd_threads_summary(const struct consumer *c)
{
	static const char *const keys[3] = {
		UST_SUMMARY_KEY_FILTERED_TIME, UST_SUMMARY_KEY_FILTERED_DEPTH,
		UST_SUMMARY_KEY_FILTERED_FUNC,
	};
	const struct cd_threads *th = c->threads;
	uint64_t sum[3] = { 0, 0, 0 }, i;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned int k;

	if (!f)
		return NULL;
	for (k = 0; th && k < 3; k++)
		sum[k] = th->filtered_closed[k];
	for (i = 0; th && i < th->nr; i++)
		if (th->r[i].open && th->r[i].ctl)
			filtered_add(sum, th->r[i].ctl);
	for (k = 0; k < 3; k++)
		if (sum[k])
			fprintf(f, "%s=%" PRIu64 "\n", keys[k], sum[k]);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

void cd_threads_release(struct consumer *c)
{
	struct cd_threads *th = c->threads;
	uint64_t i;

	if (!th)
		return;
	for (i = 0; i < th->nr; i++) {
		if (th->r[i].open && th->r[i].st.fd >= 0)
			close(th->r[i].st.fd);
		if (th->r[i].ctl)
			munmap(th->r[i].ctl, c->shm.region_size);
	}
	free(th->r);
	free(th->names);
	free(th->unwritten);
	free(th);
	c->threads = NULL;
}

struct stream *cd_threads_unwritten(const struct consumer *c, size_t *nr)
{
	*nr = c->threads ? c->threads->nr_unwritten : 0;
	return *nr ? c->threads->unwritten : NULL;
}

/*
 * A stream file name of channel `chan`: "<chan>_tid<TID>[_sig][-<N>]".
 * Sets the thread id and role as tid_name_use() keys them, and N (0
 * without).
 */
static bool thread_file_name(const char *chan, const char *name, int32_t *key,
			     uint32_t *use)
{
	size_t len = strlen(chan);
	unsigned int role = UST_TBUF_ROLE_THREAD, n = 0;
	int tid, end = 0;

	if (strncmp(name, chan, len) || strncmp(name + len, "_tid", 4) ||
	    sscanf(name + len + 4, "%d%n", &tid, &end) != 1 || tid <= 0)
		return false;
	name += len + 4 + end;
	if (!strncmp(name, "_sig", 4)) {
		role = UST_TBUF_ROLE_SIGNAL;
		name += 4;
	}
	if (*name == '-' && (sscanf(name + 1, "%u%n", &n, &end) != 1 || name[1 + end]))
		return false;
	if (*name && *name != '-')
		return false;
	*key = (int32_t)(tid * 2 + (int)role);
	*use = n;
	return true;
}

/* The region still in use whose stream instance is `instance`, or NULL. */
static struct cd_tregion *region_of_instance(struct cd_threads *th, uint64_t instance)
{
	uint64_t i;
	uint32_t state;

	for (i = 0; i < th->nr; i++) {
		struct cd_tregion *r = &th->r[i];

		if (!r->ctl || r->open)
			continue;
		/* I15, acquire, as in region_tick(). */
		state = __atomic_load_n(&r->ctl->state, __ATOMIC_ACQUIRE);
		if ((state == UST_TBUF_OWNED || state == UST_TBUF_EXITED) &&
		    __atomic_load_n(&r->ctl->instance, __ATOMIC_RELAXED) == instance)
			return r;
	}
	return NULL;
}

/*
 * One thread stream file of a dead consumer (`old`, read back by
 * cd_resume_stream()): its region, when still in use, goes on in it
 * after its last packet; otherwise the stream is done (its thread
 * exited) and only its lost count is kept.
 */
static int thread_file_take(struct consumer *c, struct cd_threads *th,
			    struct stream *old)
{
	struct cd_tregion *r = old->have_last ? region_of_instance(th, old->last_instance) : NULL;
	uint64_t i;

	if (!r) {
		if (old->fd >= 0)
			close(old->fd);
		th->lost_closed += old->last_discarded;
		return 0;
	}
	i = (uint64_t)(r - th->r);
	if (region_open(c, th, i)) {
		region_break(c, r, i, "bad thread id or role");
		close(old->fd);
		return 0;
	}
	/* The file and the sequence state are the dead consumer's. */
	snprintf(r->st.name, sizeof(r->st.name), "%s", old->name);
	r->st.fd = old->fd;
	r->st.file_size = old->file_size;
	r->st.have_last = true;
	r->st.last_ts_end = old->last_ts_end;
	r->st.last_discarded = old->last_discarded;
	r->st.last_seq = old->last_seq;
	r->st.first_ts = old->first_ts;
	r->st.first_seq = old->first_seq;
	/* Not the packet after the last on disk twice: it may be unreleased. */
	cd_stream_start_at(c, &r->st, old->last_seq + 1);
	return 0;
}

int cd_threads_resume(struct consumer *c)
{
	struct cd_threads *th = c->threads;
	const struct chan_info *ci;
	struct dirent *e;
	int ret = 0, fd;
	DIR *d;

	if (!th)
		return 0;
	ci = &c->shm.chan[c->shm.thread_chan];
	regions_discover(c, th);
	fd = openat(c->out_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while (!ret && (e = readdir(d))) {
		struct stream old = { .chan = (unsigned int)c->shm.thread_chan, .fd = -1 };
		uint32_t use;
		int32_t key;

		if (!thread_file_name(ci->name, e->d_name, &key, &use) ||
		    strlen(e->d_name) >= sizeof(old.name))
			continue;
		tid_name_count(th, key, use);
		snprintf(old.name, sizeof(old.name), "%s", e->d_name);
		ret = cd_resume_stream(c, &old);
		if (!ret)
			ret = thread_file_take(c, th, &old);
	}
	closedir(d);
	return ret;
}
