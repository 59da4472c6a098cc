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
	run="$WORK/run$i"
	if [ $((i % 3)) -eq 0 ]; then
		kind=full delay_ms=$(random $i 0 40)
		set -- --subbuf-size 64k --subbuf-count 8 --read-timer 2000000 -- "$STORM" crash -t 4
		extra=
	else
		kind=paced delay_ms=$(random $i 0 250)
		set -- --subbuf-size 512k --subbuf-count 32 -- "$STORM" crash -t 4 -r 100 -s
		extra=--no-loss
	fi
	"$UST" record -o "$run" "$@" -p "$run.progress" >/dev/null 2>"$run.err" &
	rec=$!
	# The program starts once the progress file has a count in it.
	n=0
	until [ -s "$run.progress" ] && [ "$(od -An -t u8 -N 8 "$run.progress" | tr -d ' ')" -gt 0 ]; do
		n=$((n + 1))
		[ $n -lt 1000 ] || fail "run $i: storm did not start: $(cat "$run.err")"
		sleep 0.01
	done
	sleep "$(awk -v ms="$delay_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
	pid=$(pgrep -P $rec -x storm || true)
	[ -n "$pid" ] || fail "run $i: storm is gone: $(cat "$run.err")"
	kill -KILL "$pid"
	status=0
	wait $rec || status=$?
	[ $status -eq 137 ] || fail "run $i: ust record exited $status, want 137: $(cat "$run.err")"
	$CHECK crash "$run" "$run.progress" 4 $extra --summary "$run.err" >"$run.check" ||
		fail "run $i ($kind, kill after ${delay_ms} ms): $(cat "$run.check")"
	set -- $(sed -n 's/^returned \([0-9]*\), on disk \([0-9]*\), discarded \([0-9]*\),.*/\1 \2 \3/p' "$run.check")
	echo "run $i: $kind, kill after ${delay_ms} ms: returned $1, on disk $2, discarded $3"
	total_returned=$((total_returned + $1))
	total_disk=$((total_disk + $2))
	total_discarded=$((total_discarded + $3))
	rm -rf "$run" "$run.progress"
done
echo "crash storm: $STORM_RUNS runs, $total_returned events returned, $total_disk on disk, $total_discarded discarded, 0 lost uncounted"
