#!/bin/sh
# A consumer SIGKILLed in the middle of a trace (issue 21, item 4): `ust
# record` kept the memfd it drained, starts another consumer on it that
# goes on with the same trace directory (ust-consumerd --resume), says
# so, and lists the trace, whose events on disk plus events counted lost
# are exactly what the program recorded.  Before, it said "no trace was
# written" while events were on disk, and what came after was lost
# uncounted.
#   1. the consumer alone is killed; the program records 60 000 more;
#   2. the consumer and the program are killed at once: the buffers the
#      program left are still drained.
# Both with per-CPU buffers, then per-thread buffers (the new consumer
# takes over the dead one's thread streams: consumer/threads.c).
. "$top_srcdir/tests/faults/lib.sh"

# start NAME BUFFERS: ust record of faultapp (2 threads x 20 000 events, then the
# gate, then 20 000 by thread 0 and 2 x 20 000) into $WORK/NAME; sets
# $rec, $pid (faultapp) and $cpid (its consumer).
start() {
	"$UST" record -o "$WORK/$1" --buffers="$2" --subbuf-size 16k --subbuf-count 4 -- \
		"$APP" -t 2 -n 20000 -g "$WORK/$1.go" -b 20000 \
		>"$WORK/$1.out" 2>"$WORK/$1.err" &
	rec=$!
	wait_for_line "$WORK/$1.out" ready
	pid=$(field pid "$WORK/$1.out")
	cpid=$(consumer_of "$pid") || fail "no consumer for process $pid"
}

# finish NAME STATUS ATTEMPTED: ust record exited STATUS; its summary and
# babeltrace2 count ATTEMPTED = written + lost; the death is said.
finish() {
	status=0
	wait $rec || status=$?
	cat "$WORK/$1.err"
	[ $status = "$2" ] || fail "$1: exit status $status, want $2"
	grep -q "no trace was written" "$WORK/$1.err" && fail "$1: no trace?"
	summary_counts "$WORK/$1.err"
	[ $((written + lost)) = "$3" ] || fail "$1: $written written + $lost lost != $3"
	grep -q "^ust record:     consumer $cpid killed by SIGKILL; consumer [0-9]* went on with the trace\$" "$WORK/$1.err" ||
		fail "$1: the death is not said"
	grep -q "^ust-consumerd: resumed $WORK/$1/faultapp-$pid-[0-9-]*: [0-9]* events in [0-9]* packets already written\$" "$WORK/$1.err" ||
		fail "$1: no resumed line"
	$CHECK "$WORK/$1" --traces 1 --accounting "$3" || fail "$1: babeltrace2's count"
	echo "ok: $1: $written written + $lost lost = $3"
}

for buffers in per-cpu per-thread; do
	start alone-$buffers $buffers
	kill -KILL "$cpid"
	touch "$WORK/alone-$buffers.go"
	finish alone-$buffers 0 100000

	# The program has recorded its 40 000 events (its threads joined)
	# and waits at the gate when both die.
	start both-$buffers $buffers
	kill -KILL "$cpid" "$pid"
	finish both-$buffers 137 40000
done
