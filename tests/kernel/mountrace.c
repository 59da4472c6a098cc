/*
 * mountrace.c - preloaded into `ust record` by mount.sh: every mount()
 * is made twice, so the caller's own call is the one that comes second,
 * as when two bridges find tracefs missing at once and the other one
 * mounts it first.  The second call fails EBUSY (the same filesystem on
 * the same mount point).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/mount.h>

int mount(const char *source, const char *target, const char *fstype,
	  unsigned long flags, const void *data);

int mount(const char *source, const char *target, const char *fstype,
	  unsigned long flags, const void *data)
{
	int (*real)(const char *, const char *, const char *, unsigned long,
		    const void *);

	*(void **)&real = dlsym(RTLD_NEXT, "mount");
	if (!real || real(source, target, fstype, flags, data))
		return -1;
	/* The other bridge's mount was first: ours is refused. */
	return real(source, target, fstype, flags, data);
}
