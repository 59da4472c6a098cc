/*
 * control.c - attach to a running traced process's runtime control area
 * (control.h), for `ust ctl` and `ust list PID`.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The area is written by the traced process: everything read from it is
 * copied and checked first (shm-ctl.c clamps the counts).
 */
#include <popt.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "control.h"

int ctl_attach(struct ctl_process *p, pid_t pid, int how)
{
	char err[256];
	int ret;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->fd = -1;
	if (shm_map_attach_fd(&p->map, pid, &p->fd, err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	p->area = shm_ctl_area(&p->map, err, sizeof(err));
	if (!p->area) {
		cli_error("%s", err);
		ctl_detach(p);
		return -1;
	}
	ret = ust__ctl_lock(p->fd, how);
	if (ret) {
		cli_error("process %d: cannot lock its trace memory: %s",
			  (int)pid, strerror(-ret));
		ctl_detach(p);
		return -1;
	}
	return 0;
}

void ctl_detach(struct ctl_process *p)
{
	if (p->fd >= 0) {
		ust__ctl_unlock(p->fd);
		close(p->fd);
	}
	p->fd = -1;
	shm_map_close(&p->map);
}

bool ctl_event(const struct ctl_process *p, uint32_t i,
	       struct ust_ctl_event *ev)
{
	char *c;

	if (i >= ust__ctl_nr_events(p->area))
		return false;
	memcpy(ev, &p->area->events[i], sizeof(*ev));
	ev->name[sizeof(ev->name) - 1] = '\0';
	/* Nothing a terminal would act on reaches the output. */
	for (c = ev->name; *c; c++) {
		if (*c < ' ' || *c >= 0x7f)
			*c = '?';
	}
	return (ev->flags & UST_CTL_EV_LIVE) && ev->id == i && ev->name[0];
}

bool ctl_event_on(const struct ust_ctl_event *ev, bool stopped)
{
	return !stopped && (ev->flags & UST_CTL_EV_WANTED) &&
	       (ev->flags & UST_CTL_EV_DESCRIBED);
}

void ctl_print_help(FILE *out, const char *prog,
		    const struct poptOption *options, const char *usage,
		    const char *text)
{
	const char *argv[] = { prog, NULL };
	poptContext ctx = poptGetContext(prog, 1, argv, options, 0);

	poptSetOtherOptionHelp(ctx, usage);
	poptPrintHelp(ctx, out, 0);
	poptFreeContext(ctx);
	fputs(text, out);
}
