/*
 * record-trigger.h - `ust record --trigger`'s checks (record-trigger.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_RECORD_TRIGGER_H
#define UST_CLI_RECORD_TRIGGER_H

#include <stdbool.h>

/* --trigger SPEC: parsed (the error said, -1), kept in *spec. */
int cli_record_trigger(const char *arg, char **spec, bool *user);
/* --trigger-holdoff SEC: a positive number of seconds; -1 (said) if not. */
int cli_record_holdoff(const char *arg, char **holdoff);
/* With the other options: --flight-recorder, --kernel for a kernel event. */
int cli_record_trigger_check(const char *spec, bool user, bool flight, bool kernel);

#endif /* UST_CLI_RECORD_TRIGGER_H */
