/*
 * unit.h - what the unit tests of libust's internals share: stderr
 * capture, a clean environment, and sessions mapped exactly as libust
 * maps them at start-up, without a consumer.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_TESTS_UNIT_H
#define UST_TESTS_UNIT_H

#include <stdint.h>

#include "session.h"

/*
 * Capture what is written on stderr (fd 2) between begin and end; end
 * returns it, NUL-terminated, to be freed.
 */
void unit_stderr_begin(void);
char *unit_stderr_end(void);

/* Unset every variable libust reads (abi/env.h). */
void unit_env_clear(void);

/*
 * A configuration as ust__config_load() fills it: `patterns` is a
 * comma-separated UST_TRACE list (copied), the clock the machine's.
 */
void unit_config(struct ust_config *cfg, const char *patterns, uint32_t mode,
		 uint32_t subbuf_size, uint32_t subbuf_count);
/* Free the strings of a configuration filled by either. */
void unit_config_free(struct ust_config *cfg);

/*
 * Map a session for `cfg` with ust__session_map(), keeping its memfd in
 * s->shm_fd as ust__session_create() does, make `cfg` libust's
 * configuration and publish the session (providers registered so far
 * are described).  unit_session_stop() unpublishes and unmaps it.
 */
struct ust_session *unit_session_start(struct ust_config *cfg);
void unit_session_stop(struct ust_session *s);

#endif /* UST_TESTS_UNIT_H */
