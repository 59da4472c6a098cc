#!/bin/sh
# sched_switch shows the traced program switching out and back in, with
# its thread id; the statedump and fork events know its process.
. "$top_srcdir/tests/kernel/lib.sh"

record_kernel 20 --kernel
$CHECK "$WORK/t" --sched "$TID"
