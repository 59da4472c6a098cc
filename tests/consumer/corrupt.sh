#!/bin/sh
# A packet with a bad magic and one with an unknown event id are skipped
# and reported; a malformed metadata entry is skipped and reported; the
# rest of the trace reads cleanly in babeltrace2.
. "$srcdir/lib.sh"

run_fake -s corrupt -o "$WORK/out" -k "$CLOCK" -n 4000
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
grep -q '^ust-consumerd: ust_0: corrupt packet 2 skipped: bad magic 0xdeadbeef$' "$WORK/err" ||
	fail "bad magic not reported: $(cat "$WORK/err")"
grep -q '^ust-consumerd: ust_1: corrupt packet 4 skipped: ' "$WORK/err" ||
	fail "bad record not reported: $(cat "$WORK/err")"
grep -q "^ust-consumerd: metadata log entry at [0-9]* skipped: 'test:bad': bad payload layout" "$WORK/err" ||
	fail "bad metadata entry not reported: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/err")" = 3 ] || fail "unexpected messages: $(cat "$WORK/err")"
t=$(trace_dir)
$CHECK "$t" "$WORK/expect" --all --absent 0:2 --absent 1:4 \
	--allow '^WARNING: Tracer discarded 1 packet between' || exit 1
! grep -q test:bad "$t/metadata" || fail "bad event class in the metadata"
expect_summary packets_dropped 2
echo "ok"
