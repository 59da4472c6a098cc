/*
 * procmaps.h - opening a process's memory map, /proc/PID/maps, which
 * `ust ctl` reads for the writable ranges (control.c) and for the loaded
 * objects whose filter fields it compiles against (elfscan.c).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UST_CLI_PROCMAPS_H
#define UST_CLI_PROCMAPS_H

#include <stdio.h>
#include <sys/types.h>

/* /proc/PID/maps for reading, or NULL after saying why (cli_error()). */
FILE *cli_maps_open(pid_t pid);

#endif /* UST_CLI_PROCMAPS_H */
