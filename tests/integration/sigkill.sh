#!/bin/sh
# SIGKILL of the traced program under 4-thread load.
#  1. At 4 x 500 000 events/s, a rate the consumer drains without loss:
#     every event whose trace call had returned is on disk, in order.
#  2. At full speed (threads are inside trace calls nearly all the time, so
#     the kill lands mid-event, and buffers overflow): every returned event
#     is on disk or counted as discarded, at most one more per thread (the
#     event in flight), and each thread's events are in order.
# Each trace opens cleanly in babeltrace2.
. "$top_srcdir/tests/integration/lib.sh"

progress_sum() {	# file: sum of the 4 per-thread counters
	od -An -t u8 -N 32 "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }'
}

run_and_kill() {	# name, seconds after the first event, sub-buffers, stress options...
	name=$1 delay=$2 count=$3
	shift 3
	"$UST" record -o "$WORK/$name" --subbuf-size 256k --subbuf-count "$count" -- \
		"$STRESS" -t 4 -k -p "$WORK/$name.progress" "$@" \
		>/dev/null 2>"$WORK/$name.err" &
	rec=$!
	n=0
	until [ "$(progress_sum "$WORK/$name.progress")" -gt 0 ]; do
		n=$((n + 1))
		[ $n -lt 500 ] || fail "stress did not start: $(cat "$WORK/$name.err")"
		sleep 0.01
	done
	sleep "$delay"
	pid=$(pgrep -f -n "stress -t 4 -k -p $WORK/$name.progress" || true)
	[ -n "$pid" ] || fail "stress is gone: $(cat "$WORK/$name.err")"
	kill -KILL "$pid"
	status=0
	wait $rec || status=$?
	[ $status -eq 137 ] || fail "ust record exited $status, want 137"
}

# Phase 2's check, at C speed: babeltrace2 decodes, awk checks.
check_full() {	# name
	dir=$(ls -d "$WORK/$1"/stress-*)
	babeltrace2 "$dir" 2>"$WORK/$1.bt" >"$WORK/$1.txt" ||
		fail "babeltrace2: $(cat "$WORK/$1.bt")"
	if grep -v 'Tracer discarded [0-9]* events\?' "$WORK/$1.bt" | grep -q .; then
		fail "babeltrace2 warned: $(cat -A "$WORK/$1.bt" | cut -c1-300)"
	fi
	discarded=$(sed -n 's/.*Tracer discarded \([0-9]*\) events\{0,1\} .*/\1/p' "$WORK/$1.bt" |
		awk '{ s += $1 } END { print s + 0 }')
	returned=$(progress_sum "$WORK/$1.progress")
	awk -v returned="$returned" -v discarded="$discarded" '
		/stress:tick/ {
			match($0, /thread = [0-9]+/); t = substr($0, RSTART + 9, RLENGTH - 9)
			match($0, /seq = [0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6) + 0
			if ((t in last) && s <= last[t]) { print "thread " t " out of order at " s; bad = 1 }
			last[t] = s; n++
		}
		END {
			total = n + discarded
			printf "returned %d, on disk %d + discarded %d = %d\n", returned, n, discarded, total
			if (bad || total < returned || total > returned + 4) exit 1
		}' "$WORK/$1.txt" || fail "accounting after SIGKILL at full speed"
}

for i in 1 2; do
	# 32 MiB per CPU: over a second of slack if the consumer is starved.
	run_and_kill paced$i 0.$((3 + i)) 128 -r 500
	$CHECK "$WORK/paced$i" --traces 1 --progress "$WORK/paced$i.progress" 4
	run_and_kill full$i 0.0$((2 + i)) 16
	check_full full$i
done
