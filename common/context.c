/*
 * context.c - parse a list of context names (common/context.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "abi/env.h"
#include "abi/shm.h"
#include "common/context.h"

static const struct {
	const char *name;
	uint32_t bit;
} context_names[] = {
	{ UST_CONTEXT_NAME_VTID, UST_CTX_VTID },
	{ UST_CONTEXT_NAME_TID, UST_CTX_VTID },
	{ UST_CONTEXT_NAME_VPID, UST_CTX_VPID },
	{ UST_CONTEXT_NAME_PROCNAME, UST_CTX_PROCNAME },
	{ UST_CONTEXT_NAME_PTHREAD_ID, UST_CTX_PTHREAD_ID },
	{ UST_CONTEXT_NAME_IP, UST_CTX_IP },
};

/* The bit of the `len`-byte name at `s`, or 0 when there is none. */
static uint32_t context_bit(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(context_names) / sizeof(context_names[0]); i++) {
		if (strlen(context_names[i].name) == len &&
		    !memcmp(context_names[i].name, s, len))
			return context_names[i].bit;
	}
	return 0;
}

int ust__context_parse(const char *list, uint32_t *set, char *err,
		       size_t errlen)
{
	const char *p = list;
	uint32_t bits = 0;

	if (!strcmp(list, UST_CONTEXT_NAME_NONE)) {
		*set = 0;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		uint32_t bit = context_bit(p, len);

		if (!len) {
			snprintf(err, errlen, "empty context name");
			return -EINVAL;
		}
		if (!bit) {
			snprintf(err, errlen, len == strlen(UST_CONTEXT_NAME_NONE) &&
				 !memcmp(p, UST_CONTEXT_NAME_NONE, len) ?
				 "'%.*s' cannot be combined with other contexts" :
				 "unknown context '%.*s'", (int)len, p);
			return -EINVAL;
		}
		bits |= bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	*set = bits;
	return 0;
}
