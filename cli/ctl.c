/*
 * ctl.c - `ust ctl PID enable|disable PATTERN` and `ust ctl PID
 * stop|start`: change what a running traced process records, without
 * restarting it (doc/control.md).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Under the control lock (control.h), the command records its change in
 * the process's runtime control area (a rule for enable/disable, the stop
 * flag), so that providers the process registers later follow it, then
 * writes each affected event's `enabled` word in the process with
 * process_vm_writev().  The change is in force when the command returns;
 * the program runs no code for it.  Addresses come from the process's
 * own memory, so each is checked before use: aligned, inside a writable
 * mapping of the process, and holding 0 or 1 now.
 */
#include <errno.h>
#include <inttypes.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/uio.h>

#include "cli.h"
#include "command.h"
#include "control.h"
#include "ctl-filter.h"
#include "common/parse.h"
#include "common/pattern.h"

enum ctl_action { CTL_ENABLE, CTL_DISABLE, CTL_STOP, CTL_START, CTL_FILTER,
		  CTL_UNFILTER };

static const char *const action_names[] = {
	"enable", "disable", "stop", "start", "filter", "unfilter",
};

/* Words after PID and the action: PATTERN, and EXPR for filter. */
static const unsigned int action_words[] = { 1, 1, 0, 0, 2, 1 };

struct ctl_args {
	pid_t pid;
	enum ctl_action action;
	char *pattern;		/* malloc'ed, NULL for stop/start */
	char *expr;		/* filter only; malloc'ed */
};

enum ctl_opt { OPT_HELP = 1 };

static const struct poptOption ctl_options[] = {
	CLI_OPTION_HELP(OPT_HELP),
	POPT_TABLEEND
};

void cli_ctl_help(FILE *out)
{
	cli_print_help(out, "ust ctl", ctl_options,
		       "PID enable|disable|unfilter PATTERN | PID filter PATTERN EXPR | PID stop|start",
		       "\nChange what a running traced process records, at once and "
		       "without\nrestarting it:\n"
		       "  enable PATTERN   record the events matching PATTERN\n"
		       "  disable PATTERN  stop recording them\n"
		       "  stop             record nothing, keeping the enabled set\n"
		       "  start            record the enabled set again\n"
		       "  filter PATTERN EXPR  record only the events matching PATTERN\n"
		       "                   for which EXPR is true (doc/filters.md)\n"
		       "  unfilter PATTERN remove the filters of those events\n"
		       "PATTERN is a glob on facility:event, as in UST_TRACE (quote it).\n"
		       "Providers the process loads later follow these changes.  See\n"
		       "'ust list PID' for the events and their state.\n");
}

static int parse_action(const char *word, enum ctl_action *action)
{
	unsigned int i;

	for (i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++) {
		if (!strcmp(word, action_names[i])) {
			*action = (enum ctl_action)i;
			return 0;
		}
	}
	cli_error("unknown action '%s' (enable, disable, stop, start, filter or unfilter)",
		  word);
	return -1;
}

/* The words after the options: PID ACTION [PATTERN]. */
static int parse_words(const char **w, struct ctl_args *a)
{
	unsigned int n = 0, need;

	while (w && w[n])
		n++;
	if (n < 2) {
		cli_error("expected PID and an action (see 'ust ctl --help')");
		return -1;
	}
	if (ust__parse_pid(w[0], &a->pid)) {
		cli_error("'%s' is not a process id", w[0]);
		return -1;
	}
	if (parse_action(w[1], &a->action))
		return -1;
	need = 2 + action_words[a->action];
	if (n < need) {
		cli_error("%s needs a PATTERN%s (e.g. 'app:*')", w[1],
			  a->action == CTL_FILTER ? " and an EXPR" : "");
		return -1;
	}
	if (n > need) {
		cli_error("unexpected argument '%s'", w[need]);
		return -1;
	}
	if (need == 2)
		return 0;
	if (!*w[2] || strlen(w[2]) >= UST_CTL_PATTERN_MAX) {
		cli_error("a PATTERN has 1 to %u characters", UST_CTL_PATTERN_MAX - 1);
		return -1;
	}
	a->pattern = strdup(w[2]);	/* the words die with the popt context */
	if (need == 4 && a->pattern)
		a->expr = strdup(w[3]);
	if (!a->pattern || (need == 4 && !a->expr)) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}

/* 1 for --help, -1 for a bad command line (printed), else 0. */
static int ctl_parse(int argc, const char **argv, struct ctl_args *a)
{
	poptContext ctx = poptGetContext("ust ctl", argc, argv, ctl_options,
					 POPT_CONTEXT_POSIXMEHARDER);
	int rc, ret;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
		cli_ctl_help(stdout);
		poptFreeContext(ctx);
		return 1;
	}
	if (rc < -1) {
		cli_bad_option(ctx, rc);
		ret = -1;
	} else {
		ret = parse_words(poptGetArgs(ctx), a);
	}
	poptFreeContext(ctx);
	return ret;
}

/*
 * Write `on` into the event's enabled word.  The call sites read it with
 * a relaxed load (UST_EVENT_ENABLED); only its low byte changes between
 * 0 and 1, so no reader can see another value.  Ordered after libust's
 * metadata entry for the event by the control lock (DESCRIBED is set).
 */
