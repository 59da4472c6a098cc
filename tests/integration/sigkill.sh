#!/bin/sh
# SIGKILL of the traced program under 4-thread load.
#  1. At 4 x 500 000 events/s, a rate the consumer drains without loss:
#     every event whose trace call had returned is on disk, in order.
#  2. At full speed, where threads are inside trace calls most of the
#     time when the kill lands and buffers overflow: every returned event
#     is on disk or counted as discarded, and no more than the one event
#     per thread that was in flight.
# Each trace opens cleanly in babeltrace2.
. "$top_srcdir/tests/integration/lib.sh"

run_and_kill() {	# name, delay, stress options...
	name=$1 delay=$2
	shift 2
	"$UST" record -o "$WORK/$name" --subbuf-size 1M --subbuf-count 64 -- \
		"$STRESS" -t 4 -k -p "$WORK/$name.progress" "$@" \
		>/dev/null 2>"$WORK/$name.err" &
	rec=$!
	sleep "$delay"
	pid=$(pgrep -f -n "stress -t 4 -k -p $WORK/$name.progress" || true)
	[ -n "$pid" ] || fail "stress did not start: $(cat "$WORK/$name.err")"
	kill -KILL "$pid"
	status=0
	wait $rec || status=$?
	[ $status -eq 137 ] || fail "ust record exited $status, want 137"
}

for i in 1 2 3; do
	run_and_kill paced$i 0.$((2 + i)) -r 500
	$CHECK "$WORK/paced$i" --traces 1 --progress "$WORK/paced$i.progress" 4
	run_and_kill full$i 0.$((1 + i))
	$CHECK "$WORK/full$i" --traces 1 --kill-accounting "$WORK/full$i.progress" 4
done
