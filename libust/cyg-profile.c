/*
 * cyg-profile.c - libust-cyg-profile.so: function entry/exit tracing for
 * programs built with gcc/clang -finstrument-functions.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * Preload it (LD_PRELOAD, or `ust record --functions`) and every
 * instrumented function entry and exit becomes an event, in the layout
 * the recording chose (UST_FUNCTIONS; libust/functions.c writes them):
 * by default ust_func:entry {offset} (8 bytes with per-thread buffers)
 * and ust_func:exit {} (4 bytes).  The hooks hand over to libust at once
 * (ust_func_enter/exit, <ust/functions.h>), which tests the event's
 * enabled word and, with a thread's own buffer, writes and commits with
 * plain stores: no lookup, no lock, no system call, no allocation.
 * Nothing here is compiled with -finstrument-functions, and libust calls
 * no user code, so a hook can never recurse into itself (a signal
 * handler that runs instrumented code inside a hook simply records its
 * own events, into its thread's signal buffer).
 *
 * The library also turns on libust's statedump of loaded objects
 * (statedump.c) and interposes dlopen()/dlclose() so that libraries
 * loaded later are described too: addresses then resolve to symbols
 * offline (analysis/symbols.c).
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include <ust/functions.h>
#include <ust/ust.h>

#define NO_HOOK __attribute__((no_instrument_function))
#define PUBLIC __attribute__((visibility("default")))

PUBLIC NO_HOOK void __cyg_profile_func_enter(void *fn, void *call_site)
{
	ust_func_enter(fn, call_site);
}

PUBLIC NO_HOOK void __cyg_profile_func_exit(void *fn, void *call_site)
{
	ust_func_exit(fn, call_site);
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
 * The events are never unregistered: destructors of the program may run
 * instrumented code after ours, and their entries and exits must still
 * pair up.
 */
static NO_HOOK __attribute__((constructor)) void cyg_profile_init(void)
{
	find_real();
	ust_functions_start();
}
