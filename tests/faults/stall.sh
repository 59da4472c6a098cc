#!/bin/sh
# Blocking mode with a consumer that was SIGKILLed: the program waits
# for it 2 s once (the documented bound), not once per CPU, and a
# buffer that still had room on another CPU does not start the wait
# again.  Two writers pinned to CPUs 0 and 1, 4 KiB x 2 buffers:
#   b1: the writer on CPU 0 fills its buffer and waits: 2 s, then
#       its records are refused at once;
#   b2: both write: CPU 1's buffer fills, and neither waits again.
. "$top_srcdir/tests/faults/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
UST_TRACE='*' UST_MODE=block UST_SUBBUF_SIZE=4096 UST_SUBBUF_COUNT=2 \
	UST_OUTPUT="$WORK/t" timeout 120 "$APP" -t 2 -P -n 1000 -g "$WORK/go" -b 20000 \
	>"$WORK/out" 2>"$WORK/err" &
app=$!
wait_for_line "$WORK/out" ready
pid=$(field pid "$WORK/out")
cpid=$(consumer_of "$pid") || fail "no consumer for process $pid"
kill -KILL "$cpid"
touch "$WORK/go"
wait $app || fail "faultapp exit status $?: $(cat "$WORK/err")"
b1=$(field b1_ms "$WORK/out")
b2=$(field b2_ms "$WORK/out")
echo "b1 ${b1} ms, b2 ${b2} ms"
[ "$(field attempted "$WORK/out")" = 62000 ] || fail "attempted: $(cat "$WORK/out")"
# 2 s of real time, not counted sleeps (they took 7-10 s)
[ "$b1" -ge 1950 ] && [ "$b1" -le 3000 ] || fail "b1: the stalled write took $b1 ms, not 2 s"
# the stall holds for the whole channel until the consumer moves
[ "$b2" -le 500 ] || fail "b2: $b2 ms: a switch on CPU 1 restarted the wait"
echo ok
