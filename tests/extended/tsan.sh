#!/bin/sh
# tsan.sh - lane 2: the test suite of a tree built with --enable-tsan
# (-fsanitize=thread).  See doc/reliability.md for what ThreadSanitizer
# can and cannot see in ust (the rseq commit, the cross-process memory).
#
# SPDX-License-Identifier: GPL-2.0-only
#
# All test directories run: tests/unit (the ring buffer, incl. 4 writer
# threads and a signal handler) and tests/consumer (check_packet,
# check_clock, check_consumer and the consumer scripts) are the point;
# the others come cheap (~1 min in all).  The first report fails the
# process (exit 66) and every report is also written to $logs, which must
# stay empty.  Suppressions: tsan.supp (each entry justified there).
. "$(dirname "$0")/lib.sh"

tree=$abs_builddir/tsan-build
logs=$abs_builddir/tsan-logs
srcdir=$(cd "$(dirname "$0")" && pwd)
sanitized_tree "$tree" --enable-tsan

# Tests turned off in this lane: none.  A test may be turned off only
# for a finding reported in doc/reliability.md, with SKIP_<dir>="test"
# and a comment naming the finding; remove the entry with the fix.

rm -rf "$logs" && mkdir -p "$logs"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$srcdir/tsan.supp log_path=$logs/tsan"
export TSAN_OPTIONS

status=0
run_suite "$tree" || status=$?
no_reports "$logs"
[ "$status" = 0 ] || fail "tests failed (see $tree/tests/*/test-suite.log)"
say "$TOTAL tests passed, no report"
done_ok
