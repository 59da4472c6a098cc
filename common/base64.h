/*
 * base64.h - RFC 4648 base64, for compiled filters in UST_TRACE
 * (abi/env.h): `ust record` encodes, libust decodes.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#ifndef UST_BASE64_H
#define UST_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Characters ust__base64_encode() writes for `n` bytes, without a NUL. */
static inline size_t ust__base64_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

/* Encode `n` bytes into `out` (ust__base64_len(n) + 1 bytes, NUL-ended). */
void ust__base64_encode(const uint8_t *in, size_t n, char *out);

/*
 * Decode the `len` characters at `in` into `out` (room for len / 4 * 3
 * bytes): the number of bytes, or -1 when `in` is not base64 (length not
 * a multiple of 4, a character outside the alphabet, misplaced '=').
 */
long ust__base64_decode(const char *in, size_t len, uint8_t *out);

#endif /* UST_BASE64_H */
