/*
 * statedump-app.c - a program that uses the statedump API of <ust/ust.h>
 * itself, as a JIT or a sampling profiler would (libust-cyg-profile.so
 * is not loaded): it loads FIRST.so with dlopen() and calls
 * ust_statedump_dl_sync() before ust_statedump_enable() (which must
 * record nothing), then enables the statedump, loads SECOND.so and
 * unloads it, each time followed by ust_statedump_dl_sync().
 *
 * Usage: statedump-app [--no-enable] FIRST.so SECOND.so
 * --no-enable: never call ust_statedump_enable().
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ust/ust.h>

/* dlopen(path, RTLD_NOW), then tell libust as the API asks. */
static void *load(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);

	if (!h) {
		fprintf(stderr, "statedump-app: %s\n", dlerror());
		exit(1);
	}
	ust_statedump_dl_sync(RTLD_NOW);
	return h;
}

int main(int argc, char **argv)
{
	int enable = !(argc > 1 && !strcmp(argv[1], "--no-enable"));
	void *second;

	if (argc != 3 + !enable) {
		fprintf(stderr, "usage: statedump-app [--no-enable] FIRST.so SECOND.so\n");
		return 2;
	}
	load(argv[argc - 2]);
	if (enable)
		ust_statedump_enable();
	second = load(argv[argc - 1]);
	dlclose(second);
	ust_statedump_dl_sync(0);
	printf("tracing=%d\n", ust_tracing_active());
	return 0;
}
