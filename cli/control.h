/*
 * control.h - a running traced process as `ust ctl` and `ust list PID`
 * see it: its shared memory, mapped and validated, and the runtime
 * control area inside it, under the control lock (doc/control.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_CONTROL_H
#define UST_CLI_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/shm-ctl.h"
#include "shm/map.h"

struct ctl_process {
	pid_t pid;
	int fd;				/* the memfd, locked */
	struct shm_map map;
	struct ust_ctl_area *area;	/* inside map, bounds checked */
};

/*
 * Map process `pid`'s shared memory and take the control lock (`how`:
 * LOCK_EX to change, LOCK_SH to read).  Returns 0, or -1 after printing
 * one line that says why (no such process, not traced, not permitted).
 */
int ctl_attach(struct ctl_process *p, pid_t pid, int how);
void ctl_detach(struct ctl_process *p);

/*
 * A private copy of entry `i` when it is a live event, its name
 * NUL-terminated and its id its index; false otherwise.
 */
bool ctl_event(const struct ctl_process *p, uint32_t i,
	       struct ust_ctl_event *ev);

/* Does `ev` record, going by its flags and the stop flag? */
bool ctl_event_on(const struct ust_ctl_event *ev, bool stopped);

/* The writable mappings of a process, from /proc/PID/maps. */
struct ctl_rw_ranges {
	uint64_t (*v)[2];
	size_t nr, cap;
};

/* 0, or -1 after printing why /proc/PID/maps cannot be read. */
int ctl_rw_ranges_load(pid_t pid, struct ctl_rw_ranges *r);

/*
 * Read (`write` false) or write through `*value` the 32-bit word at
 * `addr` in the process, the event's `word` ("enabled", "gate").
 * Returns 0, or -1 after printing why not.
 */
int ctl_word_io(const struct ctl_process *p, const struct ust_ctl_event *ev,
		uint64_t addr, const char *word, int32_t *value, bool write);

/*
 * Check such a word before writing it: 0 when it lies in the process's
 * writable memory, aligned, and holds 0 or 1; -1 after printing why not.
 */
int ctl_word_check(const struct ctl_process *p, const struct ctl_rw_ranges *r,
		   const struct ust_ctl_event *ev, uint64_t addr, const char *word);

/* The address of the event's gate word (its descriptor's `reserved`). */
uint64_t ctl_gate_addr(const struct ust_ctl_event *ev);

/*
 * Check the enabled (or gate) word of every live event matching `pattern`
 * (NULL: every event) before changing anything, so that a permission
 * problem or a bad address changes nothing.  Their number, or -1.
 */
int ctl_words_check(const struct ctl_process *p, const char *pattern, bool gate);

#endif /* UST_CLI_CONTROL_H */
