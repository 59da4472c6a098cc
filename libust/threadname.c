/*
 * threadname.c - see thread names change, for the statedump.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust defines pthread_setname_np(): a program linked with libust (or
 * preloading it) binds to this definition before libc's, which it calls
 * through dlsym(RTLD_NEXT).  After a successful rename the statedump
 * records lttng_ust_statedump:thread_name in the state channel, so a
 * flight-recorder snapshot names the threads it shows (statedump.c).
 * The procname context of the threads' records follows the new name
 * (ringbuf.c).  A name set with prctl(PR_SET_NAME) is seen only at the
 * next dump, and by the procname context of threads that had not
 * recorded anything yet.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "gate.h"
#include "session.h"
#include "statedump.h"

typedef int (*setname_fn)(pthread_t, const char *);

static setname_fn real_setname(void)
{
	static setname_fn real;
	/* Relaxed: any thread may look it up; every lookup gives the same. */
	setname_fn fn = __atomic_load_n(&real, __ATOMIC_RELAXED);

	if (!fn) {
		fn = (setname_fn)dlsym(RTLD_NEXT, "pthread_setname_np");
		__atomic_store_n(&real, fn, __ATOMIC_RELAXED);
	}
	return fn;
}

UST_EXPORT int pthread_setname_np(pthread_t thread, const char *name)
{
	setname_fn fn = real_setname();
	int ret;

	if (!fn)
		return ENOSYS;
	ret = fn(thread, name);
	if (!ret) {
		ust__thread_renamed();	/* the procname context follows */
		ust__statedump_thread_renamed(thread, name);
		ust__gate_thread_renamed();	/* $ctx.procname of filters */
	}
	return ret;
}
