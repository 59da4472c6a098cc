#!/bin/sh
# Functions in 4 threads and in a shared library (libcallee.so) resolve,
# with exact counts and every thread's entries and exits paired.
. "$top_srcdir/tests/functions/lib.sh"

count_calls "$CALLS" threads 4 2500
expect "$WORK/funcs" "callee_work 10000 10000"
expect "$WORK/funcs" "thread_main 4 4"
expect "$WORK/funcs" "run_threads 1 1"
expect "$WORK/funcs" "total entries=10006 exits=10006 unmatched=0 threads=5"
# The library's functions are far from the program: ust_func:entry_addr.
babeltrace2 "$dir" >"$WORK/bt2" || fail "babeltrace2 failed"
[ "$(grep -c " ust_func:entry: " "$WORK/bt2")" = 6 ] || fail "babeltrace2 entries"
[ "$(grep -c " ust_func:entry_addr: " "$WORK/bt2")" = 10000 ] ||
	fail "babeltrace2 entries into libcallee.so"
