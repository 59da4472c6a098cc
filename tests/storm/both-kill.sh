#!/bin/sh
# Double crash storm: STORM_RUNS runs in which a 4-thread program and its
# consumer are both SIGKILLed at random moments (seeded), a few
# milliseconds apart, in either order.  `ust record` kept the memfd the
# consumer drained, so another consumer resumes the trace from the
# buffers the dead program left.  Then (storm_check.py crash, as in
# crash.sh): every event whose call returned is on disk or counted
# discarded, at most the calls in flight beyond, ust record's figures
# are what babeltrace2 sees.  Paced and full-speed runs as in crash.sh.
. "$top_srcdir/tests/storm/lib.sh"

echo "double crash storm: $STORM_RUNS runs, STORM_SEED=$STORM_SEED"
total_returned=0 total_disk=0 total_discarded=0
i=0
while [ $i -lt "$STORM_RUNS" ]; do
	i=$((i + 1))
	gap_ms=$(random $((i + 1000)) 0 20)
	start_crash_run $i
	cpid=$(consumer_of "$pid") || fail "run $i: no consumer"
	wait_begun "$run" "$cpid" || fail "run $i: consumer $cpid began no summary"
	sleep_ms "$delay_ms"
	if [ $((i % 2)) -eq 0 ]; then
		first=$cpid second=$pid order="consumer first"
	else
		first=$pid second=$cpid order="program first"
	fi
	kill -KILL "$first"
	sleep_ms "$gap_ms"
	kill -KILL "$second" 2>/dev/null || true
	wait_killed $i
	grep -q "no trace was written\|not counted" "$run.err" && fail "run $i: $(cat "$run.err")"
	check_crash_run $i "$order, after ${delay_ms} ms, ${gap_ms} ms apart"
done
echo "double crash storm: $STORM_RUNS runs, $total_returned events returned, $total_disk on disk, $total_discarded discarded, 0 lost uncounted"
