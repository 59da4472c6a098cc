/*
 * shm-ctl.c - the runtime control area, for libust and `ust ctl` alike
 * (shm-ctl.h, doc/control.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Its contents come from another process: every count is clamped and
 * every string copied with a terminator before use.
 */
#include <errno.h>
#include <string.h>
#include <sys/file.h>

#include "pattern.h"
#include "shm-ctl.h"
#include "shm-map.h"

int ust_ctl_lock(int fd, int how)
{
	while (flock(fd, how) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

void ust_ctl_unlock(int fd)
{
	flock(fd, LOCK_UN);
}

static uint32_t clamp(uint32_t n, uint32_t max)
{
	return n < max ? n : max;
}

uint32_t ust_ctl_nr_events(const struct ust_ctl_area *a)
{
	return clamp(a->nr_events, UST_CTL_MAX_EVENTS);
}

uint32_t ust_ctl_nr_rules(const struct ust_ctl_area *a)
{
	return clamp(a->nr_rules, UST_CTL_MAX_RULES);
}

void ust_ctl_event_name(const struct ust_ctl_event *ev,
			char name[UST_CTL_NAME_MAX])
{
	memcpy(name, ev->name, UST_CTL_NAME_MAX);
	name[UST_CTL_NAME_MAX - 1] = '\0';
}

bool ust_ctl_rules_apply(const struct ust_ctl_area *a, uint32_t nr_rules,
			 const char *name, bool wanted)
{
	char pattern[UST_CTL_PATTERN_MAX];
	uint32_t i;

	for (i = 0; i < clamp(nr_rules, UST_CTL_MAX_RULES); i++) {
		memcpy(pattern, a->rules[i].pattern, sizeof(pattern));
		pattern[sizeof(pattern) - 1] = '\0';
		if (ust_glob_match(pattern, name))
			wanted = a->rules[i].enable != 0;
	}
	return wanted;
}

struct ust_ctl_area *shm_ctl_area(const struct shm_map *m, char *err,
				  size_t errlen)
{
	const struct ust_shm_header *h = shm_header(m);
	/* Read once: the process may rewrite its header at any time. */
	uint64_t off = __atomic_load_n(&h->ctl_offset, __ATOMIC_RELAXED);
	uint64_t size = __atomic_load_n(&h->ctl_size, __ATOMIC_RELAXED);

	if (!off) {
		fail_msg(err, errlen, "process %d: its libust has no runtime "
			 "control (too old)", (int)m->pid);
		return NULL;
	}
	if (off % 8 || size < sizeof(struct ust_ctl_area) ||
	    off > m->size || sizeof(struct ust_ctl_area) > m->size - off) {
		fail_msg(err, errlen, "process %d: bad runtime control area "
			 "(offset %llu, size %llu)", (int)m->pid,
			 (unsigned long long)off, (unsigned long long)size);
		return NULL;
	}
	return (struct ust_ctl_area *)(m->base + off);
}
