/*
 * ust/tracef.h - printf-style events, for events added without XML.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 *	ust_tracef("opened %s: fd %d", path, fd);
 *	ust_tracelog(UST_LOGLEVEL_WARNING, "retry %d of %d", i, n);
 *
 * record LTTng-UST's events of the same names and fields, so that its
 * tools know them: lttng_ust_tracef:event {msg}, and
 * lttng_ust_tracelog:TRACE_<LEVEL> {line, file, func, msg} where LEVEL
 * is the name of the level (<ust/loglevel.h>: TRACE_WARNING ...).  They
 * are enabled like any event, by UST_TRACE patterns (`ust record -e
 * 'lttng_ust_tracef:*'`), and by `ust ctl`.
 *
 * Cost: disabled, one load and a predicted branch at the call site (in a
 * shared library, one more load through its GOT), the arguments are not
 * evaluated.  Enabled, the message is formatted with vsnprintf() into a
 * buffer on the stack, then recorded as one event: it costs what the
 * formatting costs (bench/README.md).  A message longer than
 * UST_TRACEF_MSG_MAX bytes is cut to that length, at a UTF-8 character
 * boundary.  Unlike the tracepoints, these are not async-signal-safe
 * (vsnprintf() is not).
 *
 * The program links libust (-lust).
 */
#ifndef UST_TRACEF_H
#define UST_TRACEF_H

#include <stdarg.h>

#include <ust/loglevel.h>
#include <ust/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest message recorded, in bytes (longer ones are cut). */
#define UST_TRACEF_MSG_MAX	1024

/* The events, owned by libust: the call sites test their enabled words. */
extern struct ust_event_desc ust_tracef_event;
extern struct ust_event_desc ust_tracelog_events[UST_LOGLEVEL_MAX + 1];

/*
 * Format and record, when the event is enabled; what the macros below
 * call.  The call site's address is the record's ip context.  A level
 * outside 0 ... UST_LOGLEVEL_MAX records nothing.
 */
void ust_tracef_record(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void ust_vtracef_record(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
void ust_tracelog_record(int level, const char *file, int line,
			 const char *func, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ust_vtracelog_record(int level, const char *file, int line,
			  const char *func, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/* Whether events of log level `level` are recorded. */
static inline int ust_tracelog_enabled(int level)
{
	return (unsigned int)level <= UST_LOGLEVEL_MAX &&
	       UST_EVENT_ENABLED(&ust_tracelog_events[level]);
}

/* ust_tracef(fmt, ...): lttng_ust_tracef:event {msg}. */
#define ust_tracef(...)							\
	do {								\
		if (UST_EVENT_ENABLED(&ust_tracef_event))		\
			ust_tracef_record(__VA_ARGS__);			\
	} while (0)

#define ust_vtracef(fmt, ap)						\
	do {								\
		if (UST_EVENT_ENABLED(&ust_tracef_event))		\
			ust_vtracef_record(fmt, ap);			\
	} while (0)

/*
 * ust_tracelog(level, fmt, ...): lttng_ust_tracelog:TRACE_<LEVEL>
 * {line, file, func, msg} with the call site's __LINE__, __FILE__ and
 * __func__.  `level` is evaluated twice when the event is enabled.
 */
#define ust_tracelog(level, ...)					\
	do {								\
		if (ust_tracelog_enabled(level))			\
			ust_tracelog_record(level, __FILE__, __LINE__,	\
					    __func__, __VA_ARGS__);	\
	} while (0)

#define ust_vtracelog(level, fmt, ap)					\
	do {								\
		if (ust_tracelog_enabled(level))			\
			ust_vtracelog_record(level, __FILE__, __LINE__,	\
					     __func__, fmt, ap);	\
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* UST_TRACEF_H */
