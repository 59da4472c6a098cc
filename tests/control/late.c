/*
 * late.c - libctllate: the "late" facility, loaded by ctlapp with
 * dlopen() after `ust ctl` changed the process's state, and linked by
 * ctllinked for `ust list PROGRAM`.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdint.h>

#include "late_tp.h"

void late_emit(uint32_t phase, uint32_t n);

/* `n` late:b events of phase `phase`, numbered from 0. */
void late_emit(uint32_t phase, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		trace_late_b(phase, i);
}
