#!/bin/sh
# Two CPUs in discard mode, a few packets each; compact and extended
# headers, 27-bit wraps, a string payload: every record comes back from
# babeltrace2 exactly, and the trace directory is what doc/consumer.md says.
. "$srcdir/lib.sh"

run_fake -s basic -o "$WORK/out" -k "$CLOCK" -n 3000
[ "$STATUS" = 0 ] || fail "consumer exited $STATUS: $(cat "$WORK/err")"
no_consumer_errors
t=$(trace_dir)
case "$(basename "$t")" in
fakeapp-$CHILD-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]) ;;
*) fail "trace directory name $(basename "$t")" ;;
esac
[ "$(stat -c %a "$t")" = 700 ] || fail "trace directory mode $(stat -c %a "$t")"
$CHECK "$t" "$WORK/expect" --all --files "ust_0 ust_1" || exit 1

expect_summary dir "$t"
expect_summary events 3000
expect_summary lost 0
expect_summary packets_dropped 0
expect_summary packets_unwritten 0
packets=$(summary packets)
[ "$packets" -ge 8 ] || fail "only $packets packets: no switches tested"
bytes=$(du -b --apparent-size -c "$t"/metadata "$t"/ust_* | tail -n 1 | cut -f 1)
expect_summary bytes "$bytes"
! grep -q '^error=' "$WORK/sum/$CHILD.summary" || fail "summary has an error"

m="$t/metadata"
grep -q '^/\* CTF 1.8 \*/' "$m" || fail "no CTF signature"
grep -q 'tracer_name = "lttng-ust";' "$m" || fail "no tracer name"
grep -q 'procname = "fakeapp";' "$m" || fail "no procname"
grep -q "vpid = $CHILD;" "$m" || fail "no vpid"
grep -q 'uuid = "c3d2f6a4-93b1-4b5e-8d3f-0123456789ab";' "$m" || fail "no clock uuid"
grep -q 'offset_s = 1700000000;' "$m" || fail "session clock not used"
grep -q 'loglevel = 13;' "$m" || fail "no loglevel"
[ "$(grep -c 'loglevel' "$m")" = 1 ] || fail "loglevel -1 written"

# The exact wall time of the first record of cpu 0 (TS0 + 1000 ticks).
first=$(babeltrace2 --clock-gmt --clock-seconds "$t" | head -n 1)
case "$first" in
"[1700000001.000001000]"*"test:ev"*"cpu_id = 0"*"vtid = 1000"*"v = 0 }"*) ;;
*) fail "first event: $first" ;;
esac
echo "ok"
