/*
 * ust/functions.h - function entries and exits, as the hooks of gcc's and
 * clang's -finstrument-functions see them.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * libust-cyg-profile.so defines __cyg_profile_func_enter/exit as calls of
 * these (doc/functions.md); any other instrumentation can call them the
 * same way.  ust_functions_start() registers the function-tracing events
 * in the layout the recording chose (UST_FUNCTIONS: compact, full,
 * lttng-fast or lttng) and turns on the statedump of loaded objects; call
 * it once, from a constructor, before the first entry.  Without a tracing
 * session every call is one load and one predicted branch.
 */
#ifndef UST_FUNCTIONS_H
#define UST_FUNCTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

void ust_functions_start(void);
/* `fn`: the function entered or left; `call_site`: where it was called. */
void ust_func_enter(void *fn, void *call_site);
void ust_func_exit(void *fn, void *call_site);

#ifdef __cplusplus
}
#endif

#endif /* UST_FUNCTIONS_H */
