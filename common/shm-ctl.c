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

#include "common/pattern.h"
#include "common/shm-ctl.h"

int ust__ctl_lock(int fd, int how)
{
	while (flock(fd, how) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

void ust__ctl_unlock(int fd)
{
	flock(fd, LOCK_UN);
}

static uint32_t clamp(uint32_t n, uint32_t max)
{
	return n < max ? n : max;
}

uint32_t ust__ctl_nr_events(const struct ust_ctl_area *a)
{
	return clamp(a->nr_events, UST_CTL_MAX_EVENTS);
}

uint32_t ust__ctl_nr_rules(const struct ust_ctl_area *a)
{
	return clamp(a->nr_rules, UST_CTL_MAX_RULES);
}

void ust__ctl_event_name(const struct ust_ctl_event *ev,
			char name[UST_CTL_NAME_MAX])
{
	memcpy(name, ev->name, UST_CTL_NAME_MAX);
	name[UST_CTL_NAME_MAX - 1] = '\0';
}

void ust__ctl_printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s >= 0x7f)
			*s = '?';
}

bool ust__ctl_rules_apply(const struct ust_ctl_area *a, uint32_t nr_rules,
			 const char *name, bool wanted)
{
	char pattern[UST_CTL_PATTERN_MAX];
	uint32_t i;

	for (i = 0; i < clamp(nr_rules, UST_CTL_MAX_RULES); i++) {
		memcpy(pattern, a->rules[i].pattern, sizeof(pattern));
		pattern[sizeof(pattern) - 1] = '\0';
		if (ust__glob_match(pattern, name))
			wanted = a->rules[i].enable != 0;
	}
	return wanted;
}
