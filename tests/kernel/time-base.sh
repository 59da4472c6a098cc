#!/bin/sh
# Shared time base: each getppid() between two user events is seen by
# the kernel trace, on the same thread, between those two events (at
# least 48 of 50).
. "$top_srcdir/tests/kernel/lib.sh"

record_kernel 50 --kernel
$CHECK "$WORK/t" --between 50 48