static int write_word(const struct ctl_process *p,
		      const struct ust_ctl_event *ev, bool on)
{
	int32_t value = on;

	return ctl_word_io(p, ev, ev->enabled_addr, "enabled", &value, true);
}

/* Does the action touch `ev`? */
static bool selected(const struct ctl_args *a, const struct ust_ctl_event *ev)
{
	return !a->pattern || ust__glob_match(a->pattern, ev->name);
}

/* Record enable/disable as a rule, for providers registered later. */
static int add_rule(struct ctl_process *p, const struct ctl_args *a)
{
	uint32_t nr = ust__ctl_nr_rules(p->area);
	struct ust_ctl_rule *rule;

	if (nr == UST_CTL_MAX_RULES) {
		cli_error("process %d: too many enable/disable commands (%u); "
			  "restart it with the patterns in UST_TRACE", (int)p->pid,
			  UST_CTL_MAX_RULES);
		return -1;
	}
	rule = &p->area->rules[nr];
	memset(rule, 0, sizeof(*rule));
	memcpy(rule->pattern, a->pattern, strlen(a->pattern));
	rule->enable = a->action == CTL_ENABLE;
	/*
	 * I12, release: the rule's bytes before the count.  Partner: the acquire
	 * load of a fork child that copies the rules without the lock
	 * (ust__registry_inherit_control() in libust/registry.c).
	 */
	__atomic_store_n(&p->area->nr_rules, nr + 1, __ATOMIC_RELEASE);
	return 0;
}

/* The new flags of a selected event. */
static uint32_t new_flags(const struct ctl_args *a, uint32_t flags)
{
	if (a->action == CTL_ENABLE)
		return flags | UST_CTL_EV_WANTED;
	if (a->action == CTL_DISABLE)
		return flags & ~(uint32_t)UST_CTL_EV_WANTED;
	return flags;
}

/* Update the selected events' flags and words; the count switched on. */
static int apply(struct ctl_process *p, const struct ctl_args *a, bool stopped,
		 unsigned int *on)
{
	struct ust_ctl_event ev;
	uint32_t i;

	*on = 0;
	for (i = 0; i < ust__ctl_nr_events(p->area); i++) {
		if (!ctl_event(p, i, &ev) || !selected(a, &ev))
			continue;
		ev.flags = new_flags(a, ev.flags);
		p->area->events[i].flags = ev.flags;
		if (a->action == CTL_ENABLE && !(ev.flags & UST_CTL_EV_DESCRIBED))
			cli_error("process %d: event '%s' is not in the trace "
				  "metadata (its log was full): it stays off",
				  (int)p->pid, ev.name);
		if (write_word(p, &ev, ctl_event_on(&ev, stopped)))
			return -1;
		*on += ctl_event_on(&ev, stopped);
	}
	return 0;
}

static void report(const struct ctl_process *p, const struct ctl_args *a,
		   int n, unsigned int on, bool stopped)
{
	if (a->action == CTL_STOP) {
		printf("process %d: tracing stopped\n", (int)p->pid);
		return;
	}
	if (a->action == CTL_START) {
		printf("process %d: tracing started, %u of %d events on\n",
		       (int)p->pid, on, n);
		return;
	}
	printf("process %d: %sd %d event%s matching '%s'%s\n", (int)p->pid,
	       action_names[a->action], n, n == 1 ? "" : "s", a->pattern,
	       stopped && a->action == CTL_ENABLE ?
	       " (tracing is stopped: 'ust ctl PID start' resumes it)" : "");
}

/* The command, with the control lock held. */
static int ctl_locked(struct ctl_process *p, const struct ctl_args *a)
{
	bool stopped = p->area->stopped != 0;
	unsigned int on;
	int n = ctl_words_check(p, a->pattern, false);

	if (n < 0)
		return -1;
	if (a->pattern && n == 0) {
		cli_error("process %d has no event matching '%s' (see 'ust list %d')",
			  (int)p->pid, a->pattern, (int)p->pid);
		return -1;
	}
	if (a->pattern && add_rule(p, a))
		return -1;
	if (a->action == CTL_STOP || a->action == CTL_START) {
		stopped = a->action == CTL_STOP;
		/* I12, relaxed: a fork child reads it without the lock, alone. */
		__atomic_store_n(&p->area->stopped, stopped, __ATOMIC_RELAXED);
	}
	if (apply(p, a, stopped, &on))
		return -1;
	report(p, a, n, on, stopped);
	return 0;
}

int cli_ctl_run(int argc, const char **argv)
{
	struct ctl_args a = { 0 };
	struct ctl_process p;
	int ret = ctl_parse(argc, argv, &a);

	if (ret)
		return ret > 0 ? 0 : UST_EXIT_USAGE;
	ret = ctl_attach(&p, a.pid, LOCK_EX);
	if (ret) {
		ret = UST_EXIT_FAILURE;
	} else {
		if (a.action == CTL_FILTER || a.action == CTL_UNFILTER)
			ret = ctl_filter_locked(&p, a.pattern, a.expr);
		else
			ret = ctl_locked(&p, &a) ? UST_EXIT_FAILURE : 0;
		ctl_detach(&p);
	}
	free(a.pattern);
	free(a.expr);
	return ret;
}
