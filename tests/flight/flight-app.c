/*
 * flight-app.c - the traced workload of the flight-recorder tests.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 *   flight-app [-n EVENTS] [-t SEQ] [-s SEQ] [-f] [-r FILE]
 *
 * Records flight:tick {seq} for seq = 0, 1, ... (every 64th event is a
 * flight:note {seq, text} instead).
 *   -n  how many events (default 1000); with -f, run forever
 *   -t  right after event SEQ, call ust_trigger("at-SEQ") and print its
 *       return value as "trigger=R"
 *   -s  right after event SEQ, die by SIGSEGV (a store into a PROT_NONE page)
 *   -r  FILE: once SEQ 1000 is recorded, create FILE (the test may then
 *       take a snapshot from outside)
 * At exit it prints "recorded=N".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include <ust/ust.h>

#include "flight_tp.h"

static void record(uint64_t seq)
{
	if (seq % 64 == 63)
		trace_flight_note(seq, "every 64th event");
	else
		trace_flight_tick(seq);
}

/*
 * A real crash: a store into a page mapped without access (not through
 * NULL, which UBSan reports before the fault).  The default disposition
 * is set first only because a sanitizer (the ASan lane) installs its own
 * SIGSEGV handler, which would turn the crash into a report and an abort.
 */
static void crash(void)
{
	volatile int *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGSEGV, &sa, NULL);
	if (page != MAP_FAILED)
		*page = 1;
	abort();	/* not reached */
}

static void ready(const char *file)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	uint64_t n = 1000, seq, trigger_at = UINT64_MAX, crash_at = UINT64_MAX;
	struct timespec pause = { 0, 50000 };
	const char *ready_file = NULL;
	int opt, forever = 0;

	while ((opt = getopt(argc, argv, "n:t:s:fr:N:")) != -1) {
		switch (opt) {
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 't': trigger_at = strtoull(optarg, NULL, 10); break;
		case 's': crash_at = strtoull(optarg, NULL, 10); break;
		case 'f': forever = 1; break;
		case 'r': ready_file = optarg; break;
		case 'N': pthread_setname_np(pthread_self(), optarg); break;
		default:
			fprintf(stderr, "usage: flight-app [-n EVENTS] [-t SEQ] [-s SEQ] [-f] [-r FILE] [-N THREAD_NAME]\n");
			return 2;
		}
	}
	for (seq = 0; forever || seq < n; seq++) {
		record(seq);
		if (seq == trigger_at) {
			char reason[32];

			snprintf(reason, sizeof(reason), "at-%" PRIu64, seq);
			printf("trigger=%d\n", ust_trigger(reason));
			fflush(stdout);
		}
		if (seq == crash_at)
			crash();
		if (ready_file && seq == 1000)
			ready(ready_file);
		if (forever && seq % 64 == 0)
			nanosleep(&pause, NULL);	/* about 1M events/s at most */
	}
	printf("recorded=%" PRIu64 "\n", seq);
	return 0;
}
