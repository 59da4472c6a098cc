/*
 * procmaps.c - opening /proc/PID/maps (procmaps.h).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "procmaps.h"

FILE *cli_maps_open(pid_t pid)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		cli_error("%s: %s", path, strerror(errno));
	return f;
}
