/*
 * fltpoke.c - put bad filters into the control area of a running traced
 * process, as a buggy or hostile process could, for hostile.sh.  Each
 * mode appends filter rules for the events of PATTERN (exactly as an
 * earlier `ust ctl filter` wrote it, whose last program it starts from)
 * and sets their gate words, as `ust ctl filter` would:
 *	fltpoke PID badop PATTERN	the program with an unknown instruction
 *	fltpoke PID badheader PATTERN	a header whose sizes do not add up
 *	fltpoke PID outside PATTERN	programs past the end of the pool
 *	fltpoke PID junkop PATTERN	a rule of an operation that does not exist
 *	fltpoke PID mutate PATTERN N SEED  N rules, the program with random
 *					bytes changed after its header
 *	fltpoke PID huge		an absurd rule count
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/uio.h>
#include <ust/tracepoint.h>

#include "abi/control.h"
#include "common/pattern.h"
#include "common/shm-ctl.h"
#include "filter/program.h"
#include "shm/map.h"

static struct ust_ctl_area *area;
static pid_t pid;

/* The last program of the last rule for `pattern`: its offset and size. */
static int last_program(const char *pattern, uint64_t *off, size_t *size)
{
	uint32_t i = area->nr_filters;

	while (i-- > 0) {
		struct ust_ctl_filter *r = &area->filters[i];
		struct ust_filter_header h;

		if (strcmp(r->pattern, pattern) || !r->nr_programs ||
		    r->op != UST_CTL_FILTER_SET)
			continue;
		memcpy(&h, area->filter_pool + r->programs, sizeof(h));
		*off = r->programs;
		*size = sizeof(h) + h.nr_insns * 8u + h.pool_size;
		return 0;
	}
	return -1;
}

/* Append a SET rule (`op`) whose one program is `prog` (`size` bytes). */
static void append(const char *pattern, uint32_t op, const void *prog,
		   size_t size, uint64_t at, uint64_t span)
{
	struct ust_ctl_filter *r = &area->filters[area->nr_filters];

	memset(r, 0, sizeof(*r));
	r->op = op;
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->expr, sizeof(r->expr), "(poked)");
	r->nr_programs = 1;
	if (prog) {
		at = area->pool_used;
		memcpy(area->filter_pool + at, prog, size);
		area->pool_used += (uint32_t)((size + 7) & ~(size_t)7);
		span = size;
	}
	r->programs = at;
	r->programs_size = span;
	__atomic_store_n(&area->nr_filters, area->nr_filters + 1, __ATOMIC_RELEASE);
}

/* Set the gate word of the live events matching `pattern`. */
static int open_gates(const char *pattern)
{
	uint32_t i;

	for (i = 0; i < ust__ctl_nr_events(area); i++) {
		struct ust_ctl_event *e = &area->events[i];
		int32_t one = 1;
		struct iovec local = { &one, sizeof(one) };
		struct iovec remote = {
			(void *)(uintptr_t)(e->enabled_addr -
					    offsetof(struct ust_event_desc, enabled) +
					    offsetof(struct ust_event_desc, reserved)),
			sizeof(one),
		};

		if (!(e->flags & UST_CTL_EV_LIVE) || !ust__glob_match(pattern, e->name))
			continue;
		if (process_vm_writev(pid, &local, 1, &remote, 1, 0) != sizeof(one)) {
			perror("fltpoke: process_vm_writev");
			return -1;
		}
	}
	return 0;
}

static int poke(int argc, char **argv)
{
	const char *mode = argv[2], *pattern = argc > 3 ? argv[3] : "";
	uint8_t prog[UST_FILTER_MAX_SIZE];
	uint64_t off;
	size_t size;
	int k;

	if (!strcmp(mode, "huge")) {
		area->nr_filters = 0xffffffffu;
		return 0;
	}
	if (!strcmp(mode, "outside")) {
		append(pattern, UST_CTL_FILTER_SET, NULL, 0,
		       UST_CTL_FILTER_POOL - 8, 1024);
		return open_gates(pattern);
	}
	if (!strcmp(mode, "junkop")) {
		append(pattern, 77, NULL, 0, 0, 0);
		return open_gates(pattern);
	}
	if (last_program(pattern, &off, &size) || size > sizeof(prog))
		return 2;
	memcpy(prog, area->filter_pool + off, size);
	if (!strcmp(mode, "badop")) {
		prog[sizeof(struct ust_filter_header)] = 200;
	} else if (!strcmp(mode, "badheader")) {
		((struct ust_filter_header *)prog)->nr_insns = 0xffff;
	} else if (!strcmp(mode, "mutate") && argc == 6) {
		srand((unsigned int)atoi(argv[5]));
		for (k = atoi(argv[4]); k > 0; k--) {
			uint8_t copy[UST_FILTER_MAX_SIZE];
			size_t at = sizeof(struct ust_filter_header) +
				    (size_t)rand() % (size - sizeof(struct ust_filter_header));

			memcpy(copy, prog, size);
			copy[at] = (uint8_t)rand();
			append(pattern, UST_CTL_FILTER_SET, copy, size, 0, 0);
		}
		return open_gates(pattern);
	} else {
		return 2;
	}
	append(pattern, UST_CTL_FILTER_SET, prog, size, 0, 0);
	return open_gates(pattern);
}

int main(int argc, char **argv)
{
	struct shm_map m;
	char err[256];
	int fd = -1, ret;

	if (argc < 3) {
		fprintf(stderr, "fltpoke: usage\n");
		return 2;
	}
	pid = atoi(argv[1]);
	if (shm_map_attach_fd(&m, pid, &fd, err, sizeof(err)) ||
	    !(area = shm_ctl_area(&m, err, sizeof(err)))) {
		fprintf(stderr, "fltpoke: %s\n", err);
		return 2;
	}
	(void)ust__ctl_lock(fd, LOCK_EX);
	ret = poke(argc, argv);
	ust__ctl_unlock(fd);
	shm_map_close(&m);
	return ret;
}
