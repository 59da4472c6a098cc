#!/bin/sh
# Without --foreground the started process exits 0 at once and a detached
# consumer does the work; without --clock it measures the clock itself.
. "$srcdir/lib.sh"

run_fake -s basic -o "$WORK/out" -d -n 1000
[ "$STATUS" = 0 ] || fail "first consumer process exited $STATUS"
[ -f "$WORK/sum/$CHILD.summary" ] || fail "detached consumer wrote no summary"
no_consumer_errors
t=$(trace_dir)
$CHECK "$t" "$WORK/expect" --all || exit 1
expect_summary events 1000
grep -q 'absolute = TRUE;' "$t/metadata" || fail "clock not absolute"
echo "ok"
