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
#include "control.h"
#include "common/parse.h"
#include "common/pattern.h"

enum ctl_action { CTL_ENABLE, CTL_DISABLE, CTL_STOP, CTL_START };

static const char *const action_names[] = { "enable", "disable", "stop", "start" };

struct ctl_args {
	pid_t pid;
	enum ctl_action action;
	char *pattern;		/* enable/disable only; malloc'ed */
};

enum ctl_opt { OPT_HELP = 1 };

static const struct poptOption ctl_options[] = {
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help", NULL },
	POPT_TABLEEND
};

static void ctl_help(FILE *out)
{
	ctl_print_help(out, "ust ctl", ctl_options,
		       "PID enable|disable PATTERN | PID stop|start",
		       "\nChange what a running traced process records, at once and "
		       "without\nrestarting it:\n"
		       "  enable PATTERN   record the events matching PATTERN\n"
		       "  disable PATTERN  stop recording them\n"
		       "  stop             record nothing, keeping the enabled set\n"
		       "  start            record the enabled set again\n"
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
	cli_error("unknown action '%s' (enable, disable, stop or start)", word);
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
	need = a->action <= CTL_DISABLE ? 3 : 2;
	if (n < need) {
		cli_error("%s needs a PATTERN (e.g. 'app:*')", w[1]);
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
	if (!a->pattern) {
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
		ctl_help(stdout);
		poptFreeContext(ctx);
		return 1;
	}
	if (rc < -1) {
		cli_error("%s: %s", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc));
		ret = -1;
	} else {
		ret = parse_words(poptGetArgs(ctx), a);
	}
	poptFreeContext(ctx);
	return ret;
}

/* The writable mappings of the process, from /proc/PID/maps. */
struct rw_ranges {
	uint64_t (*v)[2];
	size_t nr, cap;
};

static int load_rw_ranges(pid_t pid, struct rw_ranges *r)
{
	char path[64], *line = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f) {
		cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, f) > 0) {
		uint64_t lo, hi;
		char perms[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &lo, &hi, perms) != 3 ||
		    perms[0] != 'r' || perms[1] != 'w')
			continue;
		if (r->nr == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 64;
			void *v = realloc(r->v, cap * sizeof(*r->v));

			if (!v)
				break;
			r->v = v;
			r->cap = cap;
		}
		r->v[r->nr][0] = lo;
		r->v[r->nr++][1] = hi;
	}
	free(line);
	fclose(f);
	return 0;
}

static bool in_rw_range(const struct rw_ranges *r, uint64_t addr)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (addr >= r->v[i][0] && addr + sizeof(int32_t) <= r->v[i][1])
			return true;
	}
	return false;
}

/*
 * Read (`write` false) or write the event's enabled word in the process
 * through `*value`.  Returns 0, or -1 after printing why not.
 */
static int word_io(const struct ctl_process *p, const struct ust_ctl_event *ev,
		   int32_t *value, bool write)
{
	struct iovec local = { value, sizeof(*value) };
	struct iovec remote = { (void *)(uintptr_t)ev->enabled_addr, sizeof(*value) };
	const char *call = write ? "process_vm_writev" : "process_vm_readv";
	ssize_t n = write ? process_vm_writev(p->pid, &local, 1, &remote, 1, 0) :
			    process_vm_readv(p->pid, &local, 1, &remote, 1, 0);

	if (n == (ssize_t)sizeof(*value))
		return 0;
	if (errno == EPERM || errno == EACCES)
		cli_error("process %d: not permitted to write its memory (%s: "
			  "%s; needs the right to ptrace it: root, or the same "
			  "user with kernel.yama.ptrace_scope=0)", (int)p->pid,
			  call, strerror(errno));
	else
		cli_error("process %d: event '%s': %s of its enabled word: %s",
			  (int)p->pid, ev->name, call, strerror(errno));
	return -1;
}

/*
 * Check the enabled word of `ev` in the process: 0 when it holds 0 or 1
 * inside a writable mapping, -1 after printing why not.
 */
static int check_word(const struct ctl_process *p, const struct rw_ranges *r,
		      const struct ust_ctl_event *ev)
{
	int32_t value;

	if (ev->enabled_addr % sizeof(int32_t) || !in_rw_range(r, ev->enabled_addr)) {
		cli_error("process %d: event '%s': enabled word at 0x%" PRIx64
			  " is not in its writable memory; left alone",
			  (int)p->pid, ev->name, ev->enabled_addr);
		return -1;
	}
	if (word_io(p, ev, &value, false))
		return -1;
	if (value != 0 && value != 1) {
		cli_error("process %d: event '%s': enabled word at 0x%" PRIx64
			  " holds %d, not 0 or 1; left alone", (int)p->pid,
			  ev->name, ev->enabled_addr, (int)value);
		return -1;
	}
	return 0;
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

	return word_io(p, ev, &value, true);
}

/* Does the action touch `ev`? */
static bool selected(const struct ctl_args *a, const struct ust_ctl_event *ev)
{
	return !a->pattern || ust__glob_match(a->pattern, ev->name);
}

/*
 * Check every selected event's word before changing anything, so a
 * permission problem or a bad address changes nothing.  Returns the
 * number of selected events, or -1.
 */
static int check_selected(const struct ctl_process *p, const struct ctl_args *a)
{
	struct rw_ranges r = { 0 };
	struct ust_ctl_event ev;
	uint32_t i;
	int n = 0;

	if (load_rw_ranges(p->pid, &r))
		return -1;
	for (i = 0; i < ust__ctl_nr_events(p->area) && n >= 0; i++) {
		if (!ctl_event(p, i, &ev) || !selected(a, &ev))
			continue;
		n = check_word(p, &r, &ev) ? -1 : n + 1;
	}
	free(r.v);
	return n;
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
	int n = check_selected(p, a);

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

static int ctl_run(int argc, const char **argv)
{
	struct ctl_args a = { 0 };
	struct ctl_process p;
	int ret = ctl_parse(argc, argv, &a);

	if (ret)
		return ret > 0 ? 0 : UST_EXIT_USAGE;
	ret = ctl_attach(&p, a.pid, LOCK_EX);
	if (!ret) {
		ret = ctl_locked(&p, &a);
		ctl_detach(&p);
	}
	free(a.pattern);
	return ret ? UST_EXIT_FAILURE : 0;
}

const struct cli_command cli_ctl_command = {
	.name = "ctl",
	.summary = "enable or disable events of a running process, stop or start it",
	.run = ctl_run,
	.help = ctl_help,
};
