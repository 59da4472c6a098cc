#!/bin/sh
# Functions in 4 threads and in a shared library (libcallee.so) resolve,
# with exact counts and every thread's entries and exits paired.
. "$top_srcdir/tests/functions/lib.sh"

count_calls "$CALLS" threads 4 2500
expect "$WORK/funcs" "callee_work 10000 10000"
expect "$WORK/funcs" "thread_main 4 4"
expect "$WORK/funcs" "run_threads 1 1"
expect "$WORK/funcs" "total entries=10006 exits=10006 unmatched=0 threads=5"
[ "$(babeltrace2 "$dir" | grep -c " ust_cyg_profile:func_entry: ")" = 10006 ] ||
	fail "babeltrace2 entries"
