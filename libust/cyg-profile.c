/*
 * cyg-profile.c - libust-cyg-profile.so: function entry/exit tracing for
 * programs built with gcc/clang -finstrument-functions.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Preload it (LD_PRELOAD, or `ust record --functions`) and every
 * instrumented function entry and exit becomes one fixed-size event:
 *
 *	ust_cyg_profile:func_entry	{ addr, call_site }	(24-byte record)
 *	ust_cyg_profile:func_exit	{ }			(8-byte record)
 *
 * An exit closes the function its thread entered last, so it needs no
 * field: function tracing is bound by trace bandwidth, and this keeps the
 * average at 16 bytes per event (doc/functions.md).  The hook is the
 * fastest path libust has: one load of the event's `enabled` word, then
 * ust_event_write() with at most one 16-byte segment on the stack; no
 * lookup, no lock, no system call, no allocation, and
 * libust's only thread-local state is initial-exec TLS.  Nothing here is
 * compiled with -finstrument-functions, and libust calls no user code, so
 * a hook can never recurse into itself (a signal handler that runs
 * instrumented code inside a hook simply records its own events: the
 * ring buffer is signal-safe).
 *
 * The library also turns on libust's statedump of loaded objects
 * (statedump.c) and interposes dlopen()/dlclose() so that libraries
 * loaded later are described too: addresses then resolve to symbols
 * offline (analysis/symbols.c).
 */
#include <dlfcn.h>
#include <stdint.h>

#include <ust/tracepoint.h>
#include <ust/ust.h>

#include "builtin.h"

#define NO_HOOK __attribute__((no_instrument_function))
#define PUBLIC __attribute__((visibility("default")))

UST_BUILTIN_EVENT(ev_func_entry, "func_entry",
		  UST_TSDL_U64_HEX " _addr; " UST_TSDL_U64_HEX " _call_site;",
		  "F16", NULL);
UST_BUILTIN_EVENT(ev_func_exit, "func_exit", "", "", NULL);

static struct ust_event_desc *const cyg_events[] = {
	&ev_func_entry, &ev_func_exit,
};

UST_BUILTIN_PROVIDER(cyg_provider, "ust_cyg_profile",
		     "function entries and exits (-finstrument-functions)",
		     cyg_events);

PUBLIC NO_HOOK void __cyg_profile_func_enter(void *fn, void *call_site)
{
	if (UST_EVENT_ENABLED(&ev_func_entry)) {
		uint64_t p[2] = { (uintptr_t)fn, (uintptr_t)call_site };
		struct ust_seg seg = { p, sizeof(p) };

		ust_event_write(&ev_func_entry, &seg, 1, sizeof(p));
	}
}

PUBLIC NO_HOOK void __cyg_profile_func_exit(void *fn, void *call_site)
{
	if (UST_EVENT_ENABLED(&ev_func_exit))
		ust_event_write(&ev_func_exit, NULL, 0, 0);
}

/* The next definitions of dlopen and dlclose (libc's), found once. */
static void *(*real_dlopen)(const char *, int);
static int (*real_dlclose)(void *);

static NO_HOOK void find_real(void)
{
	/* Acquire: pairs with the store-release of real_dlopen below. */
	if (!__atomic_load_n(&real_dlopen, __ATOMIC_ACQUIRE)) {
		/* Release: as real_dlopen's; any thread may look them up. */
		__atomic_store_n(&real_dlclose,
				 (int (*)(void *))dlsym(RTLD_NEXT, "dlclose"),
				 __ATOMIC_RELEASE);
		/* Release: real_dlclose is set before real_dlopen says so. */
		__atomic_store_n(&real_dlopen,
				 (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen"),
				 __ATOMIC_RELEASE);
	}
}

PUBLIC NO_HOOK void *dlopen(const char *file, int flags)
{
	void *h;

	find_real();
	if (!real_dlopen)
		return NULL;
	h = real_dlopen(file, flags);
	if (h)
		ust_statedump_dl_sync(flags);
	return h;
}

PUBLIC NO_HOOK int dlclose(void *handle)
{
	int ret;

	find_real();
	if (!real_dlclose)
		return -1;
	ret = real_dlclose(handle);
	if (ret == 0)
		ust_statedump_dl_sync(0);
	return ret;
}

/*
 * The provider is never unregistered: destructors of the program may run
 * instrumented code after ours, and their entries and exits must still
 * pair up.
 */
static NO_HOOK __attribute__((constructor)) void cyg_profile_init(void)
{
	find_real();
	ust_provider_register(&cyg_provider);
	ust_statedump_enable();
}
