/*
 * base64.c - RFC 4648 base64 (base64.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <string.h>

#include "common/base64.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void ust__base64_encode(const uint8_t *in, size_t n, char *out)
{
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		*out++ = alphabet[v >> 18];
		*out++ = alphabet[(v >> 12) & 63];
		*out++ = alphabet[(v >> 6) & 63];
		*out++ = alphabet[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)in[i] << 16 |
			     (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);

		*out++ = alphabet[v >> 18];
		*out++ = alphabet[(v >> 12) & 63];
		*out++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		*out++ = '=';
	}
	*out = '\0';
}

/* The 6 bits of `c` (its place in the alphabet), or -1. */
static int sextet(char c)
{
	const char *at = c ? strchr(alphabet, c) : NULL;

	return at ? (int)(at - alphabet) : -1;
}

long ust__base64_decode(const char *in, size_t len, uint8_t *out)
{
	size_t i, n = 0;

	if (len % 4)
		return -1;
	for (i = 0; i < len; i += 4) {
		int pad = (in[i + 3] == '=') + (in[i + 2] == '=' && in[i + 3] == '=');
		int a = sextet(in[i]), b = sextet(in[i + 1]);
		int c = pad >= 2 ? 0 : sextet(in[i + 2]);
		int d = pad >= 1 ? 0 : sextet(in[i + 3]);
		uint32_t v;

		if (a < 0 || b < 0 || c < 0 || d < 0 || (pad && i + 4 != len))
			return -1;
		v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 |
		    (uint32_t)d;
		out[n++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[n++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[n++] = (uint8_t)v;
	}
	return (long)n;
}
