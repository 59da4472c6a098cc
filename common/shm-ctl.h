/*
 * shm-ctl.h - the runtime control area of the shared memory (struct
 * ust_ctl_area in abi/control.h), as libust and the `ust ctl` / `ust list`
 * commands both use it (doc/control.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_SHM_CTL_H
#define UST_SHM_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/control.h"

/*
 * flock(`how`: LOCK_EX or LOCK_SH) on the memfd `fd`, the lock that
 * orders everything in the control area (abi/control.h, I12); the kernel drops it
 * if its holder dies.  Returns 0 or -errno.
 */
int ust__ctl_lock(int fd, int how);
void ust__ctl_unlock(int fd);

/*
 * The state that the first `nr_rules` rules of `a` give the event
 * `name`, starting from `wanted` (what UST_TRACE chose): each rule whose
 * pattern matches sets it, the last one wins.  Reads each pattern through
 * a NUL-terminated copy, so a torn or garbage rule cannot overrun.
 */
bool ust__ctl_rules_apply(const struct ust_ctl_area *a, uint32_t nr_rules,
			 const char *name, bool wanted);

/* The NUL-terminated copy of entry `ev`'s name (UST_CTL_NAME_MAX bytes). */
void ust__ctl_event_name(const struct ust_ctl_event *ev,
			char name[UST_CTL_NAME_MAX]);

/* Replace what a terminal would act on (control bytes, non-ASCII) by '?'. */
void ust__ctl_printable(char *s);

/* Entries and rules in use, clamped to the area's capacity. */
uint32_t ust__ctl_nr_events(const struct ust_ctl_area *a);
uint32_t ust__ctl_nr_rules(const struct ust_ctl_area *a);

#endif /* UST_SHM_CTL_H */
