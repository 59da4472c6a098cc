/*
 * plugin.c - a library calls.c loads with dlopen() and unloads with
 * dlclose(): it is described by lttng_ust_dl events, not the statedump.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "callee.h"

int plugin_work(int x)
{
	return x ^ 0x5a;
}
