/*
 * statedump.h - the loaded-object statedump (statedump.c): libust's
 * internal entry points.  The public ones, ust_statedump_enable() and
 * ust_statedump_dl_sync(), are in <ust/ust.h>.
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

#endif /* UST_STATEDUMP_H */
