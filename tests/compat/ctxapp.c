/*
 * ctxapp.c - the traced program of the LTTng-compatibility tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   ctxapp contexts   main records ctxapp:hit n=1 and n=2, then a thread
 *                     named "worker-one" records n=10, renames itself
 *                     "worker-two" and records n=11
 *   ctxapp tracef     ust_tracef() and ust_tracelog() messages (tracef.sh)
 *   ctxapp loop N     N ctxapp:hit, then exit
 *
 * It prints what the tests compare the trace with:
 *   pid=PID
 *   base=ADDR                       where the program is loaded
 *   file=PATH                       its source, as __FILE__ names it
 *   thread NAME tid=TID pthread_id=ID
 * The lines of the call sites are marked "call site: NAME" in comments.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <ust/tracef.h>

#include "ctxapp_tp.h"

static void print_thread(const char *name)
{
	printf("thread %s tid=%ld pthread_id=%lu\n", name,
	       (long)syscall(SYS_gettid), (unsigned long)pthread_self());
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "worker-one");
	print_thread("worker");
	trace_ctxapp_hit(10);	/* call site: worker */
	pthread_setname_np(pthread_self(), "worker-two");
	trace_ctxapp_hit(11);	/* call site: renamed */
	return NULL;
}

static int contexts(void)
{
	pthread_t t;

	print_thread("main");
	trace_ctxapp_hit(1);	/* call site: main-1 */
	trace_ctxapp_hit(2);	/* call site: main-2 */
	fflush(stdout);
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	return pthread_join(t, NULL) ? 1 : 0;
}

static void vlog(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ust_vtracef(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	ust_vtracelog(level, fmt, ap);	/* call site: vtracelog */
	va_end(ap);
}

static int tracef(void)
{
	/* 1023 'a', then "é" (2 bytes) across the 1024-byte cut. */
	char long_msg[1100];
	int level;

	memset(long_msg, 'a', 1023);
	strcpy(long_msg + 1023, "\xc3\xa9tail");
	ust_tracef("hello %d %s", 42, "world");	/* call site: tracef */
	ust_tracef("no arguments");
	ust_tracef("%s", "");
	ust_tracef("%s", long_msg);
	ust_tracef("%s", "caf\xc3\xa9");
	for (level = UST_LOGLEVEL_EMERG; level <= UST_LOGLEVEL_MAX; level++)
		ust_tracelog(level, "level %d is %s", level, ust_loglevel_name(level)); /* call site: tracelog */
	ust_tracelog(-1, "below the levels");
	ust_tracelog(UST_LOGLEVEL_MAX + 1, "above the levels");
	vlog(UST_LOGLEVEL_INFO, "v %s %d", "args", 7);
	return 0;
}

int main(int argc, char **argv)
{
	Dl_info info;

	if (argc < 2) {
		fprintf(stderr, "usage: ctxapp contexts|tracef|loop N\n");
		return 2;
	}
	if (!dladdr((void *)main, &info))
		return 1;
	printf("pid=%d\nbase=%p\nfile=%s\n", (int)getpid(), info.dli_fbase,
	       __FILE__);
	if (!strcmp(argv[1], "contexts"))
		return contexts();
	if (!strcmp(argv[1], "tracef"))
		return tracef();
	if (!strcmp(argv[1], "loop") && argc == 3) {
		unsigned long i, n = strtoul(argv[2], NULL, 10);

		for (i = 0; i < n; i++)
			trace_ctxapp_hit((uint32_t)i);
		return 0;
	}
	fprintf(stderr, "ctxapp: unknown mode '%s'\n", argv[1]);
	return 2;
}
