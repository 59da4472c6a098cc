/*
 * so-preload.c - a provider in a shared object that a program does not
 * link but gets preloaded (LD_PRELOAD), the way a libc wrapper is: it
 * interposes getppid() and records a "compound" event for each call,
 * then returns the real value.  so-providers.sh preloads it into
 * so-target.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

#include "compound_tp.h"

pid_t getppid(void)
{
	static unsigned int calls;
	pid_t (*real)(void) = (pid_t (*)(void))dlsym(RTLD_NEXT, "getppid");
	union compound_tagged_value v;

	v.TEXT = "getppid";
	trace_compound_tagged(++calls, COMPOUND_KIND_TEXT, &v, 0);
	return real ? real() : -1;
}
