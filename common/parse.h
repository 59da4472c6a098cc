/*
 * parse.h - parsing of the numbers users type (sizes, counts, periods),
 * shared by libust's environment and the `ust` command line.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_PARSE_H
#define UST_PARSE_H

#include <stdint.h>
#include <sys/types.h>

/*
 * "4096", "64k", "1M", "1G" (binary multiples, either case) into `out`.
 * Returns 0, or -EINVAL for anything else (empty, junk, overflow).
 */
int ust__parse_size(const char *text, uint64_t *out);

/* A plain unsigned decimal number; 0 or -EINVAL. */
int ust__parse_u64(const char *text, uint64_t *out);

/* A process id: a plain decimal number from 1 to INT_MAX; 0 or -EINVAL. */
int ust__parse_pid(const char *text, pid_t *pid);
/* A duration: an integer with ns (the default), us, ms or s. */
int ust__parse_duration_ns(const char *text, uint64_t *out);

/* The value of hexadecimal digit `c` (either case), else -1. */
static inline int ust__hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static inline int ust__is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

#endif /* UST_PARSE_H */
