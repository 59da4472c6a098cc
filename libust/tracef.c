/*
 * tracef.c - printf-style events: lttng_ust_tracef:event and
 * lttng_ust_tracelog:TRACE_<LEVEL> (<ust/tracef.h>).
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * The events are LTTng-UST's, field for field: the message is a sequence
 * of characters after its 32-bit length (`_msg_length`, `msg`), which
 * readers print as a string.  Their descriptors are exported, so that
 * the call sites test the enabled word directly.
 *
 * The providers register at the first call, not at start-up: event ids
 * go in registration order, only ids 0-30 fit the 4-byte event header,
 * and the program's providers, which register from its constructors,
 * keep them.  Until then every enabled word is 1, so the first call
 * comes here and settles them (tracef_ready()).  Ids stay dense, as
 * babeltrace2's debug-info filter needs (doc/compatibility.md).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ust/tracef.h>
#include <ust/ust.h>

#include "builtin.h"
#include "session.h"

/* The message: a 32-bit length, then that many characters. */
#define MSG_FIELDS							\
	UST_TSDL_U32_DEC " __msg_length; "				\
	UST_TSDL_CHAR_UTF8 " _msg[__msg_length];"
#define MSG_LAYOUT	"Q4[F1]"

#define TRACELOG_FIELDS							\
	UST_TSDL_S32_DEC " _line; string _file; string _func; " MSG_FIELDS
#define TRACELOG_LAYOUT	"F4 S S " MSG_LAYOUT

UST_EXPORT struct ust_event_desc ust_tracef_event = {
	.struct_size = sizeof(struct ust_event_desc),
	.name = "event",
	.enabled = 1,				/* until tracef_ready() */
	.loglevel = UST_LOGLEVEL_DEBUG,		/* as LTTng-UST's */
	.tsdl_fields = MSG_FIELDS,
	.layout = MSG_LAYOUT,
	.description = "a message formatted by ust_tracef()",
};

#define TRACELOG_EVENT(level, level_name)				\
	[level] = {							\
		.struct_size = sizeof(struct ust_event_desc),		\
		.enabled = 1,						\
		.name = level_name,					\
		.loglevel = level,					\
		.tsdl_fields = TRACELOG_FIELDS,				\
		.layout = TRACELOG_LAYOUT,				\
	}

/* The names are ust_loglevel_name()'s, LTTng-UST's documented ones. */
UST_EXPORT struct ust_event_desc ust_tracelog_events[UST_LOGLEVEL_MAX + 1] = {
	TRACELOG_EVENT(UST_LOGLEVEL_EMERG, "TRACE_EMERG"),
	TRACELOG_EVENT(UST_LOGLEVEL_ALERT, "TRACE_ALERT"),
	TRACELOG_EVENT(UST_LOGLEVEL_CRIT, "TRACE_CRIT"),
	TRACELOG_EVENT(UST_LOGLEVEL_ERR, "TRACE_ERR"),
	TRACELOG_EVENT(UST_LOGLEVEL_WARNING, "TRACE_WARNING"),
	TRACELOG_EVENT(UST_LOGLEVEL_NOTICE, "TRACE_NOTICE"),
	TRACELOG_EVENT(UST_LOGLEVEL_INFO, "TRACE_INFO"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_SYSTEM, "TRACE_DEBUG_SYSTEM"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_PROGRAM, "TRACE_DEBUG_PROGRAM"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_PROCESS, "TRACE_DEBUG_PROCESS"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_MODULE, "TRACE_DEBUG_MODULE"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_UNIT, "TRACE_DEBUG_UNIT"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_FUNCTION, "TRACE_DEBUG_FUNCTION"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG_LINE, "TRACE_DEBUG_LINE"),
	TRACELOG_EVENT(UST_LOGLEVEL_DEBUG, "TRACE_DEBUG"),
};

static struct ust_event_desc *const tracef_events[] = { &ust_tracef_event };
static struct ust_event_desc *const tracelog_events[] = {
	&ust_tracelog_events[0], &ust_tracelog_events[1],
	&ust_tracelog_events[2], &ust_tracelog_events[3],
	&ust_tracelog_events[4], &ust_tracelog_events[5],
	&ust_tracelog_events[6], &ust_tracelog_events[7],
	&ust_tracelog_events[8], &ust_tracelog_events[9],
	&ust_tracelog_events[10], &ust_tracelog_events[11],
	&ust_tracelog_events[12], &ust_tracelog_events[13],
	&ust_tracelog_events[14],
};
_Static_assert(sizeof(tracelog_events) / sizeof(tracelog_events[0]) ==
	       UST_LOGLEVEL_MAX + 1, "one tracelog event per level");

UST_BUILTIN_PROVIDER(tracef_provider, "lttng_ust_tracef",
		     "printf-style messages (ust_tracef)", tracef_events);
