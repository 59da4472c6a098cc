#!/bin/sh
# Blocking mode with a consumer that was SIGKILLed: the program waits
# for it 2 s once (the documented bound), not once per CPU, and a
# buffer that still had room on another CPU does not start the wait
# again.  Two writers pinned to CPUs 0 and 1, 4 KiB x 2 buffers:
#   b1: the writer on CPU 0 fills its buffer and waits: 2 s, then
#       its records are refused at once;
#   b2: both write: CPU 1's buffer fills, and neither waits again.
# With per-CPU buffers, then per-thread buffers.
. "$top_srcdir/tests/faults/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
# The same with per-thread buffers (wake.c keeps one deadline per
# channel for both kinds): a thread's own buffer filling is b2's case.
# Each pass has its own output files: the shell truncates a redirection
# in the background child, after wait_for_line may already have found
# the previous pass's "ready" in a shared file.
for buffers in per-cpu per-thread; do
	UST_TRACE='*' UST_MODE=block UST_SUBBUF_SIZE=4096 UST_SUBBUF_COUNT=2 UST_BUFFERS=$buffers \
		UST_OUTPUT="$WORK/t-$buffers" timeout 120 "$APP" -t 2 -P -n 1000 -g "$WORK/go-$buffers" -b 20000 \
		>"$WORK/out-$buffers" 2>"$WORK/err-$buffers" &
	app=$!
	wait_for_line "$WORK/out-$buffers" ready
	pid=$(field pid "$WORK/out-$buffers")
	cpid=$(consumer_of "$pid") || fail "$buffers: no consumer for process $pid"
	kill -KILL "$cpid"
	touch "$WORK/go-$buffers"
	wait $app || fail "$buffers: faultapp exit status $?: $(cat "$WORK/err-$buffers")"
	b1=$(field b1_ms "$WORK/out-$buffers")
	b2=$(field b2_ms "$WORK/out-$buffers")
	echo "$buffers: b1 ${b1} ms, b2 ${b2} ms"
	[ "$(field attempted "$WORK/out-$buffers")" = 62000 ] || fail "$buffers: attempted: $(cat "$WORK/out-$buffers")"
	# 2 s of real time, not counted sleeps (they took 7-10 s)
	[ "$b1" -ge 1950 ] && [ "$b1" -le 3000 ] ||
		fail "$buffers: b1: the stalled write took $b1 ms, not 2 s"
	# the stall holds for the whole channel until the consumer moves
	[ "$b2" -le 500 ] || fail "$buffers: b2: $b2 ms: a switch on CPU 1 restarted the wait"
	want=ust_0
	[ $buffers = per-thread ] && want=ust_tid
	ls "$WORK/t-$buffers"/*/ | grep -q "^$want" ||
		fail "$buffers: no $want stream: $(ls "$WORK/t-$buffers"/*/)"
done
echo ok
