#!/bin/sh
# Records lost on one CPU reach babeltrace2 as cumulative counts; a CPU
# that lost records but wrote none still gets a (single, empty) packet
# with its count; a CPU that did nothing gets no file.
. "$srcdir/lib.sh"

run_fake -s lost -o "$WORK/out" -k "$CLOCK"
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
t=$(trace_dir)
$CHECK "$t" "$WORK/expect" --all --files "ust_0 ust_1 ust_2" --discarded 8 \
	--allow '^WARNING: Tracer discarded [0-9]+ events between' \
	--allow '^WARNING: Tracer may have discarded events between' || exit 1
[ "$(stat -c %s "$t/ust_2")" = 84 ] || fail "ust_2 is not one empty packet"
expect_summary events 2000
expect_summary lost 11
echo "ok"
