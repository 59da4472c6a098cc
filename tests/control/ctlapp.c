/*
 * ctlapp.c - the program of the live-control tests, driven by the test
 * on its standard input, one command a line, each answered "ok" once
 * done on the file named by its argument (a FIFO), which first gets
 * "pid PID":
 *	emit PHASE N	N app:a and N app:b events (and N late:b once the
 *			library is loaded), fields {PHASE, 0..N-1}
 *	load PATH	dlopen() the late provider library
 *	unload		dlclose() it
 *	fork PHASE N	emit PHASE N in a child process, and wait for it
 * It exits at end of input.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app_tp.h"

typedef void late_emit_fn(uint32_t phase, uint32_t n);

static late_emit_fn *late_emit;
static void *late_handle;

static void emit(uint32_t phase, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		trace_app_a(phase, i);
		trace_app_b(phase, i);
	}
	if (late_emit)
		late_emit(phase, n);
}

static int load(const char *path)
{
	late_handle = dlopen(path, RTLD_NOW);
	if (!late_handle) {
		fprintf(stderr, "ctlapp: %s\n", dlerror());
		return -1;
	}
	late_emit = (late_emit_fn *)dlsym(late_handle, "late_emit");
	return late_emit ? 0 : -1;
}

static int unload(void)
{
	late_emit = NULL;
	if (!late_handle || dlclose(late_handle))
		return -1;
	late_handle = NULL;
	return 0;
}

/* The child traces into a session of its own (doc/control.md). */
static int emit_in_child(uint32_t phase, uint32_t n)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		emit(phase, n);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	char line[4096], path[4000];
	unsigned int phase, n;
	FILE *answers;

	if (argc != 2 || !(answers = fopen(argv[1], "w")))
		return 2;
	setvbuf(answers, NULL, _IOLBF, 0);
	fprintf(answers, "pid %d\n", (int)getpid());
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "emit %u %u", &phase, &n) == 2)
			emit(phase, n);
		else if (sscanf(line, "fork %u %u", &phase, &n) == 2) {
			if (emit_in_child(phase, n))
				return 1;
		} else if (!strcmp(line, "unload\n") ? unload() :
			 sscanf(line, "load %3999s", path) != 1 || load(path))
			return 1;
		fputs("ok\n", answers);
	}
	return fclose(answers) ? 1 : 0;
}
