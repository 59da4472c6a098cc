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

/*
 * Filters (doc/filters.md): rules that choose which records of an event
 * are kept, each with the compiled programs (filter/program.h) of its
 * expression, one per kind of event fields (the programs' signatures).
 * Only appended (I13).  Where several rules match an event, in order:
 * ANY (an UST_TRACE entry without filter) records all; OR (an entry with
 * one) adds its program, and a record is kept when one of the added
 * programs keeps it (as LTTng's enablers); SET (`ust ctl filter`) puts
 * its program alone; CLEAR (`ust ctl unfilter`) removes them all.  A
 * rule with no program for an event's fields (the command did not know
 * them, or they lack a field the expression names) keeps none of its
 * records.  ANY and OR rules apply only to events whose log level passes
 * `loglevel_op`.
 */
#define UST_CTL_MAX_FILTERS	128u
#define UST_CTL_EXPR_MAX	256u	/* an expression's text and its NUL */
#define UST_CTL_FILTER_POOL	(512u << 10)	/* bytes of programs */

enum ust_ctl_filter_op {
	UST_CTL_FILTER_ANY = 1,
	UST_CTL_FILTER_OR = 2,
	UST_CTL_FILTER_SET = 3,
	UST_CTL_FILTER_CLEAR = 4,
};

enum ust_ctl_loglevel_op {
	UST_CTL_LOGLEVEL_ALL = 0,	/* any level, or none */
	UST_CTL_LOGLEVEL_UPTO = 1,	/* `--loglevel`: 0 <= level <= loglevel */
	UST_CTL_LOGLEVEL_ONLY = 2,	/* `--loglevel-only`: level == loglevel */
};

/* One filter rule, appended by ust ctl (or libust at start) only. */
struct ust_ctl_filter {
	uint32_t op;		/* enum ust_ctl_filter_op */
	uint32_t loglevel_op;	/* enum ust_ctl_loglevel_op */
	int32_t loglevel;
	uint32_t nr_programs;
	/*
	 * The programs: `programs_size` bytes at `programs` in filter_pool,
	 * one after the other, each 8-byte aligned and sized by its header.
	 */
	uint64_t programs;
	uint64_t programs_size;
	char pattern[UST_CTL_PATTERN_MAX];	/* NUL-terminated glob */
	char expr[UST_CTL_EXPR_MAX];	/* the expression, for ust list; may be cut */
};

struct ust_ctl_area {
	uint32_t nr_events;	/* entries in use (libust) */
	uint32_t nr_rules;	/* rules in use (ust ctl); I12 */
	uint32_t stopped;	/* `ust ctl stop` (ust ctl) */
	uint32_t reserved;
	struct ust_ctl_rule rules[UST_CTL_MAX_RULES];
	struct ust_ctl_event events[UST_CTL_MAX_EVENTS];
	/* Filters (UST_SHM_VERSION 3). */
	uint32_t nr_filters;	/* rules in use, their generation (I13) */
	uint32_t pool_used;	/* bytes of filter_pool in use */
	struct ust_ctl_filter filters[UST_CTL_MAX_FILTERS];
	/*
	 * Per event id, records not written, counted by libust with relaxed
	 * atomic increments and read by the consumer for its summary:
	 * over an `--rate-limit`, and discarded because a matching rule had
	 * no program for the event's fields.
	 */
	uint64_t rate_limited[UST_CTL_MAX_EVENTS];
	uint64_t no_program[UST_CTL_MAX_EVENTS];
	uint8_t filter_pool[UST_CTL_FILTER_POOL] __attribute__((aligned(8)));
};

#endif /* UST_ABI_CONTROL_H */
