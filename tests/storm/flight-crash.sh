#!/bin/sh
# Flight-recorder crash storm: STORM_RUNS runs SIGKILLing, at a random
# moment (seeded), a 4-thread program that traces in flight-recorder mode.
# The consumer writes the SIGKILL snapshot from the dead program's
# buffers.  Then (storm_check.py flight): the trace (the state channel)
# and the snapshot are readable by babeltrace2; in the snapshot each
# thread's events are consecutive, nothing discarded, and end with the
# last call that returned (or the one in flight).  Paced runs
# (4 x 100 000 events/s) and full-speed runs, 8 x 64 KiB per CPU.
. "$top_srcdir/tests/storm/lib.sh"

echo "flight crash storm: $STORM_RUNS runs, STORM_SEED=$STORM_SEED"
total_returned=0 total_snap=0
i=0
while [ $i -lt "$STORM_RUNS" ]; do
	i=$((i + 1))
	run="$WORK/run$i"
	storm_kind $i 40 250
	rate=
	[ $kind = full ] || rate="-r 100 -s"
	"$UST" record --flight-recorder --subbuf-size 64k --subbuf-count 8 -o "$run" -- \
		"$STORM" crash -t 4 $rate -p "$run.progress" >/dev/null 2>"$run.err" &
	rec=$!
	storm_started $i $rec "$run.progress" "$run.err"
	sleep_ms "$delay_ms"
	kill -KILL "$pid"
	wait_killed $i
	$CHECK flight "$run" "$run.progress" 4 --summary "$run.err" >"$run.check" ||
		fail "run $i ($kind, kill after ${delay_ms} ms): $(cat "$run.check")"
	set -- $(sed -n 's/^returned \([0-9]*\), in the snapshot \([0-9]*\).*/\1 \2/p' "$run.check")
	echo "run $i: $kind, kill after ${delay_ms} ms: returned $1, in the snapshot $2"
	total_returned=$((total_returned + $1))
	total_snap=$((total_snap + $2))
	rm -rf "$run" "$run.progress"
done
echo "flight crash storm: $STORM_RUNS runs, $total_returned events returned, $total_snap in the SIGKILL snapshots, every tail complete"
