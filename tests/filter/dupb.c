/*
 * dupb.c - libdupb: emits its dup:ev (fields y, s), for samename.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dupb/dup_tp.h"

void dupb_emit(int i);

void dupb_emit(int i)
{
	trace_dup_ev(10 * i, "b");
}
