#!/bin/sh
# Consumer crash storm: STORM_RUNS runs of a 4-thread program whose
# consumer is SIGKILLed at a random moment (seeded), and in 1 run of 4
# the consumer `ust record` started in its place too.  The program goes
# on to its end; `ust record` resumes the trace each time (doc/ust-
# record.md, "When a consumer dies").  Then (storm_check.py ledger-lossy):
# each thread's events in order, none twice, and on disk + discarded =
# the calls the program made, exactly; ust record's figures are what
# babeltrace2 sees, and it says each death.
# The program runs until the kills are done (-g: a file the test makes).
#   - 2 runs in 3 paced (4 x 100 000 events/s, 16 MiB per CPU): nothing
#     may be discarded: every event is on disk;
#   - 1 in 3 at full speed, 4 x 16 KiB per CPU drained every 100 ms:
#     most are discarded, and counted.
. "$top_srcdir/tests/storm/lib.sh"

echo "consumer crash storm: $STORM_RUNS runs, STORM_SEED=$STORM_SEED"
total_calls=0 total_disk=0 total_discarded=0 total_kills=0
i=0
while [ $i -lt "$STORM_RUNS" ]; do
	i=$((i + 1))
	run="$WORK/run$i"
	mkdir -p "$run.ledger"
	storm_kind $i 300 300
	if [ $kind = full ]; then
		set -- --subbuf-size 16k --subbuf-count 4 --read-timer 100000 -- \
			"$STORM" crash -t 4 -g "$run.go"
	else
		set -- --subbuf-size 512k --subbuf-count 32 -- "$STORM" crash -t 4 -r 100 -g "$run.go" -s
	fi
	"$UST" record -o "$run" "$@" -p "$run.progress" -L "$run.ledger" >/dev/null 2>"$run.err" &
	rec=$!
	storm_started $i $rec "$run.progress" "$run.err"
	kills=0 cpid=
	for round in 1 2; do
		[ $round = 1 ] || [ $((i % 4)) -eq 1 ] || break
		# The first consumer, then its successor, which ust record
		# starts at once.
		n=0
		until next=$(consumer_of "$pid" "$cpid"); do
			n=$((n + 1))
			[ $n -lt 500 ] ||
				fail "run $i: no consumer to kill (round $round): $(cat "$run.err")"
			sleep 0.01
		done
		cpid=$next
		wait_begun "$run" "$cpid" || fail "run $i: consumer $cpid began no summary"
		sleep_ms "$delay_ms"
		kill -KILL "$cpid" || fail "run $i: consumer $cpid ended by itself: $(cat "$run.err")"
		kills=$((kills + 1))
		delay_ms=$(random $((i + 1000)) 0 100)
	done
	sleep_ms "$delay_ms"
	touch "$run.go"
	status=0
	wait $rec || status=$?
	[ $status -eq 0 ] || fail "run $i: ust record exited $status: $(cat "$run.err")"
	said=$(grep -c '^ust record:     consumer [0-9]* killed by SIGKILL; consumer [0-9]* went on with the trace$' "$run.err" || true)
	[ "$said" = "$kills" ] || fail "run $i: $kills consumers killed, $said deaths said: $(cat "$run.err")"
	$CHECK ledger-lossy "$run" "$run.ledger" --summary "$run.err" >"$run.check" ||
		fail "run $i ($kind, kill after ${delay_ms} ms): $(tail -n 1 "$run.check")"
	set -- $(sed -n 's/^\([0-9]*\) processes, \([0-9]*\) events, \([0-9]*\) discarded.*/\2 \3/p' "$run.check")
	[ $kind = full ] || [ "$2" = 0 ] || fail "run $i: $2 events discarded in a paced run"
	echo "run $i: $kind, $kills consumer(s) killed: on disk $1, discarded $2"
	total_calls=$((total_calls + $1 + $2))
	total_disk=$((total_disk + $1))
	total_discarded=$((total_discarded + $2))
	total_kills=$((total_kills + kills))
	rm -rf "$run" "$run.ledger" "$run.progress" "$run.go"
done
echo "consumer crash storm: $STORM_RUNS runs, $total_kills consumers killed, $total_calls calls = $total_disk on disk + $total_discarded discarded, 0 lost uncounted"
