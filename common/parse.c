/*
 * parse.c - numbers users type.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "common/parse.h"

int ust__parse_u64(const char *text, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!text || *text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int ust__parse_pid(const char *text, pid_t *pid)
{
	uint64_t v;

	if (ust__parse_u64(text, &v) || v == 0 || v > INT_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

static int size_shift(char suffix)
{
	switch (suffix) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	default: return -1;
	}
}

int ust__parse_size(const char *text, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!text || *text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end) {
		shift = size_shift(*end);
		/* One suffix letter, optionally followed by "iB" or "B". */
		if (shift < 0 || (end[1] && !(end[1] == 'B' && !end[2]) &&
				  !(end[1] == 'i' && end[2] == 'B' && !end[3])))
			return -EINVAL;
	}
	if (v > (UINT64_MAX >> shift))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}
