#!/bin/sh
# A flight recorder with --trigger whose consumer is SIGKILLed after the
# trigger fired: the consumer that goes on with the trace (--resume)
# looks at the same flight buffers, where the match still is, and must
# not take the same snapshot again.  It takes the last snapshot
# request's cut as the last time the trigger fired (consumer/resume.c).
# Before, it fired again at its first look: two snapshots of one match.
. "$top_srcdir/tests/faults/lib.sh"

"$UST" record -o "$WORK/t" --flight-recorder --subbuf-size 64k --subbuf-count 8 \
	--trigger 'fault:tick if seq == 100' -- \
	"$APP" -n 1000 -g "$WORK/go" >"$WORK/out" 2>"$WORK/err" &
rec=$!
wait_for_line "$WORK/out" ready
pid=$(field pid "$WORK/out")
snapshot_written() { grep -q '^ust-consumerd: snapshot .*-snapshot-1-fault_tick: ' "$WORK/err"; }
wait_for 20 "the trigger did not fire: $(cat "$WORK/err")" snapshot_written
sleep 0.2	# the request is done with (IDLE) right after the message
cpid=$(consumer_of "$pid") || fail "no consumer for process $pid"
kill -KILL "$cpid"
touch "$WORK/go"
status=0
wait $rec || status=$?
cat "$WORK/err"
[ $status = 0 ] || fail "ust record: exit status $status"
grep -q "^ust record:     consumer $cpid killed by SIGKILL; consumer [0-9]* went on with the trace\$" \
	"$WORK/err" || fail "the death is not said"
grep -q "^ust-consumerd: resumed $WORK/t/faultapp-$pid-" "$WORK/err" || fail "not resumed"
snaps=$(ls -d "$WORK"/t/*-snapshot-* 2>/dev/null || true)
[ "$(echo "$snaps" | grep -c .)" = 1 ] || fail "snapshots: $snaps"
"$UST" view "$snaps" | tail -n 1 | grep -q 'fault:tick: .*seq = 100 }' ||
	fail "the snapshot does not end at the match: $("$UST" view "$snaps" | tail -n 1)"
echo "ok: one snapshot of the match, after the consumer's death too"
