/*
 * untraced.c - tell `ust record` that this process is not traced.
 *
 * SPDX-License-Identifier: LGPL-2.1-only
 *
 * A consumer's summary (consumer/summary.c, keys in abi/consumerd.h) is
 * what `ust record` reads to learn what became of each traced process.
 * When libust cannot trace at all (no buffers, no consumer), no
 * consumer will ever write one, so libust writes the summary itself:
 * under a hidden name first, renamed complete to
 * `<pid>-untraced.summary` (a name no consumer uses), so that a reader
 * never sees half of it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "abi/consumerd.h"
#include "untraced.h"

static int write_all(int fd, const char *text, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, text, len);
		if (n <= 0)
			return -1;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

void ust__untraced_report(const char *summary_dir, const char *why)
{
	char text[512], tmp[64], final[64];
	int dfd, fd, len, pid = (int)getpid();

	if (!summary_dir || !*summary_dir)
		return;
	len = snprintf(text, sizeof(text),
		       UST_SUMMARY_KEY_PID "=%d\n" UST_SUMMARY_KEY_DIR "=\n"
		       UST_SUMMARY_KEY_ERROR "=%s\n" UST_SUMMARY_KEY_END "=1\n",
		       pid, why);
	if (len < 0 || (size_t)len >= sizeof(text))
		return;
	/* The directory is ust record's own (0700): no link is followed in it. */
	dfd = open(summary_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return;
	snprintf(tmp, sizeof(tmp), ".%d-untraced.tmp", pid);
	snprintf(final, sizeof(final), "%d-untraced" UST_SUMMARY_SUFFIX, pid);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd >= 0) {
		if (write_all(fd, text, (size_t)len) || close(fd) ||
		    renameat(dfd, tmp, dfd, final))
			unlinkat(dfd, tmp, 0);
	}
	close(dfd);
}
