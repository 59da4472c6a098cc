#!/bin/sh
# asan.sh - lane 1: the whole `make check` of a tree built with
# --enable-asan (-fsanitize=address,undefined).  See doc/reliability.md.
#
# SPDX-License-Identifier: GPL-2.0-only
#
# Every process of the test suite (test programs, tpgen, ust, the traced
# programs and the ust-consumerd they spawn) is built with the sanitizers
# and inherits the options below: the first report aborts the process,
# and every report is also written to $logs, which must stay empty.
# Leak detection is on everywhere; no process of the suite is exempt.
. "$(dirname "$0")/lib.sh"

tree=$abs_builddir/asan-build
logs=$abs_builddir/asan-logs
sanitized_tree "$tree" --enable-asan
make -s -C "$tree" -j"$JOBS" check TESTS= >>"$tree/build.log" 2>&1 ||
	fail "building the test programs failed: $tree/build.log"

# ASan must be the first library of every program, or it refuses to run
# (or, with verify_asan_link_order=0, misses allocations): check each
# ELF executable of the tree names libasan as its first NEEDED entry.
# (Nothing is LD_PRELOADed by the suite today; a preloaded library would
# have to come after libasan, e.g. LD_PRELOAD="$(gcc
# -print-file-name=libasan.so) lib.so".)
nexe=0
for f in $(find "$tree" -type f -perm -u+x ! -name '*.so*' ! -name '*.la' \
	   ! -name config.status ! -name libtool ! -path '*/.libs/*'); do
	head -c 4 "$f" | grep -q 'ELF' || continue
	first=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | head -n 1)
	case $first in
	libasan.so*) nexe=$((nexe + 1)) ;;
	*) fail "$f: first library is '$first', not libasan" ;;
	esac
done
[ "$nexe" -ge 10 ] || fail "only $nexe sanitized executables found"
say "$nexe executables load libasan first"

# The folders run: every folder of tests/Makefile.am's SUBDIRS
# (run_suite); none is left out (SKIP_DIRS="dir", with the reason next
# to it, would).  Tests turned off in this lane: none.  A test may be
# turned off only for a finding reported in doc/reliability.md, with
# SKIP_<dir>="test" and a comment naming the finding; remove the entry
# with the fix.  (tests/threads/valgrind.sh skips itself here: valgrind
# cannot run an ASan program.)

rm -rf "$logs" && mkdir -p "$logs"
# UBSan's reports ignore log_path in GCC 12's combined ASan+UBSan runtime
# (they always go to stderr), so they are caught by halt_on_error +
# abort_on_error (the process dies with SIGABRT, and its test with it)
# and by the grep of the test logs below; ASan and LSan reports are
# also written to $logs.
ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:log_path=$logs/asan"
UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS

status=0
run_suite "$tree" || status=$?
no_reports "$logs"
if grep -l 'runtime error:\|Sanitizer' "$tree"/tests/*/*.log; then
	fail "sanitizer output in the test logs above"
fi
[ "$status" = 0 ] || fail "tests failed (see $tree/tests/*/test-suite.log)"
say "$TOTAL tests passed, no report"
done_ok
