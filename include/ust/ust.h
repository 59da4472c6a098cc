/*
 * ust/ust.h - the application-facing API of libust.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Most programs need nothing from here: tracing is configured from the
 * environment (UST_TRACE, UST_OUTPUT, ...) or by `ust record`.
 */
#ifndef UST_UST_H
#define UST_UST_H

#ifdef __cplusplus
extern "C" {
#endif

/* Non-zero when this process is tracing (UST_TRACE was set at start). */
int ust_tracing_active(void);

#ifdef __cplusplus
}
#endif

#endif /* UST_UST_H */
