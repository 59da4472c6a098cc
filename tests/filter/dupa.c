/*
 * dupa.c - libdupa: emits its dup:ev (field x), for samename.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dupa/dup_tp.h"

void dupa_emit(int i);

void dupa_emit(int i)
{
	trace_dup_ev(i);
}
