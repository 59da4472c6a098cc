#!/bin/sh
# SIGTERM while the traced process lives: drain, flush, summary, exit 0.
. "$srcdir/lib.sh"

run_fake -s sigterm -o "$WORK/out" -k "$CLOCK" -n 2000
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
t=$(trace_dir)
$CHECK "$t" "$WORK/expect" --all --files "ust_0 ust_1" || exit 1
expect_summary events 2000
echo "ok"
