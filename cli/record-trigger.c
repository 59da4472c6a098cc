/*
 * record-trigger.c - `ust record --trigger 'EVENT[ if FILTER]'` and
 * --trigger-holdoff: checked here, carried out by the consumers (a user
 * event: UST_TRIGGER) or the kernel bridge (a kernel event: its
 * --trigger), doc/kernel-analyses.md.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record-trigger.h"
#include "trigger/trigger.h"

int cli_record_trigger(const char *arg, char **spec, bool *user)
{
	char err[TRIG_ERROR_MAX];
	struct trigger t;

	if (trig_parse(arg, &t, err, sizeof(err))) {
		cli_error("invalid --trigger '%s': %s", arg, err);
		return -1;
	}
	*user = trig_is_user(&t);
	trig_free(&t);
	free(*spec);
	*spec = strdup(arg);
	if (!*spec) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}

int cli_record_holdoff(const char *arg, char **holdoff)
{
	char *end;
	double s = strtod(arg, &end);

	if (!*arg || *end || !(s > 0) || s > 86400) {
		cli_error("invalid --trigger-holdoff '%s': seconds, more than 0", arg);
		return -1;
	}
	free(*holdoff);
	*holdoff = strdup(arg);
	return *holdoff ? 0 : -1;
}

int cli_record_trigger_check(const char *spec, bool user, bool flight, bool kernel)
{
	if (!spec)
		return 0;
	if (!flight) {
		cli_error("--trigger needs --flight-recorder: a trigger takes a snapshot");
		return -1;
	}
	if (!user && !kernel) {
		cli_error("--trigger '%s' is on a kernel event: it needs --kernel", spec);
		return -1;
	}
	return 0;
}
