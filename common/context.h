/*
 * context.h - the names of the per-record contexts a recording can choose
 * (UST_CONTEXT, `ust record --context`), shared by libust and the `ust`
 * command so that both accept and refuse exactly the same lists.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_COMMON_CONTEXT_H
#define UST_COMMON_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * "vtid,vpid,procname,ip,pthread_id" (any of them, in any order, each at
 * most once or more: a set), "tid" for vtid, "none" alone for nothing,
 * into a set of UST_CTX_* bits (abi/shm.h).  Returns 0, or -EINVAL with
 * a one-line reason in `err` ("unknown context 'pid'", ...).
 */
int ust__context_parse(const char *list, uint32_t *set, char *err,
		       size_t errlen);

/* The names accepted, for messages: "vtid, vpid, procname, ...". */
#define UST_CONTEXT_NAMES_HELP \
	"vtid (or tid), vpid, procname, ip, pthread_id, or none"

#endif /* UST_COMMON_CONTEXT_H */
