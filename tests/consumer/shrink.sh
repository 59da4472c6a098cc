#!/bin/sh
# The traced program shrinks its shared memory under the consumer.  A
# sealable memfd: the consumer sealed its size, so the program cannot.
# An unsealable one: the consumer's next read faults; it stops reading,
# keeps what it wrote (a readable trace), and says why.
. "$srcdir/lib.sh"

run_fake -s shrink -o "$WORK/out" -k "$CLOCK" -n 2000
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
grep -q '^shrink=Operation not permitted$' "$WORK/run" ||
	fail "the size was not sealed: $(cat "$WORK/run")"
no_consumer_errors
$CHECK "$(trace_dir)" "$WORK/expect" --all || exit 1

rm -rf "$WORK/out" && mkdir "$WORK/out"
run_fake -s shrink -o "$WORK/out" -k "$CLOCK" -n 2000 -N
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
grep -q '^shrink=done$' "$WORK/run" || fail "could not shrink: $(cat "$WORK/run")"
grep -q '^ust-consumerd: shared memory became unreadable; trace ends here$' "$WORK/err" ||
	fail "message: $(cat "$WORK/err")"
grep -q '^error=shared memory became unreadable$' "$WORK/sum/$CHILD.summary" ||
	fail "summary: $(cat "$WORK/sum/$CHILD.summary")"
# Every packet closed before the shrink is there; the open ones are not.
$CHECK "$(trace_dir)" "$WORK/expect" --prefix || exit 1
echo "ok"
