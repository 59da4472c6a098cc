/*
 * callee.c - a shared library linked by calls.c: functions outside the
 * program, at an address only the statedump can tell.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "callee.h"

int callee_work(int x)
{
	return x * 3 + 1;
}
