/*
 * pattern.c - event selection by glob on "facility:event" (pattern.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 */
#include <fnmatch.h>
#include <stddef.h>

#include "common/pattern.h"

bool ust__glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool ust__patterns_match_when(const char *const *patterns, unsigned int nr,
			     const char *name,
			     bool (*counts)(unsigned int i, const void *arg),
			     const void *arg)
{
	bool included = false, have_include = false;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const char *p = patterns[i];

		if (!p)
			continue;
		if (p[0] == '-') {
			if (ust__glob_match(p + 1, name))
				return false;
			continue;
		}
		have_include = true;
		if (ust__glob_match(p, name) && (!counts || counts(i, arg)))
			included = true;
	}
	return have_include ? included : true;
}

bool ust__patterns_match(const char *const *patterns, unsigned int nr,
			const char *name)
{
	return ust__patterns_match_when(patterns, nr, name, NULL, NULL);
}