UST_BUILTIN_PROVIDER(tracelog_provider, "lttng_ust_tracelog",
		     "printf-style messages with a log level (ust_tracelog)",
		     tracelog_events);

/*
 * Register both providers if the process traces: registration sets every
 * enabled word by UST_TRACE and `ust ctl` (registry.c).  Otherwise, or
 * if registration fails, turn them all off.
 */
static void tracef_setup(void)
{
	unsigned int i;

	if (ust_tracing_active() &&
	    ust_provider_register(&tracef_provider) == 0 &&
	    ust_provider_register(&tracelog_provider) == 0)
		return;
	/* Relaxed: as registry.c's stores of the same words. */
	__atomic_store_n(&ust_tracef_event.enabled, 0, __ATOMIC_RELAXED);
	for (i = 0; i <= UST_LOGLEVEL_MAX; i++)
		__atomic_store_n(&ust_tracelog_events[i].enabled, 0,
				 __ATOMIC_RELAXED);
}

/*
 * Whether `ev` is recorded, once the providers are set up.  pthread_once
 * makes a thread that calls during another's set-up wait for it, so no
 * record is written with an id its metadata does not have yet.
 */
static bool tracef_ready(const struct ust_event_desc *ev)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	(void)pthread_once(&once, tracef_setup);
	return UST_EVENT_ENABLED(ev);
}

/*
 * A formatted message: its length and characters, on the caller's stack.
 * One byte more than kept, and the NUL: when the message is cut, the
 * first byte left out says whether the cut splits a character.
 */
struct tracef_msg {
	uint32_t len;
	char text[UST_TRACEF_MSG_MAX + 2];
};

/*
 * Format into `m`; a message too long is cut at the last character
 * boundary within UST_TRACEF_MSG_MAX bytes (UTF-8: never in the middle
 * of a multi-byte sequence), a formatting error gives an empty one.
 */
static void msg_format(struct tracef_msg *m, const char *fmt, va_list ap)
{
	int n = vsnprintf(m->text, sizeof(m->text), fmt, ap);
	size_t len;

	if (n < 0)
		n = 0;
	len = (size_t)n;
	if (len > UST_TRACEF_MSG_MAX) {
		len = UST_TRACEF_MSG_MAX;
		/* text[len] continues a character: cut before its first byte. */
		while (len > 0 && ((unsigned char)m->text[len] & 0xc0) == 0x80)
			len--;
	}
	m->len = (uint32_t)len;
}

static void vtracef(const char *fmt, va_list ap, const void *ip)
{
	struct tracef_msg m;
	struct ust_seg segs[2];

	if (!tracef_ready(&ust_tracef_event))
		return;
	msg_format(&m, fmt, ap);
	segs[0] = (struct ust_seg){ &m.len, sizeof(m.len) };
	segs[1] = (struct ust_seg){ m.text, m.len };
	ust_event_write_ip(&ust_tracef_event, segs, 2, sizeof(m.len) + m.len, ip);
}

static void vtracelog(int level, const char *file, int line, const char *func,
		      const char *fmt, va_list ap, const void *ip)
{
	struct ust_event_desc *ev;
	struct tracef_msg m;
	int32_t line32 = line;
	struct ust_seg segs[5];
	size_t file_len, func_len;

	if ((unsigned int)level > UST_LOGLEVEL_MAX)
		return;
	ev = &ust_tracelog_events[level];
	if (!tracef_ready(ev))
		return;
	file = file ? file : "";
	func = func ? func : "";
	file_len = strlen(file) + 1;
	func_len = strlen(func) + 1;
	msg_format(&m, fmt, ap);
	segs[0] = (struct ust_seg){ &line32, sizeof(line32) };
	segs[1] = (struct ust_seg){ file, file_len };
	segs[2] = (struct ust_seg){ func, func_len };
	segs[3] = (struct ust_seg){ &m.len, sizeof(m.len) };
	segs[4] = (struct ust_seg){ m.text, m.len };
	ust_event_write_ip(ev, segs, 5, sizeof(line32) + file_len + func_len +
			   sizeof(m.len) + m.len, ip);
}

UST_EXPORT void ust_tracef_record(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtracef(fmt, ap, __builtin_return_address(0));
	va_end(ap);
}

UST_EXPORT void ust_vtracef_record(const char *fmt, va_list ap)
{
	vtracef(fmt, ap, __builtin_return_address(0));
}

UST_EXPORT void ust_tracelog_record(int level, const char *file, int line,
				    const char *func, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtracelog(level, file, line, func, fmt, ap, __builtin_return_address(0));
	va_end(ap);
}

UST_EXPORT void ust_vtracelog_record(int level, const char *file, int line,
				     const char *func, const char *fmt,
				     va_list ap)
{
	vtracelog(level, file, line, func, fmt, ap, __builtin_return_address(0));
}
