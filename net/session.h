/*
 * session.h - the relay session identity as text, so that `ust record`
 * can hand one session to every consumer it starts (UST_RELAY_SESSION,
 * abi/env.h) and each consumer joins it (net/relay.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *	name=NAME,uuid=HEX32,id=N,time=SEC[,live=USEC][,host=HOSTNAME]
 *
 * NAME and HOSTNAME are [A-Za-z0-9._-], not starting with '.'; HEX32 is
 * 32 hexadecimal digits, not all zero; SEC the creation time (seconds
 * since the epoch); USEC the live timer (0 or absent: not live); host
 * defaults to this machine's name.
 */
#ifndef UST_NET_SESSION_H
#define UST_NET_SESSION_H

#include <stddef.h>

#include "net/relay.h"

/* Parse `text`: 0, or -1 with the reason in err. */
int ust_relay_session_parse(const char *text, struct ust_relay_session *s,
			    char *err, size_t errlen);

/* The text form of `s` (host included); 0, or -1 when `len` is too small. */
int ust_relay_session_format(const struct ust_relay_session *s, char *buf, size_t len);

/*
 * A new session: `name`, a random uuid, `id`, the current time, this
 * machine's name, not live.  0, or -1 when no random bytes came.
 */
int ust_relay_session_new(struct ust_relay_session *s, const char *name, uint64_t id);

/*
 * The session of a process streaming to a relay: UST_RELAY_SESSION
 * (abi/env.h) when it is set and valid, else a new one named `name` with
 * id `id`.  `who` prefixes the message saying a bad UST_RELAY_SESSION was
 * ignored.  0, or -1 when no session could be made.
 */
int ust_relay_session_from_env(struct ust_relay_session *s, const char *name, uint64_t id,
			       const char *who);

/* Keep [A-Za-z0-9._-] of `s`, others become '_', no leading '.'. */
void ust_relay_name_sanitize(char *s);

#endif /* UST_NET_SESSION_H */
