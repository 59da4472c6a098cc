/*
 * ust/loglevel.h - the log levels of events, and their names.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * An event's log level is an integer from 0 (most severe) to 14 (least),
 * -1 when it has none (struct ust_event_desc.loglevel).  The names are
 * LTTng-UST's, so that a level reads the same in both tools: tpgen's
 * `loglevel` attribute takes them, the trace metadata holds the number.
 *
 * Header-only and without dependencies, so that tpgen, the `ust` command
 * (`--loglevel`) and programs (levels given in C) share one table.
 */
#ifndef UST_LOGLEVEL_H
#define UST_LOGLEVEL_H

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ust_loglevel {
	UST_LOGLEVEL_EMERG = 0,		/* the system is unusable */
	UST_LOGLEVEL_ALERT = 1,		/* act at once */
	UST_LOGLEVEL_CRIT = 2,		/* critical condition */
	UST_LOGLEVEL_ERR = 3,		/* error */
	UST_LOGLEVEL_WARNING = 4,
	UST_LOGLEVEL_NOTICE = 5,	/* normal but significant */
	UST_LOGLEVEL_INFO = 6,
	UST_LOGLEVEL_DEBUG_SYSTEM = 7,	/* debugging, scope: the system */
	UST_LOGLEVEL_DEBUG_PROGRAM = 8,
	UST_LOGLEVEL_DEBUG_PROCESS = 9,
	UST_LOGLEVEL_DEBUG_MODULE = 10,
	UST_LOGLEVEL_DEBUG_UNIT = 11,
	UST_LOGLEVEL_DEBUG_FUNCTION = 12,
	UST_LOGLEVEL_DEBUG_LINE = 13,
	UST_LOGLEVEL_DEBUG = 14
};

#define UST_LOGLEVEL_MAX 14

/* "TRACE_EMERG" ... "TRACE_DEBUG" for 0 ... 14; NULL for anything else. */
static inline const char *ust_loglevel_name(int level)
{
	static const char *const names[UST_LOGLEVEL_MAX + 1] = {
		"TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR",
		"TRACE_WARNING", "TRACE_NOTICE", "TRACE_INFO",
		"TRACE_DEBUG_SYSTEM", "TRACE_DEBUG_PROGRAM",
		"TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
		"TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE", "TRACE_DEBUG",
	};

	return level >= 0 && level <= UST_LOGLEVEL_MAX ? names[level] : NULL;
}

/*
 * The level that `text` writes: one of the names above, exactly (case
 * included), or its number in plain decimal digits without a leading
 * zero ("0" ... "14").  -1 for anything else.
 */
static inline int ust_loglevel_parse(const char *text)
{
	int level;

	if (text[0] >= '0' && text[0] <= '9' && text[1] == '\0')
		return text[0] - '0';
	if (text[0] == '1' && text[1] >= '0' && text[1] <= '4' && text[2] == '\0')
		return 10 + text[1] - '0';
	for (level = 0; level <= UST_LOGLEVEL_MAX; level++)
		if (strcmp(text, ust_loglevel_name(level)) == 0)
			return level;
	return -1;
}

#ifdef __cplusplus
}
#endif

#endif /* UST_LOGLEVEL_H */
