/*
 * parse.c - numbers users type.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

/* The decimal number `text` starts with, and where its suffix starts. */
static int leading_u64(const char *text, unsigned long long *v, char **end)
{
	if (!text || *text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(text, end, 10);
	return errno ? -EINVAL : 0;
}

int ust__parse_size(const char *text, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (leading_u64(text, &v, &end))
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

int ust__parse_duration_ns(const char *text, uint64_t *out)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	unsigned long long v;
	char *end;
	size_t i;

	if (leading_u64(text, &v, &end))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].ns)
			return -EINVAL;
		*out = v * units[i].ns;
		return 0;
	}
	return -EINVAL;
}
