/*
 * statedump.h - the loaded-object statedump (statedump.c), shared by
 * libust and its preload helper library (cyg-profile.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_STATEDUMP_H
#define UST_STATEDUMP_H

#include <pthread.h>

/* libust internals (session.c): a full statedump, if enabled. */
__attribute__((visibility("hidden"))) void ust__statedump_run(void);
__attribute__((visibility("hidden"))) void ust__statedump_atfork_child(void);
/* threadname.c: `thread` was just named `name` (at most 15 bytes). */
__attribute__((visibility("hidden"))) void ust__statedump_thread_renamed(pthread_t thread, const char *name);

/*
 * Exported by libust.so for the preload library, not part of the public
 * API.  ust__statedump_enable(): register the statedump events and dump
 * now and at every later session start.  ust__statedump_dl_sync(): after a dlopen() (with its `flags`) or a dlclose() (flags 0),
 * record the objects that appeared (lttng_ust_dl:dlopen, build_id) and
 * disappeared (lttng_ust_dl:dlclose) since the last look.
 */
void ust__statedump_enable(void);
void ust__statedump_dl_sync(int flags);

#endif /* UST_STATEDUMP_H */
