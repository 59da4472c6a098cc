/*
 * abi/control.h - the runtime control area of the shared memory
 * (doc/control.md), located by the header's ctl_offset/ctl_size
 * (abi/shm.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust lists its registered events here, each with the address of its
 * `enabled` word in the process; `ust ctl` records the wanted state here
 * and writes the `enabled` words itself with process_vm_writev(), so the
 * program runs no thread and takes no signal or system call for it.
 *
 * Who writes what (invariant I12 of abi/shm.h): both sides write only
 * while they hold flock(LOCK_EX) on the memfd (common/shm-ctl.h); libust
 * takes it, inside its registry mutex, to register or unregister
 * providers, `ust ctl` to apply a command.  The lock orders every access
 * to this area and to the `enabled` words between the two (flock is a
 * full barrier on both sides); `ust list` reads under LOCK_SH.  Entry i
 * describes event id i.  A fork child copies its parent's rules without
 * the lock: `nr_rules` is published with a store-release after the
 * rule's bytes (cli/ctl.c) and loaded with acquire (libust/registry.c).
 */
#ifndef UST_ABI_CONTROL_H
#define UST_ABI_CONTROL_H

#include <stdint.h>

#define UST_CTL_MAX_EVENTS	1024u
#define UST_CTL_MAX_RULES	64u
#define UST_CTL_NAME_MAX	112u	/* "facility:event" and its NUL */
#define UST_CTL_PATTERN_MAX	124u	/* a pattern and its NUL */

enum ust_ctl_event_flag {
	UST_CTL_EV_LIVE = 1,		/* registered: its enabled word exists */
	UST_CTL_EV_WANTED = 2,		/* to record whenever not stopped */
	UST_CTL_EV_DESCRIBED = 4,	/* in the metadata log: may be enabled */
};

/* Written by libust only. */
struct ust_ctl_event {
	uint64_t enabled_addr;	/* &desc->enabled in the process; 0 once gone */
	uint32_t id;		/* the event id, also the entry's index */
	uint32_t flags;		/* enum ust_ctl_event_flag; WANTED also by ust ctl */
	char name[UST_CTL_NAME_MAX];	/* "facility:event", NUL-terminated */
};

/* One `ust ctl enable|disable PATTERN`, appended by ust ctl only. */
struct ust_ctl_rule {
	uint32_t enable;	/* 1: enable, 0: disable */
	char pattern[UST_CTL_PATTERN_MAX];	/* NUL-terminated glob */
};

struct ust_ctl_area {
	uint32_t nr_events;	/* entries in use (libust) */
	uint32_t nr_rules;	/* rules in use (ust ctl); I12 */
	uint32_t stopped;	/* `ust ctl stop` (ust ctl) */
	uint32_t reserved;
	struct ust_ctl_rule rules[UST_CTL_MAX_RULES];
	struct ust_ctl_event events[UST_CTL_MAX_EVENTS];
};

#endif /* UST_ABI_CONTROL_H */
