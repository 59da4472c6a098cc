#!/bin/sh
# tsan.sh - lane 2: the test suite of a tree built with --enable-tsan
# (-fsanitize=thread).  See doc/reliability.md for what ThreadSanitizer
# can and cannot see in ust (the rseq commit, the cross-process memory).
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Every folder of tests/Makefile.am's SUBDIRS runs (run_suite; none in
# SKIP_DIRS): tests/unit (the ring buffer, incl. 4 writer threads and a
# signal handler), tests/consumer (check_packet, check_clock,
# check_consumer and the consumer scripts) and tests/threads (per-thread
# buffers, 1000 threads) are the point; the others come cheap.
# (tests/threads/valgrind.sh skips itself here: valgrind cannot run a
# TSan program.)  The first report fails the
# process (exit 66) and every report is also written to $logs, which must
# stay empty.  Suppressions: tsan.supp (each entry justified there).
. "$(dirname "$0")/lib.sh"

tree=$abs_builddir/tsan-build
logs=$abs_builddir/tsan-logs
srcdir=$(cd "$(dirname "$0")" && pwd)
sanitized_tree "$tree" --enable-tsan

# Tests turned off in this lane.  A test may be turned off only for a
# finding reported in doc/reliability.md, with SKIP_<dir>="test" and a
# comment naming the finding; remove the entry with the fix.

# TSan opens its log file as each process starts, and some tests run
# programs as other users (nobody, the security tests' users, in a
# private /tmp): the reports and the suppressions go to a folder of
# /var/tmp any user can reach (reports: write-only, sticky), then to
# $logs.  A build tree in a private (0700) folder works so.
rm -rf "$logs" && mkdir -p "$logs"
shared=$(mktemp -d /var/tmp/ust-tsan.XXXXXX) || fail "cannot make a folder in /var/tmp"
on_exit "rm -rf $(shell_quote "$shared")"
chmod 0755 "$shared" && mkdir -m 1733 "$shared/reports" &&
	cp "$srcdir/tsan.supp" "$shared/tsan.supp" && chmod 0644 "$shared/tsan.supp" ||
	fail "cannot fill $shared"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$shared/tsan.supp log_path=$shared/reports/tsan"
export TSAN_OPTIONS

status=0
run_suite "$tree" || status=$?
find "$shared/reports" -type f -exec mv {} "$logs/" \;
no_reports "$logs"
[ "$status" = 0 ] || fail "tests failed (see $tree/tests/*/test-suite.log)"
say "$TOTAL tests passed, no report"
done_ok
