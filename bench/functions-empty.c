/*
 * functions-empty.c - empty -finstrument-functions hooks, preloaded by
 * bench/functions.sh: the floor any function tracer pays.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

__attribute__((no_instrument_function))
void __cyg_profile_func_enter(void *fn, void *site)
{
	__asm__ __volatile__("" : : "r"(fn), "r"(site));
}

__attribute__((no_instrument_function))
void __cyg_profile_func_exit(void *fn, void *site)
{
	__asm__ __volatile__("" : : "r"(fn), "r"(site));
}
