/*
 * control.c - attach to a running traced process's runtime control area
 * (control.h), for `ust ctl` and `ust list PID`.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The area is written by the traced process: everything read from it is
 * copied and checked first (shm-ctl.c clamps the counts).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <ust/tracepoint.h>

#include "cli.h"
#include "common/pattern.h"
#include "control.h"
#include "procmaps.h"

int ctl_attach(struct ctl_process *p, pid_t pid, int how)
{
	char err[256];
	int ret;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->fd = -1;
	if (shm_map_attach_fd(&p->map, pid, &p->fd, err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	p->area = shm_ctl_area(&p->map, err, sizeof(err));
	if (!p->area) {
		cli_error("%s", err);
		ctl_detach(p);
		return -1;
	}
	ret = ust__ctl_lock(p->fd, how);
	if (ret) {
		cli_error("process %d: cannot lock its trace memory: %s",
			  (int)pid, strerror(-ret));
		ctl_detach(p);
		return -1;
	}
	return 0;
}

void ctl_detach(struct ctl_process *p)
{
	if (p->fd >= 0) {
		ust__ctl_unlock(p->fd);
		close(p->fd);
	}
	p->fd = -1;
	shm_map_close(&p->map);
}

bool ctl_event(const struct ctl_process *p, uint32_t i,
	       struct ust_ctl_event *ev)
{
	if (i >= ust__ctl_nr_events(p->area))
		return false;
	memcpy(ev, &p->area->events[i], sizeof(*ev));
	ev->name[sizeof(ev->name) - 1] = '\0';
	/* Nothing a terminal would act on reaches the output. */
	ust__ctl_printable(ev->name);
	return (ev->flags & UST_CTL_EV_LIVE) && ev->id == i && ev->name[0];
}

bool ctl_event_on(const struct ust_ctl_event *ev, bool stopped)
{
	return !stopped && (ev->flags & UST_CTL_EV_WANTED) &&
	       (ev->flags & UST_CTL_EV_DESCRIBED);
}

int ctl_rw_ranges_load(pid_t pid, struct ctl_rw_ranges *r)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = cli_maps_open(pid);

	if (!f)
		return -1;
	while (getline(&line, &len, f) > 0) {
		uint64_t lo, hi;
		char perms[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &lo, &hi, perms) != 3 ||
		    perms[0] != 'r' || perms[1] != 'w')
			continue;
		if (r->nr == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 64;
			void *v = realloc(r->v, cap * sizeof(*r->v));

			if (!v)
				break;
			r->v = v;
			r->cap = cap;
		}
		r->v[r->nr][0] = lo;
		r->v[r->nr++][1] = hi;
	}
	free(line);
	fclose(f);
	return 0;
}

static bool in_rw_range(const struct ctl_rw_ranges *r, uint64_t addr)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (addr >= r->v[i][0] && addr + sizeof(int32_t) <= r->v[i][1])
			return true;
	}
	return false;
}

int ctl_word_io(const struct ctl_process *p, const struct ust_ctl_event *ev,
		uint64_t addr, const char *word, int32_t *value, bool write)
{
	struct iovec local = { value, sizeof(*value) };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof(*value) };
	const char *call = write ? "process_vm_writev" : "process_vm_readv";
	ssize_t n = write ? process_vm_writev(p->pid, &local, 1, &remote, 1, 0) :
			    process_vm_readv(p->pid, &local, 1, &remote, 1, 0);

	if (n == (ssize_t)sizeof(*value))
		return 0;
	if (errno == EPERM || errno == EACCES)
		cli_error("process %d: not permitted to write its memory (%s: "
			  "%s; needs the right to ptrace it: root, or the same "
			  "user with kernel.yama.ptrace_scope=0)", (int)p->pid,
			  call, strerror(errno));
	else
		cli_error("process %d: event '%s': %s of its %s word: %s",
			  (int)p->pid, ev->name, call, word, strerror(errno));
	return -1;
}

int ctl_word_check(const struct ctl_process *p, const struct ctl_rw_ranges *r,
		   const struct ust_ctl_event *ev, uint64_t addr, const char *word)
{
	int32_t value;

	if (addr % sizeof(int32_t) || !in_rw_range(r, addr)) {
		cli_error("process %d: event '%s': %s word at 0x%" PRIx64
			  " is not in its writable memory; left alone",
			  (int)p->pid, ev->name, word, addr);
		return -1;
	}
	if (ctl_word_io(p, ev, addr, word, &value, false))
		return -1;
	if (value != 0 && value != 1) {
		cli_error("process %d: event '%s': %s word at 0x%" PRIx64
			  " holds %d, not 0 or 1; left alone", (int)p->pid,
			  ev->name, word, addr, (int)value);
		return -1;
	}
	return 0;
}

uint64_t ctl_gate_addr(const struct ust_ctl_event *ev)
{
	return ev->enabled_addr - offsetof(struct ust_event_desc, enabled) +
	       offsetof(struct ust_event_desc, reserved);
}

int ctl_words_check(const struct ctl_process *p, const char *pattern, bool gate)
{
	struct ctl_rw_ranges r = { 0 };
	struct ust_ctl_event ev;
	uint32_t i;
	int n = 0;

	if (ctl_rw_ranges_load(p->pid, &r))
		return -1;
	for (i = 0; i < ust__ctl_nr_events(p->area) && n >= 0; i++) {
		if (!ctl_event(p, i, &ev) ||
		    (pattern && !ust__glob_match(pattern, ev.name)))
			continue;
		n = ctl_word_check(p, &r, &ev, gate ? ctl_gate_addr(&ev) :
				   ev.enabled_addr, gate ? "gate" : "enabled") ?
		    -1 : n + 1;
	}
	free(r.v);
	return n;
}
