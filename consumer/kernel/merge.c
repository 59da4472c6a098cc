/*
 * merge.c - a pass of the live conversion: every CPU's ring read, then
 * its records converted in time order across the CPUs.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The thread table (tasks.c) must see a thread's creation before its
 * own events.  task_newtask is written on its creator's CPU, the new
 * thread's first events on whichever CPU it runs: converting one CPU's
 * ring after another took a thread that ran and was gone before its
 * creator's ring was read for a process of its own (doc/reliability.md,
 * finding T5).  So a pass reads the sub-buffers of every CPU first
 * (each CPU's `held` list), then converts the records of all of them
 * merged by timestamp, each into its own CPU's stream.
 *
 * A pass converts only the records up to its cut, the clock read before
 * any ring was: a ring read after the cut holds every record stamped
 * before it (ftrace writes with preemption off, a record is committed
 * as soon as it is written), so a record not read yet is later than
 * every record converted.  The records after the cut stay held, their
 * sub-buffer loaded in the CPU's own kbuffer, for the next pass: a
 * thread created on a CPU read before its creation, and run on a CPU
 * read after, waits with its events for its creation record.
 *
 * Memory: what a pass reads (at most one ring's worth per CPU, as
 * before) and the records between the cut and the reads.
 *
 * A flight recorder's snapshot (flight.c) reads and converts the same
 * way, up to its cut, into streams of its own; what it read after the
 * cut stays held for the next snapshot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "common/fifo.h"
#include "kerneld.h"

int kd_merge_open(struct kerneld *kd, struct kstream *s)
{
	s->kb = tep_kbuffer(kd->tep);
	return s->kb ? 0 : -ENOMEM;
}

void kd_merge_close(struct kstream *s)
{
	size_t i;

	for (i = 0; i < s->nr_held; i++)
		free(s->held[s->held_head + i]);
	free(s->held);
	s->held = NULL;
	s->held_head = s->nr_held = s->cap_held = 0;
	s->held_loaded = false;
	s->rec = NULL;
	if (s->kb)
		kbuffer_free(s->kb);
	s->kb = NULL;
}

/*
 * Room for one more held sub-buffer; the consumed ones leave the array
 * once its end is reached (common/fifo.h).
 */
static int held_room(struct kstream *s)
{
	void **held = ust__fifo_room(s->held, sizeof(*held), &s->held_head, s->nr_held,
				     &s->cap_held, 16);

	if (!held)
		return -ENOMEM;
	s->held = held;
	return 0;
}

long kd_merge_read(struct kerneld *kd, struct kstream *s, bool *full)
{
	long max = (long)(kd->opts.buffer_kb * 1024 / kd->page_size) + 1, pages = 0;
	void *page = NULL;
	int n;

	*full = false;
	while (pages < max) {
		/* Without memory the ring keeps its records for a later pass. */
		if (held_room(s) || (!page && !(page = malloc(kd->page_size))))
			break;
		n = tracefs_cpu_read(s->tcpu, page, true);
		if (n <= 0)
			break;
		if (n < kd->page_size)
			memset((uint8_t *)page + n, 0, kd->page_size - n);
		s->held[s->held_head + s->nr_held++] = page;
		page = NULL;
		pages++;
	}
	free(page);
	*full = pages == max;
	return pages;
}

/* The losses the kernel reports at the start of the loaded sub-buffer. */
static void count_missed(struct kerneld *kd, struct kstream *s)
{
	int missed = kbuffer_missed_events(s->kb);
	uint64_t lost;

	if (s->missed_ignored) {
		s->missed_ignored = false;
		return;
	}
	if (!missed)
		return;
	/* The losses come between two packets: the open one (events
	 * before them) is written with the count it had. */
	kd_packet_flush(kd, s);
	if (missed > 0 || kd->opts.flight) {
		/* A flight ring overwrites all along: its counters count
		 * what no snapshot wanted, so -1 is one loss at least. */
		s->discarded += missed > 0 ? (uint64_t)missed : 1;
		return;
	}
	/* -1: events were lost, the sub-buffer has no room for how many;
	 * the ring's counters know (its losses so far). */
	lost = kd_cpu_lost(kd, s->cpu);
	s->discarded = lost > s->discarded ? lost : s->discarded + 1;
}

/* The first held sub-buffer is done with: freed, the next one's turn. */
static void held_drop(struct kstream *s)
{
	free(s->held[s->held_head++]);
	s->nr_held--;
	s->held_loaded = false;
}

/*
 * The next record of `s` to convert (s->rec, at s->rec_ts), loading its
 * held sub-buffers in turn; false when it has none.  s->rec stays valid
 * until it is converted: its sub-buffer stays held and loaded in s->kb.
 */
static bool peek(struct kerneld *kd, struct kstream *s)
{
	unsigned long long ts;
	void *data;

	while (!s->rec && s->nr_held) {
		if (!s->held_loaded) {
			if (kbuffer_load_subbuffer(s->kb, s->held[s->held_head])) {
				held_drop(s);
				continue;
			}
			s->held_loaded = true;
			count_missed(kd, s);
			data = kbuffer_read_event(s->kb, &ts);
		} else {
			data = kbuffer_next_event(s->kb, &ts);
		}
		if (!data) {
			held_drop(s);
			continue;
		}
		s->rec = data;
		s->rec_ts = ts;
	}
	return s->rec != NULL;
}

/* Convert s->rec; the next peek() moves past it. */
static void convert_rec(struct kerneld *kd, struct kstream *s)
{
	kd_convert_record(kd, s, s->rec, kbuffer_event_size(s->kb), s->rec_ts);
	s->rec = NULL;
}

/*
 * The CPU with the earliest record converts its records up to the next
 * CPU's earliest (a run), then the choice is made again.
 */
void kd_merge_convert(struct kerneld *kd, struct kstream *streams, unsigned int n,
		      uint64_t cut)
{
	struct kstream *best, *s;
	uint64_t limit;
	unsigned int i;

	for (;;) {
		best = NULL;
		limit = cut;
		for (i = 0; i < n; i++) {
			s = &streams[i];
			if (!peek(kd, s) || s->rec_ts > cut)
				continue;
			if (!best || s->rec_ts < best->rec_ts) {
				if (best)
					limit = best->rec_ts;
				best = s;
			} else if (s->rec_ts < limit) {
				limit = s->rec_ts;
			}
		}
		if (!best)
			return;
		do
			convert_rec(kd, best);
		while (peek(kd, best) && best->rec_ts <= limit);
	}
}

/*
 * One pass: every ring read, the records up to `cut` converted (those
 * after it held for the next pass; UINT64_MAX: all), the packets
 * written.  Returns the number of sub-buffers read.
 */
uint64_t kd_merge_pass(struct kerneld *kd, uint64_t cut)
{
	uint64_t pages = 0;
	unsigned int i;
	bool full;

	for (i = 0; i < kd->nr_cpus; i++) {
		struct kstream *s = &kd->streams[i];

		pages += (uint64_t)kd_merge_read(kd, s, &full);
		/* Records before the cut may still be in this ring: the cut
		 * moves back to the last sub-buffer read. */
		if (full && s->nr_held) {
			void *newest = s->held[s->held_head + s->nr_held - 1];
			uint64_t last = kbuffer_subbuf_timestamp(s->kb, newest);

			if (last < cut)
				cut = last;
		}
	}
	kd_merge_convert(kd, kd->streams, kd->nr_cpus, cut);
	for (i = 0; i < kd->nr_cpus; i++)
		kd_packet_flush(kd, &kd->streams[i]);
	return pages;
}
