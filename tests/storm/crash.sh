#!/bin/sh
# Crash storm: STORM_RUNS runs, each SIGKILLing a program whose 4 threads
# trace, at a random moment (seeded).  The program stores, after each
# trace call returns, each thread's count of returned calls in a shared
# file mapping, which survives the kill.  Then (storm_check.py crash):
# every returned event is on disk or counted discarded, at most one event
# per thread beyond (the call in flight), ust record's figures are what
# babeltrace2 sees, and babeltrace2 warns of nothing but discards.
#   - 2 runs in 3 are paced (4 x 100 000 events/s, 16 MiB per CPU):
#     nothing may be discarded, so every returned event is on disk;
#   - 1 in 3 runs at full speed with 8 x 64 KiB per CPU, drained only
#     every 2 s (and at the end), so the kill lands inside trace calls,
#     nearly everything is discarded and counted, and the trace stays
#     small enough to check fast.
. "$top_srcdir/tests/storm/lib.sh"

echo "crash storm: $STORM_RUNS runs, STORM_SEED=$STORM_SEED"
total_returned=0 total_disk=0 total_discarded=0
i=0
while [ $i -lt "$STORM_RUNS" ]; do
	i=$((i + 1))
	start_crash_run $i
	sleep_ms "$delay_ms"
	kill -KILL "$pid"
	wait_killed $i
	check_crash_run $i "kill after ${delay_ms} ms"
done
echo "crash storm: $STORM_RUNS runs, $total_returned events returned, $total_disk on disk, $total_discarded discarded, 0 lost uncounted"
