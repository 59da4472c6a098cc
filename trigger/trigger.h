/*
 * trigger.h - `ust record --trigger 'EVENT[ if FILTER]'`: a
 * flight-recorder snapshot when a matching event is recorded.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * EVENT is a glob on event names: a user event ("app:error", with its
 * ':') is watched by the consumers of the traced processes, a kernel
 * event ("syscall_exit_*", LTTng's names) by the kernel bridge.  FILTER
 * is the comparison subset of LTTng's filter language:
 *
 *	expr := expr '||' expr | expr '&&' expr | '!' expr | '(' expr ')'
 *	      | FIELD OP LITERAL
 *	OP := '==' | '!=' | '<' | '<=' | '>' | '>='
 *	LITERAL := integer (decimal, 0x hexadecimal, 0 octal, '-' allowed)
 *	         | "string" ('*' matches any run of characters, '\*' a star,
 *	                     '\\' and '\"' escaped; == and != only)
 *
 * with C's precedence (! before && before ||).  It is this project's
 * own small parser, written so that the filter compiler of filter/
 * (branch filter: the whole language, bytecode) can take its place:
 * the users of a trigger only parse, evaluate with a field callback,
 * list the fields, or translate to an ftrace filter, through the
 * functions below.
 */
#ifndef UST_TRIGGER_H
#define UST_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trig_expr;

struct trigger {
	char *event;		/* the glob */
	struct trig_expr *filter;	/* NULL: every event */
};

#define TRIG_ERROR_MAX	256

/*
 * Parse "EVENT[ if FILTER]": 0, or -1 with "column N: what" in err
 * (N counts from 1, the first character of the text).
 */
int trig_parse(const char *text, struct trigger *t, char *err, size_t errlen);
void trig_free(struct trigger *t);

/* A user-space event (its glob has a ':'), else a kernel one. */
bool trig_is_user(const struct trigger *t);
/* Whether event `name` matches the trigger's glob. */
bool trig_event_matches(const struct trigger *t, const char *name);

/* The value of a field. */
struct trig_value {
	bool is_str;
	int64_t i;
	const char *s;		/* not NUL-terminated */
	size_t len;
};

/* Field `name`'s value: 0, or -1 when the event has no such field. */
typedef int (*trig_field_fn)(void *arg, const char *name, struct trig_value *v);

/* 1 when the event passes the filter, 0 when not, -1 on a missing field. */
int trig_eval(const struct trigger *t, trig_field_fn get, void *arg);

/*
 * Call `cb` for each field the filter names, with its column: 0, or
 * the first non-zero return of `cb`.
 */
int trig_fields(const struct trigger *t, int (*cb)(void *arg, const char *name, int column),
		void *arg);

/*
 * The filter in the syntax of an ftrace event's `filter` file, each
 * field renamed by `map` (which also gives a bias added to the integer
 * literals compared with it, for fields the kernel stores shifted);
 * "" without filter.  0, or -1 with err (map's refusal, or a comparison
 * ftrace cannot do).
 */
typedef int (*trig_map_fn)(void *arg, const char *field, char *ftrace, size_t len,
			   int64_t *bias, bool *is_str);
int trig_to_ftrace(const struct trigger *t, trig_map_fn map, void *arg, char *out,
		   size_t len, char *err, size_t errlen);

#endif /* UST_TRIGGER_H */
