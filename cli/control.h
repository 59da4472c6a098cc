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

struct poptOption;
/* The help of `ust ctl` and `ust list`: usage, options, then `text`. */
void ctl_print_help(FILE *out, const char *prog,
		    const struct poptOption *options, const char *usage,
		    const char *text);

#endif /* UST_CLI_CONTROL_H */
