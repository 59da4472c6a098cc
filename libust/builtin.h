/*
 * builtin.h - how libust's own providers (the statedump, the flight
 * recorder's trigger) and the preload library's (cyg-profile.c) define
 * their events, which tpgen does not generate.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * TSDL field types, in the form tpgen writes them, and two initialisers:
 * one event descriptor (no log level), one provider of an array of them.
 */
#ifndef UST_LIBUST_BUILTIN_H
#define UST_LIBUST_BUILTIN_H

#include <ust/tracepoint.h>

#define UST_TSDL_INT(bits, sign, base)					\
	"integer { size = " #bits "; align = 8; signed = " #sign "; "	\
	"encoding = none; base = " #base "; }"
#define UST_TSDL_U64_HEX	UST_TSDL_INT(64, false, 16)
#define UST_TSDL_U64_DEC	UST_TSDL_INT(64, false, 10)
#define UST_TSDL_U32_HEX	UST_TSDL_INT(32, false, 16)
#define UST_TSDL_U32_DEC	UST_TSDL_INT(32, false, 10)
#define UST_TSDL_S32_HEX	UST_TSDL_INT(32, true, 16)
#define UST_TSDL_S32_DEC	UST_TSDL_INT(32, true, 10)
#define UST_TSDL_U8_DEC		UST_TSDL_INT(8, false, 10)
#define UST_TSDL_U8_HEX		UST_TSDL_INT(8, false, 16)
/* A character of text: arrays and sequences of it read as strings. */
#define UST_TSDL_CHAR_UTF8						\
	"integer { size = 8; align = 8; signed = true; "		\
	"encoding = UTF8; base = 10; }"

/*
 * `var`: event `ev_name` of log level `level` (-1: none) with these TSDL
 * fields, layout and description.
 */
#define UST_BUILTIN_EVENT_LEVEL(var, ev_name, level, fields, lay, desc)	\
	static struct ust_event_desc var = {				\
		.struct_size = sizeof(struct ust_event_desc),		\
		.name = ev_name, .loglevel = level,			\
		.tsdl_fields = fields, .layout = lay,			\
		.description = desc,					\
	}

/* The same without a log level. */
#define UST_BUILTIN_EVENT(var, ev_name, fields, lay, desc)		\
	UST_BUILTIN_EVENT_LEVEL(var, ev_name, -1, fields, lay, desc)

/* `var`: the provider of facility `fac` whose events are the array `evs`. */
#define UST_BUILTIN_PROVIDER(var, fac, desc, evs)			\
	static struct ust_provider var = {				\
		.struct_size = sizeof(struct ust_provider),		\
		.abi_version = UST_ABI_VERSION,				\
		.facility = fac, .description = desc,			\
		.events = evs,						\
		.nr_events = sizeof(evs) / sizeof((evs)[0]),		\
	}

#endif /* UST_LIBUST_BUILTIN_H */
