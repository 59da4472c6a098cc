/*
 * ctlpoke.c - corrupt the runtime control area of a running traced
 * process, as a buggy or hostile process could, for hostile.sh:
 *	ctlpoke PID shift INDEX DELTA	move entry INDEX's enabled address
 *	ctlpoke PID addr INDEX ADDR	set it (hex)
 *	ctlpoke PID nr_events N		set the entry count
 *	ctlpoke PID ctl_offset N	move the area (in the header)
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/shm-ctl.h"
#include "shm/map.h"

int main(int argc, char **argv)
{
	struct ust_shm_header *h;
	struct ust_ctl_area *a;
	struct shm_map m;
	char err[256];

	if (argc < 4 || shm_map_attach(&m, atoi(argv[1]), err, sizeof(err))) {
		fprintf(stderr, "ctlpoke: %s\n", argc < 4 ? "usage" : err);
		return 2;
	}
	h = (struct ust_shm_header *)m.base;
	a = shm_ctl_area(&m, err, sizeof(err));
	if (!a)
		return 2;
	if (!strcmp(argv[2], "shift") && argc == 5)
		a->events[atoi(argv[3])].enabled_addr += strtoll(argv[4], NULL, 0);
	else if (!strcmp(argv[2], "addr") && argc == 5)
		a->events[atoi(argv[3])].enabled_addr = strtoull(argv[4], NULL, 16);
	else if (!strcmp(argv[2], "nr_events"))
		a->nr_events = (uint32_t)strtoul(argv[3], NULL, 0);
	else if (!strcmp(argv[2], "ctl_offset"))
		h->ctl_offset = strtoull(argv[3], NULL, 0);
	else
		return 2;
	shm_map_close(&m);
	return 0;
}
